// offload-dp: keep, offload or recompute each tape, optimally, after Beaumont, Eyraud-Dubois, Shilova and Zhao,
// "Efficient combination of rematerialization and offloading for training DNNs" (NeurIPS 2021): rotor's programme
// with a third choice for the tapes of the first forward sweep, whose transfers overlap the computation.
//
// D(s, m, p): the least time to reverse steps s+1..n from x_s, the first sweep having reached x_s, holding at most m
// slots of level 0, while the tape of step p (0: none) may still be on its way to the slower level (it holds its
// slots in level 0 during every compute that starts before its write ends).
//   keep:      F(s+1, tape), D(s+1, m - tape_{s+1}, p), B(s+1)
//   offload:   F(s+1, tape) W(s+1) free, D(s+1, m, s+1), [read s+1 while B(s+2) runs] B(s+1)
//   advance k: F(s+1, state) F(s+2..k, none), D(k, m - x_s, p), rotor's Opt(s, k, m)
// The first sweep's forwards never wait, so forward k ends at S_k = F_1 + ... + F_k; a write issued at S_i on a free
// channel ends at E_i = S_i + w_i. The read of tape i starts with B(i+1) (the previous read ended before it), so
// B(i) starts max(B_{i+1}, r_i) after B(i+1) does: the read's wait is the only time a transfer adds. These are the
// simulator's own rules, so the programme's optimum is the simulated makespan of its plan.
#include "schedulers/fit.h"
#include "schedulers/multilevel.h"
#include "schedulers/offload.h"
#include "schedulers/rotor.h"
#include "schedulers/store_all.h"
#include "sim/simulator.h"
#include "util/table_cache.h"
#include "util/units.h"
#include "util/vector_clones.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace ckpt {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
enum Choice : int { kNone = 0, kTurn = -1, kKeep = -2, kOffload = -3 }; // > 0: advance to that k

} // namespace

namespace {

// Everything the programme's table depends on besides the budget, which only picks the column read: the chain in
// slots of `unit`, and the machine's transfers to the slower level.
struct OffloadKey {
    Chain chain;
    Hardware hw;
    int level = 1;
    std::int64_t unit = 1;
    bool operator==(const OffloadKey&) const = default;
};

// D(s, m, p) for m = 0..M. As rotor's, an entry does not depend on M (an option needing more than M is skipped for
// every m <= M alike), so a table of more slots answers a smaller budget exactly as one built for it would. The
// choices are not stored: emit evaluates the options again in the fill's order, with the same operations, and takes
// the first that reaches the stored value, which is the one the fill kept.
struct OffloadTable {
    RotorProgramme prog; // rotor's rows, for the parts before the checkpoints (kept alive with this table)
    int n = 0, M = 0;
    std::vector<int> X, T, FT, BT;
    std::vector<double> F, B, S, E, R;
    std::vector<char> eligible;
    std::vector<std::vector<int>> cand; // [s]: the tapes p that may still be in flight at x_s (0: none)
    std::vector<std::vector<double>> value;

    int slots() const { return M; }
    std::size_t bytes() const {
        std::size_t b = 0;
        for (std::size_t s = 0; s < value.size(); ++s)
            b += value[s].size() * sizeof(double) + cand[s].size() * sizeof(int);
        return b + X.size() * (4 * sizeof(int) + 5 * sizeof(double) + 1);
    }
    int norm(int p, int s) const { return p > 0 && E[std::size_t(p)] > S[std::size_t(s)] ? p : 0; }
    std::size_t slot(int s, int p) const {
        const auto& c = cand[std::size_t(s)];
        return std::size_t(std::find(c.begin(), c.end(), p) - c.begin());
    }
    int inFlight(int p, int j) const {
        return p > 0 && E[std::size_t(p)] > S[std::size_t(j) - 1] ? T[std::size_t(p)] : 0;
    }
    int peakB(int i) const {
        const auto u = std::size_t(i);
        return T[u] + X[u] + X[u - 1] + BT[u];
    }
    const double* row(int s, int p) const { return value[std::size_t(s)].data() + slot(s, p) * (std::size_t(M) + 1); }

