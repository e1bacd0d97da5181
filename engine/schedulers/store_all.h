#pragma once
#include "schedulers/registry.h"

namespace ckpt {
// Plain backprop (model B): every step taped on the way forward, then the whole backward pass.
Plan storeAllPlan(const Chain& chain);
// Its peak in level 0, in the simulator's memory model, by a formula in O(n) that allocates nothing: so that budgets
// given as a percentage of it, and the checks against it, cost no simulation of a long chain. The tests hold it to
// the simulated peak.
std::int64_t storeAllPeakBytes(const Chain& chain);
SchedulerInfo storeAllScheduler();
} // namespace ckpt
