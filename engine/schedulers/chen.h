#pragma once
#include "schedulers/graph_registry.h"

namespace ckpt {
// Nodes that no edge jumps over in the topological order: the graph's articulation points, where one output alone
// carries everything the rest of the forward pass needs. Chen et al. cut segments only there.
// With `skipSources`, edges out of source nodes that compute nothing (graph inputs: no inputs, forward 0) jump over
// nothing: an input every step reads (an RNN's sequence, an attention mask) is resident, not a skip edge.
std::vector<int> graphSeparators(const Graph& graph, bool skipSources = false);
// The segmentation that cuts after each node of `cuts` (separators, in topological order).
std::vector<int> segmentsAt(const Graph& graph, const std::vector<int>& cuts);
GraphSchedulerInfo chenSqrtScheduler();
GraphSchedulerInfo chenGreedyScheduler();
} // namespace ckpt
