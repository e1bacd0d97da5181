#include "run/plan_files.h"

#include "io/export.h"
#include "io/graph_plan_io.h"
#include "io/json_io.h"
#include "util/files.h"

namespace ckpt {

Result<PlanFormat> planFormatOf(const std::string& name, const std::string& path) {
    if (name == "json") return PlanFormat::Json;
    if (name == "csv") return PlanFormat::Csv;
    if (name == "trace") return PlanFormat::Trace;
    if (!name.empty()) return fail("expected json, csv or trace, got '" + name + "'");
    if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0) return PlanFormat::Csv;
    if (path.find(".trace") != std::string::npos) return PlanFormat::Trace;
    return PlanFormat::Json;
}

std::string planFileSuffix(const Run& run, PlanFormat format) {
    switch (format) {
    case PlanFormat::Csv:
        return ".csv";
    case PlanFormat::Trace:
        return ".trace.json";
    case PlanFormat::Json:
        break;
    }
    return run.graphPlan() ? ".ckpt-graph-plan.json" : ".ckpt-plan.json";
}

Result<std::string> planText(const Run& run, const Problem& problem, PlanFormat format) {
    if (!run.plan)
        return fail("there is no plan to export: " + (run.message.empty() ? "run a scheduler first" : run.message));
    const Plan* chainPlan = run.chainPlan();
    const GraphPlan* graphPlan = run.graphPlan();
    if (chainPlan ? !problem.schedulingChain() : !problem.graph())
        return fail("the plan of " + run.scheduler + " is not a plan of " + problem.name());
    if (format == PlanFormat::Json) {
        try {
            nlohmann::json doc = chainPlan ? planToJson(*chainPlan, *problem.schedulingChain())
                                           : graphPlanToJson(*graphPlan, *problem.graph());
            return jsonToText(doc);
        } catch (const std::exception& e) {
            return fail(std::string("the plan does not write as JSON: ") + e.what());
        }
    }
    if (!run.timeline) return fail("the plan of " + run.scheduler + " has no timeline to export: " + run.message);
    if (format == PlanFormat::Csv)
        return chainPlan ? timelineToCsv(*chainPlan, *run.timeline)
                         : timelineToCsv(*graphPlan, *problem.graph(), *run.timeline);
    return chainPlan ? timelineToChromeTrace(*chainPlan, *run.timeline)
                     : timelineToChromeTrace(*graphPlan, *problem.graph(), *run.timeline);
}

Result<bool> writePlanFile(const std::string& path, const Run& run, const Problem& problem, PlanFormat format) {
    auto text = planText(run, problem, format);
    if (!text) return fail(path + ": " + text.error());
    return writeTextFileAtomic(path, *text);
}

Result<AnyPlan> planFromJsonFor(const nlohmann::json& doc, const Problem& problem, const std::string& source) {
    if (const Graph* g = problem.graph()) {
        auto plan = graphPlanFromJson(doc, *g, source);
        if (!plan) return plan.errorValue();
        return AnyPlan(std::move(*plan));
    }
    auto plan = planFromJson(doc, source);
    if (!plan) return plan.errorValue();
    return AnyPlan(std::move(*plan));
}

Result<AnyPlan> loadPlanFor(const std::string& path, const Problem& problem) {
    auto doc = loadJson(path);
    if (!doc) return doc.errorValue();
    return planFromJsonFor(*doc, problem, path);
}

} // namespace ckpt
