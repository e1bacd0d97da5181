// BPTT-HSM, -ISM and -MSM: Gruslys, Munos, Danihelka, Lanctot, Graves, "Memory-Efficient Backpropagation Through
// Time" (NIPS 2016). A dynamic programme over (length, slots) for homogeneous sequences: keep hidden states (HSM),
// internal states = tapes (ISM), or choose per position (MSM). Model A for hidden states (a taped re-run before each
// backward), model B for stored tapes. Written in the simulator's vocabulary:
//   Q(t, m): reverse t steps from a start state that occupies one of the m slots;
//   W(t, m): the same from the working state (just produced, not counted); m excludes it.
//   Q: turn       advance t-1, F(t, tape) B(t), then Q(t-1, m)               cost t + Q(t-1, m)
//      hidden y   advance y (x_y becomes the working state), W(t-y, m-1), Q(y, m)   cost y + W + Q   [HSM, MSM]
//      tape first F(1, tape) (start released), W(t-1, m-alpha), B(1)        cost 1 + W(t-1, m-alpha) [ISM, MSM]
//   W: keep       F(1, state): the start becomes counted                      Q(t, m)                  [HSM, MSM]
//      tape first as above; for t = 1 the turn F(1, tape) B(1)              cost 1 + W(t-1, m-alpha)
// In ISM the working state after `hidden y` is never kept, so only tapes are stored.
#include "schedulers/bptt_dp.h"

#include "schedulers/fit.h"
#include "schedulers/revolve.h"
#include "schedulers/store_all.h"
#include "util/table_cache.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ckpt {
namespace {

// Costs are forward counts (at most n(n+1)/2); 2^29 stands for "does not fit" and two of them still add up in int32.
constexpr std::int32_t kInf = 1 << 29;
constexpr std::int32_t kTurn = -1, kTapeFirst = -2; // >= 1: hidden state at y

} // namespace

BpttTable::BpttTable(int n, int maxSlots, int alpha, BpttVariant variant)
    : m_n(n), m_slots(maxSlots), m_alpha(std::max(1, alpha)), m_variant(variant) {
    std::size_t size = std::size_t(n + 1) * std::size_t(maxSlots + 1);
    m_q.assign(size, kInf), m_w.assign(size, kInf);
    const bool hidden = variant != BpttVariant::ISM; // may the working state be kept as a checkpoint
    const bool tapes = variant != BpttVariant::HSM;
    const int M = maxSlots, a = m_alpha;
    for (int m = 0; m <= M; ++m)
        m_w[at(0, m)] = 0, m_q[at(0, m)] = m >= 1 ? 0 : kInf;
    std::vector<std::int32_t> best(std::size_t(M) + 1);
    for (int t = 1; t <= n; ++t) {
        std::int32_t* q = &m_q[at(t, 0)];
        std::int32_t* w = &m_w[at(t, 0)];
        // Turn.
        for (int m = 0; m <= M; ++m)
            best[std::size_t(m)] = m < 1 ? kInf : t == 1 ? 1 : std::min(kInf, t + m_q[at(t - 1, m)]);
        // Hidden state at y: y + W(t-y, m-1) + Q(y, m), for all m at once (the loop the compiler vectorises).
        for (int y = 1; y < t; ++y) {
            const std::int32_t* right = &m_w[at(t - y, 0)];
            const std::int32_t* left = &m_q[at(y, 0)];
            for (int m = 2; m <= M; ++m)
                best[std::size_t(m)] = std::min(best[std::size_t(m)], y + right[m - 1] + left[m]);
        }
        // Tape first.
        if (tapes && t >= 2)
            for (int m = a; m <= M; ++m)
                best[std::size_t(m)] = std::min(best[std::size_t(m)], 1 + m_w[at(t - 1, m - a)]);
        for (int m = 0; m <= M; ++m)
            q[m] = best[std::size_t(m)] >= kInf ? kInf : best[std::size_t(m)];
        // W: tape first (for t = 1, the turn), or keep the working state, which makes it Q.
        for (int m = 0; m <= M; ++m) {
            std::int32_t v = t == 1 ? 1 : (tapes && m >= a ? std::min(kInf, 1 + m_w[at(t - 1, m - a)]) : kInf);
            if (hidden) v = std::min(v, q[m]);
            w[m] = v;
        }
    }
}

