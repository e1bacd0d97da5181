#pragma once
#include "schedulers/registry.h"

namespace ckpt {

struct RotorResult {
    Plan plan;
    double dp_cost = 0;    // the programme's optimum in its discretised memory model
    std::int64_t unit = 1; // bytes per memory slot
};

// The optimal persistent schedule of a heterogeneous chain within `budget` bytes of level 0, sizes rounded up to
// multiples of budget / slots. Infeasible: the message names the smallest budget that works.
Result<RotorResult> rotorSolve(const Chain& chain, std::int64_t budget, int slots);
SchedulerInfo rotorScheduler();

} // namespace ckpt
