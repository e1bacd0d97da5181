#pragma once
#include "schedulers/registry.h"

namespace ckpt {
// PyTorch's checkpoint_sequential with `segments` segments (clamped to 1..n).
Plan periodicPlan(const Chain& chain, int segments);
// Its number of actions: n + (S - 1) floor(n / S) forward steps and n backward ones.
double periodicActions(int n, int segments);
SchedulerInfo periodicScheduler();
} // namespace ckpt
