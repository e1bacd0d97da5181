// ckpt bench --graphs: solve times of every graph scheduler at three budgets, and how much memory a scheduler saves
// against store-all for a given time: the smallest peak it reaches within store-all's time x 1.00, 1.10 and 1.33
// (the last is about one extra forward pass, what a recompute-once strategy such as Kusumoto et al.'s spends; they
// report 36-81 % less memory on their networks).
#include "commands.h"
#include "common.h"
#include "io/graph_io.h"
#include "io/onnx_import.h"
#include "onnx_bench.h"
#include "run/runner.h"
#include "run/scheduler_lookup.h"
#include "schedulers/graph_registry.h"
#include "table.h"
#include "util/units.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace ckpt::cli {

// A shipped network as `ckpt bench` imports it: --batch fills an open first dimension, and an input with another open
// one (a sequence) gets `seq` there.
Result<OnnxImport> importForBench(const std::string& file, std::int64_t batch, int seq) {
    OnnxImportOptions options;
    options.batch = batch;
    auto imported = importOnnxFile(file, options);
    if (imported) return imported;
    auto inputs = onnxInputs(file);
    if (!inputs) return inputs.errorValue();
    for (const OnnxInput& in : *inputs) {
        std::vector<std::int64_t> dims = in.dims;
        bool open = false;
        for (std::size_t d = 1; d < dims.size(); ++d)
            if (dims[d] <= 0) dims[d] = seq, open = true;
        if (!open) continue;
        if (dims[0] <= 0) dims[0] = batch;
        options.inputs.push_back({in.name, dims});
    }
    return options.inputs.empty() ? imported : importOnnxFile(file, options);
}

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

// --param SCHEDULER.NAME=VALUE, each into params[SCHEDULER][NAME]; false (having said why) on a malformed one.
bool schedulerParams(const Args& args, std::map<std::string, std::map<std::string, std::string>>& params) {
    for (const auto& kv : args.values("param")) {
        auto dot = kv.find('.'), eq = kv.find('=');
        if (dot == std::string::npos || eq == std::string::npos || dot > eq) {
            complain("bench: --param: expected SCHEDULER.NAME=VALUE, got '" + kv + "'");
            return false;
        }
        params[kv.substr(0, dot)][kv.substr(dot + 1, eq - dot - 1)] = kv.substr(eq + 1);
    }
    return true;
}

// One cell of the ONNX table: the overhead over store-all's time, whether proven ("optimal" params: * proven, ~ not
// proven, nothing for a scheduler that proves nothing), the solve time; or why there is no plan.
std::string cell(const Run& r, double base) {
    if (!r.available) return "n/a";
    if (!r.feasible) {
        // The least budget a scheduler names ("needs at least 765.63 MiB (...)"), else a word.
        auto at = r.message.find("needs at least ");
        std::size_t skip = 15;
        if (at == std::string::npos) at = r.message.find(" needs "), skip = 7; // dtr: "the ... needs 1 GiB (...)"
        if (at != std::string::npos) {
            const auto from = at + skip, to = r.message.find(" (", from);
            return "needs " + r.message.substr(from, to == std::string::npos ? std::string::npos : to - from);
        }
        // checkmate's necessary condition: "the largest single-operation footprint, the ..., is 318.5 MiB (...)".
        if (const auto f = r.message.find("footprint, the "); f != std::string::npos) {
            const auto is = r.message.find(", is ", f), to = r.message.find(" (", is == std::string::npos ? f : is);
            if (is != std::string::npos && to != std::string::npos)
                return "needs \u2265 " + r.message.substr(is + 5, to - is - 5);
        }
        if (r.message.find("not a join") != std::string::npos || r.message.find("join graph") != std::string::npos)
            return "n/a (not a join)";
        return "no plan";
    }
    std::string mark;
    if (auto it = r.params.find("optimal"); it != r.params.end()) mark = it->second.rfind("yes", 0) == 0 ? "*" : "~";
    if (auto it = r.params.find("gap"); it != r.params.end() && mark == "~") // "1.79% over the LP bound"
        mark += it->second.substr(0, it->second.find('%') + 1);
    const double s = r.solve_ms / 1000;
    return fmt("%.3fx", r.timeline->totals.makespan_s / base) + mark + " " +
           (s < 10 ? fmt("%.2f s", s) : fmt("%.0f s", s));
}

