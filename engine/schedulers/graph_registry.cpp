#include "schedulers/graph_registry.h"

#include "schedulers/checkmate.h"
#include "schedulers/chen.h"
#include "schedulers/dtr.h"
#include "schedulers/fit.h"
#include "schedulers/graph_fit.h"
#include "schedulers/join_dp.h"
#include "schedulers/lower_set_dp.h"
#include "schedulers/monet.h"
#include "schedulers/policies.h"
#include "schedulers/reversible.h"
#include "sim/graph_simulator.h"

namespace ckpt {

namespace {

GraphSchedulerInfo graphStoreAllScheduler() {
    GraphSchedulerInfo s;
    s.name = "store-all";
    s.description = "Every node forward in topological order, then every backward: the baseline of every ratio";
    s.paper = "plain backpropagation";
    s.optimality = Optimality::Baseline;
    s.solve = [](const Graph& g, const Hardware& hw, const Params&, const GraphSolveContext& ctx) -> Result<GraphPlan> {
        GraphPlan p;
        p.actions = graphStoreAll(g);
        p.predicted_makespan_s = g.totalForward() + g.totalBackward();
        return planWithin("store-all", g, levelZeroLimit(hw, ctx.budget), std::move(p));
    };
    return s;
}

} // namespace

const std::vector<GraphSchedulerInfo>& graphSchedulers() {
    static const std::vector<GraphSchedulerInfo> all = {
        graphStoreAllScheduler(),
        chenSqrtScheduler(),
        chenGreedyScheduler(),
        reversibleScheduler(),
        dtrScheduler(),
        lowerSetDpScheduler(),
        checkmateScheduler(),
        monetScheduler(),
        joinDpScheduler(),
        // The frameworks' policies (policies.h).
        fullAcScheduler(),
        selectiveAcScheduler(),
        memoryBudgetScheduler(),
        minCutScheduler(),
        jaxPolicyScheduler(),
        deepspeedOffloadScheduler(),
    };
    return all;
}

std::string machineLacks(const GraphSchedulerInfo& s, const Hardware& hw) {
    if (hw.levelCount() >= s.min_levels) return {};
    return "needs " + std::to_string(s.min_levels) +
           " memory levels (it writes outputs to a slower level); the machine '" + hw.name() + "' has " +
           std::to_string(hw.levelCount());
}

const GraphSchedulerInfo* findGraphScheduler(const std::string& name) {
    for (const GraphSchedulerInfo& s : graphSchedulers())
        if (s.name == name) return &s;
    return nullptr;
}

Result<GraphPlan> solveGraph(const std::string& name, const Graph& graph, const Hardware& hw,
                             const SolveRequest& request) {
    const GraphSchedulerInfo* s = findGraphScheduler(name);
    if (!s) {
        std::string list;
        for (const auto& x : graphSchedulers())
            list += (list.empty() ? "" : ", ") + x.name;
        return fail("unknown graph scheduler '" + name + "' (known: " + list + ")");
    }
    if (request.budget_bytes < 0) return fail("the budget cannot be negative");
    auto params = checkParams(name, s->params, request.params);
    if (!params) return params.errorValue();
    if (auto why = machineLacks(*s, hw); !why.empty()) return fail(name + ": " + why);
    auto plan = s->solve(graph, hw, *params, GraphSolveContext{request.budget_bytes, request.cancel});
    if (!plan) return plan;
    plan->scheduler = name;
    for (const auto& [k, v] : params->values)
        plan->params.emplace(k, v);
    plan->budget_bytes = request.budget_bytes;
    return plan;
}

} // namespace ckpt
