#pragma once
// The oracle for graph schedulers: Dijkstra over every schedule of a small graph (at most 16 nodes) in the graph
// simulator's model. A configuration is (outputs held, nodes reversed, nodes computed at least once); the actions are
// forward, backward, free and invert; each action's peak (its transient included) must stay within the budget. The
// memory accounting is written here again from the rules in graph_action.h, independently of the simulator, and the
// path it finds is replayed through the simulator by the tests, so the two check each other.
#include "model/graph.h"
#include "plan/graph_action.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <unordered_map>
#include <vector>

namespace ckpt::test {

struct GraphOptimum {
    bool feasible = false;
    double time = 0;
    GraphSchedule schedule;
};

inline GraphOptimum exhaustiveGraphOptimum(const Graph& g, std::int64_t budget) {
    const int n = g.size();
    using Mask = std::uint32_t;
    auto bit = [](int v) { return Mask(1) << v; };
    auto out = [&](int v) { return g.node(v).output_bytes; };
    // Memory between actions: held outputs, plus the gradient of every unreversed node with a reversed consumer.
    auto memory = [&](Mask held, Mask done) {
        std::int64_t m = 0;
        for (int v = 0; v < n; ++v) {
            if (held & bit(v)) m += out(v);
            if (done & bit(v)) continue;
            for (int c : g.consumers(v))
                if (done & bit(c)) {
                    m += out(v);
                    break;
                }
        }
        return m;
    };
    auto dead = [&](int v, Mask done) {
        for (int c : g.consumers(v))
            if (!(done & bit(c))) return false;
        return (done & bit(v)) || !g.node(v).needs_output;
    };
    auto key = [&](Mask held, Mask done, Mask ever) {
        return std::uint64_t(held) | (std::uint64_t(done) << 16) | (std::uint64_t(ever) << 32);
    };
    struct Entry {
        double time;
        std::uint64_t key;
        bool operator>(const Entry& o) const { return time > o.time; }
    };
    struct Back {
        std::uint64_t from;
        GraphAction action;
        double time;
    };
    std::unordered_map<std::uint64_t, Back> best;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    const Mask all = bit(n) - 1; // n <= 16
    best[key(0, 0, 0)] = Back{~0ull, GraphAction{}, 0.0};
    queue.push({0.0, key(0, 0, 0)});
    while (!queue.empty()) {
        Entry e = queue.top();
        queue.pop();
        if (e.time > best[e.key].time) continue;
        const Mask held = Mask(e.key & 0xffff), done = Mask((e.key >> 16) & 0xffff), ever = Mask(e.key >> 32);
        if (done == all) {
            GraphOptimum r{true, e.time, {}};
            for (std::uint64_t k = e.key; best[k].from != ~0ull; k = best[k].from)
                r.schedule.insert(r.schedule.begin(), best[k].action);
            return r;
        }
        const std::int64_t base = memory(held, done);
        auto relax = [&](Mask h, Mask d, GraphAction a, double dt, std::int64_t peak, Mask ev) {
            if (budget > 0 && peak > budget) return;
            std::uint64_t k = key(h, d, ev);
            auto it = best.find(k);
            if (it != best.end() && it->second.time <= e.time + dt) return;
            best[k] = Back{e.key, a, e.time + dt};
            queue.push({e.time + dt, k});
        };
        for (int v = 0; v < n; ++v) {
            const GraphNode& node = g.node(v);
            // free
            if (held & bit(v)) relax(held & ~bit(v), done, GraphAction::free(v), 0.0, base, ever);
            // forward
            if (!(held & bit(v)) && !(done & bit(v))) {
                bool ready = true;
                for (int u : g.inputs(v))
                    ready = ready && (held & bit(u));
                if (ready) {
                    Mask h = held | bit(v);
                    if (dead(v, done)) h &= ~bit(v);
                    relax(h, done, GraphAction::forward(v), node.forward, base + out(v) + node.workspace_bytes,
                          ever | bit(v));
                }
            }
            // invert
            if (node.reversible && g.inputs(v).size() == 1 && (held & bit(v))) {
                int u = g.inputs(v).front();
                if (!(held & bit(u)) && !(done & bit(u)))
                    relax(held | bit(u), done, GraphAction::invert(v), node.forward,
                          base + out(u) + node.workspace_bytes, ever);
            }
            // backward
            if (!(done & bit(v))) {
                bool ok = true;
                for (int c : g.consumers(v))
                    ok = ok && (done & bit(c));
                if (node.needs_inputs)
                    for (int u : g.inputs(v))
                        ok = ok && (held & bit(u));
                if (node.needs_output) ok = ok && (held & bit(v));
                ok = ok && (ever & bit(v)); // a backward follows its forward
                if (!ok) continue;
                std::int64_t transient = node.workspace_bytes + (g.consumers(v).empty() ? out(v) : 0);
                for (int u : g.inputs(v)) {
                    bool hasGrad = false;
                    for (int c : g.consumers(u))
                        hasGrad = hasGrad || (done & bit(c));
                    if (!hasGrad) transient += out(u);
                }
                Mask d = done | bit(v), h = held;
                if (dead(v, d)) h &= ~bit(v);
                for (int u : g.inputs(v))
                    if (dead(u, d)) h &= ~bit(u);
                relax(h, d, GraphAction::backward(v), node.backward, base + transient, ever);
            }
        }
    }
    return {};
}

// Small graphs for the oracle: random DAGs of n nodes (edges forward in index order, node 0 a source), sizes and
// times small integers so that optimal costs tie exactly.
inline Graph smallRandomGraph(int n, unsigned seed, double edgeChance = 0.35) {
    std::uint64_t state = seed * 6364136223846793005ull + 1442695040888963407ull;
    auto next = [&](int lo, int hi) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return lo + int((state >> 33) % std::uint64_t(hi - lo + 1));
    };
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    for (int v = 0; v < n; ++v) {
        GraphNode node{"v" + std::to_string(v),     double(next(1, 4)), double(next(1, 6)), next(1, 6),
                       next(0, 1) ? next(0, 3) : 0, next(0, 4) != 0,    next(0, 3) == 0,    false};
        nodes.push_back(node);
        if (v == 0) continue;
        // Always one edge from an earlier node, so that the graph is connected; more with edgeChance.
        int first = next(std::max(0, v - 2), v - 1);
        edges.push_back({nodes[std::size_t(first)].id, node.id});
        for (int u = 0; u < v; ++u)
            if (u != first && next(0, 999) < int(edgeChance * 1000))
                edges.push_back({nodes[std::size_t(u)].id, node.id});
    }
    return *Graph::make("small-" + std::to_string(n) + "-" + std::to_string(seed), std::move(nodes), std::move(edges));
}

} // namespace ckpt::test
