#pragma once
// Every scheduler is an entry here: its name (used by the CLI and the GUI), what it assumes, and its parameters with
// defaults and ranges. The front ends build their options from this list and need no code per scheduler.
#include "model/chain.h"
#include "model/hardware.h"
#include "plan/plan.h"
#include "util/result.h"
#include "util/table_cache.h"

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ckpt {

enum class ParamType { Int, Real, Bytes, Choice, Text }; // Text: free text of at most `max` characters
enum class Optimality { Baseline, Optimal, Approximate, Heuristic };
const char* optimalityName(Optimality o);

struct ParamSpec {
    std::string name;
    std::string description;
    ParamType type = ParamType::Int;
    std::string default_value; // as text; "0" often means "derive from the problem" (the description says how)
    double min = 0;
    double max = 1e18;
    std::vector<std::string> choices; // for Choice
};

// Parameters after defaults were filled in and ranges checked.
class Params {
public:
    std::map<std::string, std::string> values;
    long long integer(const std::string& name) const;
    double real(const std::string& name) const;
    const std::string& text(const std::string& name) const;
};

struct SolveRequest {
    std::map<std::string, std::string> params; // as the user gave them
    std::int64_t budget_bytes = 0;             // > 0: the plan's peak in level 0 must stay within it
    const std::atomic<bool>* cancel = nullptr; // set: a long solve (a MILP) stops early and says so
    // The run's timeline keeps the totals and peaks only, no memory curve and (a chain plan) no intervals: what a
    // table needs, some 300 bytes an action less (a 10^6-step chain's plans have millions of actions).
    bool totals_only = false;
};

struct SchedulerInfo {
    std::string name;
    std::string description;
    std::string paper;
    char model = 'B'; // 'A' (states only; taped re-run before each backward) or 'B' (taped forward keeps the tape)
    Optimality optimality = Optimality::Heuristic;
    int min_levels = 1; // memory levels the machine must have (2: it writes states to a slower level)
    // Plans for chains that count memory as the rotor paper does (model/chain.h); others are refused on them.
    bool paper_model = false;
    std::vector<ParamSpec> params;
    std::function<Result<Plan>(const Chain&, const Hardware&, const Params&, std::int64_t budget)> solve;
    // Schedulers that keep their tables between solves (util/table_cache.h), so that a budget slider reads them: the
    // budgets among `budgets` whose solves build every table a solve at any of them reads (one budget a table, the
    // largest it serves), and what the cache holds. The explorer solves at those ahead (run/runner.h prepareTables).
    std::function<std::vector<std::int64_t>(const Chain&, const Hardware&, const Params&,
                                            const std::vector<std::int64_t>& budgets)>
        table_budgets;
    std::function<TableCacheStats()> table_stats;
};

// For table_budgets: for each table (`key` of level 0's limit: the table's key, negative for one too large to keep,
// and the slots it needs there), the budget needing the most slots of it, leaving out the budgets where no table is
// read (no limit, or store-all fits); in `budgets`' order.
std::vector<std::int64_t>
largestBudgetPerTable(const Chain& chain, const Hardware& hw, const std::vector<std::int64_t>& budgets,
                      const std::function<std::pair<std::int64_t, std::int64_t>(std::int64_t limit)>& key);

const std::vector<SchedulerInfo>& schedulers();
const SchedulerInfo* findScheduler(const std::string& name);

// Why `hw` cannot run the scheduler at all (it lacks a memory level the scheduler writes to), or empty. Front ends
// show such a scheduler as "n/a" with this reason instead of failing, and ask before solving anything.
std::string machineLacks(const SchedulerInfo& scheduler, const Hardware& hw);

// The parameters as given, checked against `specs` (names, types, ranges; messages name the scheduler and the
// parameter) with defaults filled in. Graph schedulers use it too.
Result<Params> checkParams(const std::string& scheduler, const std::vector<ParamSpec>& specs,
                           const std::map<std::string, std::string>& given);

// Fills in defaults, checks names and ranges, runs the scheduler, and records the parameters in the plan.
// Errors: unknown scheduler or parameter, a value out of range (the message names it), or an infeasible budget
// (Error::infeasible, and the message names the smallest budget or slot count that works).
Result<Plan> solve(const std::string& scheduler, const Chain& chain, const Hardware& hw, const SolveRequest& request);

} // namespace ckpt
