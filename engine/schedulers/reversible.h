#pragma once
#include "schedulers/graph_registry.h"

namespace ckpt {
GraphSchedulerInfo reversibleScheduler();
} // namespace ckpt
