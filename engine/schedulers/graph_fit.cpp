#include "schedulers/graph_fit.h"

#include "schedulers/fit.h"
#include "sim/graph_simulator.h"

#include <algorithm>

namespace ckpt {

std::int64_t graphPlanPeak(const Graph& graph, const GraphSchedule& schedule) {
    SimOptions opt;
    opt.memory_curve = false;
    auto tl = simulateGraph(graph, schedule, opt);
    return tl ? tl->totals.peak_bytes[0] : -1;
}

Result<GraphPlan> planWithin(const std::string& scheduler, const Graph& graph, std::int64_t limit, GraphPlan plan) {
    if (limit > 0) {
        std::int64_t peak = graphPlanPeak(graph, plan.actions);
        if (peak > limit) return needsBudget(scheduler, peak, limit);
    }
    return plan;
}

bool neededByBackward(const Graph& graph, int v) {
    if (graph.node(v).needs_output) return true;
    for (int c : graph.consumers(v))
        if (graph.node(c).needs_inputs) return true;
    return false;
}

namespace {

// Mirrors the simulator's state so that the plan frees only what is held and rebuilds only what is missing.
struct Builder {
    const Graph& g;
    const std::vector<int>& seg;
    std::vector<char> held, done, computed;
    SegmentPlan plan;

    Builder(const Graph& graph, const std::vector<int>& segment)
        : g(graph), seg(segment), held(std::size_t(graph.size()), 0), done(held), computed(held) {}

    bool checkpoint(int v) const {
        for (int c : g.consumers(v))
            if (seg[std::size_t(c)] != seg[std::size_t(v)]) return true;
        return false;
    }
    bool dead(int v) const {
        for (int c : g.consumers(v))
            if (!done[std::size_t(c)]) return false;
        return done[std::size_t(v)] || !g.node(v).needs_output;
    }
    void forward(int v) {
        plan.actions.push_back(GraphAction::forward(v));
        plan.makespan_s += g.node(v).forward;
        held[std::size_t(v)] = 1, computed[std::size_t(v)] = 1;
        if (dead(v)) held[std::size_t(v)] = 0;
    }
    // Frees u once every consumer has been computed in this pass, unless `keep` says it must stay.
    void freeIfUnused(int u, bool keep) {
        if (!held[std::size_t(u)] || keep) return;
        for (int c : g.consumers(u))
            if (!computed[std::size_t(c)] && !done[std::size_t(c)]) return;
        plan.actions.push_back(GraphAction::free(u));
        held[std::size_t(u)] = 0;
    }
    void backward(int v) {
        plan.actions.push_back(GraphAction::backward(v));
        plan.makespan_s += g.node(v).backward;
        done[std::size_t(v)] = 1;
        if (dead(v)) held[std::size_t(v)] = 0;
        for (int u : g.inputs(v))
            if (dead(u)) held[std::size_t(u)] = 0;
    }
};

} // namespace

SegmentPlan segmentPlan(const Graph& g, const std::vector<int>& seg) {
    Builder b(g, seg);
    const auto& order = g.topologicalOrder();
    const int last = g.size() ? *std::max_element(seg.begin(), seg.end()) : 0;
    for (int v : order) {
        b.forward(v);
        const bool lastSegment = seg[std::size_t(v)] == last;
        for (int u : g.inputs(v))
            b.freeIfUnused(u, b.checkpoint(u) || (lastSegment && neededByBackward(g, u)));
        b.freeIfUnused(v, b.checkpoint(v) || (lastSegment && neededByBackward(g, v)));
    }
    std::vector<char> need(std::size_t(g.size()), 0);
    // Each segment's nodes in topological order: the backward phase visits each node a bounded number of times, not
    // once per segment (a cut at every separator makes about n segments).
    std::vector<std::vector<int>> members(std::size_t(last + 1));
    for (int v : order)
        members[std::size_t(seg[std::size_t(v)])].push_back(v);
    for (int s = last; s >= 0; --s) {
        const std::vector<int>& here = members[std::size_t(s)];
        if (s != last) {
            // Not yet rebuilt in this pass; later segments are reversed already, and no node of this segment reads an
            // earlier one's `computed`, so this segment's entries are the only ones to reset.
            for (int v : here)
                b.computed[std::size_t(v)] = 0;
            // Which outputs of the segment are needed, from its end back: by a backward, or to compute a needed one.
            for (auto it = here.rbegin(); it != here.rend(); ++it) {
                int v = *it;
                bool n = g.node(v).needs_output;
                for (int c : g.consumers(v))
                    if (seg[std::size_t(c)] == s &&
                        (g.node(c).needs_inputs || (need[std::size_t(c)] && !b.held[std::size_t(c)])))
                        n = true;
                need[std::size_t(v)] = n;
            }
            // Held or not needed: nothing waits for them to be rebuilt.
            for (int v : here)
                if (!(need[std::size_t(v)] && !b.held[std::size_t(v)])) b.computed[std::size_t(v)] = 1;
            for (int v : here) {
                if (b.computed[std::size_t(v)]) continue;
                b.forward(v);
                for (int u : g.inputs(v))
                    if (seg[std::size_t(u)] == s) b.freeIfUnused(u, b.checkpoint(u) || neededByBackward(g, u));
            }
        }
        for (auto it = here.rbegin(); it != here.rend(); ++it)
            b.backward(*it);
    }
    return std::move(b.plan);
}

} // namespace ckpt
