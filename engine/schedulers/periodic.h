#pragma once
#include "schedulers/registry.h"

namespace ckpt {
// PyTorch's checkpoint_sequential with `segments` segments (clamped to 1..n).
Plan periodicPlan(const Chain& chain, int segments);
SchedulerInfo periodicScheduler();
} // namespace ckpt
