// MONeT (Shah, Wu, Lepikhin, Hesse, Lu, Dally, Keutzer 2021, "Memory optimization for deep networks"): which
// implementation each node runs (convolution algorithms trade workspace for time) chosen jointly with what to keep
// and recompute. Checkmate's MILP (schedulers/checkmate_milp.h) with a binary per node and implementation: the
// forwards cost the chosen implementation's time, every computation and the backward hold its workspace, and the
// objective adds the chosen backward's time. Optimal within checkmate's fixed order, as checkmate is.
#include "schedulers/monet.h"

#include "schedulers/checkmate.h"
#include "schedulers/checkmate_milp.h"
#include "schedulers/fit.h"
#include "sim/graph_simulator.h"
#include "util/units.h"

#include <chrono>

namespace ckpt {
namespace {

using namespace checkmate;

// Each node's fastest implementation (forward + backward; ties to the earlier), what plain checkmate would run.
std::vector<int> fastest(const Graph& g) {
    std::vector<int> choice(std::size_t(g.size()), 0);
    for (int v = 0; v < g.size(); ++v) {
        double best = g.node(v).forward + g.node(v).backward;
        for (int c = 1; c < g.implementationCount(v); ++c) {
            const NodeImplementation& alt = g.node(v).alternatives[std::size_t(c - 1)];
            if (alt.forward + alt.backward < best) best = alt.forward + alt.backward, choice[std::size_t(v)] = c;
        }
    }
    return choice;
}

int changed(const std::vector<int>& choice) {
    int k = 0;
    for (int c : choice)
        k += c != 0;
    return k;
}

Result<GraphPlan> solveMonet(const Graph& g, const Hardware& hw, const Params& params, const GraphSolveContext& ctx) {
    if (ctx.cancelled()) return fail("monet: cancelled");
    const std::int64_t limit = levelZeroLimit(hw, ctx.budget);
    GraphPlan out;
    const std::vector<int> quick = fastest(g);
    if (limit <= 0) { // nothing binds: every node its fastest, everything kept
        auto applied = g.withImplementations(quick);
        if (!applied) return applied.errorValue();
        out.actions = graphStoreAll(*applied);
        out.predicted_makespan_s = applied->totalForward() + applied->totalBackward();
        out.implementation = quick;
        out.params["optimal"] = "yes";
        out.params["implementations_changed"] = std::to_string(changed(quick));
        return out;
    }
    if (!g.hasAlternatives()) { // nothing to choose: checkmate's MILP, with its warm starts
        auto plain = checkmateWithin(g, limit, params, ctx);
        if (!plain) {
            std::string why = plain.error();
            if (why.rfind("checkmate: ", 0) == 0) why = "monet: " + why.substr(11);
            return plain.errorValue().infeasible ? Result<GraphPlan>(infeasible(why)) : Result<GraphPlan>(fail(why));
        }
        out.actions = std::move(plain->actions);
        out.predicted_makespan_s = plain->predicted_makespan_s;
        out.params = plain->params;
        out.params.erase("mode");
        out.params["implementations_changed"] = "0 (no node has another implementation: checkmate's plan)";
        return out;
    }
    const Stages st(g);
    // The MILP grows with the implementations: a copy of the forward columns per implementation.
    std::size_t most = 1;
    std::vector<std::vector<NodeImplementation>> choices(std::size_t(st.n));
    for (int p = 0; p < st.n; ++p) {
        const int v = st.order[std::size_t(p)];
        const GraphNode& node = g.node(v);
        choices[std::size_t(p)].push_back(
            NodeImplementation{"default", node.forward, node.backward, node.workspace_bytes});
        choices[std::size_t(p)].insert(choices[std::size_t(p)].end(), node.alternatives.begin(),
                                       node.alternatives.end());
        most = std::max(most, choices[std::size_t(p)].size());
    }
    const double maxBytes = double(params.integer("max_memory_mb")) * 1024 * 1024;
    const MilpSize size = countMilp(st, limit, ctx.cancel);
    if (ctx.cancelled()) return fail("monet: cancelled");
    if (size.bytes * double(1 + most) > maxBytes)
        return overLimit("monet: the MILP for " + std::to_string(st.n) + " nodes with up to " + std::to_string(most) +
                         " implementations each would take about " + formatBytes(size.bytes * double(1 + most)) +
                         ", over max_memory_mb (" + std::to_string(params.integer("max_memory_mb")) + " MiB)");
    MilpOptions opt;
    opt.limit = limit;
    opt.seconds = params.real("time_limit");
    opt.nodes = params.integer("node_limit");
    opt.cancel = ctx.cancel;
    opt.implementations = &choices;
    const auto started = std::chrono::steady_clock::now();
    MilpOutcome solved;
    std::optional<Graph> applied;
    std::vector<int> choice;
    StagePlan plan;
    bool found = false;
    std::string simError; // the MILP's plan refused by the simulator (tolerances), at both margins
    // CBC's tolerances may let a plan pass the limit by a fraction of a byte: then again a hundred-thousandth under.
    for (double margin : {0.0, 1e-5 * double(limit)}) {
        opt.margin_bytes = margin;
        opt.seconds =
            std::max(0.01, params.real("time_limit") -
                               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
        solved = solveMilp(st, opt);
        if (solved.status != MilpOutcome::Status::Optimal && solved.status != MilpOutcome::Status::Incumbent) break;
        choice.assign(std::size_t(g.size()), 0);
        for (int p = 0; p < st.n; ++p)
            choice[std::size_t(st.order[std::size_t(p)])] = solved.implementation[std::size_t(p)];
        auto made = g.withImplementations(choice);
        if (!made) return made.errorValue();
        applied = std::move(*made);
        plan = buildPlan(Stages(*applied), solved.compute, solved.keep);
        auto check = simulateGraph(*applied, plan.actions, SimOptions{limit, false});
        found = check.ok();
        if (!check) simError = check.error();
        if (check || !check.errorValue().infeasible) break;
    }
    if (ctx.cancelled()) return fail("monet: cancelled");
    const bool optimal = found && solved.status == MilpOutcome::Status::Optimal;
    {
        // Never return worse than checkmate on every node's fastest implementation, which may return a fast
        // scheduler's plan in another order than its own (and so faster than its space's optimum).
        auto fast = g.withImplementations(quick);
        if (!fast) return fast.errorValue();
        auto other = checkmateWithin(*fast, limit, params, ctx);
        if (other && (!found || other->predicted_makespan_s < plan.makespan_s)) {
            out.actions = other->actions;
            out.predicted_makespan_s = other->predicted_makespan_s;
            out.implementation = quick;
            out.params["optimal"] =
                !found ? "no: " + solved.stopped_by +
                             " was reached first; checkmate on every node's fastest "
                             "implementation"
                : optimal ? "no: checkmate on every node's fastest implementation is faster than the MILP's optimum "
                            "(its plan reverses nodes in another order)"
                          : "no: checkmate on every node's fastest implementation is faster than the MILP's "
                            "incumbent at " +
                                solved.stopped_by;
            out.params["checkmate_on_fastest"] = other->params.count("optimal") ? other->params.at("optimal") : "";
            out.params["implementations_changed"] = std::to_string(changed(quick));
            return out;
        }
    }
    if (!found) {
        if (solved.status == MilpOutcome::Status::Infeasible)
            return infeasible("monet: no schedule in checkmate's order, with any implementations, fits the budget "
                              "of " +
                              formatBytes(double(limit)));
        if (solved.status == MilpOutcome::Status::Cancelled) return fail("monet: cancelled");
        if (!simError.empty()) return infeasible("monet: the MILP's plan does not pass the simulator: " + simError);
        return infeasible("monet: " + solved.stopped_by + " was reached before any plan was found; raise it");
    }
    out.actions = std::move(plan.actions);
    out.predicted_makespan_s = plan.makespan_s;
    out.implementation = choice;
    out.params["optimal"] = optimal ? (opt.margin_bytes == 0 ? "yes" : "yes, for a budget a hundred-thousandth smaller")
                                    : "no: " + solved.stopped_by + " was reached; the best incumbent";
    out.params["implementations_changed"] = std::to_string(changed(choice));
    return out;
}

} // namespace

GraphSchedulerInfo monetScheduler() {
    GraphSchedulerInfo s;
    s.name = "monet";
    s.description = "Each node's implementation (time against workspace) chosen jointly with what to keep and "
                    "recompute: checkmate's MILP with a binary per node and implementation, solved with CBC; optimal "
                    "within checkmate's order, never slower than checkmate on every node's fastest implementation";
    s.paper = "Shah et al., Memory Optimization for Deep Networks (MONeT), ICLR 2021";
    s.optimality = Optimality::Optimal;
    s.params = {milpTimeLimitParam(), milpNodeLimitParam(), milpMemoryParam()};
    s.solve = solveMonet;
    return s;
}

} // namespace ckpt
