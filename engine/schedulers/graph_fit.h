#pragma once
// What the graph schedulers share: the simulator's peak of a schedule, and the plan of a segmentation.
#include "model/graph.h"
#include "plan/graph_action.h"
#include "util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ckpt {

// Peak of level 0 for a graph schedule, or -1 if it does not validate (a scheduler bug; tests catch it).
std::int64_t graphPlanPeak(const Graph& graph, const GraphSchedule& schedule);

// The plan of a segmentation (Chen et al.; Kusumoto et al.'s lower sets): segment[v] in 0..k-1 for every node, with
// segment[u] <= segment[v] for every edge u -> v, so that each prefix of segments is a lower set L_i.
// Forward phase, segment by segment in topological order: a node's output is kept (a checkpoint) when a consumer lies
// in a later segment; other outputs go as soon as their consumers ran, except in the last segment, where what a
// backward needs stays. Backward phase, last segment first: rebuild the segment's missing outputs that are still
// needed (its backward needs them, or a needed node is computed from them) from the checkpoints, then the segment's
// backward in reverse topological order. Every node runs forward once, plus at most once more in its segment's rebuild.
struct SegmentPlan {
    GraphSchedule actions;
    double makespan_s = 0;
};
SegmentPlan segmentPlan(const Graph& graph, const std::vector<int>& segment);

// The plan as it is when its simulated peak fits `limit` (0: none), else the infeasible error naming that peak: for
// schedulers with one plan and no knob to turn.
Result<GraphPlan> planWithin(const std::string& scheduler, const Graph& graph, std::int64_t limit, GraphPlan plan);

// Whether some backward needs v's output: its own (needs_output) or a consumer's (needs_inputs).
bool neededByBackward(const Graph& graph, int v);

} // namespace ckpt