std::int32_t BpttTable::qChoice(int t, int m) const {
    const std::int32_t target = m_q[at(t, m)];
    const bool tapes = m_variant != BpttVariant::HSM;
    if (m >= 1 && (t == 1 || std::min(kInf, t + m_q[at(t - 1, m)]) == target)) return kTurn;
    for (int y = 1; y < t && m >= 2; ++y)
        if (y + m_w[at(t - y, m - 1)] + m_q[at(y, m)] == target) return y;
    if (tapes && t >= 2 && m >= m_alpha && 1 + m_w[at(t - 1, m - m_alpha)] == target) return kTapeFirst;
    return kTurn; // unreachable for a feasible entry
}

bool BpttTable::wKeeps(int t, int m) const {
    const bool tapes = m_variant != BpttVariant::HSM;
    std::int32_t tapeFirst =
        t == 1 ? 1 : (tapes && m >= m_alpha ? std::min(kInf, 1 + m_w[at(t - 1, m - m_alpha)]) : kInf);
    return m_w[at(t, m)] != tapeFirst; // keeping won strictly
}

std::optional<long long> BpttTable::forwardSteps(int n, int m) const {
    if (n > m_n || m > m_slots || m < 0) return std::nullopt;
    std::int32_t v = m_q[at(n, m)];
    if (v >= kInf) return std::nullopt;
    return (long long)v;
}

// The choices rebuilt from the tables; the sub-problems wait on an explicit stack (a recursion would go as deep as
// the chain is long).
void BpttTable::emit(int s0, int t0, int m0, Plan& p, double& time, const Chain& c) const {
    auto fwd = [&](int i, Keep k) { p.actions.push_back(Action::forward(i, k)), time += c.step(i).forward; };
    enum class Kind { Q, W, Backward };
    struct Task {
        Kind kind;
        int s, t, m; // Backward: step s
    };
    std::vector<Task> todo{{Kind::Q, s0, t0, m0}};
    while (!todo.empty()) {
        const Task task = todo.back();
        todo.pop_back();
        const int s = task.s, t = task.t, m = task.m;
        if (task.kind == Kind::Backward) {
            p.actions.push_back(Action::backward(s));
            time += c.step(s).backward;
            continue;
        }
        if (t == 0) continue;
        if (task.kind == Kind::W && !wKeeps(t, m)) {
            // Tape first (for t = 1, the turn).
            fwd(s + 1, Keep::Tape);
            todo.push_back({Kind::Backward, s + 1, 0, 0});
            todo.push_back({Kind::W, s + 1, t - 1, m - m_alpha});
            continue;
        }
        const std::int32_t ch = qChoice(t, m);
        if (ch == kTurn) {
            for (int i = s + 1; i < s + t; ++i)
                fwd(i, i == s + 1 ? Keep::State : Keep::None);
            fwd(s + t, Keep::Tape);
            todo.push_back({Kind::Q, s, t - 1, m});
            todo.push_back({Kind::Backward, s + t, 0, 0});
        } else if (ch == kTapeFirst) {
            fwd(s + 1, Keep::Tape);
            todo.push_back({Kind::Backward, s + 1, 0, 0});
            todo.push_back({Kind::W, s + 1, t - 1, m - m_alpha});
        } else {
            const int y = ch;
            for (int i = s + 1; i <= s + y; ++i)
                fwd(i, i == s + 1 ? Keep::State : Keep::None);
            todo.push_back({Kind::Q, s, y, m});
            todo.push_back({Kind::W, s + y, t - y, m - 1});
        }
    }
}

Plan BpttTable::plan(const Chain& chain, int m) const {
    Plan p;
    double time = 0;
    emit(0, chain.length(), m, p, time, chain);
    p.predicted_makespan_s = time;
    p.params["slots"] = std::to_string(m);
    p.params["alpha"] = std::to_string(m_alpha);
    return p;
}

