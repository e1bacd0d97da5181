#pragma once
// A graph as the chain of its segments between articulation points (the separators of schedulers/chen.h), so that
// the chain schedulers (rotor, revolve, bptt-dp) apply to an imported network. Step i runs segment i: forward and
// backward add up its nodes' times; state_bytes is its input (the previous segment's last output; for the first, the
// graph inputs, whose source nodes forward 0 join the first segment and stay held to the end, so that a later segment
// reading one (an RNN's sequence) is no skip edge and does not tape it); tape_bytes every distinct tensor the backwards
// of its nodes need (their inputs, their output), as Graph::toChain counts one node; forward_tmp_bytes the most the
// segment's other outputs and a workspace hold at once in a forward that keeps nothing, and backward_tmp_bytes the
// most its inner gradients and a workspace hold at once in its backward.
#include "model/chain.h"
#include "model/graph.h"
#include "util/result.h"

namespace ckpt {

// Fails when the graph has no articulation point (one segment: nothing for a chain scheduler to choose).
Result<Chain> segmentChain(const Graph& graph);
// The chain step (0-based segment) of every node, as segmentChain cuts them.
std::vector<int> chainSegments(const Graph& graph);
// The last node of each segment in topological order: the node whose output is the chain's state after that step.
std::vector<int> segmentExits(const Graph& graph);

} // namespace ckpt
