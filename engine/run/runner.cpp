#include "run/runner.h"

#include "run/scheduler_lookup.h"
#include "schedulers/graph_registry.h"
#include "sim/graph_simulator.h"
#include "sim/simulator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <new>

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
        run.too_large = tl.errorValue().too_large;
        run.message = tl.error();
        return;
    }
    run.timeline = std::move(*tl);
    run.feasible = true;
}

// The run's plan through the simulator of its kind: a chain plan on the problem's chain, a graph plan on its graph.
void simulateInto(Run& run, const Problem& problem, const Hardware& hw, bool totalsOnly = false) {
    auto t0 = std::chrono::steady_clock::now();
    SimOptions opt;
    opt.budget_bytes = run.budget_bytes;
    opt.memory_curve = opt.intervals = !totalsOnly;
    if (const Plan* p = run.chainPlan()) {
        if (!problem.schedulingChain())
            return takeTimeline(
                run, fail("a chain plan needs a chain, and " + problem.name() + " is a graph that is not one"), t0);
        return takeTimeline(run, simulate(*problem.schedulingChain(), hw, p->actions, opt), t0);
    }
    if (!problem.graph())
        return takeTimeline(run, fail("a graph plan needs a graph, and " + problem.name() + " is a chain"), t0);
    takeTimeline(run, simulateGraphPlan(*problem.graph(), hw, *run.graphPlan(), opt), t0);
}

// The solver's verdict into the run: its plan (and the parameters it settled on), or why there is none. True when
// there is a plan to simulate.
template <typename P> bool takePlan(Run& run, Result<P> plan, std::chrono::steady_clock::time_point t0) {
    run.solve_ms = msSince(t0);
    if (!plan) {
        run.message = plan.error();
        run.bad_input = !plan.errorValue().infeasible;
        run.too_large = plan.errorValue().too_large;
        return false;
    }
    run.params = plan->params;
    run.plan = AnyPlan(std::move(*plan));
    return true;
}

