#include "model/segment_chain.h"

#include "model/graph_shape.h"

#include <algorithm>

namespace ckpt {

namespace {

bool isInput(const Graph& g, int v) {
    return g.inputs(v).empty() && g.node(v).forward == 0 && g.node(v).backward == 0;
}

} // namespace

std::vector<int> chainSegments(const Graph& g) {
    const auto& order = g.topologicalOrder();
    if (order.empty()) return {};
    // Graph inputs are the chain's x_0, held from start to end: one that later segments read (an RNN's sequence, an
    // attention mask) splits nothing, and is no later segment's tape.
    std::vector<int> seg = segmentsAt(g, graphSeparators(g, true));
    const int count = seg[std::size_t(order.back())] + 1;
    // Segments of graph inputs alone (sources of forward 0) join the first segment that computes.
    int lead = 0;
    for (bool inputsOnly = true; inputsOnly && lead + 1 < count;) {
        for (int v : order)
            if (seg[std::size_t(v)] == lead && !isInput(g, v)) inputsOnly = false;
        if (inputsOnly) ++lead;
    }
    for (int& s : seg)
        s = std::max(0, s - lead);
    return seg;
}

std::vector<int> segmentExits(const Graph& g) {
    const std::vector<int> seg = chainSegments(g);
    std::vector<int> exits;
    for (int v : g.topologicalOrder()) {
        const auto k = std::size_t(seg[std::size_t(v)]);
        if (k >= exits.size()) exits.resize(k + 1, -1);
        exits[k] = v;
    }
    return exits;
}

Result<Chain> segmentChain(const Graph& g) {
    const auto& order = g.topologicalOrder();
    if (order.empty()) return fail(g.name() + ": the graph has no nodes");
    std::vector<int> seg = chainSegments(g);
    const int count = seg[std::size_t(order.back())] + 1;
    if (count < 2)
        return fail(g.name() + ": no articulation point splits the graph (every node lies beside a skip edge): it is " +
                    "one segment, not a chain of them");

    std::vector<std::vector<int>> members(static_cast<std::size_t>(count));
    std::vector<int> pos(std::size_t(g.size()));
    for (std::size_t k = 0; k < order.size(); ++k) {
        pos[std::size_t(order[k])] = int(k);
        members[std::size_t(seg[std::size_t(order[k])])].push_back(order[k]);
    }
    auto bytes = [&](int v) { return g.node(v).output_bytes; };
    std::int64_t state = 0;
    for (int v : members.front())
        if (isInput(g, v)) state += bytes(v);
    if (state == 0) state = bytes(members.front().front());

    std::vector<Step> steps;
    for (int i = 0; i < count; ++i) {
        const auto& nodes = members[std::size_t(i)];
        const int exit = nodes.back();
        auto inner = [&](int v) { return seg[std::size_t(v)] == i && v != exit && !(i == 0 && isInput(g, v)); };
        Step s{0, 0, state, 0, 0, 0};
        std::vector<char> taped(std::size_t(g.size()), 0);
        auto tape = [&](int v) {
            if (!taped[std::size_t(v)]) taped[std::size_t(v)] = 1, s.tape_bytes += bytes(v);
        };
        for (int v : nodes) {
            s.forward += g.node(v).forward;
            s.backward += g.node(v).backward;
            if (g.node(v).needs_inputs)
                for (int u : g.inputs(v))
                    if (i == 0 || !isInput(g, u)) tape(u);
            if (g.node(v).needs_output) tape(v);
        }
        // Forward, keeping nothing: an inner output lives until its last consumer in the segment has run.
        std::vector<int> lastUse(std::size_t(g.size()), -1);
        for (int v : nodes) {
            lastUse[std::size_t(v)] = std::max(lastUse[std::size_t(v)], pos[std::size_t(v)]);
            for (int u : g.inputs(v))
                lastUse[std::size_t(u)] = std::max(lastUse[std::size_t(u)], pos[std::size_t(v)]);
        }
        std::int64_t live = 0;
        for (int v : nodes) {
            if (inner(v)) live += bytes(v);
            s.forward_tmp_bytes = std::max(s.forward_tmp_bytes, live + g.node(v).workspace_bytes);
            for (int u : g.inputs(v))
                if (inner(u) && lastUse[std::size_t(u)] == pos[std::size_t(v)]) live -= bytes(u);
            if (inner(v) && lastUse[std::size_t(v)] == pos[std::size_t(v)]) live -= bytes(v);
        }
        // Backward: an inner gradient appears with its first consumer's backward, goes with its producer's.
        std::vector<char> made(std::size_t(g.size()), 0);
        live = 0;
        for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
            const int v = *it;
            for (int u : g.inputs(v))
                if (inner(u) && !made[std::size_t(u)]) made[std::size_t(u)] = 1, live += bytes(u);
            s.backward_tmp_bytes = std::max(s.backward_tmp_bytes, live + g.node(v).workspace_bytes);
            if (made[std::size_t(v)]) live -= bytes(v);
        }
        steps.push_back(s);
        state = bytes(exit);
    }
    return Chain::make(g.name(), std::move(steps));
}

} // namespace ckpt
