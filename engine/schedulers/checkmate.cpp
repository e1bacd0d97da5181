// Jain et al., "Checkmate: Breaking the Memory Wall with Optimal Tensor Rematerialization" (MLSys 2020): stages in a
// fixed order of the forward and backward operations, each computing one operation for the first time after any
// recomputations it chooses; the MILP (checkmate_milp.cpp) picks them, or its LP relaxation is rounded (section 5).
#include "schedulers/checkmate.h"

#include "schedulers/checkmate_milp.h"
#include "schedulers/fit.h"
#include "sim/graph_simulator.h"
#include "util/units.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>

namespace ckpt {
namespace checkmate {

Stages::Stages(const Graph& g) : graph(g), n(g.size()), T(2 * g.size()), order(g.topologicalOrder()) {
    const auto N = std::size_t(n);
    pos.assign(N, 0);
    for (int k = 0; k < n; ++k)
        pos[std::size_t(order[std::size_t(k)])] = k;
    inputs.assign(N, {}), consumers.assign(N, {});
    for (int k = 0; k < n; ++k) {
        for (int u : g.inputs(order[std::size_t(k)]))
            inputs[std::size_t(k)].push_back(pos[std::size_t(u)]);
        for (int c : g.consumers(order[std::size_t(k)]))
            consumers[std::size_t(k)].push_back(pos[std::size_t(c)]);
        std::sort(inputs[std::size_t(k)].begin(), inputs[std::size_t(k)].end());
        std::sort(consumers[std::size_t(k)].begin(), consumers[std::size_t(k)].end());
    }
    // Position p is reversed from stage 2n - p on; its consumers all from stage 2n - (its first consumer).
    m_deadFrom.assign(N, 0);
    for (int p = 0; p < n; ++p) {
        const auto& cs = consumers[std::size_t(p)];
        int consumersDone = cs.empty() ? 0 : 2 * n - cs.front();
        m_deadFrom[std::size_t(p)] =
            graph.node(order[std::size_t(p)]).needs_output ? std::max(consumersDone, 2 * n - p) : consumersDone;
    }
    m_grads.assign(std::size_t(T), 0), m_extra.assign(std::size_t(T), 0);
    for (int t = n; t < T; ++t) {
        const int b = last(t);
        for (int p = 0; p <= b; ++p)
            if (!consumers[std::size_t(p)].empty() && consumers[std::size_t(p)].back() > b)
                m_grads[std::size_t(t)] += bytes(p);
        std::int64_t extra = workspace(b) + (consumers[std::size_t(b)].empty() ? bytes(b) : 0);
        for (int u : inputs[std::size_t(b)])
            if (consumers[std::size_t(u)].back() == b) extra += bytes(u);
        m_extra[std::size_t(t)] = extra;
    }
}

bool Stages::needed(int t, int p) const {
    if (t < n) return false;
    const int b = last(t);
    const GraphNode& node = graph.node(order[std::size_t(b)]);
    if (p == b) return node.needs_output;
    return node.needs_inputs && std::binary_search(inputs[std::size_t(b)].begin(), inputs[std::size_t(b)].end(), p);
}

StagePlan buildPlan(const Stages& st, const StageSets& compute, const StageSets& keep) {
    const int n = st.n;
    StagePlan plan;
    std::vector<char> held(std::size_t(n), 0), done(std::size_t(n), 0);
    auto node = [&](int p) { return st.order[std::size_t(p)]; };
    // The simulator releases dead outputs by itself; the plan must not free them again.
    auto dead = [&](int p) {
        for (int c : st.consumers[std::size_t(p)])
            if (!done[std::size_t(c)]) return false;
        return done[std::size_t(p)] || !st.graph.node(node(p)).needs_output;
    };
    for (int t = 0; t < st.T; ++t) {
        const auto& C = compute[std::size_t(t)];
        const auto& K = keep[std::size_t(t + 1)];
        std::vector<int> lastUse(std::size_t(n), -1);
        for (int q = 0; q <= st.last(t); ++q)
            if (C[std::size_t(q)])
                for (int u : st.inputs[std::size_t(q)])
                    lastUse[std::size_t(u)] = std::max(lastUse[std::size_t(u)], q);
        auto release = [&](int p) {
            if (!held[std::size_t(p)] || K[std::size_t(p)] || st.needed(t, p)) return;
            plan.actions.push_back(GraphAction::free(node(p)));
            held[std::size_t(p)] = 0;
        };
        for (int p = 0; p < n; ++p)
            if (lastUse[std::size_t(p)] < 0) release(p);
        for (int q = 0; q <= st.last(t); ++q) {
            if (!C[std::size_t(q)]) continue;
            plan.actions.push_back(GraphAction::forward(node(q)));
            plan.makespan_s += st.forward(q);
            held[std::size_t(q)] = !dead(q);
            for (int u : st.inputs[std::size_t(q)])
                if (lastUse[std::size_t(u)] == q) release(u);
            if (lastUse[std::size_t(q)] < 0) release(q);
        }
        if (t >= st.n) {
            const int b = st.last(t);
            plan.actions.push_back(GraphAction::backward(node(b)));
            plan.makespan_s += st.graph.node(node(b)).backward;
            done[std::size_t(b)] = 1;
            if (dead(b)) held[std::size_t(b)] = 0;
            for (int u : st.inputs[std::size_t(b)])
                if (dead(u)) held[std::size_t(u)] = 0;
        }
        for (int p = 0; p < n; ++p)
            if (held[std::size_t(p)] && !K[std::size_t(p)])
                plan.actions.push_back(GraphAction::free(node(p))), held[std::size_t(p)] = 0;
    }
    return plan;
}

} // namespace checkmate

namespace {

using namespace checkmate;

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string number(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// The paper's necessary condition: every operation must fit alone, with the tensors it reads and writes, its
// workspace and (in the fixed backward order) the gradients alive at that point.
std::pair<std::int64_t, std::string> largestFootprint(const Stages& st) {
    std::pair<std::int64_t, std::string> best{0, ""};
    for (int p = 0; p < st.n; ++p) {
        std::int64_t f = st.bytes(p) + st.workspace(p);
        for (int u : st.inputs[std::size_t(p)])
            f += st.bytes(u);
        if (f > best.first) best = {f, "forward of '" + st.graph.node(st.order[std::size_t(p)]).id + "'"};
    }
    for (int t = st.n; t < st.T; ++t) {
        std::int64_t f = st.grads(t) + st.backwardExtra(t);
        for (int p = 0; p <= st.last(t); ++p)
            if (st.needed(t, p)) f += st.bytes(p);
        if (f > best.first) best = {f, "backward of '" + st.graph.node(st.order[std::size_t(st.last(t))]).id + "'"};
    }
    return best;
}

// Stage sets from wanted keep decisions (rounded S): each stage computes what it must (its first computation, what
// its backward reads, and optionally what it should keep but does not hold) closed over missing inputs, and keeps
// what it wanted among what it holds.
std::pair<StageSets, StageSets> repair(const Stages& st, const StageSets& wanted, bool computeToKeep) {
    const auto N = std::size_t(st.n);
    StageSets compute(std::size_t(st.T), std::vector<char>(N, 0)), keep(std::size_t(st.T + 1), std::vector<char>(N, 0));
    for (int t = 0; t < st.T; ++t) {
        const auto& held = keep[std::size_t(t)];
        auto& C = compute[std::size_t(t)];
        std::vector<char> want(N, 0);
        for (int p = 0; p <= st.last(t); ++p)
            want[std::size_t(p)] =
                st.forced(t, p) || st.needed(t, p) ||
                (computeToKeep && wanted[std::size_t(t + 1)][std::size_t(p)] && st.canHold(t + 1, p));
        for (int p = st.last(t); p >= 0; --p)
            if (want[std::size_t(p)] && !held[std::size_t(p)]) {
                C[std::size_t(p)] = 1;
                for (int u : st.inputs[std::size_t(p)])
                    want[std::size_t(u)] = 1;
            }
        for (int p = 0; p < st.n; ++p)
            keep[std::size_t(t + 1)][std::size_t(p)] = wanted[std::size_t(t + 1)][std::size_t(p)] &&
                                                       st.canHold(t + 1, p) &&
                                                       (held[std::size_t(p)] || C[std::size_t(p)]);
    }
    // An output kept into a stage that neither uses it nor keeps it further is dropped, latest stage first: the MILP
    // counts it through that whole stage, and a MIP start must fit in the MILP's accounting.
    for (int t = st.T - 1; t > 0; --t)
        for (int p = 0; p < st.n; ++p) {
            if (!keep[std::size_t(t)][std::size_t(p)] || keep[std::size_t(t + 1)][std::size_t(p)] || st.needed(t, p))
                continue;
            bool used = false;
            for (int q : st.consumers[std::size_t(p)])
                used = used || (q <= st.last(t) && compute[std::size_t(t)][std::size_t(q)]);
            if (!used) keep[std::size_t(t)][std::size_t(p)] = 0;
        }
    return {std::move(compute), std::move(keep)};
}

struct Rounded {
    bool found = false;
    StagePlan plan;
    StageSets compute, keep;
    int tried = 0;
};

// Deterministic rounding at several thresholds and randomized rounding (S = 1 with the LP's probability), each
// repaired two ways; the fastest plan within the limit wins. A fixed seed keeps the result reproducible.
Rounded roundLp(const Graph& g, const Stages& st, const std::vector<std::vector<double>>& s, std::int64_t limit) {
    Rounded best;
    auto consider = [&](const StageSets& wanted) {
        for (bool computeToKeep : {true, false}) {
            auto [compute, keep] = repair(st, wanted, computeToKeep);
            StagePlan plan = buildPlan(st, compute, keep);
            ++best.tried;
            if (best.found && plan.makespan_s >= best.plan.makespan_s) continue;
            if (!simulateGraph(g, plan.actions, SimOptions{limit, false})) continue;
            best.found = true, best.plan = std::move(plan), best.compute = std::move(compute);
            best.keep = std::move(keep);
        }
    };
    StageSets wanted(s.size(), std::vector<char>(std::size_t(st.n), 0));
    for (double threshold : {0.5, 0.3, 0.7, 0.1, 0.9, 0.01, 0.99, 2.0}) {
        for (std::size_t t = 0; t < s.size(); ++t)
            for (std::size_t p = 0; p < s[t].size(); ++p)
                wanted[t][p] = s[t][p] >= threshold;
        consider(wanted);
    }
    std::mt19937_64 rng(20200302);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    for (int sample = 0; sample < 16; ++sample) {
        for (std::size_t t = 0; t < s.size(); ++t)
            for (std::size_t p = 0; p < s[t].size(); ++p)
                wanted[t][p] = coin(rng) < s[t][p];
        consider(wanted);
    }
    return best;
}

Error milpError(MilpOutcome::Status status, double seconds, std::int64_t limit, std::int64_t footprint) {
    switch (status) {
    case MilpOutcome::Status::Cancelled:
        return fail("checkmate: cancelled");
    case MilpOutcome::Status::Infeasible:
        return infeasible("checkmate: the budget of " + formatBytes(double(limit)) + " (" + std::to_string(limit) +
                          " B) is too small: the solver proved that no schedule in Checkmate's stage order fits "
                          "(the MILP, or already its LP relaxation, is infeasible), although every operation alone "
                          "fits, needing at most " +
                          std::to_string(footprint) + " B)");
    case MilpOutcome::Status::TimedOut:
        return infeasible("checkmate: no schedule found and no proof of infeasibility within the time limit of " +
                          number(seconds) + " s; raise time_limit or the budget");
    default:
        return fail("checkmate: CBC failed to solve the MILP");
    }
}

// The MILP, started from the best rounding. Exact at first (whole bytes); CBC's tolerances may let a solution overshoot
// by a few bytes per million, which the simulator refuses: then once more with rows a hundred-thousandth under the
// limit. At the time limit, the better of CBC's incumbent and the rounding.
Result<StagePlan> milpPlan(const Graph& g, const Stages& st, MilpOptions opt, Rounded& r,
                           std::map<std::string, std::string>& params, double lpBound, double lpSeconds) {
    const auto started = std::chrono::steady_clock::now();
    const double seconds = opt.seconds;
    // CBC's root solves the LP again and cannot be interrupted inside it: when that would overrun the time limit,
    // the rounding stands.
    if (r.found && 2 * lpSeconds > seconds) {
        params["optimal"] =
            "no: too little time left for CBC after the LP (" + number(lpSeconds) + " s); the LP rounding's plan";
        return std::move(r.plan);
    }
    opt.relax = false;
    if (r.found) opt.start_compute = &r.compute, opt.start_keep = &r.keep;
    MilpOutcome solved;
    StagePlan plan;
    for (double margin : {0.0, 1e-5 * double(opt.limit)}) {
        opt.margin_bytes = margin;
        opt.seconds = std::max(0.01, seconds - secondsSince(started));
        solved = solveMilp(st, opt);
        if (solved.status != MilpOutcome::Status::Optimal && solved.status != MilpOutcome::Status::Incumbent) break;
        plan = buildPlan(st, solved.compute, solved.keep);
        auto check = simulateGraph(g, plan.actions, {opt.limit, false});
        if (check || !check.errorValue().infeasible) break;
    }
    const bool found = solved.status == MilpOutcome::Status::Optimal || solved.status == MilpOutcome::Status::Incumbent;
    if (found && (!r.found || plan.makespan_s <= r.plan.makespan_s)) {
        const bool exact = opt.margin_bytes == 0;
        if (exact) params["milp_bound_s"] = number(std::max(solved.bound_s + g.totalBackward(), lpBound));
        params["optimal"] = solved.status != MilpOutcome::Status::Optimal
                                ? "no: the time limit was reached; the best incumbent"
                            : exact ? "yes"
                                    : "yes, for a budget a hundred-thousandth smaller (solver tolerances)";
        return plan;
    }
    if (r.found && solved.status != MilpOutcome::Status::Cancelled) {
        params["optimal"] = "no: the time limit was reached; the LP rounding's plan";
        return std::move(r.plan);
    }
    return milpError(solved.status, seconds, opt.limit, largestFootprint(st).first);
}

Result<GraphPlan> solveCheckmate(const Graph& g, const Hardware& hw, const Params& params,
                                 const GraphSolveContext& ctx) {
    if (ctx.cancelled()) return fail("checkmate: cancelled");
    const auto started = std::chrono::steady_clock::now();
    const std::int64_t limit = levelZeroLimit(hw, ctx.budget);
    const double seconds = params.real("time_limit");
    const bool rounding = params.text("mode") == "lp-rounding";
    const Stages st(g);
    const double backward = g.totalBackward();
    GraphPlan out;
    StagePlan plan;
    if (limit <= 0) { // no budget: every output kept until its backward, nothing recomputed
        StageSets compute(std::size_t(st.T), std::vector<char>(std::size_t(st.n), 0)), keep(std::size_t(st.T + 1));
        for (int t = 0; t <= st.T; ++t)
            for (int p = 0; p < st.n; ++p) {
                if (t < st.n && p == t) compute[std::size_t(t)][std::size_t(p)] = 1;
                keep[std::size_t(t)].push_back(st.canHold(t, p));
            }
        plan = buildPlan(st, compute, keep);
        out.params["optimal"] = "yes";
    } else {
        const auto [footprint, op] = largestFootprint(st);
        if (footprint > limit)
            return infeasible("checkmate: the largest single-operation footprint, the " + op + ", is " +
                              formatBytes(double(footprint)) + " (" + std::to_string(footprint) +
                              " B with its inputs, output, workspace and live gradients), over the budget of " +
                              formatBytes(double(limit)) + " (" + std::to_string(limit) + " B)");
        // The LP relaxation first, in both modes: its rounding is lp-rounding's plan, and the MILP's first incumbent.
        MilpOptions opt;
        opt.limit = limit, opt.relax = true, opt.seconds = seconds, opt.cancel = ctx.cancel;
        MilpOutcome lp = solveMilp(st, opt);
        if (lp.status != MilpOutcome::Status::Optimal) return milpError(lp.status, seconds, limit, footprint);
        out.params["lp_bound_s"] = number(lp.objective_s + backward);
        Rounded r = roundLp(g, st, lp.keep_value, limit);
        // The paper's budget search: roundings of the LP at a smaller budget overshoot it less, so they fit the real
        // one more often. Each try costs one more LP, so only while three more fit in the time left.
        const double lpSeconds = secondsSince(started);
        for (double factor : {0.9, 0.75, 0.6, 0.45}) {
            if (lpSeconds * 3 > seconds - secondsSince(started) || ctx.cancelled()) break;
            MilpOptions tighter = opt;
            tighter.margin_bytes = (1 - factor) * double(limit);
            tighter.seconds = seconds - secondsSince(started);
            MilpOutcome lower = solveMilp(st, tighter);
            if (lower.status != MilpOutcome::Status::Optimal) break;
            Rounded more = roundLp(g, st, lower.keep_value, limit);
            more.tried += r.tried;
            if (more.found && (!r.found || more.plan.makespan_s < r.plan.makespan_s)) {
                r = std::move(more);
                out.params["lp_rounding_budget_factor"] = number(factor);
            } else {
                r.tried = more.tried;
            }
        }
        if (ctx.cancelled()) return fail("checkmate: cancelled");
        out.params["roundings_tried"] = std::to_string(r.tried);
        if (rounding && r.found) {
            plan = std::move(r.plan);
            out.params["optimal"] = "unknown (rounded)";
        } else {
            if (rounding) out.params["rounding"] = "no rounding fit the budget; the MILP's plan";
            opt.seconds = seconds - secondsSince(started);
            auto solved = milpPlan(g, st, opt, r, out.params, lp.objective_s + backward, lpSeconds);
            if (!solved) return solved.errorValue();
            plan = std::move(*solved);
        }
    }
    SimOptions sim{limit, false};
    auto tl = simulateGraph(g, plan.actions, sim);
    if (!tl) return fail("checkmate: the plan does not validate (a bug): " + tl.error(), tl.errorIndex());
    out.actions = std::move(plan.actions);
    out.predicted_makespan_s = plan.makespan_s;
    out.predicted_peak_bytes = tl->totals.peak_bytes[0];
    return out;
}

} // namespace

GraphSchedulerInfo checkmateScheduler() {
    GraphSchedulerInfo s;
    s.name = "checkmate";
    s.description =
        "MILP over which outputs each stage recomputes and keeps, in a fixed forward/backward order, solved "
        "with CBC (or its LP relaxation rounded)";
    s.paper = "Jain et al., Checkmate: Breaking the Memory Wall with Optimal Tensor Rematerialization, MLSys 2020";
    s.optimality = Optimality::Optimal;
    ParamSpec mode;
    mode.name = "mode";
    mode.description = "milp: the exact MILP within the time limit; lp-rounding: the LP relaxation's keep decisions "
                       "rounded (deterministic thresholds and randomized), the fastest that fits";
    mode.type = ParamType::Choice;
    mode.default_value = "milp";
    mode.choices = {"milp", "lp-rounding"};
    ParamSpec limit;
    limit.name = "time_limit";
    limit.description = "seconds for the solver; at the limit the best plan found so far is returned, marked not "
                        "proven optimal";
    limit.type = ParamType::Real;
    limit.default_value = "60";
    limit.min = 0.01;
    limit.max = 1e6;
    s.params = {mode, limit};
    s.solve = solveCheckmate;
    return s;
}

} // namespace ckpt
