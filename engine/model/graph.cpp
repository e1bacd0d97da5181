#include "model/graph.h"

#include "util/bounds.h"

#include <cmath>
#include <set>
#include <unordered_map>

namespace ckpt {

Result<Graph> Graph::make(std::string name, std::vector<GraphNode> nodes, std::vector<GraphEdge> edges) {
    return build(std::move(name), std::move(nodes), std::move(edges), true);
}

Result<Graph> Graph::build(std::string name, std::vector<GraphNode> nodes, std::vector<GraphEdge> edges,
                           bool boundTotal) {
    if (nodes.empty()) return fail("a graph needs at least one node");
    std::unordered_map<std::string, int> index;
    std::int64_t total = 0; // every byte of the graph: the bound that keeps the simulator's sums exact
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        const GraphNode& n = nodes[k];
        auto where = [&] { return "node '" + n.id + "': "; };
        if (n.id.empty()) return fail("node " + std::to_string(k) + ": the id is empty");
        if (!index.emplace(n.id, int(k)).second) return fail(where() + "the id is used twice");
        if (auto e = whyBadSeconds(n.forward); !e.empty()) return fail(where() + "forward time" + e);
        if (auto e = whyBadSeconds(n.backward); !e.empty()) return fail(where() + "backward time" + e);
        if (n.output_bytes < 0) return fail(where() + "output_bytes must be >= 0");
        if (n.workspace_bytes < 0) return fail(where() + "workspace_bytes must be >= 0");
        if (!(n.flops >= 0) || !std::isfinite(n.flops)) return fail(where() + "flops must be a finite number >= 0");
        std::set<std::string> implNames{"default"};
        for (const NodeImplementation& alt : n.alternatives) {
            const std::string at = where() + "implementation '" + alt.name + "': ";
            if (alt.name.empty()) return fail(where() + "an implementation needs a name");
            if (!implNames.insert(alt.name).second)
                return fail(at + "the name is used twice (\"default\" is the node's own)");
            if (auto e = whyBadSeconds(alt.forward); !e.empty()) return fail(at + "forward time" + e);
            if (auto e = whyBadSeconds(alt.backward); !e.empty()) return fail(at + "backward time" + e);
            if (alt.workspace_bytes < 0) return fail(at + "workspace_bytes must be >= 0");
            if (alt.workspace_bytes > kMaxTotalBytes) return fail(at + "workspace_bytes is over " + kMaxTotalBytesText);
        }
        if (!checkedAdd(total, n.output_bytes, total) || !checkedAdd(total, n.workspace_bytes, total) ||
            (boundTotal && total > kMaxTotalBytes))
            return fail(where() + "the graph's outputs and workspaces add up to more than " + kMaxTotalBytesText +
                        " (" + std::to_string(kMaxTotalBytes) + " B) by this node, the most this program represents " +
                        "exactly");
    }
    Graph g;
    g.m_inputs.assign(nodes.size(), {});
    g.m_consumers.assign(nodes.size(), {});
    std::set<std::pair<int, int>> seen;
    for (const GraphEdge& e : edges) {
        auto from = index.find(e.from), to = index.find(e.to);
        if (from == index.end()) return fail("edge " + e.from + " -> " + e.to + ": no node '" + e.from + "'");
        if (to == index.end()) return fail("edge " + e.from + " -> " + e.to + ": no node '" + e.to + "'");
        if (from->second == to->second) return fail("node '" + e.from + "': an edge to itself");
        if (!seen.emplace(from->second, to->second).second)
            return fail("edge " + e.from + " -> " + e.to + " is given twice");
        g.m_consumers[std::size_t(from->second)].push_back(to->second);
        g.m_inputs[std::size_t(to->second)].push_back(from->second);
    }
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].in_place && g.m_inputs[i].size() != 1)
            return fail("node '" + nodes[i].id + "': in_place needs exactly one input, and it has " +
                        std::to_string(g.m_inputs[i].size()));
    // Kahn's algorithm, smallest index first so the order is stable; what is left over lies on or after a cycle.
    std::vector<int> pending(nodes.size());
    std::set<int> ready;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        pending[i] = int(g.m_inputs[i].size());
        if (pending[i] == 0) ready.insert(int(i));
    }
    while (!ready.empty()) {
        int i = *ready.begin();
        ready.erase(ready.begin());
        g.m_order.push_back(i);
        for (int c : g.m_consumers[std::size_t(i)])
            if (--pending[std::size_t(c)] == 0) ready.insert(c);
    }
    if (g.m_order.size() != nodes.size()) {
        // Walk back along unfinished inputs until a node repeats: that node is on a cycle.
        int at = 0;
        while (pending[std::size_t(at)] == 0)
            ++at;
        std::vector<int> visited(nodes.size(), 0);
        while (!visited[std::size_t(at)]) {
            visited[std::size_t(at)] = 1;
            for (int p : g.m_inputs[std::size_t(at)])
                if (pending[std::size_t(p)] > 0) {
                    at = p;
                    break;
                }
        }
        return fail("node '" + nodes[std::size_t(at)].id + "' lies on a cycle: a forward graph must be acyclic");
    }
    g.m_name = std::move(name);
    g.m_nodes = std::move(nodes);
    g.m_edges = std::move(edges);
    return g;
}