namespace {

// The programme's size before it is built: its tables hold (n + 1)(slots + 1) cells of each kind, its inner loop
// runs about n^2 slots / 2 times, and its forward counts must stay below kInf (Revolve's with those slots bounds
// what HSM and MSM need).
std::optional<Error> checkTable(int n, int slots) {
    const std::string what =
        "bptt-dp's programme for " + std::to_string(n) + " steps and " + std::to_string(slots) + " slots";
    const double cells = (double(n) + 1) * (double(slots) + 1);
    if (cells > double(std::int64_t(64) << 20))
        return tooLarge(what, cells, double(std::int64_t(64) << 20), "table cells",
                        "use fewer slots or another scheduler (revolve)");
    const double operations = double(n) * double(n) * double(slots) / 2;
    if (operations > kMaxTableOperations)
        return tooLarge(what, operations, kMaxTableOperations, "steps of its inner loop",
                        "use fewer slots or another scheduler (revolve)");
    const double forwards = double(n + revolveAdvances(n, std::clamp(slots, 1, n)));
    if (forwards >= double(kInf))
        return tooLarge(what, forwards, double(kInf), "forward steps in its counts", "give it more slots");
    return std::nullopt;
}

// What a table depends on: its length, the tape's size in slots and the variant; the budget only picks the column.
struct BpttKey {
    int n = 0, alpha = 1;
    BpttVariant variant = BpttVariant::MSM;
    bool operator==(const BpttKey&) const = default;
};

constexpr std::size_t kKeptBytes = std::size_t(128) << 20; // 1000 steps at 5000 slots take 38 MiB
TableCache<BpttKey, BpttTable>& bpttTables() {
    static TableCache<BpttKey, BpttTable> cache(4, kKeptBytes);
    return cache;
}

// A table with at least `slots` slots: a kept one, or one built (and kept) with up to `most` when a kept one was too
// small. Entries do not depend on the table's slot count (each reads only entries with fewer or as many slots), so a
// larger table answers as one of exactly `slots` would.
std::shared_ptr<const BpttTable> bpttTable(int n, int slots, int most, int alpha, BpttVariant variant) {
    const BpttKey key{n, alpha, variant};
    std::shared_ptr<const BpttTable> smaller;
    if (auto kept = bpttTables().find(
            key, [slots](const BpttTable& t) { return t.slots() >= slots; }, &smaller))
        return kept;
    int build = grownSlots(slots, smaller ? smaller->slots() : 0, most);
    // Growing must not pass the limits the request itself met, nor build a table too large to keep.
    if (checkTable(n, build) || 2 * sizeof(std::int32_t) * std::size_t(n + 1) * std::size_t(build + 1) > kKeptBytes)
        build = slots;
    auto table = std::make_shared<const BpttTable>(n, build, alpha, variant);
    bpttTables().keep(key, table);
    return table;
}

} // namespace

TableCacheStats bpttCacheStats() {
    return bpttTables().stats();
}

void clearBpttCache() {
    bpttTables().clear();
}

namespace {

// The slots one tape takes: the alpha parameter, or ceil(tape / state) from the chain (the largest over its steps).
int tapeSlots(const Chain& chain, const Params& params) {
    int alpha = int(params.integer("alpha"));
    if (alpha == 0) {
        double ratio = 1;
        for (const Step& st : chain.steps())
            if (st.state_bytes > 0) ratio = std::max(ratio, double(st.tape_bytes) / double(st.state_bytes));
        alpha = int(std::ceil(ratio - 1e-9));
    }
    return alpha;
}

// The plan with the slots given (or ceil(sqrt(n)) when neither they nor a budget are), checked against the budget.
Result<Plan> planWithSlots(const Chain& chain, const Hardware& hw, const std::string& v, BpttVariant variant, int alpha,
                           int slots, std::int64_t limit) {
    const int n = chain.length();
    if (slots == 0) slots = std::max(1, int(std::ceil(std::sqrt(double(n)))));
    if (auto e = checkTable(n, slots)) return *e;
    const auto kept = bpttTable(n, slots, slots, alpha, variant); // held: another solve may evict it
    const BpttTable& table = *kept;
    if (!table.forwardSteps(n, slots))
        return infeasible("bptt-dp (" + v + ") cannot reverse " + std::to_string(n) + " steps in " +
                          std::to_string(slots) + " slots with tapes of " + std::to_string(alpha) +
                          " slots; ism needs at least " + std::to_string(alpha + 1) + " slots");
    Plan p = table.plan(chain, slots);
    if (limit > 0) {
        std::int64_t peak = planPeak(chain, hw, p);
        if (peak > limit) return needsBudget("bptt-dp with " + std::to_string(slots) + " slots", peak, limit);
    }
    return p;
}

// The plan with the most slots that fit the budget.
Result<Plan> planWithinBudget(const Chain& chain, const Hardware& hw, const std::string& v, BpttVariant variant,
                              int alpha, std::int64_t limit) {
    const int n = chain.length();
    // When every tape fits, keeping them all is the optimum of every variant's slot model: store-all for the
    // tape-keeping variants, Revolve with a slot per state for HSM.
    if (auto e = checkPlanActions("bptt-dp on " + std::to_string(n) + " steps", double(revolveActions(n, n)),
                                  "use a shorter chain"))
        return *e;
    const bool fits = variant == BpttVariant::HSM ? planPeak(chain, hw, revolvePlan(chain, n)) <= limit
                                                  : storeAllPeakBytes(chain) <= limit;
    if (fits) {
        Plan all = variant == BpttVariant::HSM ? revolvePlan(chain, n) : storeAllPlan(chain);
        all.params["slots"] = std::to_string(variant == BpttVariant::HSM ? n : n * alpha + 1);
        all.params["alpha"] = std::to_string(alpha);
        return all;
    }
    // The most slots that fit: one table up to the slots the budget could ever hold, then a search on the peak.
    std::int64_t state = std::max<std::int64_t>(1, chain.stateBytes(0));
    // The table holds (n + 1) x (slots + 1) costs; keep it under 256 MiB. `ceiling`: the most any budget asks, up to
    // which a kept table may grow.
    const std::int64_t room = std::max<std::int64_t>(2, (std::int64_t(64) << 20) / (std::int64_t(n) + 1) - 1);
    const int ceiling =
        int(std::clamp<std::int64_t>(room, 1, std::min<std::int64_t>(std::int64_t(n) * alpha + 1, 20000)));
    int most = int(std::clamp<std::int64_t>(std::min(limit / state, room), 1,
                                            std::min<std::int64_t>(std::int64_t(n) * alpha + 1, 20000)));
    if (auto e = checkTable(n, most)) return *e;
    const auto kept = bpttTable(n, most, ceiling, alpha, variant);
    const BpttTable& table = *kept;
    int lo = 1;
    while (lo <= most && !table.forwardSteps(n, lo))
        ++lo;
    if (lo > most)
        return infeasible("bptt-dp (" + v + ") needs more than " + std::to_string(most) + " slots of " +
                          std::to_string(state) + " B; the budget is " + std::to_string(limit) + " B");
    return largestFitting("bptt-dp", "slots", lo, most, limit, chain, hw, [&](int k) { return table.plan(chain, k); });
}

Result<Plan> solveBpttDp(const Chain& chain, const Hardware& hw, const Params& params, std::int64_t budget) {
    const int n = chain.length();
    const std::string& v = params.text("variant");
    BpttVariant variant = v == "hsm" ? BpttVariant::HSM : v == "ism" ? BpttVariant::ISM : BpttVariant::MSM;
    const int alpha = tapeSlots(chain, params);
    int slots = int(std::min<long long>(params.integer("slots"), std::int64_t(n) * alpha + 1));
    std::int64_t limit = levelZeroLimit(hw, budget);
    if (slots > 0 || limit == 0) return planWithSlots(chain, hw, v, variant, alpha, slots, limit);
    return planWithinBudget(chain, hw, v, variant, alpha, limit);
}

} // namespace

