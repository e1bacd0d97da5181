#pragma once
#include "schedulers/registry.h"
#include "util/table_cache.h"

#include <optional>

namespace ckpt {

struct RotorResult {
    Plan plan;
    double dp_cost = 0;    // the programme's optimum in its discretised memory model
    std::int64_t unit = 1; // bytes per memory slot
};

// The optimal persistent schedule of a heterogeneous chain within `budget` bytes of level 0, sizes rounded up to
// multiples of budget / slots. Infeasible: the message names the smallest budget that works.
Result<RotorResult> rotorSolve(const Chain& chain, std::int64_t budget, int slots);
// The refusal of a programme too large to run (steps, or inner-loop steps over kMaxTableOperations); nothing if
// it may run. The table's bytes are checked in rotorSolve, where the slot unit is known.
std::optional<Error> rotorCheckSize(int n, int slots, bool uniform);
SchedulerInfo rotorScheduler();

// rotorSolve keeps its programme's tables between solves, keyed by the chain in slots (util/table_cache.h): what the
// cache holds, and emptying it (for tests: a solve after the clear builds every table afresh).
TableCacheStats rotorCacheStats();
void clearRotorCache();

} // namespace ckpt
