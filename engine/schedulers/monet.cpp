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

// Without a budget nothing binds: every node its fastest implementation, everything kept.
Result<GraphPlan> storeAllFastest(const Graph& g, const std::vector<int>& quick) {
    GraphPlan out;
    auto applied = g.withImplementations(quick);
    if (!applied) return applied.errorValue();
    out.actions = graphStoreAll(*applied);
    out.predicted_makespan_s = applied->totalForward() + applied->totalBackward();
    out.implementation = quick;
    out.params["optimal"] = "yes";
    out.params["implementations_changed"] = std::to_string(changed(quick));
    return out;
}

// Nothing to choose: checkmate's MILP, with its warm starts.
Result<GraphPlan> checkmatePlan(const Graph& g, std::int64_t limit, const Params& params,
                                const GraphSolveContext& ctx) {
    GraphPlan out;
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

// Per position of the stages, the implementations to choose from (the node's own first); `most` gets the largest
// count.
std::vector<std::vector<NodeImplementation>> implementationChoices(const Graph& g, const Stages& st,
                                                                   std::size_t& most) {
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
    return choices;
}

// What the MILP with implementations gave: its outcome, the implementations it chose, and its plan when the
// simulator accepts it (found).
struct MonetMilp {
    MilpOutcome solved;
    double margin = 0; // the margin of the last solve
    std::optional<Graph> applied;
    std::vector<int> choice;
    StagePlan plan;
    bool found = false;
    std::string simError; // the MILP's plan refused by the simulator (tolerances), at both margins
};

Result<MonetMilp> solveWithImplementations(const Graph& g, const Stages& st, std::int64_t limit, const Params& params,
                                           const GraphSolveContext& ctx,
                                           const std::vector<std::vector<NodeImplementation>>& choices) {
    MilpOptions opt;
    opt.limit = limit;
    opt.seconds = params.real("time_limit");
    opt.nodes = params.integer("node_limit");
    opt.cancel = ctx.cancel;
    opt.implementations = &choices;
    const auto started = std::chrono::steady_clock::now();
    MonetMilp r;
    // CBC's tolerances may let a plan pass the limit by a fraction of a byte: then again a hundred-thousandth under.
    for (double margin : {0.0, 1e-5 * double(limit)}) {
        opt.margin_bytes = margin;
        r.margin = margin;
        opt.seconds =
            std::max(0.01, params.real("time_limit") -
                               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
        r.solved = solveMilp(st, opt);
        if (r.solved.status != MilpOutcome::Status::Optimal && r.solved.status != MilpOutcome::Status::Incumbent) break;
        r.choice.assign(std::size_t(g.size()), 0);
        for (int p = 0; p < st.n; ++p)
            r.choice[std::size_t(st.order[std::size_t(p)])] = r.solved.implementation[std::size_t(p)];
        auto made = g.withImplementations(r.choice);
        if (!made) return made.errorValue();
        r.applied = std::move(*made);
        r.plan = buildPlan(Stages(*r.applied), r.solved.compute, r.solved.keep);
        auto check = simulateGraph(*r.applied, r.plan.actions, SimOptions{limit, false});
        r.found = check.ok();
        if (!check) r.simError = check.error();
        if (check || !check.errorValue().infeasible) break;
    }
    return r;
}

// Never return worse than checkmate on every node's fastest implementation, which may return a fast scheduler's plan
// in another order than its own (and so faster than its space's optimum): its plan when it is faster, else nullopt.
Result<std::optional<GraphPlan>> fasterOnFastest(const Graph& g, std::int64_t limit, const Params& params,
                                                 const GraphSolveContext& ctx, const std::vector<int>& quick,
                                                 const MonetMilp& r) {
    const bool optimal = r.found && r.solved.status == MilpOutcome::Status::Optimal;
    auto fast = g.withImplementations(quick);
    if (!fast) return fast.errorValue();
    auto other = checkmateWithin(*fast, limit, params, ctx);
    if (other && (!r.found || other->predicted_makespan_s < r.plan.makespan_s)) {
        GraphPlan out;
        out.actions = other->actions;
        out.predicted_makespan_s = other->predicted_makespan_s;
        out.implementation = quick;
        out.params["optimal"] =
            !r.found && r.solved.status == MilpOutcome::Status::Infeasible
                ? "no: no plan in checkmate's order, with any implementations, fits (CBC proved its MILP "
                  "infeasible); checkmate on every node's fastest implementation"
            : !r.found ? "no: " + r.solved.stopped_by +
                             " was reached first; checkmate on every node's fastest "
                             "implementation"
            : optimal ? "no: checkmate on every node's fastest implementation is faster than the MILP's optimum "
                        "(its plan reverses nodes in another order)"
                      : "no: checkmate on every node's fastest implementation is faster than the MILP's "
                        "incumbent at " +
                            r.solved.stopped_by;
        out.params["checkmate_on_fastest"] = other->params.count("optimal") ? other->params.at("optimal") : "";
        out.params["implementations_changed"] = std::to_string(changed(quick));
        return std::optional<GraphPlan>(std::move(out));
    }
    return std::optional<GraphPlan>();
}

Result<GraphPlan> solveMonet(const Graph& g, const Hardware& hw, const Params& params, const GraphSolveContext& ctx) {
    if (ctx.cancelled()) return fail("monet: cancelled");
    const std::int64_t limit = levelZeroLimit(hw, ctx.budget);
    const std::vector<int> quick = fastest(g);
    if (limit <= 0) return storeAllFastest(g, quick);
    if (!g.hasAlternatives()) return checkmatePlan(g, limit, params, ctx);
    const Stages st(g);
    // The MILP grows with the implementations: a copy of the forward columns per implementation.
    std::size_t most = 1;
    const auto choices = implementationChoices(g, st, most);
    const double maxBytes = double(params.integer("max_memory_mb")) * 1024 * 1024;
    const MilpSize size = countMilp(st, limit, ctx.cancel);
    if (ctx.cancelled()) return fail("monet: cancelled");
    if (size.bytes * double(1 + most) > maxBytes)
        return overLimit("monet: the MILP for " + std::to_string(st.n) + " nodes with up to " + std::to_string(most) +
                         " implementations each would take about " + formatBytes(size.bytes * double(1 + most)) +
                         ", over max_memory_mb (" + std::to_string(params.integer("max_memory_mb")) + " MiB)");
    auto milp = solveWithImplementations(g, st, limit, params, ctx, choices);
    if (!milp) return milp.errorValue();
    MonetMilp& r = *milp;
    if (ctx.cancelled()) return fail("monet: cancelled");
    const bool optimal = r.found && r.solved.status == MilpOutcome::Status::Optimal;
    auto other = fasterOnFastest(g, limit, params, ctx, quick, r);
    if (!other) return other.errorValue();
    if (*other) return std::move(**other);
    if (!r.found) {
        if (r.solved.status == MilpOutcome::Status::Infeasible)
            return infeasible("monet: no schedule in checkmate's order, with any implementations, fits the budget "
                              "of " +
                              formatBytes(double(limit)));
        if (r.solved.status == MilpOutcome::Status::Cancelled) return fail("monet: cancelled");
        if (!r.simError.empty()) return infeasible("monet: the MILP's plan does not pass the simulator: " + r.simError);
        return infeasible("monet: " + r.solved.stopped_by + " was reached before any plan was found; raise it");
    }
    GraphPlan out;
    out.actions = std::move(r.plan.actions);
    out.predicted_makespan_s = r.plan.makespan_s;
    out.implementation = r.choice;
    out.params["optimal"] = optimal ? (r.margin == 0 ? "yes" : "yes, for a budget a hundred-thousandth smaller")
                                    : "no: " + r.solved.stopped_by + " was reached; the best incumbent";
    out.params["implementations_changed"] = std::to_string(changed(r.choice));
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
