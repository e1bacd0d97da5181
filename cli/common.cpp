#include "common.h"

#include "commands.h"
#include "io/graph_io.h"
#include "io/json_io.h"
#include "schedulers/graph_registry.h"
#include "schedulers/registry.h"
#include "util/units.h"

#include <cstdio>
#include <functional>
#include <set>

namespace ckpt::cli {

void complain(const std::string& message) {
    std::fprintf(stderr, "ckpt: %s\n", message.c_str());
}

std::optional<Chain> loadProblem(const std::string& path) {
    auto c = loadChain(path);
    if (!c) {
        complain(c.error());
        return std::nullopt;
    }
    return std::move(*c);
}

bool isGraphFile(const std::string& path) {
    auto doc = loadJson(path);
    return doc && doc->is_object() && doc->value("format", "") == "ckpt-graph";
}

std::optional<Graph> loadGraphProblem(const std::string& path) {
    auto g = loadGraph(path);
    if (!g) {
        complain(g.error());
        return std::nullopt;
    }
    return std::move(*g);
}

std::optional<Hardware> loadMachine(const std::string& path) {
    if (path.empty()) return Hardware::unbounded();
    auto h = loadHardware(path);
    if (!h) {
        complain(h.error());
        return std::nullopt;
    }
    return std::move(*h);
}

std::string describeRun(const Run& run, const Hardware& hw) {
    std::string out = "scheduler      " + run.scheduler;
    for (const auto& [k, v] : run.params)
        out += "  " + k + "=" + v;
    out += "\n";
    if (run.budget_bytes > 0) out += "budget         " + formatBytes(double(run.budget_bytes)) + "\n";
    if (!run.feasible) return out + "result         " + run.message + "\n";
    const Totals& t = run.timeline->totals;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "steps          %lld\nforward steps  %lld (%lld recomputed)\nbackward steps %lld\n"
                  "makespan       %s (%.3fx store-all)\ncompute        %s\nactions        %zu\n",
                  t.steps, t.forward_steps, t.recomputed_steps, t.backward_steps, formatSeconds(t.makespan_s).c_str(),
                  run.baseline_makespan_s > 0 ? t.makespan_s / run.baseline_makespan_s : 1.0,
                  formatSeconds(t.compute_s).c_str(),
                  run.plan         ? run.plan->actions.size()
                  : run.graph_plan ? run.graph_plan->actions.size()
                                   : 0);
    out += buf;
    for (int l = 0; l < hw.levelCount(); ++l)
        out += "peak level " + std::to_string(l) + "   " + formatBytes(double(t.peak_bytes[size_t(l)])) + "  (" +
               (hw.level(l).name.empty() ? "level " + std::to_string(l) : hw.level(l).name) + ")\n";
    if (t.bytes_written || t.bytes_read)
        out += "transfers      " + formatBytes(double(t.bytes_written)) + " written, " +
               formatBytes(double(t.bytes_read)) + " read\n";
    std::snprintf(buf, sizeof buf, "solve          %.2f ms, simulate %.2f ms\n", run.solve_ms, run.simulate_ms);
    return out + buf;
}

namespace {

// The parameters (--param, --slots for the scheduler's slots or segments) and the budget, with percentages taken of
// `base` (store-all's peak); false after a message.
bool readRequest(const Args& args, const std::string& name, const std::vector<ParamSpec>& specs,
                 const std::function<std::int64_t()>& base, SolveRequest& req) {
    for (const auto& kv : args.values("param")) {
        auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) {
            complain("--param: expected NAME=VALUE, got '" + kv + "'");
            return false;
        }
        req.params[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    if (args.has("slots")) {
        std::string knob;
        for (const auto& p : specs)
            if (knob.empty() && (p.name == "slots" || p.name == "segments")) knob = p.name;
        if (knob.empty()) {
            complain(name + " has no slot count; use --budget or --param (ckpt list shows its parameters)");
            return false;
        }
        req.params[knob] = args.value("slots");
    }
    if (args.has("budget")) {
        auto b = parseBudgets(args.value("budget"), base);
        if (!b || b->size() != 1) {
            complain("--budget: " + (b ? std::string("expected one size or percentage") : b.error()));
            return false;
        }
        req.budget_bytes = b->front();
    }
    return true;
}

} // namespace

bool readSolveRequest(const Args& args, const std::string& name, const Chain& chain, const Hardware& hw,
                      SolveRequest& req) {
    const SchedulerInfo* info = findScheduler(name);
    if (!info) {
        complain(solve(name, chain, hw, {}).error());
        return false;
    }
    return readRequest(
        args, name, info->params, [&] { return storeAllPeak(chain, hw); }, req);
}

bool readSolveRequest(const Args& args, const std::string& name, const Graph& graph, const Hardware& hw,
                      SolveRequest& req) {
    if (const GraphSchedulerInfo* info = findGraphScheduler(name))
        return readRequest(
            args, name, info->params, [&] { return graphStoreAllPeak(graph); }, req);
    if (findScheduler(name)) {
        if (graph.isChain()) return readSolveRequest(args, name, graph.toChain(), hw, req);
        complain(name + " is a chain scheduler and " + graph.name() +
                 " is not a chain; graph schedulers: ckpt list shows them");
        return false;
    }
    complain(solveGraph(name, graph, hw, {}).error());
    return false;
}

void reportUnavailable(const std::vector<Run>& runs) {
    std::set<std::string> said;
    for (const Run& r : runs)
        if (!r.available && said.insert(r.scheduler).second) complain(r.scheduler + ": n/a: " + r.message);
}

int exitCodeOf(const Run& run) {
    if (run.feasible) return Done;
    if (!run.available) return BadInput; // asked for by name, so the request was wrong for this machine
    return run.bad_input ? BadInput : Infeasible;
}

} // namespace ckpt::cli
