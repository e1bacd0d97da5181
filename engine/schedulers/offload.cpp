#include "schedulers/offload.h"

#include "schedulers/fit.h"
#include "schedulers/multilevel.h"
#include "util/units.h"

#include <algorithm>

namespace ckpt {

Plan offloadAllPlan(const Chain& chain, const Hardware& hw, int level, int prefetch) {
    const int n = chain.length();
    prefetch = std::clamp(prefetch, 1, std::max(1, n));
    Plan p;
    p.actions.reserve(5 * std::size_t(n));
    for (int i = 1; i <= n; ++i) {
        p.actions.push_back(Action::forward(i, Keep::Tape));
        p.actions.push_back(Action::writeTape(i, level));
        p.actions.push_back(Action::freeTape(i, 0)); // level 0 lets go once the write has read it
    }
    // The first reads go before the first backward; then each backward is followed by the read `prefetch` ahead.
    for (int i = n; i > n - prefetch && i >= 1; --i)
        p.actions.push_back(Action::readTape(i, level));
    for (int i = n; i >= 1; --i) {
        p.actions.push_back(Action::backward(i));
        if (i - prefetch >= 1) p.actions.push_back(Action::readTape(i - prefetch, level));
    }
    p.predicted_makespan_s = overlappedMakespan(chain, hw, p.actions);
    p.params["level"] = std::to_string(level);
    p.params["prefetch"] = std::to_string(prefetch);
    return p;
}

ParamSpec offloadLevelParam() {
    return {.name = "level",
            .description = "the slower memory level the tapes go to (1 = the next after level 0)",
            .type = ParamType::Int,
            .default_value = "1",
            .min = 1,
            .max = 64};
}

SchedulerInfo offloadAllScheduler() {
    SchedulerInfo s;
    s.name = "offload-all";
    s.description = "Every tape written to a slower level during the forward and read back ahead of its backward "
                    "(PyTorch's save_on_cpu); nothing recomputed";
    s.paper = "Beaumont, Eyraud-Dubois, Shilova, Zhao 2021, \"Efficient combination of rematerialization and "
              "offloading for training DNNs\" (its offload-only baseline)";
    s.model = 'B';
    s.optimality = Optimality::Heuristic;
    s.min_levels = 2;
    s.params = {
        offloadLevelParam(),
        {.name = "prefetch",
         .description =
             "tapes read back ahead of the backward that needs them (more hides slower reads, and holds more)",
         .type = ParamType::Int,
         .default_value = "2",
         .min = 1,
         .max = 1e6},
    };
    s.solve = [](const Chain& chain, const Hardware& hw, const Params& params, std::int64_t budget) -> Result<Plan> {
        const std::string name = "offload-all";
        auto level = slowerLevel(name, hw, params.integer("level"));
        if (!level) return level.errorValue();
        const int L = *level;
        if (!hw.isUnbounded(L)) {
            std::int64_t tapes = 0;
            for (int i = 1; i <= chain.length(); ++i)
                tapes += chain.step(i).tape_bytes;
            if (tapes > hw.level(L).capacity_bytes)
                return infeasible(name + ": the " + std::to_string(chain.length()) + " tapes take " +
                                  formatBytes(double(tapes), unitsOf(double(hw.level(L).capacity_bytes))) + " (" +
                                  std::to_string(tapes) + " B), over level " + std::to_string(L) + "'s capacity of " +
                                  formatBytes(double(hw.level(L).capacity_bytes)) + " (" +
                                  std::to_string(hw.level(L).capacity_bytes) + " B)");
        }
        Plan p = offloadAllPlan(chain, hw, L, int(params.integer("prefetch")));
        if (const std::int64_t limit = levelZeroLimit(hw, budget); limit > 0) {
            const std::int64_t peak = planPeak(chain, hw, p);
            if (peak > limit) return needsBudget(name + " with prefetch " + p.params["prefetch"], peak, limit);
        }
        return p;
    };
    return s;
}

} // namespace ckpt
