#include "commands.h"

#include "common.h"
#include "progress.h"
#include "run/plan_files.h"
#include "run/scheduler_lookup.h"
#include "schedulers/graph_registry.h"
#include "table.h"
#include "util/files.h"
#include "util/units.h"
#include "util/utf8.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace ckpt::cli {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, sep))
        if (!item.empty()) out.push_back(item);
    return out;
}

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// Writes the plan (json), or its simulated timeline (csv, trace) to `path`; false after a message.
bool writePlan(const std::string& path, const std::string& format, const Run& run, const Problem& problem) {
    auto f = planFormatOf(format, path);
    if (!f) {
        complain("--format: " + f.error());
        return false;
    }
    auto ok = writePlanFile(path, run, problem, *f);
    if (!ok) complain(ok.error());
    return ok.ok();
}

// "12 steps", or "53 nodes, 60 edges".
std::string problemSize(const Problem& problem) {
    if (const Graph* g = problem.graph())
        return std::to_string(g->size()) + " nodes, " + std::to_string(g->edges().size()) + " edges";
    return std::to_string(problem.size()) + " steps";
}

// Prints a run as `ckpt solve` and `ckpt simulate` do (JSON or the human summary); a failure goes to stderr behind
// `where`. Returns the run's exit code.
int printRun(const Args& args, const Run& run, const Hardware& hw, const std::string& where) {
    if (args.has("json"))
        std::puts(jsonText(summaryJson(run)).c_str());
    else if (run.feasible)
        std::fputs(describeRun(run, hw).c_str(), stdout);
    if (!run.feasible) complain(where + run.message);
    return exitCodeOf(run);
}

// --budget for `ckpt simulate`: a size that replaces the plan file's own budget; false after a message.
bool readPlanBudget(const Args& args, std::int64_t& budget) {
    if (!args.has("budget")) return true;
    auto b = parseBytes(args.value("budget"));
    if (!b)
        complain("--budget: " + b.error());
    else
        budget = *b;
    return b.ok();
}

} // namespace

namespace {
const char* const kGpipeDescription =
    "GPipe: the chain cut into stages over devices, micro-batches, each stage re-running its forward before its "
    "backward; the cuts minimise the slowest stage under each device's memory";
} // namespace

int cmdList(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "list")) return BadInput;
    auto paramsJson = [](const std::vector<ParamSpec>& params) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& p : params) {
            nlohmann::json pj = {{"name", p.name},
                                 {"description", p.description},
                                 {"default", p.default_value},
                                 {"min", p.min},
                                 {"max", p.max}};
            if (!p.choices.empty()) pj["choices"] = p.choices;
            out.push_back(pj);
        }
        return out;
    };
    auto paramsText = [](const std::vector<ParamSpec>& params) {
        std::string out;
        for (const auto& p : params)
            out += (out.empty() ? "" : " ") + p.name + "=" + p.default_value;
        return out.empty() ? std::string("-") : out;
    };
    if (args.has("json")) {
        nlohmann::json all = nlohmann::json::array();
        for (const auto& s : schedulers())
            all.push_back({{"name", s.name},
                           {"problem", "chain"},
                           {"description", s.description},
                           {"paper", s.paper},
                           {"model", std::string(1, s.model)},
                           {"optimality", optimalityName(s.optimality)},
                           {"params", paramsJson(s.params)}});
        for (const auto& s : graphSchedulers())
            all.push_back({{"name", s.name},
                           {"problem", "graph"},
                           {"description", s.description},
                           {"paper", s.paper},
                           {"optimality", optimalityName(s.optimality)},
                           {"params", paramsJson(s.params)}});
        all.push_back({{"name", "gpipe"},
                       {"problem", "pipeline"},
                       {"description", kGpipeDescription},
                       {"paper", "Huang et al. NeurIPS 2019 (GPipe)"},
                       {"optimality", "optimal cuts"},
                       {"params", nlohmann::json::array({{{"name", "stages"}, {"default", "2"}},
                                                         {{"name", "micro_batches"}, {"default", "4"}},
                                                         {{"name", "recompute"}, {"default", "true"}}})}});
        std::puts(jsonText(all).c_str());
        return Done;
    }
    Table t({"scheduler", "model", "kind", "parameters", "description", "source"});
    for (const auto& s : schedulers())
        t.add({s.name, std::string(1, s.model), optimalityName(s.optimality), paramsText(s.params), s.description,
               s.paper});
    std::puts("Chain schedulers (ckpt-chain files, and ckpt-graph files that are chains):\n");
    std::fputs(t.render().c_str(), stdout);
    Table g({"scheduler", "kind", "parameters", "description", "source"});
    for (const auto& s : graphSchedulers())
        g.add({s.name, optimalityName(s.optimality), paramsText(s.params), s.description, s.paper});
    std::puts("\nGraph schedulers (ckpt-graph files):\n");
    std::fputs(g.render().c_str(), stdout);
    Table p({"scheduler", "kind", "parameters", "description"});
    p.add({"gpipe", "optimal cuts", "stages=2 micro_batches=4 recompute=true", kGpipeDescription});
    std::puts("\nPipelines (ckpt pipeline: a chain over devices in a line):\n");
    std::fputs(p.render().c_str(), stdout);
    return Done;
}

