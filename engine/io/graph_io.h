#pragma once
// The graph file: {"format":"ckpt-graph","version":1,"name":...,"nodes":[{"id":"conv1","forward":s,"backward":s,
// "output_bytes":n,"workspace_bytes":n,"needs_inputs":true,"needs_output":false,"reversible":false,
// "in_place":false}, ...], "edges":[["conv1","relu1"], ...]} (an edge may also be {"from":...,"to":...}). backward
// defaults to 2x forward, workspace_bytes to 0, needs_inputs to true, needs_output, reversible and in_place to false.
// A node may list other implementations of itself: "implementations":[{"name":"winograd","forward":s,"backward":s,
// "workspace_bytes":n}, ...] (backward 2x forward, workspace 0 by default; the node's own is named "default").
#include "model/graph.h"
#include "util/result.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ckpt {

Result<Graph> graphFromJson(const nlohmann::json& doc, const std::string& source);
nlohmann::json graphToJson(const Graph& graph);
Result<Graph> loadGraph(const std::string& path);
Result<bool> saveGraph(const std::string& path, const Graph& graph);

// A seeded random layered DAG: `nodes` nodes in layers of 1..width, each taking 1..3 inputs from the previous two
// layers; sizes and times drawn around those of a mid-size conv layer. The same seed gives the same graph.
Graph randomLayeredGraph(int nodes, std::uint64_t seed, int width = 4);
// A seeded random join graph (join-dp's shape): `branches` chains, each from its own input, merging into a join node
// (a concatenation: its backward reads nothing), then a trunk of about an eighth of the nodes; `nodes` in all (at
// least branches + 1). Sizes and times as randomLayeredGraph's.
Graph randomJoinGraph(int nodes, std::uint64_t seed, int branches = 2);
// The linear graph of n nodes (a chain of equal steps).
Graph linearGraph(int nodes);

} // namespace ckpt
