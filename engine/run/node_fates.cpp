#include "run/node_fates.h"

#include "model/segment_chain.h"

#include <algorithm>

namespace ckpt {

const char* nodeFateName(NodeFate fate) {
    switch (fate) {
    case NodeFate::Kept:
        return "kept";
    case NodeFate::Recomputed:
        return "recomputed";
    case NodeFate::Freed:
        return "freed";
    case NodeFate::Offloaded:
        return "offloaded";
    case NodeFate::Neutral:
        break;
    }
    return "neutral";
}

namespace {

// The node whose output is a chain plan's state after each step: the i-th in topological order on a graph that is a
// chain, the last node of segment i on a graph run as its segments (model/segment_chain.h).
std::vector<int> stepNodes(const Graph& graph) {
    return graph.isChain() ? graph.topologicalOrder() : segmentExits(graph);
}

} // namespace

int nodeOfIndex(const Graph& graph, const Run& run, int index) {
    const int n = graph.size();
    if (!run.chainPlan()) return index >= 0 && index < n ? index : -1;
    const std::vector<int> steps = stepNodes(graph);
    return index >= 1 && index <= int(steps.size()) ? steps[std::size_t(index - 1)] : -1;
}

int indexOfNode(const Graph& graph, const Run& run, int node) {
    if (node < 0 || node >= graph.size()) return -1;
    if (!run.chainPlan()) return node;
    const std::vector<int> steps = stepNodes(graph);
    auto it = std::find(steps.begin(), steps.end(), node);
    return it == steps.end() ? -1 : int(it - steps.begin()) + 1;
}

std::vector<NodeFate> nodeFates(const Graph& graph, const Run& run) {
    const auto n = std::size_t(graph.size());
    std::vector<NodeFate> out(n, NodeFate::Neutral);
    if (!run.timeline) return out;
    std::vector<int> computes(n, 0);
    std::vector<bool> recomputed(n, false), freedEarly(n, false), offloaded(n, false);
    const std::vector<int> steps = run.chainPlan() ? stepNodes(graph) : std::vector<int>();
    auto nodeOf = [&](int index) {
        if (!run.chainPlan()) return index >= 0 && std::size_t(index) < n ? index : -1;
        return index >= 1 && index <= int(steps.size()) ? steps[std::size_t(index - 1)] : -1;
    };
    for (const Interval& iv : run.timeline->intervals) {
        if (iv.kind == IntervalKind::Write) {
            // A chain's state x_0 is the input, no node's output.
            const int v = nodeOf(iv.index);
            if (v >= 0) offloaded[std::size_t(v)] = true;
            continue;
        }
        if (iv.lane != 0 || iv.kind == IntervalKind::Backward) continue;
        const int v = nodeOf(iv.index);
        if (v < 0) continue;
        ++computes[std::size_t(v)];
        if (iv.kind == IntervalKind::Recompute) recomputed[std::size_t(v)] = true;
    }
    if (const GraphPlan* plan = run.graphPlan()) {
        std::vector<bool> done(n, false);
        for (const GraphAction& a : plan->actions) {
            if (a.node < 0 || std::size_t(a.node) >= n) continue;
            if (a.kind == GraphActionKind::Backward) done[std::size_t(a.node)] = true;
            if (a.kind == GraphActionKind::Free && a.level == 0 && !done[std::size_t(a.node)])
                freedEarly[std::size_t(a.node)] = true;
        }
    }
    for (std::size_t v = 0; v < n; ++v) {
        if (computes[v] == 0) continue;
        out[v] = recomputed[v] || computes[v] > 1 ? NodeFate::Recomputed
                 : offloaded[v]                   ? NodeFate::Offloaded
                 : freedEarly[v]                  ? NodeFate::Freed
                                                  : NodeFate::Kept;
    }
    return out;
}

const char* nodeAtName(NodeAt state) {
    switch (state) {
    case NodeAt::Held:
        return "held in level 0";
    case NodeAt::Offloaded:
        return "on a slower level only";
    case NodeAt::Freed:
        return "freed (held nowhere)";
    case NodeAt::Done:
        return "backward done";
    case NodeAt::NotYet:
        break;
    }
    return "not yet computed";
}

std::vector<NodeAt> nodesAt(const Graph& graph, const Run& run, int action) {
    const GraphPlan* plan = run.graphPlan();
    if (!plan || action < 0 || std::size_t(action) >= plan->actions.size()) return {};
    const auto n = std::size_t(graph.size());
    std::vector<char> computed(n, 0), held(n, 0), slower(n, 0), done(n, 0);
    const std::vector<std::int32_t> none;
    const auto& inPlace = run.timeline ? run.timeline->in_place_actions : none;
    for (std::size_t k = 0; k <= std::size_t(action); ++k) {
        const GraphAction& a = plan->actions[k];
        if (a.node < 0 || std::size_t(a.node) >= n) continue;
        const auto v = std::size_t(a.node);
        switch (a.kind) {
        case GraphActionKind::Forward:
            computed[v] = held[v] = 1;
            // Run in place: its output took over its input's buffer.
            if (std::binary_search(inPlace.begin(), inPlace.end(), std::int32_t(k)))
                held[std::size_t(graph.inputs(a.node).front())] = 0;
            break;
        case GraphActionKind::Backward:
            done[v] = 1;
            break;
        case GraphActionKind::Free:
            (a.level == 0 ? held : slower)[v] = 0;
            break;
        case GraphActionKind::Write:
            slower[v] = 1;
            break;
        case GraphActionKind::Read:
            held[v] = 1;
            break;
        case GraphActionKind::Invert: // rebuilds the node's one input from its output
            for (int u : graph.inputs(a.node))
                computed[std::size_t(u)] = held[std::size_t(u)] = 1;
            break;
        }
    }
    std::vector<NodeAt> out(n, NodeAt::NotYet);
    for (std::size_t v = 0; v < n; ++v)
        out[v] = done[v]       ? NodeAt::Done
                 : held[v]     ? NodeAt::Held
                 : slower[v]   ? NodeAt::Offloaded
                 : computed[v] ? NodeAt::Freed
                               : NodeAt::NotYet;
    return out;
}

} // namespace ckpt