int cmdSolve(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "solve")) return BadInput;
    if (args.positional().size() != 1) {
        complain("solve: expected one PROBLEM file (see ckpt --help)");
        return BadInput;
    }
    if (!args.has("scheduler")) {
        complain("solve: --scheduler NAME is required (ckpt list shows them)");
        return BadInput;
    }
    auto solved = solveFromArgs(args, args.value("scheduler"));
    if (!solved) return BadInput;
    if (int code = printRun(args, solved->run, solved->hw, ""); code != Done || !args.has("out")) return code;
    return writePlan(args.value("out"), args.value("format"), solved->run, solved->problem) ? Done : BadInput;
}

int cmdSimulate(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "simulate")) return BadInput;
    if (args.positional().size() != 2) {
        complain("simulate: expected PROBLEM and PLAN files (see ckpt --help)");
        return BadInput;
    }
    auto hw = loadMachine(args.value("hardware"));
    if (!hw) return BadInput;
    const std::string where = args.positional()[1] + ": ";
    auto problem = loadChainOrGraph(args.positional()[0]);
    if (!problem) return BadInput;
    auto plan = loadPlanFor(args.positional()[1], *problem);
    if (!plan) complain(plan.error());
    std::int64_t budget = plan ? plan->budgetBytes() : 0;
    if (!plan || !readPlanBudget(args, budget)) return BadInput;
    plan->setBudgetBytes(budget);
    return printRun(args, runPlan(*plan, *problem, *hw), *hw, where);
}

