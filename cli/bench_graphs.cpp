// ckpt bench --graphs: solve times of every graph scheduler at three budgets, and how much memory a scheduler saves
// against store-all for a given time: the smallest peak it reaches within store-all's time x 1.00, 1.10 and 1.33
// (the last is about one extra forward pass, what a recompute-once strategy such as Kusumoto et al.'s spends; they
// report 36-81 % less memory on their networks).
#include "commands.h"
#include "common.h"
#include "io/graph_io.h"
#include "run/runner.h"
#include "run/scheduler_lookup.h"
#include "schedulers/graph_registry.h"
#include "table.h"
#include "util/units.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace ckpt::cli {
namespace {

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// The smallest budget (to within 1/256 of store-all's peak) at which `name` stays within `target` seconds, and the
// peak its plan reaches there; -1 when even store-all's peak does not.
std::int64_t leanestWithin(const std::string& name, const Problem& problem, const Hardware& hw,
                           const std::map<std::string, std::string>& params, double target, std::int64_t full) {
    auto atTarget = [&](std::int64_t budget, std::int64_t& peak) {
        SolveRequest req;
        req.budget_bytes = budget;
        req.params = params;
        Run r = runScheduler(name, problem, hw, req);
        if (!r.feasible || r.timeline->totals.makespan_s > target * (1 + 1e-9)) return false;
        peak = r.timeline->totals.peak_bytes[0];
        return true;
    };
    std::int64_t best = -1, peak = 0;
    if (!atTarget(full, peak)) return -1;
    best = peak;
    std::int64_t lo = 0, hi = full; // lo fails (or is 0), hi works
    while (hi - lo > std::max<std::int64_t>(1, full / 256)) {
        std::int64_t mid = lo + (hi - lo) / 2;
        if (atTarget(mid, peak))
            hi = mid, best = std::min(best, peak);
        else
            lo = mid;
    }
    return best;
}

} // namespace

