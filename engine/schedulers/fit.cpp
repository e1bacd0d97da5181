#include "schedulers/fit.h"

#include "sim/simulator.h"
#include "util/bounds.h"
#include "util/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace ckpt {

namespace {

// A count as a whole number up to a billion ("10000001 actions": just over), past that as a power of ten that
// reads at a glance ("6.67 × 10¹⁴", "10¹¹") instead of fifteen digits to count.
std::string formatCount(double v) {
    char buf[64];
    if (std::isfinite(v) && std::fabs(v) < 1e9) {
        std::snprintf(buf, sizeof buf, "%.0f", v);
        return buf;
    }
    if (!std::isfinite(v)) return v > 0 ? "infinitely many" : "an unknown number of";
    int exponent = int(std::floor(std::log10(std::fabs(v))));
    std::snprintf(buf, sizeof buf, "%.3g", v / std::pow(10.0, exponent));
    if (std::string(buf) == "10") exponent += 1, std::snprintf(buf, sizeof buf, "1"); // 9.999 rounds up
    static const char* const superscript[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::string power = "10";
    for (char d : std::to_string(exponent))
        power += superscript[d - '0'];
    return std::string(buf) == "1" ? power : std::string(buf) + " × " + power;
}

} // namespace

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
    opt.intervals = false;
    auto tl = simulate(chain, *open, plan.actions, opt);
    return tl ? tl->totals.peak_bytes[0] : -1;
}

int slotsOf(std::int64_t bytes, std::int64_t unit) {
    const std::int64_t slots = bytes / unit + (bytes % unit != 0);
    return int(std::min<std::int64_t>(slots, kMaxSlotCount));
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
        if (c.memoryModel() == MemoryModel::RotorPaper) {
            // The taped forward keeps its input until its backward and holds its output inside its tape.
            peak = std::max(peak, saturatingSum({input, s.tape_bytes, s.forward_tmp_bytes, g}));
            peak = std::max(peak, saturatingSum({input, s.tape_bytes, x(j), x(j - 1), s.backward_tmp_bytes}));
            continue;
        }
        peak = std::max(peak, saturatingSum({input, x(j), s.tape_bytes, s.forward_tmp_bytes, g}));
        peak = std::max(peak, saturatingSum({j >= 2 ? x(0) : 0, s.tape_bytes, x(j), x(j - 1), s.backward_tmp_bytes}));
    }
    return peak;
}

Error tooLarge(const std::string& what, double estimate, double limit, const std::string& unit,
               const std::string& hint) {
    return overLimit(what + " would take " + formatCount(estimate) + " " + unit + ", over the limit of " +
                     formatCount(limit) + (hint.empty() ? "" : "; " + hint));
}

std::optional<Error> checkPlanActions(const std::string& what, double actions, const std::string& hint) {
    if (actions <= double(kMaxPlanActions)) return std::nullopt;
    return tooLarge(what, actions, double(kMaxPlanActions), "actions", hint);
}

int fewestBuildable(int lo, int hi, const std::function<double(int)>& actions) {
    if (lo > hi || actions(hi) > double(kMaxPlanActions)) return hi + 1;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (actions(mid) <= double(kMaxPlanActions))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

Error needsBudget(const std::string& scheduler, std::int64_t need, std::int64_t limit) {
    const ByteUnits units = unitsOf(double(limit));
    return infeasible(scheduler + " needs at least " + formatBytes(double(need), units) + " (" + std::to_string(need) +
                      " B) in level 0; the budget is " + formatBytes(double(limit), units) + " (" +
                      std::to_string(limit) + " B)");
}

Result<Plan> largestFitting(const std::string& scheduler, const std::string& knob, int lo, int hi, std::int64_t limit,
                            const Chain& chain, const Hardware& hw, const std::function<Plan(int)>& make) {
    // The plan of `lo` is the longest (on a long chain, near kMaxPlanActions): it is built only when the answer is
    // `lo` or nothing, since the peak grows with k and a larger k that fits settles the search. Each probe builds and
    // simulates a plan (seconds on 1e6 steps), so the probes interpolate the measured peaks (which grow about
    // linearly with k) rather than bisect, and bisect only when that stops halving the bracket.
    std::optional<Plan> best;
    struct Probe {
        int k;
        double peak;
    };
    std::optional<Probe> below, above; // the largest k measured to fit, the smallest measured not to
    auto probe = [&](int k) {
        Plan p = make(k);
        const std::int64_t peak = planPeak(chain, hw, p);
        const bool fits = peak >= 0 && peak <= limit;
        if (fits) {
            p.params[knob] = std::to_string(k);
            best = std::move(p);
            below = Probe{k, double(peak)};
        } else {
            above = Probe{k, peak < 0 ? double(limit) * 2 : double(peak)};
        }
        return fits;
    };
    int good = lo, bad = hi + 1;
    // A generous budget (a machine's whole capacity) often takes the largest k: one plan.
    if (hi > lo) (probe(hi) ? good : bad) = hi;
    int slow = 0; // probes in a row that did not halve the bracket
    while (bad - good > 1) {
        const int width = bad - good;
        int mid = good + width / 2;
        const bool interpolate = above && slow < 2;
        if (interpolate) {
            const double guess =
                below && above->peak > below->peak
                    ? below->k + (double(limit) - below->peak) * (above->k - below->k) / (above->peak - below->peak)
                    : above->k * double(limit) / std::max(1.0, above->peak);
            mid = int(std::clamp(std::floor(guess), double(good + 1), double(bad - 1)));
        }
        (probe(mid) ? good : bad) = mid; // a plan that fits replaces `best`: it has the larger k
        slow = interpolate && 2 * (bad - good) > width ? slow + 1 : 0;
    }
    if (best) return std::move(*best);
    Plan least = make(lo);
    const std::int64_t need = planPeak(chain, hw, least);
    if (need > limit)
        return infeasible(scheduler + " needs at least " + formatBytes(double(need)) + " (" + std::to_string(need) +
                          " B) in level 0 even with " + knob + " = " + std::to_string(lo) + "; the budget is " +
                          formatBytes(double(limit)) + " (" + std::to_string(limit) + " B)");
    least.params[knob] = std::to_string(lo);
    return least;
}

} // namespace ckpt
