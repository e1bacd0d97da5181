#include "schedulers/registry.h"

#include "schedulers/async_multistage.h"
#include "schedulers/bptt_dp.h"
#include "schedulers/double_checkpointing.h"
#include "schedulers/fit.h"
#include "schedulers/multistage.h"
#include "schedulers/offload.h"
#include "schedulers/periodic.h"
#include "schedulers/revolve.h"
#include "schedulers/rotor.h"
#include "schedulers/store_all.h"
#include "util/units.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

namespace ckpt {

const char* optimalityName(Optimality o) {
    switch (o) {
    case Optimality::Baseline:
        return "baseline";
    case Optimality::Optimal:
        return "optimal";
    case Optimality::Approximate:
        return "approximate";
    case Optimality::Heuristic:
        return "heuristic";
    }
    return "?";
}

long long Params::integer(const std::string& name) const {
    return std::atoll(text(name).c_str());
}
double Params::real(const std::string& name) const {
    return std::atof(text(name).c_str());
}
const std::string& Params::text(const std::string& name) const {
    static const std::string empty;
    auto it = values.find(name);
    return it == values.end() ? empty : it->second;
}

const std::vector<SchedulerInfo>& schedulers() {
    static const std::vector<SchedulerInfo> all = {
        storeAllScheduler(),   periodicScheduler(),   revolveScheduler(),         rotorScheduler(),
        bpttDpScheduler(),     multistageScheduler(), asyncMultistageScheduler(), doubleCheckpointingScheduler(),
        offloadAllScheduler(), offloadDpScheduler()};
    return all;
}

const SchedulerInfo* findScheduler(const std::string& name) {
    for (const SchedulerInfo& s : schedulers())
        if (s.name == name) return &s;
    return nullptr;
}

std::string machineLacks(const SchedulerInfo& s, const Hardware& hw) {
    if (hw.levelCount() >= s.min_levels) return {};
    return "needs " + std::to_string(s.min_levels) +
           " memory levels (it writes states to a slower level); the machine '" + hw.name() + "' has " +
           std::to_string(hw.levelCount());
}

std::vector<std::int64_t>
largestBudgetPerTable(const Chain& chain, const Hardware& hw, const std::vector<std::int64_t>& budgets,
                      const std::function<std::pair<std::int64_t, std::int64_t>(std::int64_t limit)>& key) {
    const std::int64_t all = storeAllPeakBytes(chain);
    std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> largest; // key -> (size, budget)
    for (std::int64_t b : budgets) {
        const std::int64_t limit = levelZeroLimit(hw, b);
        if (limit <= 0 || limit >= all) continue; // no table: store-all's plan
        const auto [k, size] = key(limit);
        if (k < 0) continue; // a table not kept
        auto [it, fresh] = largest.emplace(k, std::pair{size, b});
        if (!fresh && it->second < std::pair{size, b}) it->second = {size, b};
    }
    std::set<std::int64_t> chosen;
    for (const auto& kv : largest)
        chosen.insert(kv.second.second);
    std::vector<std::int64_t> out;
    for (std::int64_t b : budgets)
        if (chosen.erase(b)) out.push_back(b);
    return out;
}

namespace {

Result<std::string> checkValue(const std::string& scheduler, const ParamSpec& p, const std::string& value) {
    std::string where = scheduler + ": parameter " + p.name + ": ";
    double v = 0;
    switch (p.type) {
    case ParamType::Int: {
        char* end = nullptr;
        long long i = std::strtoll(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0') return fail(where + "expected a whole number, got '" + value + "'");
        v = double(i);
        break;
    }
    case ParamType::Real: {
        char* end = nullptr;
        v = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || !std::isfinite(v))
            return fail(where + "expected a number, got '" + value + "'");
        break;
    }
    case ParamType::Bytes: {
        auto b = parseBytes(value);
        if (!b) return fail(where + b.error());
        v = double(*b);
        return v < p.min || v > p.max
                   ? Result<std::string>(fail(where + "must be between " + formatBytes(p.min, unitsOf(p.max)) +
                                              " and " + formatBytes(p.max)))
                   : Result<std::string>(std::to_string(*b));
    }
    case ParamType::Text:
        if (double(value.size()) > p.max)
            return fail(where + "at most " + formatNumber(p.max, 12) + " characters, got " +
                        std::to_string(value.size()));
        return value;
    case ParamType::Choice:
        for (const auto& c : p.choices)
            if (c == value) return value;
        {
            std::string list;
            for (const auto& c : p.choices)
                list += (list.empty() ? "" : ", ") + c;
            return fail(where + "expected one of " + list + ", got '" + value + "'");
        }
    }
    if (v < p.min || v > p.max) {
        return fail(where + "must be between " + formatNumber(p.min, 12) + " and " + formatNumber(p.max, 12) +
                    ", got " + value);
    }
    return value;
}

} // namespace

Result<Params> checkParams(const std::string& name, const std::vector<ParamSpec>& specs,
                           const std::map<std::string, std::string>& given) {
    Params params;
    for (const auto& [key, value] : given) {
        const ParamSpec* spec = nullptr;
        for (const auto& p : specs)
            if (p.name == key) spec = &p;
        if (!spec) {
            std::string list;
            for (const auto& p : specs)
                list += (list.empty() ? "" : ", ") + p.name;
            return fail(name + " has no parameter '" + key + "'" +
                        (list.empty() ? " (it takes none)" : " (it takes: " + list + ")"));
        }
        auto checked = checkValue(name, *spec, value);
        if (!checked) return checked.errorValue();
        params.values[key] = *checked;
    }
    for (const auto& p : specs)
        if (!params.values.count(p.name)) params.values[p.name] = p.default_value;
    return params;
}

Result<Plan> solve(const std::string& name, const Chain& chain, const Hardware& hw, const SolveRequest& request) {
    const SchedulerInfo* s = findScheduler(name);
    if (!s) {
        std::string list;
        for (const auto& x : schedulers())
            list += (list.empty() ? "" : ", ") + x.name;
        return fail("unknown scheduler '" + name + "' (known: " + list + ")");
    }
    if (request.budget_bytes < 0) return fail("the budget cannot be negative");
    auto params = checkParams(name, s->params, request.params);
    if (!params) return params.errorValue();
    // Every plan runs each step forward and backward at least once: a chain that long is refused before any work.
    if (auto e = checkPlanActions(name + " on " + std::to_string(chain.length()) + " steps", 2.0 * chain.length(),
                                  "every plan has a forward and a backward per step"))
        return *e;
    if (chain.memoryModel() == MemoryModel::RotorPaper && !s->paper_model)
        return fail(name + " plans in this program's memory model; the chain counts memory as the rotor paper does "
                           "(memory_model \"rotor-paper\"), which only store-all and rotor support");
    auto plan = s->solve(chain, hw, *params, request.budget_bytes);
    if (!plan) return plan;
    plan->scheduler = name;
    for (const auto& [k, v] : params->values)
        plan->params.emplace(k, v); // a scheduler may record what it derived
    plan->budget_bytes = request.budget_bytes;
    return plan;
}

} // namespace ckpt
