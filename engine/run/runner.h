#pragma once
// Solve and simulate in one call, as both front ends do, and the summary that `ckpt solve --json` prints and the
// explorer's comparison table shows: one definition, so the two always agree.
#include "model/hardware.h"
#include "model/problem.h"
#include "plan/any_plan.h"
#include "run/budget.h"
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
    bool bad_input = false; // an error of the request (unknown parameter, value out of range, invalid plan)
    bool too_large = false; // and bad_input: refused for the problem's size (an estimate over a limit, memory ran out)
    bool available = true;  // false: the machine lacks what the scheduler needs (`message` says what); not solved
    std::string message;    // why not feasible
    std::optional<AnyPlan> plan; // a chain's plan (also a chain scheduler's on a graph that is a chain) or a graph's
    std::optional<Timeline> timeline;
    double solve_ms = 0;
    double simulate_ms = 0;
    double baseline_makespan_s = 0; // store-all's: sum of forward and backward times

    const Plan* chainPlan() const { return plan ? plan->chain() : nullptr; }
    const GraphPlan* graphPlan() const { return plan ? plan->graph() : nullptr; }
};

// The scheduler as findSchedulerFor picks it for the problem (a chain scheduler on a graph that is a chain runs on
// the chain the graph converts to, so the run's plan is a chain plan), then the simulator's judgement.
Run runScheduler(const std::string& scheduler, const Problem& problem, const Hardware& hw, const SolveRequest& request);
// Simulates a plan that came from elsewhere (a file); the plan's budget applies. A chain plan on a graph that is a
// chain runs on its chain; a plan of the other kind is refused as bad input.
Run runPlan(const AnyPlan& plan, const Problem& problem, const Hardware& hw);

// What prepareTables did.
struct PreparedTables {
    int tables = 0;        // the tables that solves at the budgets read (SchedulerInfo::table_budgets)
    int solved = 0;        // solves made ahead, one a table (each builds its table unless it is kept already)
    bool complete = false; // every table built and kept
    double ms = 0;
};
// Solves a chain scheduler that keeps its tables (SchedulerInfo::table_budgets) ahead, at one budget a table, so that
// a solve at any of `budgets` (the explorer's slider positions) reads a kept table rather than building one: those
// nearest `near` (0: the largest) first. Does nothing for other schedulers and for graphs. Stops when `stop` is set
// (between solves) and when the scheduler's cache drops a table to make room: the rest would push out what it built.
PreparedTables prepareTables(const std::string& scheduler, const Problem& problem, const Hardware& hw,
                             const std::map<std::string, std::string>& params, const std::vector<std::int64_t>& budgets,
                             std::int64_t near, const std::atomic<bool>* stop = nullptr);

// The fields of `ckpt solve --json`: scheduler, feasible, steps, forward_steps, backward_steps, recomputed_steps,
// makespan_s, compute_s, overhead, peak_bytes (per level), budget_bytes, actions, solve_ms, available (false: the
// machine cannot run the scheduler, and "reason" says why), ...
nlohmann::json summaryJson(const Run& run);

struct CompareRequest {
    std::vector<std::string> schedulers;                              // empty: schedulerNames(problem)
    std::vector<std::int64_t> budgets = {0};                          // 0: no budget
    std::map<std::string, std::map<std::string, std::string>> params; // per scheduler
    bool totals_only = false;                                         // as in SolveRequest
};
// Every scheduler at every budget. `progress(done, total)` is called after each run; a set `cancel` stops early.
std::vector<Run> compare(const Problem& problem, const Hardware& hw, const CompareRequest& request,
                         const std::function<void(int, int)>& progress = {}, const std::atomic<bool>* cancel = nullptr);

} // namespace ckpt
