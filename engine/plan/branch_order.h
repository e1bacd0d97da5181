#pragma once
// The order a plan reverses a join graph's branches in: what join-dp chooses (its plan's branch_order), and what the
// graph view draws beside each branch for any plan.
#include "model/graph_shape.h"
#include "plan/graph_action.h"

#include <vector>

namespace ckpt {

// For each branch of `shape`, when `schedule` starts reversing it (1: first, ...; 0: never).
std::vector<int> branchReversalRank(const Graph& graph, const JoinShape& shape, const GraphSchedule& schedule);

} // namespace ckpt