int cmdCompare(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "compare")) return BadInput;
    if (args.positional().size() != 1) {
        complain("compare: expected one PROBLEM file (see ckpt --help)");
        return BadInput;
    }
    auto problem = loadChainOrGraph(args.positional()[0]);
    if (!problem) return BadInput;
    auto hw = loadMachine(args.value("hardware"));
    if (!hw) return BadInput;
    CompareRequest req;
    req.totals_only = true; // a table of totals: no curves, no intervals
    req.schedulers = split(args.value("schedulers"), ',');
    for (const auto& s : req.schedulers)
        if (auto choice = findSchedulerFor(s, *problem); !choice) {
            complain(choice.error());
            return BadInput;
        }
    if (args.has("budgets")) {
        auto b = parseBudgetList(args.value("budgets"), *problem, *hw);
        if (!b) {
            complain("--budgets: " + b.error());
            return BadInput;
        }
        req.budgets = *b;
    }
    for (const auto& kv : args.values("param")) {
        auto dot = kv.find('.');
        auto eq = kv.find('=');
        if (dot == std::string::npos || eq == std::string::npos || dot > eq) {
            complain("--param: expected SCHEDULER.NAME=VALUE, got '" + kv + "'");
            return BadInput;
        }
        if (!isValidUtf8(kv)) {
            complain("--param: '" + validUtf8(kv) + "' is not valid UTF-8 text");
            return BadInput;
        }
        if (auto choice = findSchedulerFor(kv.substr(0, dot), *problem); !choice) {
            complain("--param " + kv + ": " + choice.error());
            return BadInput;
        }
        req.params[kv.substr(0, dot)][kv.substr(dot + 1, eq - dot - 1)] = kv.substr(eq + 1);
    }
    // Runs go budget by budget, each over the schedulers in order: after `done` of them, the next is known.
    const std::vector<std::string> names = req.schedulers.empty() ? schedulerNames(*problem) : req.schedulers;
    Progress progress("compare");
    auto running = [&](int done, int total) {
        std::string now;
        if (done < total && !names.empty()) {
            const std::int64_t budget = req.budgets[std::size_t(done) / names.size()];
            now = names[std::size_t(done) % names.size()] + " at " +
                  (budget > 0 ? formatBytes(double(budget)) : std::string("no budget"));
        }
        progress.set(done, total, "runs", now);
    };
    running(0, int(names.size() * req.budgets.size()));
    std::vector<Run> runs = compare(*problem, *hw, req, running);
    progress.finish();
    // A scheduler refused for the problem's size is a row (n/a, its note the estimate and the limit); any other error
    // of the request ends the command.
    for (const Run& r : runs)
        if (r.bad_input && !r.too_large) {
            complain(r.scheduler + ": " + r.message);
            return BadInput;
        }
    reportUnavailable(runs);
    if (args.has("json")) {
        nlohmann::json all = nlohmann::json::array();
        for (const Run& r : runs)
            all.push_back(summaryJson(r));
        std::puts(jsonText(all).c_str());
    } else {
        std::vector<std::string> header = {"scheduler",  "budget",   "parameters", "forward",
                                           "recomputed", "makespan", "overhead"};
        for (int l = 0; l < hw->levelCount(); ++l)
            header.push_back("peak L" + std::to_string(l));
        header.push_back("solve");
        Table t(header);
        // A MILP's parameters run to hundreds of characters (why a plan is not proven, its MIP start): the table cuts
        // them, --json and --csv keep them whole.
        constexpr std::size_t kParamsWidth = 48;
        t.limitWidth(2, kParamsWidth);
        // Every size in the table in one family: decimal only when every budget was typed in decimal units.
        ByteUnits units = ByteUnits::Decimal;
        bool anyBudget = false;
        for (const Run& r : runs)
            if (r.budget_bytes > 0 && !r.bad_input) {
                anyBudget = true;
                if (unitsOf(double(r.budget_bytes)) == ByteUnits::Binary) units = ByteUnits::Binary;
            }
        if (!anyBudget) units = ByteUnits::Binary;
        std::vector<std::string> notes;
        for (const Run& r : runs) {
            // Whether a plan is proven comes first, before it is cut.
            std::string params;
            for (const char* first : {"optimal", "gap"})
                if (auto it = r.params.find(first); it != r.params.end())
                    params += (params.empty() ? "" : " ") + it->first + "=" + it->second;
            for (const auto& [k, v] : r.params)
                if (k != "optimal" && k != "gap") params += (params.empty() ? "" : " ") + k + "=" + v;
            std::vector<std::string> row = {
                r.scheduler, r.budget_bytes ? formatBytes(double(r.budget_bytes), units, Zeros::Keep) : "none",
                params.empty() ? "-" : params};
            if (!r.feasible) {
                // The same reason at every budget (a machine that lacks a level) is one note.
                const std::string note = r.scheduler + ": " + r.message;
                auto it = std::find(notes.begin(), notes.end(), note);
                if (it == notes.end()) it = notes.insert(notes.end(), note);
                const std::string ref = "[" + std::to_string(it - notes.begin() + 1) + "]";
                row.push_back((r.available && !r.too_large ? "infeasible " : "n/a ") + ref);
            } else {
                const Totals& tt = r.timeline->totals;
                row.push_back(std::to_string(tt.forward_steps));
                row.push_back(std::to_string(tt.recomputed_steps));
                row.push_back(formatSeconds(tt.makespan_s, Zeros::Keep));
                row.push_back(fmt("%.3fx", overheadOf(r)));
                for (int l = 0; l < hw->levelCount(); ++l)
                    row.push_back(formatBytes(double(tt.peak_bytes[size_t(l)]), units, Zeros::Keep));
                row.push_back(fmt("%.1f ms", r.solve_ms));
            }
            t.add(row);
        }
        std::printf("%s (%s) on %s\n\n", problem->name().c_str(), problemSize(*problem).c_str(), hw->name().c_str());
        std::fputs(t.render().c_str(), stdout);
        if (t.cutAny())
            std::printf("\n(parameters cut at %zu characters with \u2026: --json or --csv FILE gives them whole)\n",
                        kParamsWidth);
        if (!notes.empty()) std::puts("");
        for (std::size_t k = 0; k < notes.size(); ++k)
            std::printf("[%zu] %s\n", k + 1, notes[k].c_str());
    }
    if (args.has("csv")) {
        std::string csv = "scheduler,budget_bytes,params,feasible,forward_steps,recomputed_steps,makespan_s,overhead";
        for (int l = 0; l < hw->levelCount(); ++l)
            csv += ",peak_bytes_L" + std::to_string(l);
        csv += ",solve_ms,message\n";
        for (const Run& r : runs) {
            std::string params;
            for (const auto& [k, v] : r.params)
                params += (params.empty() ? "" : " ") + k + "=" + v;
            // Parameter texts hold commas (a MILP's reasons): quoted, as the message is.
            for (char& c : params)
                if (c == '"') c = '\'';
            csv +=
                r.scheduler + "," + std::to_string(r.budget_bytes) + ",\"" + params + "\"," + (r.feasible ? "1" : "0");
            if (r.feasible) {
                const Totals& tt = r.timeline->totals;
                csv += "," + std::to_string(tt.forward_steps) + "," + std::to_string(tt.recomputed_steps) + "," +
                       fmt("%.9g", tt.makespan_s) + "," + fmt("%.6g", overheadOf(r));
                for (int l = 0; l < hw->levelCount(); ++l)
                    csv += "," + std::to_string(tt.peak_bytes[size_t(l)]);
                csv += "," + fmt("%.3f", r.solve_ms) + ",\n";
            } else {
                csv += ",,,,";
                for (int l = 0; l < hw->levelCount(); ++l)
                    csv += ",";
                std::string msg = (r.available && !r.too_large ? "" : "n/a: ") + r.message;
                for (char& c : msg)
                    if (c == '"') c = '\'';
                csv += "," + fmt("%.3f", r.solve_ms) + ",\"" + msg + "\"\n";
            }
        }
        auto ok = writeTextFileAtomic(args.value("csv"), csv);
        if (!ok) {
            complain(ok.error());
            return BadInput;
        }
    }
    return Done;
}

} // namespace ckpt::cli
