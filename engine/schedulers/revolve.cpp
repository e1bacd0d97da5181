// Revolve: Griewank & Walther, "Algorithm 799: Revolve", ACM TOMS 2000. Model A: checkpoints hold states only, and
// each backward step is preceded by a taped re-run of its forward step. Optimal in the number of forward steps for
// s slots: n + t(n, s), with t(n, s) = r n - C(s + r, s + 1) and r the smallest integer with C(s + r, s) >= n.
#include "schedulers/revolve.h"

#include "schedulers/fit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace ckpt {

std::int64_t revolveBeta(int s, int r) {
    if (s < 0 || r < 0) return 0;
    // C(s + r, min(s, r)) by the multiplicative formula, saturating.
    const std::int64_t cap = std::numeric_limits<std::int64_t>::max();
    int k = std::min(s, r);
    // c stays C(s + r - k + i, i), exact; the product is split by the gcd so it does not overflow early.
    std::uint64_t c = 1;
    for (int i = 1; i <= k; ++i) {
        std::uint64_t num = std::uint64_t(s + r - k + i);
        std::uint64_t g = std::gcd(c, std::uint64_t(i));
        std::uint64_t prod = 0;
        if (__builtin_mul_overflow(c / g, num / (std::uint64_t(i) / g), &prod) || prod > std::uint64_t(cap)) return cap;
        c = prod;
    }
    return static_cast<std::int64_t>(c);
}

namespace {

int repetitions(std::int64_t n, int s) {
    int r = 0;
    while (revolveBeta(s, r) < n)
        ++r;
    return r;
}

// Where to put the next checkpoint when reversing n >= 2 steps with s >= 2 slots: any split that keeps the left
// part within r - 1 repetitions (s slots) and the right part within r (s - 1 slots) is optimal. This choice makes
// i + t(i, s) + t(n - i, s - 1) = t(n, s), which the tests check against the recursion.
std::int64_t split(std::int64_t n, int s) {
    int r = repetitions(n, s);
    std::int64_t lo = n - revolveBeta(s - 1, r);
    std::int64_t hi = std::min(revolveBeta(s, r - 1), n - revolveBeta(s - 1, r - 1));
    return std::clamp<std::int64_t>(std::max(lo, hi), 1, n - 1);
}

struct Builder {
    const Chain& chain;
    Schedule& actions;
    double& time;

    void fwd(int i, Keep keep) {
        actions.push_back(Action::forward(i, keep));
        time += chain.step(i).forward;
    }
    // From the checkpoint x_a to x_m, keeping x_a.
    void advance(int a, int m) {
        for (int i = a + 1; i <= m; ++i)
            fwd(i, i == a + 1 ? Keep::State : Keep::None);
    }
    void turn(int i) {
        fwd(i, Keep::Tape);
        actions.push_back(Action::backward(i));
        time += chain.step(i).backward;
    }
    // Reverses steps a+1..b, given x_a in a slot and s slots in all (x_a's included). The right part of each split is
    // reversed before the left one; an explicit stack of the parts still to do (at most s deep) replaces the
    // recursion, which overflowed the thread's stack on long chains with many slots.
    void reverse(int a, int b, int s) {
        struct Part {
            int a, b, s;
        };
        std::vector<Part> todo{{a, b, s}};
        while (!todo.empty()) {
            auto [from, to, slots] = todo.back();
            todo.pop_back();
            while (to - from >= 1) {
                if (to - from == 1) {
                    turn(to);
                    break;
                }
                if (slots == 1) {
                    for (int j = to; j > from; --j) {
                        advance(from, j - 1);
                        turn(j);
                    }
                    break;
                }
                int m = from + int(split(to - from, slots));
                advance(from, m);
                todo.push_back({from, m, slots}); // the left part, with all the slots again, after the right part
                from = m;
                --slots;
            }
        }
    }
};

} // namespace

std::int64_t revolveAdvances(std::int64_t n, int s) {
    if (n <= 1) return 0;
    if (s <= 1) return n * (n - 1) / 2;
    int r = repetitions(n, s);
    return std::int64_t(r) * n - revolveBeta(s + 1, r - 1);
}

std::int64_t revolveActions(std::int64_t n, int s) {
    return 2 * n + revolveAdvances(n, std::max(1, s));
}

int revolveFewestSlots(int n) {
    return fewestBuildable(1, std::max(1, n), [n](int k) { return double(revolveActions(n, k)); });
}

Plan revolvePlan(const Chain& chain, int slots) {
    const int n = chain.length();
    const int s = std::clamp(slots, 1, n);
    Plan plan;
    plan.actions.reserve(static_cast<std::size_t>(revolveActions(n, s)));
    Builder b{chain, plan.actions, plan.predicted_makespan_s};
    b.reverse(0, n, s);
    plan.params["slots"] = std::to_string(s);
    return plan;
}

void appendRevolve(const Chain& chain, int a, int b, int slots, Schedule& out, double& time) {
    if (b <= a) return;
    Builder builder{chain, out, time};
    builder.reverse(a, b, std::clamp(slots, 1, b - a));
}

SchedulerInfo revolveScheduler() {
    SchedulerInfo s;
    s.name = "revolve";
    s.description = "Binomial checkpointing with s state slots; fewest forward steps (model A)";
    s.paper = "Griewank & Walther 2000, \"Algorithm 799: Revolve\", ACM TOMS 26(1)";
    s.model = 'A';
    s.optimality = Optimality::Optimal;
    s.params = {
        {.name = "slots",
         .description =
             "state slots, the input's included; 0 = the most that fit the budget, or ceil(sqrt(n)) without one",
         .type = ParamType::Int,
         .default_value = "0",
         .min = 0,
         .max = 1e9}};
    s.solve = [](const Chain& chain, const Hardware& hw, const Params& params, std::int64_t budget) -> Result<Plan> {
        const int n = chain.length();
        int slots = int(std::min<long long>(params.integer("slots"), n));
        std::int64_t limit = levelZeroLimit(hw, budget);
        if (slots > 0 || limit == 0) {
            if (slots == 0) slots = std::max(1, int(std::ceil(std::sqrt(double(n)))));
            if (auto e = checkPlanActions(
                    "revolve with " + std::to_string(slots) + " slots on " + std::to_string(n) + " steps",
                    double(revolveActions(n, slots)),
                    "give it more slots (" + std::to_string(revolveFewestSlots(n)) + " at least)"))
                return *e;
            Plan p = revolvePlan(chain, slots);
            if (limit > 0) {
                std::int64_t peak = planPeak(chain, hw, p);
                if (peak > limit) return needsBudget("revolve with " + std::to_string(slots) + " slots", peak, limit);
            }
            return p;
        }
        if (leanestPeak(chain) > limit) return needsBudget("revolve (even with one slot)", leanestPeak(chain), limit);
        // The fewest slots whose plan stays buildable; binary search above it (the peak grows with the slots).
        const int lo = revolveFewestSlots(n);
        if (lo > n)
            return *checkPlanActions("revolve on " + std::to_string(n) + " steps", double(revolveActions(n, n)),
                                     "use a shorter chain");
        return largestFitting("revolve", "slots", lo, n, limit, chain, hw,
                              [&](int k) { return revolvePlan(chain, k); });
    };
    return s;
}

} // namespace ckpt
