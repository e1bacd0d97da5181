// Double checkpointing: Bencheikh, Finkbeiner, Neftci 2024, "Optimal Gradient Checkpointing for Sparse and Recurrent
// Architectures using Off-Chip Memory". Model A. Two nested checkpoint levels: coarse checkpoints written off-chip
// (a slower level) during the forward sweep, and inside each coarse segment fine checkpoints on-chip (level 0),
// placed by Revolve. The coarse checkpoint of the segment before is read back while the current one is reversed.
// Unlike async-multistage, the coarse spacing follows from how many off-chip checkpoints are allowed, not from the
// bandwidth; the plan shape is the same (segment_offload.h).
#include "schedulers/double_checkpointing.h"

#include "schedulers/fit.h"
#include "schedulers/multilevel.h"
#include "schedulers/segment_offload.h"

#include <algorithm>
#include <cmath>

namespace ckpt {

SchedulerInfo doubleCheckpointingScheduler() {
    SchedulerInfo s;
    s.name = "double-checkpointing";
    s.description = "Coarse checkpoints off-chip, fine ones on-chip by Revolve inside each coarse segment (model A)";
    s.paper = "Bencheikh, Finkbeiner, Neftci 2024, \"Optimal Gradient Checkpointing for Sparse and Recurrent "
              "Architectures using Off-Chip Memory\"";
    s.model = 'A';
    s.optimality = Optimality::Heuristic;
    s.min_levels = 2;
    s.params = {
        {.name = "offchip_slots",
         .description = "coarse checkpoints off-chip; the chain is cut into offchip_slots + 2 segments (x_0 and the "
                        "last segment's start stay on-chip); 0 = ceil(sqrt(n))",
         .type = ParamType::Int,
         .default_value = "0",
         .min = 0,
         .max = 1e9},
        {.name = "onchip_slots",
         .description = "fine checkpoints on-chip inside a segment (its start's included); 0 = the most that fit the "
                        "budget, or ceil(sqrt(segment length)) without one",
         .type = ParamType::Int,
         .default_value = "0",
         .min = 0,
         .max = 1e9},
        {.name = "level",
         .description = "the off-chip memory level (1 = the next after level 0)",
         .type = ParamType::Int,
         .default_value = "1",
         .min = 1,
         .max = 64},
    };
    s.solve = [](const Chain& chain, const Hardware& hw, const Params& params, std::int64_t budget) -> Result<Plan> {
        const std::string name = "double-checkpointing";
        auto level = slowerLevel(name, hw, params.integer("level"));
        if (!level) return level.errorValue();
        const int L = *level;
        const int n = chain.length();
        long long coarse = params.integer("offchip_slots");
        if (coarse == 0) coarse = (long long)std::ceil(std::sqrt(double(n)));
        // offchip_slots written states make offchip_slots + 2 segments with x_0's and the last one's.
        const int segments = int(std::clamp<long long>(coarse + 2, 1, n));
        const int segment = (n + segments - 1) / segments;
        if (auto over = levelOverflow(name, chain, hw, L, offloadedStates(n, segment)); !over.empty())
            return infeasible(over);
        auto make = [&](int m) {
            Plan p = segmentedOffloadPlan(chain, hw, segment, m, L);
            p.params["offchip_slots"] = std::to_string(offloadedStates(n, segment).size());
            p.params["onchip_slots"] = std::to_string(std::clamp(m, 1, segment));
            return p;
        };
        int m = int(std::min<long long>(params.integer("onchip_slots"), segment));
        const std::int64_t limit = levelZeroLimit(hw, budget);
        const std::string sized = name + " on " + std::to_string(n) + " steps with " +
                                  std::to_string(offloadedStates(n, segment).size()) + " off-chip and ";
        if (m > 0 || limit == 0) {
            if (m == 0) m = std::max(1, int(std::ceil(std::sqrt(double(segment)))));
            if (auto e = checkPlanActions(sized + std::to_string(m) + " on-chip slots",
                                          segmentedOffloadActions(n, segment, m), "give it more on-chip slots"))
                return *e;
            Plan p = make(m);
            if (limit > 0) {
                const std::int64_t peak = planPeak(chain, hw, p);
                if (peak > limit)
                    return needsBudget(name + " with " + p.params["offchip_slots"] + " off-chip and " +
                                           std::to_string(m) + " on-chip slots",
                                       peak, limit);
            }
            return p;
        }
        const int lo = fewestBuildable(1, segment, [&](int k) { return segmentedOffloadActions(n, segment, k); });
        if (lo > segment)
            return *checkPlanActions(sized + std::to_string(segment) + " on-chip slots",
                                     segmentedOffloadActions(n, segment, segment), "use a shorter chain");
        return largestFitting(name + " with " + std::to_string(offloadedStates(n, segment).size()) + " off-chip slots",
                              "onchip_slots", lo, segment, limit, chain, hw, make);
    };
    return s;
}

} // namespace ckpt
