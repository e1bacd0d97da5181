#pragma once
// Graph plan files: {"format":"ckpt-graph-plan","version":1,"scheduler":...,"params":{name: text},
// "budget_bytes":n,"predicted_makespan_s":s,"graph":{"name","nodes"} (informational),
// "actions":[["forward","conv1"],["free","conv1"],["backward","fc"],["invert","block2"],["write","conv1",1],
// ["read","conv1",1],["free","conv1",1], ...]} (a level third for write, read, and free on a slower level), and
// "implementations":{"conv1":"winograd", ...} for the nodes a plan runs other than as their own ("default").
// Actions name nodes by id, so a plan reads back only against a graph that has those ids; only "actions" is required.
// Errors name the file and the JSON path of the bad field, as the other readers do.
#include "model/graph.h"
#include "plan/graph_action.h"
#include "util/result.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ckpt {

const char* graphActionName(GraphActionKind kind); // "forward", "backward", "free", "invert"

nlohmann::json graphPlanToJson(const GraphPlan& plan, const Graph& graph);
Result<GraphPlan> graphPlanFromJson(const nlohmann::json& doc, const Graph& graph, const std::string& source);
Result<GraphPlan> loadGraphPlan(const std::string& path, const Graph& graph);
Result<bool> saveGraphPlan(const std::string& path, const GraphPlan& plan, const Graph& graph);

} // namespace ckpt
