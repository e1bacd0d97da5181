#pragma once
#include "schedulers/graph_registry.h"

namespace ckpt {
GraphSchedulerInfo chenSqrtScheduler();
GraphSchedulerInfo chenGreedyScheduler();
} // namespace ckpt