    // The options of D(s, ., p) in the fill's order: offer(lo, choice, cost) for each, with cost(m) its time at m >=
    // lo slots; an offer that returns true ends the list.
    template <typename Offer> void options(int s, int p, Offer&& offer) const {
        const auto us = std::size_t(s);
        const int i = s + 1, xs = X[us];
        const auto ui = std::size_t(i);
        const int fp = xs + X[ui] + T[ui] + FT[ui] + inFlight(p, i), bp = peakB(i);
        if (i == n) {
            offer(std::max(fp, bp), int(kTurn), [&](int) { return F[ui] + B[ui]; });
            return;
        }
        {
            const double* sub = row(i, norm(p, i));
            if (offer(std::max({fp, bp, T[ui]}), int(kKeep), [&](int m) { return F[ui] + B[ui] + sub[m - T[ui]]; }))
                return;
        }
        if (eligible[ui] && (p == 0 || E[std::size_t(p)] <= S[ui])) {
            const double* sub = row(i, norm(i, i));
            const double wait = std::max(0.0, R[ui] - B[ui + 1]);
            if (offer(std::max({fp, bp, peakB(i + 1) + T[ui]}), int(kOffload),
                      [&](int m) { return F[ui] + B[ui] + wait + sub[m]; }))
                return;
        }
        int advPeak = 0;
        for (int k = i; k < n; ++k) {
            const auto uk = std::size_t(k);
            advPeak = std::max(advPeak, xs + (k > i ? X[uk - 1] : 0) + X[uk] + FT[uk] + inFlight(p, k));
            if (advPeak > M) break; // longer advances only need more
            const double* right = row(k, norm(p, k));
            const float* left = prog.row(s, k);
            const double adv = S[uk] - S[us];
            if (offer(std::max(advPeak, xs), k, [&](int m) { return adv + right[m - xs] + double(left[m]); })) return;
        }
    }

