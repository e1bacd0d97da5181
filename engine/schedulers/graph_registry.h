#pragma once
// The graph schedulers, listed as the chain schedulers are (registry.h): a name, the paper, optimality, parameters
// with defaults and ranges; the front ends build their options from this list.
#include "model/graph.h"
#include "model/hardware.h"
#include "plan/graph_action.h"
#include "schedulers/registry.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace ckpt {

struct GraphSolveContext {
    std::int64_t budget = 0;                   // > 0: the peak in level 0 must stay within it (capacity included)
    const std::atomic<bool>* cancel = nullptr; // set while solving: stop and return an error that says so
    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

struct GraphSchedulerInfo {
    std::string name;
    std::string description;
    std::string paper;
    Optimality optimality = Optimality::Heuristic;
    std::vector<ParamSpec> params;
    std::function<Result<GraphPlan>(const Graph&, const Hardware&, const Params&, const GraphSolveContext&)> solve;
    // Why the scheduler cannot plan this graph at all (join-dp: not a join), or empty; unset: it plans every graph.
    // Front ends show such a scheduler as "n/a" with the reason, as for a machine that lacks a level.
    std::function<std::string(const Graph&)> lacks;
    int min_levels = 1; // memory levels the machine must have (2: it writes outputs to a slower level)
};

// Why `hw` cannot run the scheduler (it lacks the level it writes to), or empty: shown as "n/a", as for chains.
std::string machineLacks(const GraphSchedulerInfo& scheduler, const Hardware& hw);

const std::vector<GraphSchedulerInfo>& graphSchedulers();
const GraphSchedulerInfo* findGraphScheduler(const std::string& name);

// Fills in defaults, checks names and ranges, runs the scheduler, and records the parameters and budget in the plan.
// Errors as for solve(): unknown scheduler or parameter, a value out of range, an infeasible budget (Error::infeasible,
// naming the smallest budget that works where the scheduler knows it), or a cancelled solve.
Result<GraphPlan> solveGraph(const std::string& scheduler, const Graph& graph, const Hardware& hw,
                             const SolveRequest& request);

} // namespace ckpt
