#pragma once
// Offloading activations: the tapes the backward needs move to a slower level during the forward and come back in
// time for their backward, as PyTorch's save_on_cpu hooks do. Beaumont, Eyraud-Dubois, Shilova, Zhao, "Efficient
// combination of rematerialization and offloading for training DNNs" (NeurIPS 2021) study the policy against
// recomputation.
#include "schedulers/registry.h"
#include "util/table_cache.h"

#include <limits>
#include <optional>

namespace ckpt {

// offload-all on `level`, reading `prefetch` tapes ahead of the backward: every step taped, its tape written to
// `level` at once and freed in level 0 when the write ends; during the backward the tape of step i - prefetch is read
// while step i runs.
Plan offloadAllPlan(const Chain& chain, const Hardware& hw, int level, int prefetch);

SchedulerInfo offloadAllScheduler();
// The `level` parameter of offload-all and offload-dp: where the tapes go.
ParamSpec offloadLevelParam();

// offload-dp: the fastest plan, within `budget` bytes of level 0, that chooses for each step of the first forward
// sweep between keeping its tape, offloading it to `level` and recomputing it (rotor's checkpoints), and reverses
// what it recomputes with rotor's programme. Its class: a tape offloaded is written as soon as its forward ends and
// the channel is never behind (the write ends before the next offloaded tape is made, and before the sweep ends); it
// is read back while the backward of the next step runs. Within the class the programme is exact: dp_cost equals the
// simulated makespan, and tests/engine/tst_optimal checks it against every plan of the class.
struct OffloadDpResult {
    Plan plan;
    double dp_cost = 0;
    std::int64_t unit = 1; // bytes per memory slot
    int offloaded = 0;     // tapes written to `level`
    // When rotor's table was pruned and served the optimum: the bound that pruned it (RotorProgramme::bound).
    std::optional<double> bound;
};
// `pruneAbove`: rotor's tables over this many bytes are pruned (rotorProgramme); the result is the same.
Result<OffloadDpResult> offloadDpSolve(const Chain& chain, const Hardware& hw, int level, std::int64_t budget,
                                       int slots, std::size_t pruneAbove = std::numeric_limits<std::size_t>::max());
SchedulerInfo offloadDpScheduler();
// offload-dp keeps its tables between solves, as rotor does (schedulers/rotor.h): what the cache holds, and emptying
// it.
TableCacheStats offloadDpCacheStats();
void clearOffloadDpCache();

} // namespace ckpt
