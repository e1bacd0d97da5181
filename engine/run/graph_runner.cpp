// The graph half of runner.h: solve + simulate for graphs, with the same Run and summary as chains.
#include "run/runner.h"
#include "schedulers/fit.h"
#include "schedulers/graph_registry.h"
#include "sim/graph_simulator.h"

#include <chrono>

namespace ckpt {
namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void simulateGraphInto(Run& run, const Graph& graph, const Hardware& hw) {
    auto t0 = std::chrono::steady_clock::now();
    SimOptions opt;
    opt.budget_bytes = levelZeroLimit(hw, run.budget_bytes);
    auto tl = simulateGraph(graph, run.graph_plan->actions, opt);
    run.simulate_ms = msSince(t0);
    if (!tl) {
        run.feasible = false;
        run.bad_input = !tl.errorValue().infeasible;
        run.message = tl.error();
        return;
    }
    run.timeline = std::move(*tl);
    run.feasible = true;
}

} // namespace

Run runGraphScheduler(const std::string& scheduler, const Graph& graph, const Hardware& hw,
                      const SolveRequest& request) {
    if (!findGraphScheduler(scheduler) && findScheduler(scheduler) && graph.isChain())
        return runScheduler(scheduler, graph.toChain(), hw, request);
    Run run;
    run.scheduler = scheduler;
    run.budget_bytes = request.budget_bytes;
    run.params = request.params;
    run.baseline_makespan_s = graph.totalForward() + graph.totalBackward();
    auto t0 = std::chrono::steady_clock::now();
    auto plan = solveGraph(scheduler, graph, hw, request);
    run.solve_ms = msSince(t0);
    if (!plan) {
        run.message = plan.error();
        run.bad_input = !plan.errorValue().infeasible;
        return run;
    }
    run.params = plan->params;
    run.graph_plan = std::move(*plan);
    simulateGraphInto(run, graph, hw);
    return run;
}

Run runGraphPlan(const GraphPlan& plan, const Graph& graph, const Hardware& hw) {
    Run run;
    run.scheduler = plan.scheduler;
    run.params = plan.params;
    run.budget_bytes = plan.budget_bytes;
    run.baseline_makespan_s = graph.totalForward() + graph.totalBackward();
    run.graph_plan = plan;
    simulateGraphInto(run, graph, hw);
    return run;
}

std::int64_t graphStoreAllPeak(const Graph& graph) {
    SimOptions opt;
    opt.memory_curve = false;
    auto tl = simulateGraph(graph, graphStoreAll(graph), opt);
    return tl ? tl->totals.peak_bytes[0] : 0;
}

std::vector<Run> compareGraph(const Graph& graph, const Hardware& hw, const CompareRequest& request,
                              const std::function<void(int, int)>& progress, const std::atomic<bool>* cancel) {
    std::vector<std::string> names = request.schedulers;
    if (names.empty())
        for (const auto& s : graphSchedulers())
            names.push_back(s.name);
    std::vector<Run> runs;
    int total = int(names.size() * request.budgets.size());
    for (std::int64_t budget : request.budgets)
        for (const auto& name : names) {
            if (cancel && cancel->load()) return runs;
            SolveRequest r;
            r.budget_bytes = budget;
            r.cancel = cancel;
            if (auto it = request.params.find(name); it != request.params.end()) r.params = it->second;
            runs.push_back(runGraphScheduler(name, graph, hw, r));
            if (progress) progress(int(runs.size()), total);
        }
    return runs;
}

} // namespace ckpt