    // The option D(s, m, p) takes (kNone if none reaches it: a table read outside what it holds).
    int chosen(int s, int p, int m) const {
        const double target = row(s, p)[m];
        int which = kNone;
        options(s, p, [&](int lo, int choice, auto&& cost) {
            if (m < std::max(lo, 0) || !(cost(m) == target)) return false;
            which = choice;
            return true;
        });
        return which;
    }
};

// Tables between solves (the explorer's slider), as rotor's: a 1000-step uniform chain at 2000 slots takes 16 MiB a
// tape in flight. One a slot unit, as rotor's: the 1000-step LSTM's slider on the A100 asks for 15.
TableCache<OffloadKey, OffloadTable>& offloadTables() {
    static TableCache<OffloadKey, OffloadTable> cache(24, std::size_t(512) << 20);
    return cache;
}

// D's rows, s from n - 1 down: for each cell, the least of its options at every m (a loop the compiler vectorises,
// cloned per instruction set level like rotor's fill).
CKPT_VECTOR_CLONES void fill(OffloadTable& t) {
    const int M = t.M;
    t.value.assign(t.X.size(), {});
    for (int s = t.n - 1; s >= 0; --s) {
        const auto us = std::size_t(s);
        t.value[us].assign(t.cand[us].size() * (std::size_t(M) + 1), kInfinity);
        for (std::size_t c = 0; c < t.cand[us].size(); ++c) {
            double* out = t.value[us].data() + c * (std::size_t(M) + 1);
            t.options(s, t.cand[us][c], [&](int lo, int, auto&& cost) {
                for (int m = std::max(lo, 0); m <= M; ++m)
                    out[m] = minOf(out[m], cost(m));
                return false;
            });
        }
    }
}

// The table of `slots` slots for the programme `prog` (whose rotor table holds at least as many).
Result<std::shared_ptr<const OffloadTable>> buildTable(const Chain& chain, const Hardware& hw, int level,
                                                       const RotorProgramme& prog, int slots) {
    const std::string name = "offload-dp";
    const int n = chain.length();
    auto t = std::make_shared<OffloadTable>();
    t->prog = prog;
    t->n = n;
    t->M = slots;
    const int M = slots;
    auto units = [&](std::int64_t b) { return slotsOf(b, prog.unit); };
    const auto N = std::size_t(n) + 1;
    t->X.assign(N, 0), t->T.assign(N, 0), t->FT.assign(N, 0), t->BT.assign(N, 0);
    t->F.assign(N, 0), t->B.assign(N, 0), t->S.assign(N, 0), t->E.assign(N, kInfinity), t->R.assign(N, 0);
    for (int j = 0; j <= n; ++j)
        t->X[std::size_t(j)] = units(chain.stateBytes(j));
    for (int i = 1; i <= n; ++i) {
        const Step& st = chain.step(i);
        const auto u = std::size_t(i);
        t->T[u] = units(st.tape_bytes), t->FT[u] = units(st.forward_tmp_bytes), t->BT[u] = units(st.backward_tmp_bytes);
        t->F[u] = st.forward, t->B[u] = st.backward;
        t->S[u] = t->S[u - 1] + t->F[u]; // the simulator's clock, added in the same order
    }
    // A tape may be offloaded when its write ends by the end of the sweep (so no read ever waits behind a write).
    t->eligible.assign(N, 0);
    for (int i = 1; i < n; ++i) {
        const auto u = std::size_t(i);
        t->E[u] = t->S[u] + hw.writeSeconds(level, chain.step(i).tape_bytes);
        t->R[u] = hw.readSeconds(level, chain.step(i).tape_bytes);
        t->eligible[u] = t->E[u] <= t->S[size_t(n)];
    }
    // The tapes that may still be in flight when the sweep stands at x_s: p with E_p > S_s.
    t->cand.assign(N, {});
    std::size_t widest = 1;
    for (int s = 0; s < n; ++s) {
        auto& c = t->cand[std::size_t(s)];
        c.push_back(0);
        for (int p = 1; p <= s; ++p)
            if (t->eligible[std::size_t(p)] && t->E[std::size_t(p)] > t->S[std::size_t(s)]) c.push_back(p);
        widest = std::max(widest, c.size());
    }
    const double cells = double(n) * double(widest) * double(M + 1);
    if (cells > kMaxTableCells)
        return tooLarge(name + "'s programme for " + std::to_string(n) + " steps and " + std::to_string(M) + " slots",
                        cells, kMaxTableCells, "table cells", "lower the slots parameter");
    const double ops = cells * double(n) / 2;
    if (ops > kMaxTableOperations)
        return tooLarge(name + "'s programme for " + std::to_string(n) + " steps and " + std::to_string(M) + " slots",
                        ops, kMaxTableOperations, "steps of its inner loop", "lower the slots parameter");

    fill(*t);
    return std::shared_ptr<const OffloadTable>(std::move(t));
}

// The table for the programme at one budget: built for it when its rotor table is pruned, else kept between solves.
Result<std::shared_ptr<const OffloadTable>> tableFor(const Chain& chain, const Hardware& hw, int level,
                                                     const RotorProgramme& prog, int slots) {
    const int M = prog.M;
    if (prog.bound) {
        auto built = buildTable(chain, hw, level, prog, M);
        if (!built) return built.errorValue();
        return std::move(*built);
    }
    const OffloadKey key{chain, hw, level, prog.unit};
    std::shared_ptr<const OffloadTable> smaller;
    std::shared_ptr<const OffloadTable> table = offloadTables().find(
        key, [M](const OffloadTable& t) { return t.M >= M; }, &smaller);
    if (!table) {
        // Grown twofold over the kept table, up to what the budget's unit can ask for (4x the slots with the chain's
        // common unit, else the slots), with rotor's rows grown alike. (Building all of that at the second budget
        // halves the slider's median but takes longer in all: 3.8 s at 2000 slots for 1000 steps.)
        const int most = std::max(M, M > slots ? 4 * slots : slots);
        const int grown = grownSlots(M, smaller ? smaller->M : 0, most);
        const RotorProgramme rows = rotorProgrammeGrown(prog, chain, grown);
        auto built = buildTable(chain, hw, level, rows, std::min(grown, rows.slots()));
        if (!built && grown > M) built = buildTable(chain, hw, level, prog, M);
        if (!built) return built.errorValue();
        table = std::move(*built);
        offloadTables().keep(key, table);
    }
    return table;
}

// The plan's actions from the table's choices, without the reads of offloaded tapes (`offloaded` marks them, and
// r.offloaded counts them); the sub-problems wait on an explicit stack (a kept chain would recurse n deep).
std::optional<Error> followChoices(const OffloadTable& D, int level, int M, Schedule& acts,
                                   std::vector<char>& offloaded, OffloadDpResult& r) {
    const std::string name = "offload-dp";
    const std::vector<int>& X = D.X;
    const std::vector<int>& T = D.T;
    auto norm = [&](int p, int s) { return D.norm(p, s); };
    struct Task {
        int kind, s, m, p; // kind 0: D(s, m, p); 1: backward s; 2: rotor's Opt(s, p, m)
    };
    std::vector<Task> todo{{0, 0, M, 0}};
    Plan inner;
    while (!todo.empty()) {
        const Task t = todo.back();
        todo.pop_back();
        if (t.kind == 1) {
            acts.push_back(Action::backward(t.s));
            continue;
        }
        if (t.kind == 2) {
            inner.actions.clear();
            double ignored = 0;
            D.prog.emit(t.s, t.p, t.m, inner, ignored);
            acts.insert(acts.end(), inner.actions.begin(), inner.actions.end());
            continue;
        }
        const int s = t.s, i = s + 1;
        const int c = D.chosen(s, t.p, t.m);
        if (c == kNone) return fail(name + ": its table does not hold the plan it found (an internal error)");
        if (c == kTurn) {
            acts.push_back(Action::forward(i, Keep::Tape));
            acts.push_back(Action::backward(i));
        } else if (c == kKeep) {
            acts.push_back(Action::forward(i, Keep::Tape));
            todo.push_back({1, i, 0, 0});
            todo.push_back({0, i, t.m - T[std::size_t(i)], norm(t.p, i)});
        } else if (c == kOffload) {
            acts.push_back(Action::forward(i, Keep::Tape));
            acts.push_back(Action::writeTape(i, level));
            acts.push_back(Action::freeTape(i, 0)); // level 0 lets go once the write has read it
            offloaded[std::size_t(i)] = 1;
            ++r.offloaded;
            todo.push_back({1, i, 0, 0});
            todo.push_back({0, i, t.m, norm(i, i)});
        } else {
            const int k = c;
            for (int j = i; j <= k; ++j)
                acts.push_back(Action::forward(j, j == i ? Keep::State : Keep::None));
            todo.push_back({2, s, t.m, k});
            todo.push_back({0, k, t.m - X[std::size_t(s)], norm(t.p, k)});
        }
    }
    return std::nullopt;
}

// The programme at one budget; `noPlan` is set when nothing fits it (the caller then names the least that does).
// An unpruned rotor table (all but the largest) serves every budget up to its slots, and so does the table built on
// it, which is kept for the next budget as rotor keeps its own (grown twofold when a larger budget misses).
Result<OffloadDpResult> solveAt(const Chain& chain, const Hardware& hw, int level, std::int64_t budget, int slots,
                                std::size_t pruneAbove, bool& noPlan) {
    const std::string name = "offload-dp";
    const int n = chain.length();
    auto prog = rotorProgramme(chain, budget, slots, pruneAbove);
    if (!prog) return prog.errorValue();
    const std::int64_t unit = prog->unit;
    const int M = prog->M;
    auto table = tableFor(chain, hw, level, *prog, slots);
    if (!table) return table.errorValue();
    const OffloadTable& D = **table;
    const auto N = std::size_t(n) + 1;
    const double best = D.row(0, 0)[M];
    // A pruned rotor table serves an optimum within its bound only (RotorProgramme::trusts): else, solve unpruned.
    if (!prog->trusts(best))
        return solveAt(chain, hw, level, budget, slots, std::numeric_limits<std::size_t>::max(), noPlan);
    if (!std::isfinite(best)) {
        noPlan = true;
        return infeasible(name + ": no plan fits " + formatBytes(double(budget)));
    }

    // The plan, from the choices.
    OffloadDpResult r;
    r.unit = unit;
    r.bound = prog->bound;
    r.dp_cost = best;
    Schedule acts;
    acts.reserve(4 * std::size_t(n));
    std::vector<char> offloaded(N, 0);
    if (auto e = followChoices(D, level, M, acts, offloaded, r)) return *e;
    // Each offloaded tape is read back just before the backward of the next step, which is the one it overlaps.
    r.plan.actions.reserve(acts.size() + std::size_t(r.offloaded));
    for (const Action& a : acts) {
        if (a.kind == ActionKind::Backward && a.index > 1 && offloaded[std::size_t(a.index) - 1])
            r.plan.actions.push_back(Action::readTape(a.index - 1, level));
        r.plan.actions.push_back(a);
    }
    r.plan.predicted_makespan_s = overlappedMakespan(chain, hw, r.plan.actions);
    r.plan.params["level"] = std::to_string(level);
    r.plan.params["unit_bytes"] = std::to_string(unit);
    r.plan.params["offloaded"] = std::to_string(r.offloaded);
    return r;
}

} // namespace

