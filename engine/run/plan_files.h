#pragma once
// A run's plan to and from files, for both kinds, as both front ends write and read them: json (a ckpt-plan or a
// ckpt-graph-plan file), or the simulated timeline as CSV or Chrome trace (io/export.h).
#include "model/problem.h"
#include "run/runner.h"
#include "util/result.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ckpt {

enum class PlanFormat { Json, Csv, Trace };

// "json", "csv" or "trace"; an empty name is judged by the path: ".csv" at the end, ".trace" anywhere, else json.
Result<PlanFormat> planFormatOf(const std::string& name, const std::string& path = {});
// The file name ending the format suggests for the run: ".ckpt-plan.json" or ".ckpt-graph-plan.json", ".csv",
// ".trace.json".
std::string planFileSuffix(const Run& run, PlanFormat format);

// The run's plan in `format` (a chain plan on a graph that is a chain is written against that chain); an error when
// the run has no plan, or no timeline for csv and trace.
Result<std::string> planText(const Run& run, const Problem& problem, PlanFormat format);
// planText written atomically to `path`.
Result<bool> writePlanFile(const std::string& path, const Run& run, const Problem& problem, PlanFormat format);

// A plan file for `problem`: a ckpt-graph-plan (its actions name the graph's nodes) for a graph, a ckpt-plan for a
// chain.
Result<AnyPlan> loadPlanFor(const std::string& path, const Problem& problem);
// The same from a document already read (a front end that parsed it to learn its kind parses it once).
Result<AnyPlan> planFromJsonFor(const nlohmann::json& doc, const Problem& problem, const std::string& source);

} // namespace ckpt
