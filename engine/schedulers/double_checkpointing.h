#pragma once
#include "schedulers/registry.h"

namespace ckpt {
SchedulerInfo doubleCheckpointingScheduler();
} // namespace ckpt