// ckpt bench --graphs --onnx-dir DIR: every .onnx file of DIR imported (at --batch, open sequence lengths at --seq),
// then every graph scheduler at 25, 50 and 75 % of store-all's peak (or --budgets). One table for all networks.
int benchOnnxDir(const Args& args) {
    namespace fs = std::filesystem;
    const std::string dir = args.value("onnx-dir", "");
    if (!onnxImportAvailable()) {
        complain("bench: --onnx-dir: this build has no ONNX import (protobuf was not found when it was built)");
        return BadInput;
    }
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".onnx") files.push_back(e.path().string());
    if (ec) {
        complain("bench: --onnx-dir " + dir + ": " + ec.message());
        return BadInput;
    }
    if (files.empty()) {
        complain("bench: --onnx-dir " + dir + ": no .onnx file there");
        return BadInput;
    }
    std::sort(files.begin(), files.end());
    int batch = 32, seq = 512;
    if (!wholeNumber(args, "batch", 1, batch) || !wholeNumber(args, "seq", 1, seq)) return BadInput;
    std::vector<std::string> names = splitList(args.value("schedulers", ""));
    if (names.empty())
        for (const auto& s : graphSchedulers())
            if (s.name != "store-all") names.push_back(s.name);
    std::map<std::string, std::map<std::string, std::string>> params;
    if (!schedulerParams(args, params)) return BadInput;
    const std::string budgetText = args.value("budgets", "25%,50%,75%");
    const Hardware hw = Hardware::unbounded();
    std::printf("ckpt bench --graphs --onnx-dir %s: batch %d, open sequence lengths %d; each cell: time over "
                "store-all's, * proven optimal, ~ not proven (with its gap to the LP bound when solved), then the "
                "solve time\n\n",
                dir.c_str(), batch, seq);
    std::fflush(stdout);
    std::vector<std::string> header = {"network", "scheduler"};
    bool headerDone = false;
    Table t({});
    for (const std::string& file : files) {
        auto imported = importForBench(file, batch, seq);
        if (!imported) {
            complain("bench: " + imported.error());
            return BadInput;
        }
        const Graph& g = imported->graph;
        const Problem problem(g);
        const std::int64_t full = storeAllPeak(problem, hw);
        const double base = g.totalForward() + g.totalBackward();
        auto budgets = parseBudgets(budgetText, [&] { return full; });
        if (!budgets) {
            complain("bench: --budgets: " + budgets.error());
            return BadInput;
        }
        if (!headerDone) {
            for (std::int64_t b : *budgets)
                header.push_back(fmt("%.0f%%", 100.0 * double(b) / double(full)));
            t = Table(header);
            headerDone = true;
        }
        const std::string label = fs::path(file).stem().string() + " (" + std::to_string(g.size()) + " nodes, " +
                                  formatBytes(double(full)) + ")";
        std::fprintf(stderr, "%s ...\n", label.c_str());
        // MONeT on a graph whose nodes have one implementation each solves checkmate's MILP: its row is checkmate's.
        std::vector<std::string> run;
        for (const auto& n : names)
            if (!(n == "monet" && !g.hasAlternatives() &&
                  std::find(names.begin(), names.end(), "checkmate") != names.end()))
                run.push_back(n);
        CompareRequest req;
        req.schedulers = run;
        req.budgets = *budgets;
        req.params = params;
        const std::vector<Run> runs = compare(problem, hw, req);
        for (const Run& r : runs)
            if (r.bad_input) {
                complain("bench: " + r.scheduler + ": " + r.message);
                return BadInput;
            }
        bool first = true;
        for (const std::string& name : names) {
            const std::string source = std::find(run.begin(), run.end(), name) == run.end() ? "checkmate" : name;
            std::vector<std::string> row = {first ? label : "", name};
            for (const Run& r : runs)
                if (r.scheduler == source) row.push_back(source == name ? cell(r, base) : "as checkmate");
            t.add(row);
            first = false;
        }
        t.add({});
    }
    std::fputs(t.render().c_str(), stdout);
    return Done;
}

} // namespace

int benchGraphs(const Args& args) {
    if (args.has("onnx-dir")) return benchOnnxDir(args);
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
    if (!schedulerParams(args, params)) return BadInput;
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
