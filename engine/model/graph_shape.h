#pragma once
// Analyses of a graph's shape that schedulers, the segment chain and the views share: where one output carries the
// rest of the forward pass (separators), the segments they cut, and whether the graph is a join (branches that merge
// at one node, then a chain to the loss).
#include "model/graph.h"
#include "util/result.h"

#include <vector>

namespace ckpt {

// Nodes that no edge jumps over in the topological order: the graph's articulation points, where one output alone
// carries everything the rest of the forward pass needs. Chen et al. cut segments only there.
// With `skipSources`, edges out of source nodes that compute nothing (graph inputs: no inputs, forward 0) jump over
// nothing: an input every step reads (an RNN's sequence, an attention mask) is resident, not a skip edge.
std::vector<int> graphSeparators(const Graph& graph, bool skipSources = false);
// The segment of every node when the graph is cut after each node of `cuts` (separators, in topological order).
std::vector<int> segmentsAt(const Graph& graph, const std::vector<int>& cuts);

// Node indices: branches[i] from its source to its last node (an input of `join`), then the trunk after `join`.
struct JoinShape {
    std::vector<std::vector<int>> branches;
    int join = -1;
    std::vector<int> trunk; // empty when the join is the loss
};
// The shape, or why the graph is no join, naming the node that breaks it (a node feeding two others, a second merge,
// two losses). A chain is the join of one branch.
Result<JoinShape> joinShape(const Graph& graph);

} // namespace ckpt
