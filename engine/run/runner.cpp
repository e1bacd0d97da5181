#include "run/runner.h"

#include "schedulers/fit.h"
#include "schedulers/graph_registry.h"
#include "schedulers/store_all.h"
#include "sim/graph_simulator.h"
#include "sim/simulator.h"
#include "util/units.h"

#include <chrono>
#include <sstream>

namespace ckpt {
namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The simulator's verdict into the run: the timeline, or why the plan was refused.
void takeTimeline(Run& run, Result<Timeline> tl, std::chrono::steady_clock::time_point t0) {
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

void simulateInto(Run& run, const Chain& chain, const Hardware& hw) {
    auto t0 = std::chrono::steady_clock::now();
    SimOptions opt;
    opt.budget_bytes = run.budget_bytes;
    takeTimeline(run, simulate(chain, hw, run.plan->actions, opt), t0);
}

void simulateGraphInto(Run& run, const Graph& graph, const Hardware& hw) {
    auto t0 = std::chrono::steady_clock::now();
    SimOptions opt;
    opt.budget_bytes = run.budget_bytes;
    takeTimeline(run, simulateGraph(graph, hw, run.graph_plan->actions, opt), t0);
}

// The solver's verdict into the run: its plan (and the parameters it settled on), or why there is none. True when
// there is a plan to simulate.
template <typename P>
bool takePlan(Run& run, Result<P> plan, std::optional<P>& into, std::chrono::steady_clock::time_point t0) {
    run.solve_ms = msSince(t0);
    if (!plan) {
        run.message = plan.error();
        run.bad_input = !plan.errorValue().infeasible;
        return false;
    }
    run.params = plan->params;
    into = std::move(*plan);
    return true;
}

// A run before its plan: the request's fields and store-all's time, the baseline of its ratios.
Run startRun(const std::string& scheduler, std::int64_t budget, const std::map<std::string, std::string>& params,
             double baseline) {
    Run run;
    run.scheduler = scheduler;
    run.budget_bytes = budget;
    run.params = params;
    run.baseline_makespan_s = baseline;
    return run;
}

} // namespace

Run runScheduler(const std::string& scheduler, const Chain& chain, const Hardware& hw, const SolveRequest& request) {
    Run run = startRun(scheduler, request.budget_bytes, request.params, chain.totalForward() + chain.totalBackward());
    if (const SchedulerInfo* s = findScheduler(scheduler)) {
        run.message = machineLacks(*s, hw);
        run.available = run.message.empty();
        if (!run.available) return run;
    }
    auto t0 = std::chrono::steady_clock::now();
    if (takePlan(run, solve(scheduler, chain, hw, request), run.plan, t0)) simulateInto(run, chain, hw);
    return run;
}

Run runPlan(const Plan& plan, const Chain& chain, const Hardware& hw) {
    Run run = startRun(plan.scheduler, plan.budget_bytes, plan.params, chain.totalForward() + chain.totalBackward());
    run.plan = plan;
    simulateInto(run, chain, hw);
    return run;
}

Run runGraphScheduler(const std::string& scheduler, const Graph& graph, const Hardware& hw,
                      const SolveRequest& request) {
    if (!findGraphScheduler(scheduler) && findScheduler(scheduler) && graph.isChain())
        return runScheduler(scheduler, graph.toChain(), hw, request);
    Run run = startRun(scheduler, request.budget_bytes, request.params, graph.totalForward() + graph.totalBackward());
    auto t0 = std::chrono::steady_clock::now();
    if (takePlan(run, solveGraph(scheduler, graph, hw, request), run.graph_plan, t0)) simulateGraphInto(run, graph, hw);
    return run;
}

Run runGraphPlan(const GraphPlan& plan, const Graph& graph, const Hardware& hw) {
    Run run = startRun(plan.scheduler, plan.budget_bytes, plan.params, graph.totalForward() + graph.totalBackward());
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

nlohmann::json summaryJson(const Run& run) {
    nlohmann::json j;
    j["scheduler"] = run.scheduler;
    j["params"] = run.params;
    j["feasible"] = run.feasible;
    j["budget_bytes"] = run.budget_bytes;
    j["solve_ms"] = run.solve_ms;
    j["simulate_ms"] = run.simulate_ms;
    j["available"] = run.available;
    if (!run.available) j["reason"] = run.message;
    if (!run.feasible) {
        j["message"] = run.message;
        return j;
    }
    const Totals& t = run.timeline->totals;
    j["steps"] = t.steps;
    j["forward_steps"] = t.forward_steps;
    j["backward_steps"] = t.backward_steps;
    j["recomputed_steps"] = t.recomputed_steps;
    j["makespan_s"] = t.makespan_s;
    j["compute_s"] = t.compute_s;
    j["predicted_makespan_s"] = run.plan ? run.plan->predicted_makespan_s : run.graph_plan->predicted_makespan_s;
    j["overhead"] = run.baseline_makespan_s > 0 ? t.makespan_s / run.baseline_makespan_s : 1.0;
    j["peak_bytes"] = t.peak_bytes;
    j["bytes_written"] = t.bytes_written;
    j["bytes_read"] = t.bytes_read;
    j["actions"] = run.plan ? run.plan->actions.size() : run.graph_plan->actions.size();
    return j;
}

std::int64_t storeAllPeak(const Chain& chain, const Hardware& hw) {
    std::vector<MemoryLevel> levels = hw.levels();
    levels[0].capacity_bytes = Hardware::unbounded().level(0).capacity_bytes;
    SimOptions opt;
    opt.memory_curve = false;
    auto tl = simulate(chain, *Hardware::make(hw.name(), levels), storeAllPlan(chain).actions, opt);
    return tl ? tl->totals.peak_bytes[0] : 0;
}

Result<std::vector<std::int64_t>> parseBudgetList(const std::string& text, const Chain& chain, const Hardware& hw) {
    return parseBudgets(text, [&] { return storeAllPeak(chain, hw); });
}

Result<std::vector<std::int64_t>> parseBudgets(const std::string& text, const std::function<std::int64_t()>& baseOf) {
    std::vector<std::int64_t> out;
    std::stringstream ss(text);
    std::string item;
    std::int64_t base = -1;
    while (std::getline(ss, item, ',')) {
        while (!item.empty() && item.front() == ' ')
            item.erase(item.begin());
        while (!item.empty() && item.back() == ' ')
            item.pop_back();
        if (item.empty()) continue;
        if (item == "none" || item == "0") {
            out.push_back(0);
        } else if (item.back() == '%') {
            auto pct = parseSeconds(item.substr(0, item.size() - 1)); // a plain non-negative number
            if (!pct || *pct <= 0)
                return fail("budget '" + item + "': expected a percentage > 0 of store-all's peak, e.g. 5%");
            if (base < 0) base = baseOf();
            out.push_back(std::max<std::int64_t>(1, std::int64_t(double(base) * *pct / 100.0)));
        } else {
            auto b = parseBytes(item);
            if (!b) return fail("budget '" + item + "': " + b.error());
            if (*b <= 0) return fail("budget '" + item + "': expected a size > 0");
            out.push_back(*b);
        }
    }
    if (out.empty()) return fail("the budget list is empty");
    return out;
}

namespace {

// Every named scheduler at every budget through `run`, with progress and cancel.
std::vector<Run> compareWith(std::vector<std::string> names, const CompareRequest& request,
                             const std::function<Run(const std::string&, const SolveRequest&)>& run,
                             const std::function<void(int, int)>& progress, const std::atomic<bool>* cancel) {
    std::vector<Run> runs;
    int total = int(names.size() * request.budgets.size());
    for (std::int64_t budget : request.budgets)
        for (const auto& name : names) {
            if (cancel && cancel->load()) return runs;
            SolveRequest r;
            r.budget_bytes = budget;
            r.cancel = cancel;
            if (auto it = request.params.find(name); it != request.params.end()) r.params = it->second;
            runs.push_back(run(name, r));
            if (progress) progress(int(runs.size()), total);
        }
    return runs;
}

} // namespace

std::vector<Run> compare(const Chain& chain, const Hardware& hw, const CompareRequest& request,
                         const std::function<void(int, int)>& progress, const std::atomic<bool>* cancel) {
    std::vector<std::string> names = request.schedulers;
    if (names.empty())
        for (const auto& s : schedulers())
            names.push_back(s.name);
    return compareWith(
        names, request,
        [&](const std::string& name, const SolveRequest& r) { return runScheduler(name, chain, hw, r); }, progress,
        cancel);
}

std::vector<Run> compareGraph(const Graph& graph, const Hardware& hw, const CompareRequest& request,
                              const std::function<void(int, int)>& progress, const std::atomic<bool>* cancel) {
    std::vector<std::string> names = request.schedulers;
    if (names.empty())
        for (const auto& s : graphSchedulers())
            names.push_back(s.name);
    return compareWith(
        names, request,
        [&](const std::string& name, const SolveRequest& r) { return runGraphScheduler(name, graph, hw, r); }, progress,
        cancel);
}

} // namespace ckpt
