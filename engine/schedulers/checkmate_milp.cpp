// Checkmate's MILP (Jain et al., MLSys 2020, section 4) in the graph simulator's memory model, solved with CBC.
// Binary R[t,p] (stage t computes position p) and S[t,p] (p held at the start of stage t); continuous FREE[t,i,k]
// (i released right after computation k of stage t) and U[t,k] (outputs held right after computation k).
#include "schedulers/checkmate_milp.h"

#include <CbcEventHandler.hpp>
#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <ClpEventHandler.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
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

// Rows and columns in CSR form, loaded into Clp at once.
struct Model {
    std::vector<double> colLo, colUp, obj;
    std::vector<int> integers;
    std::vector<int> starts{0}, index;
    std::vector<double> value, rowLo, rowUp;

    int col(double lo, double up, double cost, bool integer) {
        if (integer) integers.push_back(int(colLo.size()));
        colLo.push_back(lo), colUp.push_back(up), obj.push_back(cost);
        return int(colLo.size()) - 1;
    }
    // Terms with a column of -1 (a variable the stage structure rules out, fixed at 0) are dropped.
    void row(const std::vector<std::pair<int, double>>& terms, double lo, double up) {
        for (const auto& [c, v] : terms)
            if (c >= 0 && v != 0) index.push_back(c), value.push_back(v);
        starts.push_back(int(index.size()));
        rowLo.push_back(lo), rowUp.push_back(up);
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

constexpr double kInf = 1e30;

struct Indices {
    std::vector<std::vector<int>> R, S; // column or -1; S has T + 1 rows
};

// Memory in units of the limit and time in units of the slowest forward keep CBC's tolerances meaningful. Byte counts
// are integers, so the limit may gain half a byte.
Indices build(const Stages& st, std::int64_t limit, double margin, double timeUnit, Model& m) {
    const int n = st.n, T = st.T;
    const double unit = double(limit);
    const double cap = (double(limit) + 0.5 - margin) / unit;
    Indices x;
    x.R.assign(std::size_t(T), std::vector<int>(std::size_t(n), -1));
    x.S.assign(std::size_t(T + 1), std::vector<int>(std::size_t(n), -1));
    for (int t = 0; t < T; ++t)
        for (int p = 0; p < n; ++p) {
            if (st.canCompute(t, p))
                x.R[std::size_t(t)][std::size_t(p)] = m.col(st.forced(t, p) ? 1 : 0, 1, st.forward(p) / timeUnit, true);
            if (st.canHold(t, p)) x.S[std::size_t(t)][std::size_t(p)] = m.col(0, 1, 0, true);
        }
    for (int t = 0; t < T; ++t) {
        const auto& R = x.R[std::size_t(t)];
        const auto& S = x.S[std::size_t(t)];
        const auto& next = x.S[std::size_t(t + 1)];
        auto at = [](const std::vector<int>& v, int p) { return v[std::size_t(p)]; };
        std::vector<int> cands;
        for (int p = 0; p <= st.last(t); ++p)
            if (at(R, p) >= 0) cands.push_back(p);
        for (int p : cands) {
            for (int u : st.inputs[std::size_t(p)]) // an input is held or computed earlier in the stage
                m.row({{at(R, p), 1}, {at(R, u), -1}, {at(S, u), -1}}, -kInf, 0);
            if (at(S, p) >= 0) m.row({{at(R, p), 1}, {at(S, p), 1}}, -kInf, 1); // a held output is not recomputed
        }
        for (int p = 0; p < n; ++p)
            if (at(next, p) >= 0) m.row({{at(next, p), 1}, {at(S, p), -1}, {at(R, p), -1}}, -kInf, 0);
        for (int p = 0; p <= st.last(t); ++p)
            if (st.needed(t, p)) m.row({{at(S, p), 1}, {at(R, p), 1}}, 1, kInf);
        // FREE[t,i,k] <= R[t,k], 1 - S[t+1,i], 1 - R[t,q] for each later user q: i goes after its last use in the
        // stage unless kept. Releasing only lowers U, so the upper bounds suffice, and FREE need not be integer: at
        // integer R, S its bounds are 0 or 1 and any fraction only counts more memory.
        std::vector<std::vector<std::pair<int, double>>> freed(static_cast<std::size_t>(n));
        for (int i = 0; i <= st.last(t); ++i) {
            if ((at(R, i) < 0 && at(S, i) < 0) || st.needed(t, i)) continue;
            std::vector<int> ks;
            if (at(R, i) >= 0) ks.push_back(i);
            for (int q : st.consumers[std::size_t(i)])
                if (q <= st.last(t) && at(R, q) >= 0) ks.push_back(q);
            std::sort(ks.begin(), ks.end());
            for (std::size_t j = 0; j < ks.size(); ++j) {
                int f = m.col(0, 1, 0, false);
                m.row({{f, 1}, {at(R, ks[j]), -1}}, -kInf, 0);
                if (at(next, i) >= 0) m.row({{f, 1}, {at(next, i), 1}}, -kInf, 1);
                for (std::size_t q = j + 1; q < ks.size(); ++q)
                    m.row({{f, 1}, {at(R, ks[q]), 1}}, -kInf, 1);
                freed[std::size_t(ks[j])].push_back({f, double(st.bytes(i)) / unit});
            }
        }
        // U after computation k = U before it (the previous U less what went after the previous computation, or the
        // held outputs at the stage's start) + its output; while it runs, its workspace and the gradients add.
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
            m.row({{u, 1}, {at(R, k), double(st.workspace(k)) / unit}}, -kInf, cap - grads);
            prevU = u, prevK = k;
        }
        if (t < n) continue;
        const double rhs = cap - grads - double(st.backwardExtra(t)) / unit;
        std::vector<std::pair<int, double>> terms;
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
    return x;
}

void readSolution(const Stages& st, const Indices& x, const double* sol, MilpOutcome& out) {
    out.compute.assign(std::size_t(st.T), std::vector<char>(std::size_t(st.n), 0));
    out.keep.assign(std::size_t(st.T + 1), std::vector<char>(std::size_t(st.n), 0));
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

// CbcMain0/CbcMain1 keep state in statics: one solve at a time. A waiting solve still honours cancel and its deadline.
std::timed_mutex g_cbc;

} // namespace

MilpOutcome solveMilp(const Stages& st, const MilpOptions& opt) {
    MilpOutcome out;
    Watch watch{opt.cancel,
                Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opt.seconds))};
    double timeUnit = 0;
    for (int p = 0; p < st.n; ++p)
        timeUnit = std::max(timeUnit, st.forward(p));
    if (timeUnit <= 0) timeUnit = 1;
    Model m;
    Indices x = build(st, opt.limit, opt.margin_bytes, timeUnit, m);
    if (watch.cancelled()) return out.status = MilpOutcome::Status::Cancelled, out;
    OsiClpSolverInterface si;
    m.load(si);
    si.messageHandler()->setLogLevel(0);
    si.getModelPtr()->setLogLevel(0);
    si.setHintParam(OsiDoReducePrint, true, OsiHintTry);
    if (opt.relax) {
        ClpWatch handler(watch);
        si.getModelPtr()->passInEventHandler(&handler);
        si.getModelPtr()->setMaximumWallSeconds(opt.seconds);
        si.initialSolve();
        if (si.isProvenOptimal()) {
            out.status = MilpOutcome::Status::Optimal;
            readSolution(st, x, si.getColSolution(), out);
            out.objective_s = out.bound_s = si.getObjValue() * timeUnit;
        } else if (watch.cancelled()) {
            out.status = MilpOutcome::Status::Cancelled;
        } else if (si.isProvenPrimalInfeasible()) {
            out.status = MilpOutcome::Status::Infeasible;
        } else {
            out.status = watch.stop() || si.isIterationLimitReached() ? MilpOutcome::Status::TimedOut
                                                                      : MilpOutcome::Status::Failed;
        }
        return out;
    }
    std::unique_lock lock(g_cbc, std::defer_lock);
    while (!lock.try_lock_for(std::chrono::milliseconds(20)))
        if (watch.stop())
            return out.status = watch.cancelled() ? MilpOutcome::Status::Cancelled : MilpOutcome::Status::TimedOut, out;
    const double left = std::chrono::duration<double>(watch.deadline - Clock::now()).count();
    CbcModel model(si);
    model.setLogLevel(0);
    CbcWatch handler(watch);
    model.passInEventHandler(&handler);
    CbcSolverUsefulData data;
    data.noPrinting_ = true;
    data.useSignalHandler_ = false;
    CbcMain0(model, data);
    if (opt.start_compute && opt.start_keep) {
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
    const std::string sec = std::to_string(std::max(0.01, left));
    // CBC's preprocessing is off: when the time limit (or our event handler) stops it during preprocessing,
    // CglPreProcess::postProcess dereferences a null solver (seen under ASan on linear-32 with a 1 s limit).
    const char* argv[] = {"checkmate", "-log",        "0",   "-timeMode", "elapsed", "-sec",
                          sec.c_str(), "-preprocess", "off", "-solve",    "-quit"};
    CbcMain1(
        int(std::size(argv)), argv, model, [](CbcModel*, int) { return 0; }, data);
    if (watch.cancelled()) return out.status = MilpOutcome::Status::Cancelled, out;
    const double* sol = model.bestSolution();
    if (sol) {
        readSolution(st, x, sol, out);
        out.objective_s = model.getObjValue() * timeUnit;
        out.bound_s = std::min(out.objective_s, model.getBestPossibleObjValue() * timeUnit);
        out.status = model.isProvenOptimal() ? MilpOutcome::Status::Optimal : MilpOutcome::Status::Incumbent;
    } else if (model.isProvenInfeasible() || (model.status() == 0 && !model.isSecondsLimitReached())) {
        out.status = MilpOutcome::Status::Infeasible;
    } else {
        out.status = MilpOutcome::Status::TimedOut;
    }
    return out;
}

} // namespace ckpt::checkmate