Graph Graph::fromChain(const Chain& chain) {
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    for (int i = 1; i <= chain.length(); ++i) {
        const Step& s = chain.step(i);
        nodes.push_back(GraphNode{"s" + std::to_string(i), s.forward, s.backward, chain.stateBytes(i),
                                  s.tape_bytes + s.forward_tmp_bytes, true, false, false});
        if (i > 1) edges.push_back(GraphEdge{"s" + std::to_string(i - 1), "s" + std::to_string(i)});
    }
    // The chain was checked: its graph holds the same bytes at most, but they may be arranged past the file bound.
    return *build(chain.name(), std::move(nodes), std::move(edges), false);
}

Chain Graph::toChain() const {
    std::vector<Step> steps;
    std::int64_t previous = m_order.empty() ? 0 : node(m_order.front()).output_bytes;
    for (int v : m_order) {
        const GraphNode& n = node(v);
        std::int64_t tape = (n.needs_inputs ? previous : 0) + (n.needs_output ? n.output_bytes : 0);
        steps.push_back(Step{n.forward, n.backward, previous, tape, n.workspace_bytes, n.workspace_bytes});
        previous = n.output_bytes;
    }
    // Not Chain::make: counting a state as the next step's tape too may take a checked graph past the file bound.
    return Chain(m_name, std::move(steps));
}

int Graph::indexOf(const std::string& id) const {
    for (int i = 0; i < size(); ++i)
        if (m_nodes[std::size_t(i)].id == id) return i;
    return -1;
}

bool Graph::isChain() const {
    int sources = 0;
    for (int i = 0; i < size(); ++i) {
        if (m_inputs[std::size_t(i)].size() > 1 || m_consumers[std::size_t(i)].size() > 1) return false;
        sources += m_inputs[std::size_t(i)].empty();
    }
    return sources == 1;
}

double Graph::totalForward() const {
    double t = 0;
    for (const GraphNode& n : m_nodes)
        t += n.forward;
    return t;
}

double Graph::totalBackward() const {
    double t = 0;
    for (const GraphNode& n : m_nodes)
        t += n.backward;
    return t;
}

bool Graph::hasAlternatives() const {
    for (const GraphNode& n : m_nodes)
        if (!n.alternatives.empty()) return true;
    return false;
}

std::string Graph::implementationName(int v, int c) const {
    return c <= 0 ? std::string("default") : node(v).alternatives[std::size_t(c - 1)].name;
}

Result<Graph> Graph::withImplementations(const std::vector<int>& choice) const {
    if (choice.empty()) return *this;
    if (int(choice.size()) != size())
        return fail("the plan picks implementations for " + std::to_string(choice.size()) + " nodes; the graph has " +
                    std::to_string(size()));
    Graph g = *this;
    for (int v = 0; v < size(); ++v) {
        const int c = choice[std::size_t(v)];
        if (c < 0 || c >= implementationCount(v))
            return fail("node '" + node(v).id + "': no implementation " + std::to_string(c) + " (it has " +
                        std::to_string(implementationCount(v)) + ")");
        GraphNode& n = g.m_nodes[std::size_t(v)];
        if (c > 0) {
            const NodeImplementation& alt = node(v).alternatives[std::size_t(c - 1)];
            n.forward = alt.forward, n.backward = alt.backward, n.workspace_bytes = alt.workspace_bytes;
        }
        n.alternatives.clear();
    }
    return g;
}

} // namespace ckpt
