#pragma once
#include "schedulers/registry.h"

namespace ckpt {
// Plain backprop (model B): every step taped on the way forward, then the whole backward pass.
Plan storeAllPlan(const Chain& chain);
SchedulerInfo storeAllScheduler();
} // namespace ckpt