// Runs `work` on the run; memory running out (past every size estimate) or any other exception becomes the run's
// message, so that a front end's worker thread reports it instead of ending the program.
template <typename F> Run guarded(Run run, F&& work) {
    try {
        work(run);
    } catch (const std::bad_alloc&) {
        run.feasible = false, run.bad_input = run.too_large = true, run.timeline.reset(), run.plan.reset();
        run.message = run.scheduler + ": out of memory while solving or simulating; the problem or the plan is too "
                                      "large for this machine (try fewer steps, more slots or a larger budget)";
    } catch (const std::exception& e) {
        run.feasible = false, run.bad_input = true, run.timeline.reset(), run.plan.reset();
        run.message = run.scheduler + ": internal error: " + e.what();
    }
    return run;
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

Run runScheduler(const std::string& scheduler, const Problem& problem, const Hardware& hw,
                 const SolveRequest& request) {
    Run run = startRun(scheduler, request.budget_bytes, request.params, problem.baselineMakespan());
    auto choice = findSchedulerFor(scheduler, problem);
    if (!choice) {
        run.message = choice.error();
        run.bad_input = true;
        return run;
    }
    if (choice->chain) {
        run.message = machineLacks(*choice->chain, hw);
        if (run.message.empty() && problem.schedulingChain() &&
            problem.schedulingChain()->memoryModel() == MemoryModel::RotorPaper && !choice->chain->paper_model)
            run.message = "plans in this program's memory model; the chain counts memory as the rotor paper does";
        run.available = run.message.empty();
        if (!run.available) return run;
    }
    if (choice->graph) {
        run.message = machineLacks(*choice->graph, hw);
        if (run.message.empty() && choice->graph->lacks) run.message = choice->graph->lacks(*problem.graph());
        run.available = run.message.empty();
        if (!run.available) return run;
    }
    return guarded(std::move(run), [&](Run& r) {
        auto t0 = std::chrono::steady_clock::now();
        const bool planned = choice->graph ? takePlan(r, solveGraph(scheduler, *problem.graph(), hw, request), t0)
                                           : takePlan(r, solve(scheduler, *problem.schedulingChain(), hw, request), t0);
        if (planned) simulateInto(r, problem, hw, request.totals_only);
    });
}

PreparedTables prepareTables(const std::string& scheduler, const Problem& problem, const Hardware& hw,
                             const std::map<std::string, std::string>& params, const std::vector<std::int64_t>& budgets,
                             std::int64_t near, const std::atomic<bool>* stop) {
    PreparedTables out;
    const auto t0 = std::chrono::steady_clock::now();
    const SchedulerInfo* info = findScheduler(scheduler);
    const Chain* chain = problem.schedulingChain();
    if (!info || !info->table_budgets || !chain || !machineLacks(*info, hw).empty()) return out;
    if (chain->memoryModel() == MemoryModel::RotorPaper && !info->paper_model) return out;
    auto checked = checkParams(scheduler, info->params, params);
    if (!checked) return out;
    try {
        std::vector<std::int64_t> todo = info->table_budgets(*chain, hw, *checked, budgets);
        out.tables = int(todo.size());
        auto distance = [&](std::int64_t b) {
            return near > 0 ? std::abs(std::log(double(b)) - std::log(double(near))) : -double(b);
        };
        std::stable_sort(todo.begin(), todo.end(),
                         [&](std::int64_t a, std::int64_t b) { return distance(a) < distance(b); });
        const long long evicted = info->table_stats().evictions;
        for (std::int64_t b : todo) {
            if (stop && *stop) break;
            SolveRequest req;
            req.params = params;
            req.budget_bytes = b;
            req.cancel = stop;
            (void)solve(scheduler, *chain, hw, req); // only its tables matter; an infeasible budget builds them too
            ++out.solved;
            if (info->table_stats().evictions != evicted) break;
        }
        out.complete = out.solved == out.tables && info->table_stats().evictions == evicted;
    } catch (const std::exception&) { // out of memory: the solves the slider asks for will say so
        out.complete = false;
    }
    out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

Run runPlan(const AnyPlan& plan, const Problem& problem, const Hardware& hw) {
    Run run = startRun(plan.scheduler(), plan.budgetBytes(), plan.params(), problem.baselineMakespan());
    return guarded(std::move(run), [&](Run& r) {
        r.plan = plan;
        simulateInto(r, problem, hw);
    });
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
        if (run.too_large) j["too_large"] = true;
        return j;
    }
    const Totals& t = run.timeline->totals;
    j["steps"] = t.steps;
    j["forward_steps"] = t.forward_steps;
    j["backward_steps"] = t.backward_steps;
    j["recomputed_steps"] = t.recomputed_steps;
    j["makespan_s"] = t.makespan_s;
    j["compute_s"] = t.compute_s;
    j["predicted_makespan_s"] = run.plan->predictedMakespan();
    j["overhead"] = run.baseline_makespan_s > 0 ? t.makespan_s / run.baseline_makespan_s : 1.0;
    j["peak_bytes"] = t.peak_bytes;
    j["held_after_forward_bytes"] = t.held_after_forward_bytes;
    j["bytes_written"] = t.bytes_written;
    j["bytes_read"] = t.bytes_read;
    j["in_place"] = t.in_place;
    j["actions"] = run.plan->actionCount();
    return j;
}

std::vector<Run> compare(const Problem& problem, const Hardware& hw, const CompareRequest& request,
                         const std::function<void(int, int)>& progress, const std::atomic<bool>* cancel) {
    const std::vector<std::string> names = request.schedulers.empty() ? schedulerNames(problem) : request.schedulers;
    std::vector<Run> runs;
    int total = int(names.size() * request.budgets.size());
    for (std::int64_t budget : request.budgets)
        for (const auto& name : names) {
            if (cancel && cancel->load()) return runs;
            SolveRequest r;
            r.budget_bytes = budget;
            r.cancel = cancel;
            r.totals_only = request.totals_only;
            if (auto it = request.params.find(name); it != request.params.end()) r.params = it->second;
            runs.push_back(runScheduler(name, problem, hw, r));
            if (progress) progress(int(runs.size()), total);
        }
    return runs;
}

} // namespace ckpt
