#pragma once
// Checkmate's schedule space searched exhaustively (tst_checkmate, tst_monet): Dijkstra over (stage, position,
// outputs held), where stage t < n computes position t of the topological order for the first time after recomputing
// any earlier positions (in position order), stage t >= n runs the backward of position 2n-1-t after recomputing any
// unreversed positions, and outputs may be freed at any point; each computation's peak (held outputs + its output +
// workspace + the live gradients) and each backward's must fit. Written from the definition, independently of the
// MILP.
#include "model/graph.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <queue>
#include <vector>

namespace ckpt::test {

struct SpaceOracle {
    const Graph& g;
    int n;
    std::vector<int> order;
    explicit SpaceOracle(const Graph& graph) : g(graph), n(graph.size()), order(graph.topologicalOrder()) {}

    using Mask = std::uint32_t;
    static Mask bit(int v) { return Mask(1) << v; }
    std::int64_t out(int v) const { return g.node(v).output_bytes; }
    int frontier(int t) const { return t < n ? t : 2 * n - 1 - t; }
    Mask doneBefore(int t) const {
        Mask d = 0;
        if (t >= n)
            for (int k = frontier(t) + 1; k < n; ++k)
                d |= bit(order[std::size_t(k)]);
        return d;
    }
    bool hasGrad(int v, Mask done) const {
        for (int c : g.consumers(v))
            if (done & bit(c)) return true;
        return false;
    }
    std::int64_t grads(Mask done) const {
        std::int64_t m = 0;
        for (int v = 0; v < n; ++v)
            if (!(done & bit(v)) && hasGrad(v, done)) m += out(v);
        return m;
    }
    std::int64_t heldBytes(Mask held) const {
        std::int64_t m = 0;
        for (int v = 0; v < n; ++v)
            if (held & bit(v)) m += out(v);
        return m;
    }
    // The backward of b in stage t: what it adds and what it reads.
    std::int64_t backwardAdds(int b, Mask done) const {
        std::int64_t m = g.node(b).workspace_bytes + (g.consumers(b).empty() ? out(b) : 0);
        for (int u : g.inputs(b))
            if (!hasGrad(u, done)) m += out(u);
        return m;
    }
    Mask reads(int b) const {
        Mask r = g.node(b).needs_output ? bit(b) : 0;
        if (g.node(b).needs_inputs)
            for (int u : g.inputs(b))
                r |= bit(u);
        return r;
    }
    // The paper's test: the largest footprint of one operation alone.
    std::int64_t footprint() const {
        std::int64_t f = 0;
        for (int v = 0; v < n; ++v) {
            std::int64_t x = out(v) + g.node(v).workspace_bytes;
            for (int u : g.inputs(v))
                x += out(u);
            f = std::max(f, x);
        }
        for (int t = n; t < 2 * n; ++t) {
            const int b = order[std::size_t(frontier(t))];
            f = std::max(f, grads(doneBefore(t)) + backwardAdds(b, doneBefore(t)) + heldBytes(reads(b)));
        }
        return f;
    }

    // Fastest time (forward + backward) in the space, or -1.
    double optimum(std::int64_t budget) const {
        auto key = [&](int t, int p, Mask held) { return (std::uint64_t(t * (n + 2) + p) << 32) | held; };
        std::map<std::uint64_t, double> best;
        using Entry = std::pair<double, std::uint64_t>;
        std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
        auto relax = [&](std::uint64_t k, double time) {
            auto it = best.find(k);
            if (it != best.end() && it->second <= time) return;
            best[k] = time;
            queue.push({time, k});
        };
        relax(key(0, 0, 0), 0.0);
        while (!queue.empty()) {
            auto [time, k] = queue.top();
            queue.pop();
            if (time > best[k]) continue;
            const Mask held = Mask(k);
            const int tp = int(k >> 32), t = tp / (n + 2), p = tp % (n + 2);
            if (t == 2 * n) return time + g.totalBackward();
            const Mask done = doneBefore(t);
            const std::int64_t base = heldBytes(held) + grads(done);
            for (int v = 0; v < n; ++v)
                if (held & bit(v)) relax(key(t, p, held & ~bit(v)), time);
            if (p <= frontier(t)) {
                const int v = order[std::size_t(p)];
                const bool forced = t < n && p == t;
                if (!forced) relax(key(t, p + 1, held), time);
                bool ready = !(held & bit(v));
                for (int u : g.inputs(v))
                    ready = ready && (held & bit(u));
                if (ready && base + out(v) + g.node(v).workspace_bytes <= budget)
                    relax(key(t, p + 1, held | bit(v)), time + g.node(v).forward);
            } else if (t < n) {
                relax(key(t + 1, 0, held), time);
            } else {
                const int b = order[std::size_t(frontier(t))];
                if ((held & reads(b)) == reads(b) && base + backwardAdds(b, done) <= budget)
                    relax(key(t + 1, 0, held), time);
            }
        }
        return -1;
    }
};

} // namespace ckpt::test
