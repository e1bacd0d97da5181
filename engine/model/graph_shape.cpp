#include "model/graph_shape.h"

#include <algorithm>

namespace ckpt {

std::vector<int> graphSeparators(const Graph& g, bool skipSources) {
    const auto& order = g.topologicalOrder();
    std::vector<int> pos(std::size_t(g.size()));
    for (std::size_t k = 0; k < order.size(); ++k)
        pos[std::size_t(order[k])] = int(k);
    // An edge a -> b jumps over every position strictly between pos(a) and pos(b): mark them with a difference array.
    std::vector<int> cover(order.size() + 1, 0);
    auto source = [&](int a) { return skipSources && g.inputs(a).empty() && g.node(a).forward == 0; };
    for (int b = 0; b < g.size(); ++b)
        for (int a : g.inputs(b))
            if (pos[std::size_t(b)] - pos[std::size_t(a)] > 1 && !source(a)) {
                ++cover[std::size_t(pos[std::size_t(a)] + 1)];
                --cover[std::size_t(pos[std::size_t(b)])];
            }
    std::vector<int> out;
    int running = 0;
    for (std::size_t k = 0; k + 1 < order.size(); ++k) { // the last node ends the last segment anyway
        running += cover[k];
        if (running == 0) out.push_back(order[k]);
    }
    return out;
}

std::vector<int> segmentsAt(const Graph& g, const std::vector<int>& cuts) {
    std::vector<char> isCut(std::size_t(g.size()), 0);
    for (int c : cuts)
        isCut[std::size_t(c)] = 1;
    std::vector<int> seg(std::size_t(g.size()), 0);
    int s = 0;
    for (int v : g.topologicalOrder()) {
        seg[std::size_t(v)] = s;
        if (isCut[std::size_t(v)]) ++s;
    }
    return seg;
}

namespace {

std::string quoted(const Graph& g, int v) {
    return "'" + g.node(v).id + "'";
}

} // namespace

Result<JoinShape> joinShape(const Graph& g) {
    JoinShape shape;
    int sink = -1;
    for (int v = 0; v < g.size(); ++v) {
        if (g.consumers(v).size() > 1)
            return fail("node " + quoted(g, v) + " feeds " + std::to_string(g.consumers(v).size()) + " nodes");
        if (g.inputs(v).size() > 1) {
            if (shape.join >= 0)
                return fail("nodes " + quoted(g, shape.join) + " and " + quoted(g, v) + " both merge several inputs");
            shape.join = v;
        }
        if (g.consumers(v).empty()) {
            if (sink >= 0) return fail("nodes " + quoted(g, sink) + " and " + quoted(g, v) + " are both losses");
            sink = v;
        }
    }
    if (sink < 0) return fail("the graph is empty");
    if (shape.join < 0) shape.join = sink; // a chain: one branch into the loss
    for (int v = g.consumers(shape.join).empty() ? -1 : g.consumers(shape.join).front(); v >= 0;
         v = g.consumers(v).empty() ? -1 : g.consumers(v).front())
        shape.trunk.push_back(v);
    for (int u : g.inputs(shape.join)) {
        std::vector<int> branch;
        for (int v = u; v >= 0; v = g.inputs(v).empty() ? -1 : g.inputs(v).front())
            branch.push_back(v);
        std::reverse(branch.begin(), branch.end());
        shape.branches.push_back(std::move(branch));
    }
    return shape;
}

} // namespace ckpt
