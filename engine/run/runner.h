#pragma once
// Solve and simulate in one call, as both front ends do, and the summary that `ckpt solve --json` prints and the
// explorer's comparison table shows: one definition, so the two always agree.
#include "model/chain.h"
#include "model/graph.h"
#include "model/hardware.h"
#include "plan/graph_action.h"
#include "plan/plan.h"
#include "schedulers/registry.h"
#include "sim/timeline.h"

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

struct Run {
    std::string scheduler;
    std::map<std::string, std::string> params; // what the plan was made with (after defaults and fitting)
    std::int64_t budget_bytes = 0;
    bool feasible = false;
    bool bad_input = false;   // an error of the request (unknown parameter, value out of range, invalid plan)
    bool available = true;    // false: the machine lacks what the scheduler needs (`message` says what); not solved
    std::string message;      // why not feasible
    std::optional<Plan> plan; // a chain's plan, or
    std::optional<GraphPlan> graph_plan; // a graph's
    std::optional<Timeline> timeline;
    double solve_ms = 0;
    double simulate_ms = 0;
    double baseline_makespan_s = 0; // store-all's: sum of forward and backward times
};

Run runScheduler(const std::string& scheduler, const Chain& chain, const Hardware& hw, const SolveRequest& request);
// Simulates a plan that came from elsewhere (a file); the plan's budget applies.
Run runPlan(const Plan& plan, const Chain& chain, const Hardware& hw);

// The fields of `ckpt solve --json`: scheduler, feasible, steps, forward_steps, backward_steps, recomputed_steps,
// makespan_s, compute_s, overhead, peak_bytes (per level), budget_bytes, actions, solve_ms, available (false: the
// machine cannot run the scheduler, and "reason" says why), ...
nlohmann::json summaryJson(const Run& run);

// A budget list: "64MiB,1GiB", or percentages of store-all's peak in level 0 ("5%,10%,50%"), or "none".
Result<std::vector<std::int64_t>> parseBudgetList(const std::string& text, const Chain& chain, const Hardware& hw);
std::int64_t storeAllPeak(const Chain& chain, const Hardware& hw);

struct CompareRequest {
    std::vector<std::string> schedulers;                              // empty: all of the registry
    std::vector<std::int64_t> budgets = {0};                          // 0: no budget
    std::map<std::string, std::map<std::string, std::string>> params; // per scheduler
};
// Every scheduler at every budget. `progress(done, total)` is called after each run; a set `cancel` stops early.
std::vector<Run> compare(const Chain& chain, const Hardware& hw, const CompareRequest& request,
                         const std::function<void(int, int)>& progress = {}, const std::atomic<bool>* cancel = nullptr);

// The same for graphs: graph schedulers by name (graph_registry.h); on a graph that is a chain, a chain scheduler's
// name also works and runs on the chain the graph converts to (Graph::toChain), so `plan` is set instead.
Run runGraphScheduler(const std::string& scheduler, const Graph& graph, const Hardware& hw,
                      const SolveRequest& request);
Run runGraphPlan(const GraphPlan& plan, const Graph& graph, const Hardware& hw);
std::int64_t graphStoreAllPeak(const Graph& graph);
// Budgets as parseBudgetList, percentages taken of `base` (store-all's peak), computed only when a percentage asks.
Result<std::vector<std::int64_t>> parseBudgets(const std::string& text, const std::function<std::int64_t()>& base);
// Every graph scheduler (or those named) at every budget, as compare() does for chains.
std::vector<Run> compareGraph(const Graph& graph, const Hardware& hw, const CompareRequest& request,
                              const std::function<void(int, int)>& progress = {},
                              const std::atomic<bool>* cancel = nullptr);

} // namespace ckpt
