// Periodic checkpointing: Chen et al. 2016, as PyTorch's checkpoint_sequential does it. Model B.
// Segment size k = floor(n/S); the first S-1 segments run untaped from a kept input and are re-run taped before their
// backward; the last segment (the remainder) is taped at once. Forward steps: n + (S-1)k.
#include "schedulers/periodic.h"

#include "schedulers/fit.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace ckpt {

double periodicActions(int n, int segments) {
    const int S = std::clamp(segments, 1, n);
    return 2.0 * n + double(S - 1) * double(n / S);
}

Plan periodicPlan(const Chain& chain, int segments) {
    const int n = chain.length();
    const int S = std::clamp(segments, 1, n);
    const int k = n / S;
    const int lastStart = (S - 1) * k + 1; // first step of the taped remainder
    Plan p;
    p.actions.reserve(std::size_t(periodicActions(n, S)));
    double t = 0;
    auto fwd = [&](int i, Keep keep) {
        p.actions.push_back(Action::forward(i, keep));
        t += chain.step(i).forward;
    };
    auto bwd = [&](int i) {
        p.actions.push_back(Action::backward(i));
        t += chain.step(i).backward;
    };
    for (int m = 0; m < S - 1; ++m)
        for (int i = m * k + 1; i <= (m + 1) * k; ++i)
            fwd(i, i == m * k + 1 ? Keep::State : Keep::None);
    for (int i = lastStart; i <= n; ++i)
        fwd(i, Keep::Tape);
    for (int i = n; i >= lastStart; --i)
        bwd(i);
    for (int m = S - 2; m >= 0; --m) {
        for (int i = m * k + 1; i <= (m + 1) * k; ++i)
            fwd(i, Keep::Tape);
        for (int i = (m + 1) * k; i >= m * k + 1; --i)
            bwd(i);
    }
    p.predicted_makespan_s = t;
    p.params["segments"] = std::to_string(S);
    return p;
}

SchedulerInfo periodicScheduler() {
    SchedulerInfo s;
    s.name = "periodic";
    s.description = "Checkpoint the input of every segment (PyTorch checkpoint_sequential)";
    s.paper = "Chen, Xu, Zhang, Guestrin 2016, \"Training deep nets with sublinear memory cost\"";
    s.model = 'B';
    s.optimality = Optimality::Heuristic;
    s.params = {{"segments",
                 "number of segments; 0 = floor(sqrt(n)), or the fastest that fits the budget",
                 ParamType::Int,
                 "0",
                 0,
                 1e9,
                 {}}};
    s.solve = [](const Chain& chain, const Hardware& hw, const Params& params, std::int64_t budget) -> Result<Plan> {
        const int n = chain.length();
        int segments = int(params.integer("segments"));
        std::int64_t limit = levelZeroLimit(hw, budget);
        if (segments > 0 || limit == 0) {
            if (segments == 0) segments = std::max(1, int(std::floor(std::sqrt(double(n)))));
            if (auto e = checkPlanActions("periodic with " + std::to_string(segments) + " segments on " +
                                              std::to_string(n) + " steps",
                                          periodicActions(n, segments), "use a shorter chain"))
                return *e;
            Plan p = periodicPlan(chain, segments);
            if (limit > 0) {
                std::int64_t peak = planPeak(chain, hw, p);
                if (peak > limit)
                    return needsBudget("periodic with " + std::to_string(segments) + " segments", peak, limit);
            }
            return p;
        }
        // Auto: the fastest segment count that fits. Time grows with S, but the peak is not monotone in S (it falls
        // to about sqrt(n) and rises again), so scan: every S for short chains, a geometric sample for long ones.
        // Every candidate has at most 3n actions (one segment: 2n).
        if (auto e = checkPlanActions("periodic on " + std::to_string(n) + " steps", 3.0 * n, "use a shorter chain"))
            return *e;
        std::optional<Plan> best;
        std::int64_t smallest = -1;
        int stride = 1;
        for (int S = 1; S <= n; S += stride) {
            Plan p = periodicPlan(chain, S);
            std::int64_t peak = planPeak(chain, hw, p);
            if (smallest < 0 || peak < smallest) smallest = peak;
            if (peak <= limit && (!best || p.predicted_makespan_s < best->predicted_makespan_s)) best = std::move(p);
            if (n > 2000) stride = std::max(1, S / 64);
        }
        if (!best) return needsBudget("periodic (at its best segment count)", smallest, limit);
        return std::move(*best);
    };
    return s;
}

} // namespace ckpt