// Offloading lowers the least budget below rotor's (leanestPeak), and sizes round up to slots of the budget, so the
// least budget the programme fits is found by bisection on the programme itself: the budget named solves, one byte
// less does not. A slot count fixed by the budget makes feasibility not quite monotone in it; the bisection keeps
// one infeasible and one feasible end, so the two budgets named are each checked.
Result<OffloadDpResult> offloadDpSolve(const Chain& chain, const Hardware& hw, int level, std::int64_t budget,
                                       int slots, std::size_t pruneAbove) {
    const std::string name = "offload-dp";
    bool noPlan = false;
    auto r = solveAt(chain, hw, level, budget, slots, pruneAbove, noPlan);
    if (r || !noPlan) return r;
    auto fits = [&](std::int64_t b) -> Result<bool> {
        bool none = false;
        auto at = solveAt(chain, hw, level, b, slots, pruneAbove, none);
        if (!at && !none) return at.errorValue();
        return !none;
    };
    std::int64_t lo = budget, hi = std::max(budget + 1, leanestPeak(chain));
    for (;;) {
        auto ok = fits(hi);
        if (!ok) return ok.errorValue();
        if (*ok) break;
        if (hi > std::numeric_limits<std::int64_t>::max() / 4)
            return infeasible(name + ": no plan fits " + formatBytes(double(budget)) + " (" + std::to_string(budget) +
                              " B), nor any budget tried up to " + formatBytes(double(hi), unitsOf(double(budget))));
        lo = hi, hi *= 2;
    }
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        auto ok = fits(mid);
        if (!ok) return ok.errorValue();
        (*ok ? hi : lo) = mid;
    }
    Error e = needsBudget(name, hi, budget);
    e.message += " (its own least feasible budget, with sizes rounded up to slots of the budget / " +
                 std::to_string(slots) + ")";
    return e;
}

