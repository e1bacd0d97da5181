// Checkmate's MILP (Jain et al., MLSys 2020, section 4) in the graph simulator's memory model, solved with CBC.
// Binary R[t,p] (stage t computes position p) and S[t,p] (p held at the start of stage t); continuous FREE[t,i,k]
// (i released right after computation k of stage t) and U[t,k] (outputs held right after computation k).
#include "schedulers/checkmate_milp.h"

#include "util/units.h"

#include <CbcEventHandler.hpp>
#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <ClpEventHandler.hpp>
#include <CoinPackedMatrix.hpp>
#include <CoinWarmStartBasis.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <list>
#include <memory>
#include <mutex>
#include <string>

namespace ckpt::checkmate {
namespace {

using Clock = std::chrono::steady_clock;

struct Watch {
    const std::atomic<bool>* cancel = nullptr;
    Clock::time_point deadline;
    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    bool stop() const { return cancelled() || Clock::now() > deadline; }
};

// CBC checks its own time limit between nodes; these handlers also stop it when the user cancels.
class CbcWatch : public CbcEventHandler {
public:
    explicit CbcWatch(Watch w) : watch(w) {}
    CbcEventHandler* clone() const override { return new CbcWatch(*this); }
    CbcAction event(CbcEvent) override { return watch.stop() ? stop : noAction; }

private:
    Watch watch;
};

// Clp is stopped through its own time limit (due at once) rather than the handler's stop code, the path its presolve
// expects. Only our own LP solve uses it: inside CBC, preprocessing crashes on an LP stopped either way, so there
// CBC's clock and CbcWatch decide, between its phases.
class ClpWatch : public ClpEventHandler {
public:
    explicit ClpWatch(Watch w) : watch(w) {}
    ClpEventHandler* clone() const override { return new ClpWatch(*this); }
    int event(Event e) override {
        if (e == endOfIteration && model_ && watch.stop()) model_->setMaximumWallSeconds(0);
        return -1;
    }

private:
    Watch watch;
};

constexpr double kInf = 1e30;

// Rows and columns in CSR form, loaded into Clp at once.
// With countOnly, nothing is stored: the same build counts the model's size before it is built for real.
struct Model {
    bool countOnly = false;
    long long columns = 0, binaries = 0, rows = 0, nonzeros = 0;
    std::vector<double> colLo, colUp, obj;
    std::vector<int> integers;
    std::vector<int> starts{0}, index;
    std::vector<double> value, rowLo, rowUp;