int benchGraphs(const Args& args) {
    std::vector<std::string> files = splitList(args.value("graph", ""));
    std::vector<std::pair<std::string, Graph>> graphs;
    for (const auto& f : files) {
        auto g = loadGraphProblem(f);
        if (!g) return BadInput;
        graphs.emplace_back(f, std::move(*g));
    }
    if (graphs.empty()) {
        const std::string resnet = "examples/resnet50-b32-224.ckpt-graph.json"; // from the project root
        if (auto g = loadGraph(resnet))
            graphs.emplace_back(resnet, std::move(*g));
        else
            std::printf("(%s not found here: run from the project root, or name graphs with --graph)\n\n",
                        resnet.c_str());
        graphs.emplace_back("ckpt generate --nodes 50 --seed 1", randomLayeredGraph(50, 1));
    }
    std::vector<std::string> names = splitList(args.value("schedulers", ""));
    if (names.empty())
        for (const auto& s : graphSchedulers())
            names.push_back(s.name);
    std::map<std::string, std::map<std::string, std::string>> params;
    for (const auto& kv : args.values("param")) {
        auto dot = kv.find('.'), eq = kv.find('=');
        if (dot == std::string::npos || eq == std::string::npos || dot > eq) {
            complain("bench: --param: expected SCHEDULER.NAME=VALUE, got '" + kv + "'");
            return BadInput;
        }
        params[kv.substr(0, dot)][kv.substr(dot + 1, eq - dot - 1)] = kv.substr(eq + 1);
    }
    const Hardware hw = Hardware::unbounded();
    const std::vector<std::string> reduction = splitList(args.value("reduction", "lower-set-dp,checkmate"));
    std::vector<double> overheads;
    for (const auto& o : splitList(args.value("overheads", "1,1.1,1.33"))) {
        char* end = nullptr;
        double x = std::strtod(o.c_str(), &end);
        if (*end || x < 1) {
            complain("bench: --overheads: expected numbers >= 1 such as 1,1.1,1.33, got '" + o + "'");
            return BadInput;
        }
        overheads.push_back(x);
    }
    int maxNodes = 80;
    if (!wholeNumber(args, "reduction-max-nodes", 1, maxNodes)) return BadInput;
    // Every name given (schedulers, reductions, parameters) must be a scheduler of one of the graphs: a misspelt one
    // would otherwise be skipped without a word, after minutes of work. The lookup's refusal lists the known names.
    auto unknown = [&graphs](const std::string& option, const std::string& name) {
        std::string why;
        for (const auto& [file, g] : graphs) {
            auto choice = findSchedulerFor(name, Problem(g));
            if (choice) return false;
            if (why.empty()) why = choice.error();
        }
        complain("bench: " + option + ": " + why);
        return true;
    };
    for (const auto& name : names)
        if (unknown("--schedulers", name)) return BadInput;
    for (const auto& name : reduction)
        if (unknown("--reduction", name)) return BadInput;
    for (const auto& [name, given] : params)
        if (unknown("--param", name)) return BadInput;
    for (const auto& [file, g] : graphs) {
        const Problem problem(g);
        const std::int64_t full = storeAllPeak(problem, hw);
        const double base = g.totalForward() + g.totalBackward();
        auto budgets = parseBudgets(args.value("budgets", "30%,50%,70%"), [&] { return full; });
        if (!budgets) {
            complain("bench: --budgets: " + budgets.error());
            return BadInput;
        }
        CompareRequest req;
        req.schedulers = names;
        req.budgets = *budgets;
        req.params = params;
        std::printf("%s: %s, %d nodes, %zu edges, store-all peak %s, time %s\n\n", file.c_str(), g.name().c_str(),
                    g.size(), g.edges().size(), formatBytes(double(full)).c_str(), formatSeconds(base).c_str());
        Table t({"scheduler", "budget", "solve", "overhead", "peak L0", "note"});
        for (const Run& r : compare(problem, hw, req)) {
            std::string budget = formatBytes(double(r.budget_bytes), Zeros::Keep) + " (" +
                                 fmt("%.0f%%", 100.0 * double(r.budget_bytes) / double(full)) + ")";
            if (!r.feasible) {
                t.add({r.scheduler, budget, fmt("%.1f ms", r.solve_ms), "-", "-", r.message.substr(0, 70)});
                continue;
            }
            std::string note;
            if (auto it = r.params.find("optimal"); it != r.params.end()) note = "optimal=" + it->second;
            t.add({r.scheduler, budget, fmt("%.1f ms", r.solve_ms), fmt("%.3fx", r.timeline->totals.makespan_s / base),
                   formatBytes(double(r.timeline->totals.peak_bytes[0]), Zeros::Keep), note});
        }
        std::fputs(t.render().c_str(), stdout);
        std::puts("");
        std::fflush(stdout);
        for (const auto& name : reduction) {
            if (!findSchedulerFor(name, problem)) continue;
            if (name == "checkmate" && g.size() > maxNodes) {
                std::printf("  %-14s skipped: %d nodes (a MILP per probe; raise --reduction-max-nodes)\n", name.c_str(),
                            g.size());
                continue;
            }
            auto pit = params.find(name);
            const auto given = pit == params.end() ? std::map<std::string, std::string>{} : pit->second;
            for (double over : overheads) {
                std::int64_t peak = leanestWithin(name, problem, hw, given, base * over, full);
                if (peak < 0)
                    std::printf("  %-14s within %.2fx store-all's time: not reached\n", name.c_str(), over);
                else
                    std::printf("  %-14s within %.2fx store-all's time: peak %s, %.1f%% below store-all's %s\n",
                                name.c_str(), over, formatBytes(double(peak)).c_str(),
                                100.0 * (1.0 - double(peak) / double(full)), formatBytes(double(full)).c_str());
                std::fflush(stdout);
            }
        }
        std::puts("");
    }
    return Done;
}

} // namespace ckpt::cli