SchedulerInfo bpttDpScheduler() {
    SchedulerInfo s;
    s.name = "bptt-dp";
    s.description = "Gruslys et al.'s DP: keep hidden states (HSM), tapes (ISM) or either per position (MSM)";
    s.paper = "Gruslys, Munos, Danihelka, Lanctot, Graves 2016, \"Memory-Efficient Backpropagation Through Time\"";
    s.model = 'A';
    s.optimality = Optimality::Optimal;
    s.params = {
        {.name = "variant",
         .description = "hsm: hidden states only; ism: tapes only; msm: mixed",
         .type = ParamType::Choice,
         .default_value = "msm",
         .choices = {"hsm", "ism", "msm"}},
        {.name = "slots",
         .description = "memory in state-sized slots, the start state's included; 0 = the most that fit the budget, or "
                        "ceil(sqrt(n))",
         .type = ParamType::Int,
         .default_value = "0",
         .min = 0,
         .max = 1e7},
        {.name = "alpha",
         .description = "slots one tape takes; 0 = ceil(tape / state) from the chain (the largest over its steps)",
         .type = ParamType::Int,
         .default_value = "0",
         .min = 0,
         .max = 1e6}};
    s.solve = solveBpttDp;
    // One table for every budget (the largest budget's slots serve every smaller one), but where every tape fits (for
    // HSM: where Revolve with a slot per state does), which reads none.
    s.table_budgets = [](const Chain& chain, const Hardware& hw, const Params& params,
                         const std::vector<std::int64_t>& budgets) {
        const std::int64_t none = params.text("variant") == "hsm" && params.integer("slots") == 0
                                      ? planPeak(chain, hw, revolvePlan(chain, chain.length()))
                                      : std::numeric_limits<std::int64_t>::max();
        return largestBudgetPerTable(chain, hw, budgets, [&](std::int64_t limit) {
            return std::pair<std::int64_t, std::int64_t>{none >= 0 && limit >= none ? -1 : 0, limit};
        });
    };
    s.table_stats = bpttCacheStats;
    return s;
}

} // namespace ckpt
