// Asynchronous multistage checkpointing: Kukreja, Hückelheim, Gorman, "Backpropagation for long sequences: beyond
// memory constraints with constant overheads" (2018). Model A. Every I-th state goes to a slower level while the
// forward sweep continues; the reverse pass recomputes one interval at a time with Revolve in m slots of level 0 and
// prefetches the start of the interval before it, so the transfers hide behind compute and the overhead per step
// does not grow with n. The plan itself is segmentedOffloadPlan (segment_offload.h).
#include "schedulers/async_multistage.h"

#include "schedulers/fit.h"
#include "schedulers/multilevel.h"
#include "schedulers/segment_offload.h"

#include <algorithm>
#include <cmath>

namespace ckpt {

int asyncDefaultInterval(const Chain& chain, const Hardware& hw, int level) {
    const int n = chain.length();
    const double f = meanForward(chain);
    const double w = hw.writeSeconds(level, largestState(chain));
    if (f <= 0) return n;
    return int(std::clamp(std::ceil(w / f), 1.0, double(n)));
}

SchedulerInfo asyncMultistageScheduler() {
    SchedulerInfo s;
    s.name = "async-multistage";
    s.description = "Every I-th state written to a slower level during the sweep; intervals reversed with Revolve, "
                    "the next one prefetched (model A)";
    s.paper = "Kukreja, Hückelheim, Gorman 2018, \"Backpropagation for long sequences: beyond memory constraints "
              "with constant overheads\"";
    s.model = 'A';
    s.optimality = Optimality::Heuristic;
    s.min_levels = 2;
    s.params = {
        {.name = "interval",
         .description = "steps between states written to the slower level; 0 = the fewest whose forward time covers "
                        "one state's write",
         .type = ParamType::Int,
         .default_value = "0",
         .min = 0,
         .max = 1e9},
        {.name = "slots",
         .description = "Revolve slots in level 0 inside an interval (its start's included); 0 = the most that fit the "
                        "budget, or ceil(sqrt(interval)) without one",
         .type = ParamType::Int,
         .default_value = "0",
         .min = 0,
         .max = 1e9},
        {.name = "level",
         .description = "the slower memory level the states go to (1 = the next after level 0)",
         .type = ParamType::Int,
         .default_value = "1",
         .min = 1,
         .max = 64},
    };
    s.solve = [](const Chain& chain, const Hardware& hw, const Params& params, std::int64_t budget) -> Result<Plan> {
        const std::string name = "async-multistage";
        auto level = slowerLevel(name, hw, params.integer("level"));
        if (!level) return level.errorValue();
        const int L = *level;
        const int n = chain.length();
        int interval = int(std::min<long long>(params.integer("interval"), n));
        if (interval == 0) interval = asyncDefaultInterval(chain, hw, L);
        if (auto over = levelOverflow(name, chain, hw, L, offloadedStates(n, interval)); !over.empty())
            return infeasible(over);
        auto make = [&](int m) {
            Plan p = segmentedOffloadPlan(chain, hw, interval, m, L);
            p.params["interval"] = std::to_string(interval);
            p.params["slots"] = std::to_string(std::clamp(m, 1, interval));
            return p;
        };
        int m = int(std::min<long long>(params.integer("slots"), interval));
        const std::int64_t limit = levelZeroLimit(hw, budget);
        const std::string sized =
            name + " on " + std::to_string(n) + " steps with interval " + std::to_string(interval) + " and ";
        if (m > 0 || limit == 0) {
            if (m == 0) m = std::max(1, int(std::ceil(std::sqrt(double(interval)))));
            if (auto e = checkPlanActions(sized + std::to_string(m) + " slots", segmentedOffloadActions(n, interval, m),
                                          "give it more slots or a shorter interval"))
                return *e;
            Plan p = make(m);
            if (limit > 0) {
                const std::int64_t peak = planPeak(chain, hw, p);
                if (peak > limit)
                    return needsBudget(name + " with interval " + std::to_string(interval) + " and " +
                                           std::to_string(m) + " slots",
                                       peak, limit);
            }
            return p;
        }
        const int lo = fewestBuildable(1, interval, [&](int k) { return segmentedOffloadActions(n, interval, k); });
        if (lo > interval)
            return *checkPlanActions(sized + std::to_string(interval) + " slots",
                                     segmentedOffloadActions(n, interval, interval), "use a shorter chain");
        return largestFitting(name + " with interval " + std::to_string(interval), "slots", lo, interval, limit, chain,
                              hw, make);
    };
    return s;
}

} // namespace ckpt