    // Costs are in units of the slowest forward. One under kTinyCost counts as 0: Clp's simplex (whose assertions
    // Debian's build keeps) aborted the process on a model whose costs spanned ten orders of magnitude (forwards of
    // 1e-12 s beside 1e-2 s, sizes from bytes to terabytes). The objective moves by less than kTinyCost per column,
    // far below CBC's tolerance; the plan is judged by the simulator with the true times.
    static constexpr double kTinyCost = 1e-9;
    int col(double lo, double up, double cost, bool integer) {
        binaries += integer, ++columns;
        if (countOnly) return int(std::min<long long>(columns - 1, INT_MAX));
        if (integer) integers.push_back(int(colLo.size()));
        if (std::abs(cost) < kTinyCost) cost = 0;
        colLo.push_back(lo), colUp.push_back(up), obj.push_back(cost);
        return int(colLo.size()) - 1;
    }
    // Terms with a column of -1 (a variable the stage structure rules out, fixed at 0) are dropped. Sizes are in units
    // of the limit; one under kTinyCoefficient, CBC's own feasibility tolerance in those units, counts as that much
    // (for the same reason as kTinyCost: bytes beside terabytes at a budget of terabytes).
    static constexpr double kTinyCoefficient = 1e-7;
    // A column of kOne is a variable fixed at 1 (a window's stages outside it, see Window): its term moves to the
    // bounds. A row left with no variable that holds is dropped (one that does not stays, and makes the model
    // infeasible).
    static constexpr int kOne = -2;
    static double coefficient(double v) {
        return std::abs(v) < kTinyCoefficient ? std::copysign(kTinyCoefficient, v) : v;
    }
    void row(const std::vector<std::pair<int, double>>& terms, double lo, double up) {
        double fixed = 0;
        long long added = 0;
        for (const auto& [c, v] : terms)
            if (c == kOne && v != 0) {
                fixed += coefficient(v);
            } else if (c >= 0 && v != 0) {
                ++added;
                if (!countOnly) index.push_back(c), value.push_back(coefficient(v));
            }
        if (added == 0 && lo <= fixed + 1e-9 && fixed <= up + 1e-9) return;
        ++rows, nonzeros += added;
        if (countOnly) return;
        starts.push_back(int(index.size()));
        rowLo.push_back(lo <= -kInf ? lo : lo - fixed), rowUp.push_back(up >= kInf ? up : up - fixed);
    }
    void load(OsiClpSolverInterface& si) const {
        std::vector<int> lengths(rowLo.size());
        for (std::size_t r = 0; r < rowLo.size(); ++r)
            lengths[r] = starts[r + 1] - starts[r];
        CoinPackedMatrix m(false, int(colLo.size()), int(rowLo.size()), CoinBigIndex(index.size()), value.data(),
                           index.data(), starts.data(), lengths.data());
        si.loadProblem(m, colLo.data(), colUp.data(), obj.data(), rowLo.data(), rowUp.data());
        for (int c : integers)
            si.setInteger(c);
    }
};

// Peak bytes per nonzero of building, loading and solving the LP (the CSR arrays here, CoinPackedMatrix, Clp's copies,
// presolve and factorization; columns and rows come with them), measured as the peak RSS over the nonzeros of a
// generated 100-node graph (129 MB, 297,047 nonzeros), and per stage and position (the index tables, S as solved, the
// rounding's 0/1 tables).
constexpr double kBytesPerColumn = 0, kBytesPerRow = 0, kBytesPerNonzero = 400, kBytesPerCell = 24;

struct Indices {
    std::vector<std::vector<int>> R, S; // column or -1; S has T + 1 rows
    std::vector<std::vector<int>> Y;    // [position][implementation]: column, for positions with a choice
};

using Choices = std::vector<std::vector<NodeImplementation>>;

} // namespace

struct SolvedLp {
    OsiClpSolverInterface si; // the model with its integers marked, and the LP's optimal basis
    Indices x;
    double timeUnit = 1, margin = 0;
    std::int64_t limit = 0;
};

namespace {

// Memory in units of the graph's outputs (all of them together, about store-all's peak) and time in units of the
// slowest forward keep CBC's tolerances meaningful. The budget only sets the right-hand sides, so the LP of one budget
// starts the next one's from its basis (lpBases). Byte counts are integers, so the limit may gain half a byte.
// Stops early (false) when `watch` says so: a model near the size limit takes seconds to build.
double memoryUnit(const Stages& st) {
    double all = 0;
    for (int p = 0; p < st.n; ++p)
        all += double(st.bytes(p));
    return std::max(1.0, all);
}

// What the parts of build() share: the stages, the memory unit and the limit in it, and the implementations to choose
// from.
struct Building {
    const Stages& st;
    double unit = 1, cap = 0;
    const Choices* choices = nullptr;
    const Window* window = nullptr;
    bool choosing(int p) const { return choices && (*choices)[std::size_t(p)].size() > 1; }
    int firstStage() const { return window ? window->first : 0; }
    int lastStage() const { return window ? window->last : st.T - 1; }
    // Outside a window, R and S are the schedule's: fixed at 1 (Model::kOne) or 0 (-1).
    bool computeFree(int t) const { return !window || (t >= window->first && t <= window->last); }
    bool holdFree(int t) const { return !window || (t > window->first && t <= window->last); }
};

int fixedAt(const StageSets& sets, int t, int p) {
    return sets[std::size_t(t)][std::size_t(p)] ? Model::kOne : -1;
}

int at(const std::vector<int>& v, int p) {
    return v[std::size_t(p)];
}
// A variable that may be 1: a column, or fixed at 1 outside a window (Model::kOne); -1 is fixed at 0.
bool can(const std::vector<int>& v, int p) {
    return v[std::size_t(p)] != -1;
}

// The columns R and S, and Y where a position has implementations to choose from. Returns Z[t][p][c]: a computation
// of a position with a choice, Z[c] >= R + Y[c] - 1, carries the chosen forward's time and workspace (the objective
// keeps Z at R AND Y[c]; a larger Z only costs).
std::vector<std::vector<std::vector<int>>> addColumns(const Building& b, double timeUnit, Model& m, Indices& x) {
    const Stages& st = b.st;
    const int n = st.n, T = st.T;
    x.R.assign(std::size_t(T), std::vector<int>(std::size_t(n), -1));
    x.S.assign(std::size_t(T + 1), std::vector<int>(std::size_t(n), -1));
    x.Y.assign(std::size_t(n), {});
    for (int p = 0; p < n; ++p)
        if (b.choosing(p)) {
            std::vector<std::pair<int, double>> one;
            for (const NodeImplementation& c : (*b.choices)[std::size_t(p)]) {
                x.Y[std::size_t(p)].push_back(m.col(0, 1, c.backward / timeUnit, true));
                one.push_back({x.Y[std::size_t(p)].back(), 1});
            }
            m.row(one, 1, 1);
        }
    std::vector<std::vector<std::vector<int>>> Z(static_cast<std::size_t>(T));
    for (int t = 0; t < T; ++t) {
        Z[std::size_t(t)].assign(std::size_t(n), {});
        for (int p = 0; p < n; ++p) {
            if (!b.computeFree(t)) {
                if (st.canCompute(t, p)) x.R[std::size_t(t)][std::size_t(p)] = fixedAt(*b.window->compute, t, p);
            } else if (st.canCompute(t, p)) {
                const int r = m.col(st.forced(t, p) ? 1 : 0, 1, b.choosing(p) ? 0.0 : st.forward(p) / timeUnit, true);
                x.R[std::size_t(t)][std::size_t(p)] = r;
                if (b.choosing(p))
                    for (std::size_t c = 0; c < (*b.choices)[std::size_t(p)].size(); ++c) {
                        const int z = m.col(0, 1, (*b.choices)[std::size_t(p)][c].forward / timeUnit, false);
                        m.row({{z, 1}, {r, -1}, {x.Y[std::size_t(p)][c], -1}}, -1, kInf);
                        Z[std::size_t(t)][std::size_t(p)].push_back(z);
                    }
            }
            if (st.canHold(t, p))
                x.S[std::size_t(t)][std::size_t(p)] =
                    b.holdFree(t) ? m.col(0, 1, 0, true) : fixedAt(*b.window->keep, t, p);
        }
    }
    return Z;
}

// FREE[t,i,k] <= R[t,k], and (below) at most what of i is present less its later uses and what the next stage keeps: i
// goes after its last use in the stage unless kept. Releasing only lowers U, so the upper bounds suffice, and FREE need
// not be integer: at integer R, S its bounds are 0 or 1 and any fraction only counts more memory. Returns, per
// computation k, its FREE columns and the outputs' sizes.
std::vector<std::vector<std::pair<int, double>>> addFrees(const Building& b, int t, Model& m, const Indices& x) {
    const Stages& st = b.st;
    const auto& R = x.R[std::size_t(t)];
    const auto& S = x.S[std::size_t(t)];
    const auto& next = x.S[std::size_t(t + 1)];
    std::vector<std::vector<std::pair<int, double>>> freed(static_cast<std::size_t>(st.n));
    for (int i = 0; i <= st.last(t); ++i) {
        if ((!can(R, i) && !can(S, i)) || st.needed(t, i)) continue;
        // Released right after its own computation only when that is the stage's own first computation (freed to be
        // recomputed later): a recomputation that no later computation of the stage reads, the stage does not keep
        // and the backward does not need costs time and saves nothing, so an optimal solution never has one. Leaving
        // its FREE out keeps that optimum (and so the LP's bound) and a fifth of the model.
        std::vector<int> ks;
        if (can(R, i) && st.forced(t, i)) ks.push_back(i);
        for (int q : st.consumers[std::size_t(i)])
            if (q <= st.last(t) && can(R, q)) ks.push_back(q);
        std::sort(ks.begin(), ks.end());
        // What is released of i is never more than what is present: released at most once, never before a later use,
        // and not when kept. For each later point q, the releases before it plus R[t,q] (q uses i) stay within
        // R[t,i] + S[t,i], and all of them plus S[t+1,i] too. At integer R, S these only restate the upper bounds of
        // each release (FREE <= 1 - R[t,q], FREE <= 1 - S[t+1,i], which they imply); the LP had used them to release
        // i twice, at two consumers each computed by halves, and counted it negative (unet-small-b8-128 at 30 %: the LP
        // bound was 1.073x store-all's time, now 1.123x).
        std::vector<std::pair<int, double>> released;
        auto present = [&](std::vector<std::pair<int, double>> terms) {
            terms.push_back({at(R, i), -1});
            terms.push_back({at(S, i), -1});
            m.row(terms, -kInf, 0);
        };
        for (std::size_t j = 0; j < ks.size(); ++j) {
            if (j > 0) {
                auto terms = released;
                terms.push_back({at(R, ks[j]), 1});
                present(std::move(terms));
            }
            const int f = m.col(0, 1, 0, false);
            m.row({{f, 1}, {at(R, ks[j]), -1}}, -kInf, 0);
            freed[std::size_t(ks[j])].push_back({f, double(st.bytes(i)) / b.unit});
            released.push_back({f, 1});
        }
        if (!released.empty()) {
            if (can(next, i)) released.push_back({at(next, i), 1});
            present(std::move(released));
        }
    }
    return freed;
}

// U after computation k = U before it (the previous U less what went after the previous computation, or the held
// outputs at the stage's start) + its output; while it runs, its workspace and the gradients add. In a backward
// stage, the backward's memory after the last computation too.
void addMemoryRows(const Building& b, int t, const std::vector<int>& cands,
                   const std::vector<std::vector<std::pair<int, double>>>& freed,
                   const std::vector<std::vector<std::vector<int>>>& Z, Model& m, const Indices& x) {
    const Stages& st = b.st;
    const int n = st.n;
    const double unit = b.unit, cap = b.cap;
    const Choices* choices = b.choices;
    const auto& R = x.R[std::size_t(t)];
    const auto& S = x.S[std::size_t(t)];
    const double grads = double(st.grads(t)) / unit;
    int prevU = -1, prevK = -1;
    for (int k : cands) {
        int u = m.col(0, kInf, 0, false);
        std::vector<std::pair<int, double>> terms = {{u, 1}, {at(R, k), -double(st.bytes(k)) / unit}};
        if (prevU < 0) {
            for (int p = 0; p < n; ++p)
                terms.push_back({at(S, p), -double(st.bytes(p)) / unit});
        } else {
            terms.push_back({prevU, -1});
            for (const auto& fv : freed[std::size_t(prevK)])
                terms.push_back(fv);
        }
        m.row(terms, 0, kInf);
        if (b.choosing(k)) {
            std::vector<std::pair<int, double>> work = {{u, 1}};
            for (std::size_t c = 0; c < (*choices)[std::size_t(k)].size(); ++c)
                work.push_back({Z[std::size_t(t)][std::size_t(k)][c],
                                double((*choices)[std::size_t(k)][c].workspace_bytes) / unit});
            m.row(work, -kInf, cap - grads);
        } else {
            m.row({{u, 1}, {at(R, k), double(st.workspace(k)) / unit}}, -kInf, cap - grads);
        }
        prevU = u, prevK = k;
    }
    if (t < n) return;
    double rhs = cap - grads - double(st.backwardExtra(t)) / unit;
    std::vector<std::pair<int, double>> terms;
    if (const int bw = st.last(t); b.choosing(bw)) { // the chosen backward's workspace, not the node's own
        rhs += double(st.workspace(bw)) / unit;
        for (std::size_t c = 0; c < (*choices)[std::size_t(bw)].size(); ++c)
            terms.push_back({x.Y[std::size_t(bw)][c], double((*choices)[std::size_t(bw)][c].workspace_bytes) / unit});
    }
    if (prevU < 0) {
        for (int p = 0; p < n; ++p)
            terms.push_back({at(S, p), double(st.bytes(p)) / unit});
    } else {
        terms.push_back({prevU, 1});
        for (const auto& [f, v] : freed[std::size_t(prevK)])
            terms.push_back({f, -v});
    }
    m.row(terms, -kInf, rhs);
}

bool build(const Stages& st, std::int64_t limit, double margin, double timeUnit, const Watch& watch, Model& m,
           Indices& x, const Choices* choices = nullptr, const Window* window = nullptr) {
    const int n = st.n;
    Building b{st};
    b.unit = memoryUnit(st);
    b.cap = (double(limit) + 0.5 - margin) / b.unit;
    b.choices = choices;
    b.window = window;
    const auto Z = addColumns(b, timeUnit, m, x);
    for (int t = b.firstStage(); t <= b.lastStage(); ++t) {
        if (t % 64 == 0 && watch.stop()) return false;
        const auto& R = x.R[std::size_t(t)];
        const auto& S = x.S[std::size_t(t)];
        const auto& next = x.S[std::size_t(t + 1)];
        std::vector<int> cands;
        for (int p = 0; p <= st.last(t); ++p)
            if (can(R, p)) cands.push_back(p);
        for (int p : cands) {
            for (int u : st.inputs[std::size_t(p)]) // an input is held or computed earlier in the stage
                m.row({{at(R, p), 1}, {at(R, u), -1}, {at(S, u), -1}}, -kInf, 0);
            if (can(S, p)) m.row({{at(R, p), 1}, {at(S, p), 1}}, -kInf, 1); // a held output is not recomputed
        }
        for (int p = 0; p < n; ++p)
            if (can(next, p)) m.row({{at(next, p), 1}, {at(S, p), -1}, {at(R, p), -1}}, -kInf, 0);
        for (int p = 0; p <= st.last(t); ++p)
            if (st.needed(t, p)) m.row({{at(S, p), 1}, {at(R, p), 1}}, 1, kInf);
        const auto freed = addFrees(b, t, m, x);
        addMemoryRows(b, t, cands, freed, Z, m, x);
    }
    return true;
}

void readSolution(const Stages& st, const Indices& x, const double* sol, MilpOutcome& out,
                  const Window* window = nullptr) {
    out.implementation.assign(std::size_t(st.n), 0);
    for (int p = 0; p < st.n; ++p)
        for (std::size_t c = 0; c < x.Y[std::size_t(p)].size(); ++c)
            if (sol[x.Y[std::size_t(p)][c]] > 0.5) out.implementation[std::size_t(p)] = int(c);
    if (window) {
        out.compute = *window->compute, out.keep = *window->keep;
    } else {
        out.compute.assign(std::size_t(st.T), std::vector<char>(std::size_t(st.n), 0));
        out.keep.assign(std::size_t(st.T + 1), std::vector<char>(std::size_t(st.n), 0));
    }
    out.keep_value.assign(std::size_t(st.T + 1), std::vector<double>(std::size_t(st.n), 0.0));
    for (int t = 0; t <= st.T; ++t)
        for (int p = 0; p < st.n; ++p) {
            if (t < st.T && x.R[std::size_t(t)][std::size_t(p)] >= 0)
                out.compute[std::size_t(t)][std::size_t(p)] = sol[x.R[std::size_t(t)][std::size_t(p)]] > 0.5;
            if (int s = x.S[std::size_t(t)][std::size_t(p)]; s >= 0) {
                out.keep_value[std::size_t(t)][std::size_t(p)] = sol[s];
                out.keep[std::size_t(t)][std::size_t(p)] = sol[s] > 0.5;
            }
        }
}

// What the model's matrix and costs depend on, all of it: two graphs with the same key build the same columns and rows,
// whatever the budget (which sets right-hand sides only).
std::string modelKey(const Stages& st) {
    std::string key = std::to_string(st.n);
    char buf[64];
    for (int p = 0; p < st.n; ++p) {
        const GraphNode& node = st.graph.node(st.order[std::size_t(p)]);
        std::snprintf(buf, sizeof buf, "|%lld,%lld,%a,%d,%d%d:", (long long)st.bytes(p), (long long)st.workspace(p),
                      st.forward(p), st.deadFrom(p), int(node.needs_output), int(node.needs_inputs));
        key += buf;
        for (int u : st.inputs[std::size_t(p)])
            key += std::to_string(u) + ",";
    }
    for (int t = st.n; t < st.T; ++t)
        key += "|" + std::to_string(st.grads(t)) + "," + std::to_string(st.backwardExtra(t));
    return key;
}

// The last LP bases of a few models (the budgets of one compare, a slider's moves): an LP whose model was solved before
// at another budget starts from that basis, which is still dual feasible (only the right-hand sides moved), so the
// dual simplex goes on from there rather than from the slack basis. Only optimal bases are kept: the basis a stopped
// solve left (ResNet-50 imported at 25 %) started the next budget's LP worse than the fast plan's basis does (at 50 %
// that LP then stopped too, where from the plan's basis it ends in 41,130 iterations).
class BasisCache {
public:
    std::shared_ptr<const CoinWarmStartBasis> find(const std::string& key) {
        std::lock_guard lock(m_mutex);
        for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
            if (it->first == key) {
                m_entries.splice(m_entries.begin(), m_entries, it);
                return m_entries.front().second;
            }
        return nullptr;
    }
    void keep(const std::string& key, std::shared_ptr<const CoinWarmStartBasis> basis) {
        std::lock_guard lock(m_mutex);
        m_entries.remove_if([&](const auto& e) { return e.first == key; });
        m_entries.emplace_front(key, std::move(basis));
        while (m_entries.size() > 4)
            m_entries.pop_back();
    }

private:
    std::mutex m_mutex;
    std::list<std::pair<std::string, std::shared_ptr<const CoinWarmStartBasis>>> m_entries;
};

BasisCache& lpBases() {
    static BasisCache cache;
    return cache;
}

// The basis of a known plan: the LP with the binaries fixed at the plan's values is solved (its presolve leaves little
// to do), and the bounds are restored. That basis is primal feasible, and the dual simplex goes on from it in about
// half the iterations it takes from the slack basis (ResNet-50 at 30 %: 37,168 against 85,053). False, with the slack
// basis back, when the plan does not fit the model's accounting.
bool startBasis(OsiClpSolverInterface& si, const Indices& x, const StageSets& compute, const StageSets& keep) {
    const int columns = si.getNumCols();
    const std::vector<double> lower(si.getColLower(), si.getColLower() + columns);
    const std::vector<double> upper(si.getColUpper(), si.getColUpper() + columns);
    auto fix = [&](const std::vector<std::vector<int>>& cols, const StageSets& values) {
        for (std::size_t t = 0; t < cols.size(); ++t)
            for (std::size_t p = 0; p < cols[t].size(); ++p)
                if (const int c = cols[t][p]; c >= 0) si.setColBounds(c, values[t][p], values[t][p]);
    };
    fix(x.R, compute);
    fix(x.S, keep);
    si.initialSolve();
    const bool solved = si.isProvenOptimal();
    si.setColLower(lower.data());
    si.setColUpper(upper.data());
    if (!solved) si.setWarmStart(nullptr);
    return solved;
}

// CbcMain0/CbcMain1 keep state in statics: one solve at a time. A waiting solve still honours cancel and its deadline.
std::timed_mutex g_cbc;

} // namespace

long long milpBinaries(const Stages& st) {
    const long long n = st.n;
    long long binaries = 0;
    for (int p = 0; p < st.n; ++p) {
        // canCompute and canHold as intervals of stages: forward stages [p, n) and backward stages [n, 2n - p), both
        // before the output dies.
        const long long dead = st.deadFrom(p), fwdEnd = std::min(n, dead), bwdEnd = std::min(2 * n - p, dead);
        const long long backward = std::max(0LL, bwdEnd - n);
        const long long computes = std::max(0LL, fwdEnd - p) + (dead <= p ? 1 : 0) + backward;
        const long long holds = std::max(0LL, fwdEnd - p - 1) + backward;
        binaries += computes + holds;
    }
    return binaries;
}

MilpSize countMilp(const Stages& st, std::int64_t limit, const std::atomic<bool>* cancel) {
    Model m;
    m.countOnly = true;
    Indices x;
    build(st, limit, 0, 1, Watch{cancel, Clock::time_point::max()}, m, x);
    MilpSize size;
    size.binaries = m.binaries, size.columns = m.columns, size.rows = m.rows, size.nonzeros = m.nonzeros;
    size.bytes = kBytesPerColumn * double(m.columns) + kBytesPerRow * double(m.rows) +
                 kBytesPerNonzero * double(m.nonzeros) + kBytesPerCell * double(st.T + 1) * double(st.n);
    return size;
}

namespace {

// The slowest forward, of the nodes or of their implementations: the model's unit of time.
double timeUnitOf(const Stages& st, const MilpOptions& opt) {
    double timeUnit = 0;
    for (int p = 0; p < st.n; ++p)
        timeUnit = std::max(timeUnit, st.forward(p));
    if (timeUnit <= 0) timeUnit = 1;
    if (opt.implementations)
        for (const auto& impls : *opt.implementations)
            for (const NodeImplementation& c : impls)
                timeUnit = std::max(timeUnit, c.forward);
    return timeUnit;
}

// The model in lp->si: the solved LP's, when the MILP follows the LP of the same model, or a new one. False when the
// watch stopped its build (out says why).
bool loadModel(const Stages& st, const MilpOptions& opt, const Watch& watch, const std::string& timeLimit, SolvedLp& lp,
               MilpOutcome& out) {
    OsiClpSolverInterface& si = lp.si;
    Indices& x = lp.x;
    const bool reuse = !opt.relax && !opt.window && opt.solved_lp && !opt.implementations &&
                       opt.solved_lp->limit == opt.limit && opt.solved_lp->margin == opt.margin_bytes &&
                       opt.solved_lp->timeUnit == lp.timeUnit;
    if (reuse) {
        si = opt.solved_lp->si; // a copy with the basis: the LP's optimum is CBC's root at once
        x = opt.solved_lp->x;
        si.getModelPtr()->setMaximumWallSeconds(-1);
        si.getModelPtr()->setMaximumIterations(INT_MAX);
        ClpEventHandler none;
        si.getModelPtr()->passInEventHandler(&none);
    } else {
        Model m;
        if (!build(st, opt.limit, opt.margin_bytes, lp.timeUnit, watch, m, x, opt.implementations, opt.window)) {
            out.status = watch.cancelled() ? MilpOutcome::Status::Cancelled : MilpOutcome::Status::Stopped;
            out.stopped_by = timeLimit + ", while building the model";
            return false;
        }
        m.load(si);
    } // the Model's arrays go here: Clp holds its own copy
    return true;
}

// The LP relaxation, from a kept basis of the same model, from the start's basis, or from the slack basis.
void solveRelaxation(const Stages& st, const MilpOptions& opt, const Watch& watch, const std::string& timeLimit,
                     std::shared_ptr<SolvedLp> lp, MilpOutcome& out) {
    OsiClpSolverInterface& si = lp->si;
    const Indices& x = lp->x;
    ClpWatch handler(watch);
    si.getModelPtr()->passInEventHandler(&handler);
    si.getModelPtr()->setMaximumWallSeconds(opt.seconds);
    if (opt.iterations > 0) si.getModelPtr()->setMaximumIterations(int(std::min<long long>(opt.iterations, INT_MAX)));
    const std::string key = opt.implementations || !opt.basis_cache ? "" : modelKey(st);
    const auto basis = key.empty() ? nullptr : lpBases().find(key);
    if (basis && si.setWarmStart(basis.get())) {
        si.setHintParam(OsiDoDualInResolve, true, OsiHintDo);
        si.resolve();
        out.warm = true;
    } else if (opt.start_compute && opt.start_keep && startBasis(si, x, *opt.start_compute, *opt.start_keep)) {
        si.setHintParam(OsiDoDualInResolve, true, OsiHintDo);
        si.resolve();
        out.from_start = true;
    } else {
        si.initialSolve();
    }
    out.iterations = si.getIterationCount();
    if (!key.empty() && si.isProvenOptimal()) {
        std::unique_ptr<CoinWarmStart> state(si.getWarmStart());
        if (auto* b = dynamic_cast<CoinWarmStartBasis*>(state.get()))
            lpBases().keep(key, std::make_shared<const CoinWarmStartBasis>(*b));
    }
    if (si.isProvenOptimal()) {
        out.status = MilpOutcome::Status::Optimal;
        readSolution(st, x, si.getColSolution(), out);
        out.objective_s = out.bound_s = si.getObjValue() * lp->timeUnit;
        ClpEventHandler none; // the handler's clock is this solve's
        si.getModelPtr()->passInEventHandler(&none);
        out.lp = std::move(lp);
    } else if (watch.cancelled()) {
        out.status = MilpOutcome::Status::Cancelled;
    } else if (si.isProvenPrimalInfeasible()) {
        out.status = MilpOutcome::Status::Infeasible;
    } else if (opt.iterations > 0 && si.getIterationCount() >= opt.iterations) {
        out.status = MilpOutcome::Status::Stopped;
        out.stopped_by = "the iteration limit of " + std::to_string(opt.iterations) + " simplex iterations";
    } else if (watch.stop() || si.isIterationLimitReached()) {
        out.status = MilpOutcome::Status::Stopped;
        out.stopped_by = timeLimit;
    }
}

// The MIP start given to CBC. A large model gets the start's objective as CBC's cutoff rather than the start itself:
// CBC checks a MIP start by solving the LP with its binaries fixed, from no basis, which took minutes on ResNet-50
// (the caller keeps the start and returns it when CBC finds nothing better). Returns the cutoff, "" for none.
std::string giveStart(CbcModel& model, const OsiClpSolverInterface& si, const Indices& x, const MilpOptions& opt) {
    std::string cutoff;
    if (opt.start_compute && si.getNumCols() > kLargeModelColumns) {
        const double* cost = si.getObjCoefficients();
        double objective = 0;
        for (std::size_t t = 0; t < x.R.size(); ++t)
            for (std::size_t p = 0; p < x.R[t].size(); ++p)
                if (x.R[t][p] >= 0 && (*opt.start_compute)[t][p]) objective += cost[x.R[t][p]];
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", objective + 1e-9 * std::max(1.0, std::abs(objective)));
        cutoff = buf;
    } else if (opt.start_compute && opt.start_keep) {
        // CBC matches a MIP start by column name; it fixes the binaries given and solves for FREE and U.
        model.solver()->setIntParam(OsiNameDiscipline, 1);
        for (int c = 0; c < si.getNumCols(); ++c)
            model.solver()->setColName(c, "c" + std::to_string(c));
        std::vector<std::pair<std::string, double>> start;
        auto give = [&](const std::vector<std::vector<int>>& cols, const StageSets& values) {
            for (std::size_t t = 0; t < cols.size(); ++t)
                for (std::size_t p = 0; p < cols[t].size(); ++p)
                    if (cols[t][p] >= 0) start.push_back({"c" + std::to_string(cols[t][p]), values[t][p]});
        };
        give(x.R, *opt.start_compute);
        give(x.S, *opt.start_keep);
        model.setMIPStart(start);
    }
    return cutoff;
}

// The MILP by CBC, one solve at a time.
void solveByCbc(const Stages& st, const MilpOptions& opt, const Watch& watch, const std::string& timeLimit,
                const SolvedLp& lp, MilpOutcome& out) {
    const OsiClpSolverInterface& si = lp.si;
    const Indices& x = lp.x;
    std::unique_lock lock(g_cbc, std::defer_lock);
    while (!lock.try_lock_for(std::chrono::milliseconds(20)))
        if (watch.stop()) {
            out.status = watch.cancelled() ? MilpOutcome::Status::Cancelled : MilpOutcome::Status::Stopped;
            out.stopped_by = timeLimit + " (waiting for another solve)";
            return;
        }
    const double left = std::chrono::duration<double>(watch.deadline - Clock::now()).count();
    CbcModel model(si);
    model.setLogLevel(0);
    CbcWatch handler(watch);
    model.passInEventHandler(&handler);
    CbcSolverUsefulData data;
    data.noPrinting_ = true;
    data.useSignalHandler_ = false;
    CbcMain0(model, data);
    const std::string cutoff = giveStart(model, si, x, opt);
    const std::string sec = std::to_string(std::max(0.01, left));
    // CBC's preprocessing is off: when the time limit (or our event handler) stops it during preprocessing,
    // CglPreProcess::postProcess dereferences a null solver (seen under ASan on linear-32 with a 1 s limit).
    const std::string maxNodes = std::to_string(std::min<long long>(opt.nodes, INT_MAX));
    std::vector<const char*> argv = {"checkmate", "-log", "0", "-timeMode", "elapsed", "-sec", sec.c_str()};
    if (opt.nodes > 0) argv.insert(argv.end(), {"-maxNodes", maxNodes.c_str()});
    // On a large model CBC's root cuts (probing tens of thousands of binaries) run for many seconds between its checks
    // of the clock (22 s past a 60 s limit on ResNet-50): there it branches from the LP at once.
    if (!cutoff.empty()) argv.insert(argv.end(), {"-cutoff", cutoff.c_str(), "-cuts", "off"});
    argv.insert(argv.end(), {"-preprocess", "off", "-solve", "-quit"});
    CbcMain1(
        int(argv.size()), argv.data(), model, [](CbcModel*, int) { return 0; }, data);
    if (model.isNodeLimitReached())
        out.stopped_by = "the node limit of " + std::to_string(opt.nodes) + " branch-and-bound nodes";
    else
        out.stopped_by = timeLimit;
    if (watch.cancelled()) {
        out.status = MilpOutcome::Status::Cancelled;
        return;
    }
    const double* sol = model.bestSolution();
    if (sol) {
        readSolution(st, x, sol, out, opt.window);
        out.objective_s = model.getObjValue() * lp.timeUnit;
        out.bound_s = std::min(out.objective_s, model.getBestPossibleObjValue() * lp.timeUnit);
        out.status = model.isProvenOptimal() ? MilpOutcome::Status::Optimal : MilpOutcome::Status::Incumbent;
    } else if (model.isProvenInfeasible() ||
               (model.status() == 0 && !model.isSecondsLimitReached() && !model.isNodeLimitReached())) {
        out.status = MilpOutcome::Status::Infeasible;
    } else {
        out.status = MilpOutcome::Status::Stopped;
    }
    // A proof (optimal or infeasible) was not stopped by anything.
    if (out.status == MilpOutcome::Status::Optimal || out.status == MilpOutcome::Status::Infeasible)
        out.stopped_by.clear();
}

} // namespace

MilpOutcome solveMilp(const Stages& st, const MilpOptions& opt) {
    MilpOutcome out;
    Watch watch{opt.cancel,
                Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opt.seconds))};
    const std::string timeLimit =
        "the time limit of " + formatSeconds(opt.limit_seconds > 0 ? opt.limit_seconds : opt.seconds);
    if (opt.window && (opt.relax || opt.implementations || !opt.window->compute || !opt.window->keep)) return out;
    auto lp = std::make_shared<SolvedLp>();
    lp->timeUnit = timeUnitOf(st, opt), lp->margin = opt.margin_bytes, lp->limit = opt.limit;
    if (!loadModel(st, opt, watch, timeLimit, *lp, out)) return out;
    OsiClpSolverInterface& si = lp->si;
    out.binaries = 0;
    for (int c = 0; c < si.getNumCols(); ++c)
        out.binaries += si.isInteger(c);
    si.messageHandler()->setLogLevel(0);
    si.getModelPtr()->setLogLevel(0);
    si.setHintParam(OsiDoReducePrint, true, OsiHintTry);
    if (opt.relax)
        solveRelaxation(st, opt, watch, timeLimit, std::move(lp), out);
    else
        solveByCbc(st, opt, watch, timeLimit, *lp, out);
    return out;
}

} // namespace ckpt::checkmate
