#pragma once
// The simulator for graph schedules: the same Timeline (Interval.index = node index) and the same rules of judgement
// as for chains: the first bad action's index and what was wrong, or the timeline with memory by category
// (outputs as "states", gradients, workspace as "temporaries"), per memory level, with asynchronous transfers.
#include "model/graph.h"
#include "plan/graph_action.h"
#include "sim/simulator.h"

namespace ckpt {

// On a machine: level 0 holds at most its capacity (and the budget); Write/Read use each slower level's channel.
Result<Timeline> simulateGraph(const Graph& graph, const Hardware& hw, const GraphSchedule& schedule,
                               const SimOptions& opt = {});
// On one unbounded level (what the schedulers judge their plans on; only the budget binds).
Result<Timeline> simulateGraph(const Graph& graph, const GraphSchedule& schedule, const SimOptions& opt = {});
// A plan with its choice of implementations (GraphPlan::implementation) judged on the graph they make.
Result<Timeline> simulateGraphPlan(const Graph& graph, const Hardware& hw, const GraphPlan& plan,
                                   const SimOptions& opt = {});
// Every node forward in topological order, then every backward in reverse: the baseline. Outputs that no backward
// needs are freed as soon as their consumers have run, as autograd does.
GraphSchedule graphStoreAll(const Graph& graph);

} // namespace ckpt
