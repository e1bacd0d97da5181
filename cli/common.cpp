#include "common.h"

#include "commands.h"
#include "io/graph_io.h"
#include "io/json_io.h"
#include "io/presets.h"
#include "io/project_io.h"
#include "options.h"
#include "run/scheduler_lookup.h"
#include "util/data_dirs.h"
#include "util/units.h"
#include "util/utf8.h"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <set>

namespace ckpt::cli {

bool parseArgs(Args& args, int argc, char** argv, const std::string& command) {
    const CommandOptions& c = optionsOf(command);
    if (args.parse(argc, argv, 2, c.flags, c.options)) return true;
    complain(command + ": " + args.error() + " (see ckpt " + command + " --help)");
    return false;
}

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

std::optional<Problem> loadChainOrGraph(const std::string& path, const std::string& context) {
    // Read and parsed once: a long chain's file is large, and a second read could see a different file.
    auto problem = ckpt::loadChainOrGraph(path);
    if (!problem) {
        complain(context.empty() ? problem.error() : context + ": " + problem.error());
        return std::nullopt;
    }
    return std::move(*problem);
}

std::string presetPath(const std::string& name) {
    return ckpt::presetPath(name, dataRoots());
}

std::vector<std::string> presetNames() {
    return ckpt::presetNames(dataRoots());
}

bool wholeNumber(const Args& args, const std::string& key, int lo, int& out, int hi) {
    if (!args.has(key)) return true;
    const std::string v = args.value(key);
    char* end = nullptr;
    const long long x = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || x < lo || x > hi) {
        complain("--" + key + ": expected a whole number " +
                 (hi < 1'000'000'000 ? "from " + std::to_string(lo) + " to " + std::to_string(hi)
                                     : ">= " + std::to_string(lo)) +
                 ", got '" + v + "'");
        return false;
    }
    out = int(x);
    return true;
}

std::string jsonText(const nlohmann::json& doc) {
    return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<Graph> loadGraphProblem(const std::string& path) {
    auto g = loadGraph(path);
    if (!g) {
        complain(g.error());
        return std::nullopt;
    }
    return std::move(*g);
}

std::optional<Hardware> loadMachine(const std::string& path, const std::string& context) {
    if (path.empty()) return Hardware::unbounded();
    std::string file = path;
    std::error_code ec;
    if (isPresetName(path) && !std::filesystem::exists(path, ec)) {
        file = presetPath(path);
        if (file.empty()) {
            std::string known;
            for (const std::string& n : presetNames())
                known += (known.empty() ? "" : ", ") + n;
            complain((context.empty() ? "" : context + ": ") + "no file and no hardware preset named '" + path +
                     "' (presets: " + known + "; or give a file ending in .json)");
            return std::nullopt;
        }
    }
    auto h = loadHardware(file);
    if (!h) {
        complain(context.empty() ? h.error() : context + ": " + h.error());
        return std::nullopt;
    }
    return std::move(*h);
}

double overheadOf(const Run& run) {
    return run.baseline_makespan_s > 0 ? run.timeline->totals.makespan_s / run.baseline_makespan_s : 1.0;
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
                  overheadOf(run), formatSeconds(t.compute_s).c_str(), run.plan ? run.plan->actionCount() : 0);
    out += buf;
    for (int l = 0; l < hw.levelCount(); ++l)
        out += "peak level " + std::to_string(l) + "   " + formatBytes(double(t.peak_bytes[size_t(l)])) + "  (" +
               (hw.level(l).name.empty() ? "level " + std::to_string(l) : hw.level(l).name) + ")\n";
    if (t.bytes_written || t.bytes_read)
        out += "transfers      " + formatBytes(double(t.bytes_written)) + " written, " +
               formatBytes(double(t.bytes_read)) + " read\n";
    if (t.in_place) out += "in place       " + std::to_string(t.in_place) + " forwards wrote over their input\n";
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
        if (!isValidUtf8(kv)) {
            complain("--param: '" + validUtf8(kv) + "' is not valid UTF-8 text");
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
        if (!isValidUtf8(args.value("slots"))) {
            complain("--slots: '" + validUtf8(args.value("slots")) + "' is not valid UTF-8 text");
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

bool readSolveRequest(const Args& args, const std::string& name, const Problem& problem, const Hardware& hw,
                      SolveRequest& req) {
    auto choice = findSchedulerFor(name, problem);
    if (!choice) {
        complain(choice.error());
        return false;
    }
    return readRequest(
        args, name, choice->params(), [&] { return storeAllPeak(problem, hw); }, req);
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

std::optional<Solved> solveFromArgs(const Args& args, const std::string& name) {
    auto hw = loadMachine(args.value("hardware"));
    if (!hw) return std::nullopt;
    auto problem = loadChainOrGraph(args.positional()[0]);
    if (!problem) return std::nullopt;
    SolveRequest req;
    if (!readSolveRequest(args, name, *problem, *hw, req)) return std::nullopt;
    Run run = runScheduler(name, *problem, *hw, req);
    return Solved{std::move(*problem), std::move(*hw), std::move(run)};
}

} // namespace ckpt::cli