TableCacheStats offloadDpCacheStats() {
    return offloadTables().stats();
}

void clearOffloadDpCache() {
    offloadTables().clear();
}

SchedulerInfo offloadDpScheduler() {
    SchedulerInfo s;
    s.name = "offload-dp";
    s.description = "Optimal choice per step between keeping its tape, offloading it to a slower level (the transfer "
                    "overlapping the computation) and recomputing it (rotor), within a byte budget of level 0";
    s.paper = "Beaumont, Eyraud-Dubois, Shilova, Zhao 2021, \"Efficient combination of rematerialization and "
              "offloading for training DNNs\"";
    s.model = 'B';
    s.optimality = Optimality::Optimal;
    s.min_levels = 2;
    s.params = {
        offloadLevelParam(),
        {.name = "slots",
         .description = "memory slots the budget is divided into (sizes round up to whole slots)",
         .type = ParamType::Int,
         .default_value = "500",
         .min = 10,
         .max = 30000},
    };
    s.solve = [](const Chain& chain, const Hardware& hw, const Params& params, std::int64_t budget) -> Result<Plan> {
        const std::string name = "offload-dp";
        auto level = slowerLevel(name, hw, params.integer("level"));
        if (!level) return level.errorValue();
        const int L = *level;
        const std::int64_t limit = levelZeroLimit(hw, budget);
        // Nothing to save: store-all is the fastest plan.
        if (limit == 0 || storeAllPeakBytes(chain) <= limit) return storeAllPlan(chain);
        auto r = offloadDpSolve(chain, hw, L, limit, int(params.integer("slots")), rotorPruneAbove());
        if (!r) return r.errorValue();
        // The programme bounds level 0 only; a bounded slower level is checked on the plan.
        if (!hw.isUnbounded(L)) {
            SimOptions opt;
            auto tl = simulate(chain, hw, r->plan.actions, opt);
            if (!tl)
                return infeasible(name + ": its plan does not fit level " + std::to_string(L) + ": " + tl.error() +
                                  " (the programme bounds level 0 only)");
        }
        return std::move(r->plan);
    };
    // A table a slot unit (rotor's, for the budget and the slots), as rotor's.
    s.table_budgets = [](const Chain& chain, const Hardware& hw, const Params& params,
                         const std::vector<std::int64_t>& budgets) {
        const int slots = int(params.integer("slots"));
        return largestBudgetPerTable(chain, hw, budgets, [&](std::int64_t limit) {
            const std::int64_t unit = rotorSlotUnit(chain, limit, slots);
            return std::pair{unit, limit / unit};
        });
    };
    s.table_stats = offloadDpCacheStats;
    return s;
}

} // namespace ckpt
