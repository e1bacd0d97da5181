#include "schedulers/fit.h"

#include "sim/simulator.h"
#include "util/bounds.h"
#include "util/units.h"

namespace ckpt {

std::int64_t levelZeroLimit(const Hardware& hw, std::int64_t budget) {
    std::int64_t cap = hw.isUnbounded(0) ? 0 : hw.level(0).capacity_bytes;
    if (budget > 0 && (cap == 0 || budget < cap)) return budget;
    return cap;
}

std::int64_t planPeak(const Chain& chain, const Hardware& hw, const Plan& plan) {
    // Judge the plan on the same machine with level 0 unbounded, so the peak is measured rather than refused.
    std::vector<MemoryLevel> levels = hw.levels();
    levels[0].capacity_bytes = Hardware::unbounded().level(0).capacity_bytes;
    auto open = Hardware::make(hw.name(), levels);
    SimOptions opt;
    opt.memory_curve = false;
    auto tl = simulate(chain, *open, plan.actions, opt);
    return tl ? tl->totals.peak_bytes[0] : -1;
}

std::int64_t leanestPeak(const Chain& c) {
    const int n = c.length();
    auto x = [&](int j) { return c.stateBytes(j); };
    std::int64_t peak = 0, advance = 0; // advance: the highest advance step so far (x_0 and two states), before g
    for (int j = 1; j <= n; ++j) {
        const Step& s = c.step(j);
        const std::int64_t g = j < n ? x(j) : 0; // the gradient of x_j, held while step j is reversed
        // Reversing step j: advance x_0 -> x_{j-1} (steps 1..j-1), then F(j, tape), then B(j).
        // Saturating sums: a chain converted from a graph may hold more than the file bound (util/bounds.h).
        if (j >= 2) {
            const Step& prev = c.step(j - 1);
            advance = std::max(advance, j - 1 == 1 ? saturatingSum({x(0), x(1), prev.forward_tmp_bytes})
                                                   : saturatingSum({x(0), x(j - 2), x(j - 1), prev.forward_tmp_bytes}));
            peak = std::max(peak, saturatingSum({advance, g}));
        }
        const std::int64_t input = j >= 2 ? saturatingSum({x(0), x(j - 1)}) : x(0);
        peak = std::max(peak, saturatingSum({input, x(j), s.tape_bytes, s.forward_tmp_bytes, g}));
        peak = std::max(peak, saturatingSum({j >= 2 ? x(0) : 0, s.tape_bytes, x(j), x(j - 1), s.backward_tmp_bytes}));
    }
    return peak;
}

Error needsBudget(const std::string& scheduler, std::int64_t need, std::int64_t limit) {
    return infeasible(scheduler + " needs at least " + formatBytes(double(need)) + " (" + std::to_string(need) +
                      " B) in level 0; the budget is " + formatBytes(double(limit)) + " (" + std::to_string(limit) +
                      " B)");
}

Result<Plan> largestFitting(const std::string& scheduler, const std::string& knob, int lo, int hi, std::int64_t limit,
                            const Chain& chain, const Hardware& hw, const std::function<Plan(int)>& make) {
    Plan best = make(lo);
    std::int64_t need = planPeak(chain, hw, best);
    if (need > limit)
        return infeasible(scheduler + " needs at least " + formatBytes(double(need)) + " (" + std::to_string(need) +
                          " B) in level 0 even with " + knob + " = " + std::to_string(lo) + "; the budget is " +
                          formatBytes(double(limit)) + " (" + std::to_string(limit) + " B)");
    best.params[knob] = std::to_string(lo);
    int good = lo;
    int bad = hi + 1;
    while (bad - good > 1) {
        int mid = good + (bad - good) / 2;
        Plan p = make(mid);
        std::int64_t peak = planPeak(chain, hw, p);
        if (peak >= 0 && peak <= limit) {
            good = mid;
            best = std::move(p);
            best.params[knob] = std::to_string(mid);
        } else {
            bad = mid;
        }
    }
    return best;
}

} // namespace ckpt
