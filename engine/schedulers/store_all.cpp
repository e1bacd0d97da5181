// Plain backpropagation / BPTT: keep every tape, recompute nothing. Model B: n forward steps, the baseline that every
// time and memory ratio is taken against.
#include "schedulers/store_all.h"

#include "schedulers/fit.h"

namespace ckpt {

Plan storeAllPlan(const Chain& chain) {
    Plan p;
    int n = chain.length();
    p.actions.reserve(2 * static_cast<std::size_t>(n));
    for (int i = 1; i <= n; ++i)
        p.actions.push_back(Action::forward(i, Keep::Tape));
    for (int i = n; i >= 1; --i)
        p.actions.push_back(Action::backward(i));
    p.predicted_makespan_s = chain.totalForward() + chain.totalBackward();
    return p;
}

SchedulerInfo storeAllScheduler() {
    SchedulerInfo s;
    s.name = "store-all";
    s.description = "Keep every tape, recompute nothing: the baseline of every ratio";
    s.paper = "plain backpropagation / BPTT";
    s.model = 'B';
    s.optimality = Optimality::Baseline;
    s.solve = [](const Chain& chain, const Hardware& hw, const Params&, std::int64_t budget) -> Result<Plan> {
        Plan p = storeAllPlan(chain);
        std::int64_t limit = levelZeroLimit(hw, budget);
        if (limit > 0) {
            std::int64_t peak = planPeak(chain, hw, p);
            if (peak > limit) return needsBudget("store-all", peak, limit);
        }
        return p;
    };
    return s;
}

} // namespace ckpt
