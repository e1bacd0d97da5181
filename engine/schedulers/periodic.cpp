// Periodic checkpointing: Chen et al. 2016, as PyTorch's checkpoint_sequential does it. Model B.
// Segment size k = floor(n/S); the first S-1 segments run untaped from a kept input and are re-run taped before their
// backward; the last segment (the remainder) is taped at once. Forward steps: n + (S-1)k.
#include "schedulers/periodic.h"

#include "schedulers/fit.h"
#include "schedulers/periodic_costs.h"

#include <algorithm>
#include <cmath>
#include <vector>

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
    s.params = {{.name = "segments",
                 .description = "number of segments; 0 = floor(sqrt(n)), or the fastest that fits the budget",
                 .type = ParamType::Int,
                 .default_value = "0",
                 .min = 0,
                 .max = 1e9}};
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
            if (limit > 0) {
                std::int64_t peak = PeriodicCosts(chain).peakBytes(segments);
                if (peak > limit)
                    return needsBudget("periodic with " + std::to_string(segments) + " segments", peak, limit);
            }
            return periodicPlan(chain, segments);
        }
        // Auto: the fastest segment count that fits, judged by the formulas (no plan built but the one returned).
        // Every plan has at least 2n actions: refuse before allocating the costs of a chain none could be built for.
        if (auto e = checkPlanActions("periodic on " + std::to_string(n) + " steps", periodicActions(n, 1),
                                      "use a shorter chain"))
            return *e;
        const PeriodicCosts costs(chain);
        // Time grows with the re-run steps (S-1)floor(n/S), but the peak is not monotone in S (it falls to about
        // sqrt(n) and rises again), so scan: every S up to kEverySegmentCount steps; on longer chains a sample, every
        // S up to 128 and then geometric steps of 1/64 (about 700 candidates on 1e6 steps, each peak O(n)), which may
        // miss a faster S that fits between two samples.
        constexpr int kEverySegmentCount = 10'000;
        std::vector<int> candidates;
        for (int S = 1; S <= n; S += n <= kEverySegmentCount ? 1 : std::max(1, S / 64))
            candidates.push_back(S);
        // The fastest first (the fewer segments on a tie); the first that fits is the answer.
        std::stable_sort(candidates.begin(), candidates.end(),
                         [&](int a, int b) { return costs.makespan(a) < costs.makespan(b); });
        std::int64_t smallest = -1;
        for (int S : candidates) {
            const std::int64_t peak = costs.peakBytes(S);
            if (peak <= limit) {
                if (auto e = checkPlanActions("periodic with " + std::to_string(S) + " segments on " +
                                                  std::to_string(n) + " steps",
                                              periodicActions(n, S), "use a shorter chain"))
                    return *e;
                return periodicPlan(chain, S);
            }
            if (smallest < 0 || peak < smallest) smallest = peak;
        }
        return needsBudget("periodic (at its best segment count)", smallest, limit);
    };
    return s;
}

} // namespace ckpt
