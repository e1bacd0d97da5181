#pragma once
// What a run does with each node of a graph, read from its timeline (and its graph plan's frees): the graph view
// colours nodes by it, and a Gantt selection maps to nodes through the same numbering.
#include "model/graph.h"
#include "run/runner.h"

#include <vector>

namespace ckpt {

enum class NodeFate {
    Neutral,    // never computed (or no plan)
    Kept,       // computed once, held until its backward
    Recomputed, // its forward ran more than once
    Freed,      // freed from level 0 before its backward, not recomputed (only a graph plan says so)
    Offloaded,  // written to a slower level
};
const char* nodeFateName(NodeFate fate); // "neutral", "kept", "recomputed", "freed", "offloaded"

// The node an interval's index names: a graph plan's index is the node; a chain plan's (a chain scheduler's on a graph
// that is a chain) is step i = the i-th node in topological order, and a transfer's state x_i is step i's output.
// -1 when it names no node.
int nodeOfIndex(const Graph& graph, const Run& run, int index);
// The index under which the run's intervals name `node` (the inverse of nodeOfIndex); -1 for none.
int indexOfNode(const Graph& graph, const Run& run, int node);

// One fate per node; all Neutral for a run without a timeline. Recomputed wins over Offloaded, which wins over Freed.
std::vector<NodeFate> nodeFates(const Graph& graph, const Run& run);

// Each node at one moment of a graph plan: once action `action` is done. Done (its backward has run) wins over Held
// (its output in level 0), then Offloaded (a copy on a slower level only), Freed (computed, now held nowhere),
// NotYet (not computed so far). Empty for a run without a graph plan or an action out of range.
enum class NodeAt { NotYet, Held, Offloaded, Freed, Done };
const char* nodeAtName(NodeAt state); // "not yet computed", "held in level 0", ...
std::vector<NodeAt> nodesAt(const Graph& graph, const Run& run, int action);

} // namespace ckpt
