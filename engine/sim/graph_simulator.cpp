#include "sim/graph_simulator.h"

#include "util/units.h"

#include <algorithm>
#include <array>
#include <vector>

namespace ckpt {
namespace {

class GraphReplay {
public:
    GraphReplay(const Graph& g, const GraphSchedule& s, const SimOptions& o)
        : graph(g), schedule(s), opt(o), n(g.size()) {
        held.assign(std::size_t(n), 0), grad.assign(std::size_t(n), 0), done.assign(std::size_t(n), 0),
            runs.assign(std::size_t(n), 0);
        tl.lanes = {"compute"};
        tl.memory.assign(1, {});
        tl.totals.peak_bytes.assign(1, 0);
        tl.totals.peak_time_s.assign(1, 0);
    }

    Result<Timeline> run() {
        for (std::size_t k = 0; k < schedule.size(); ++k) {
            cur = std::int32_t(k);
            std::string err = step(schedule[k]);
            if (!err.empty())
                return fail("action " + std::to_string(k) + " (" + describe(schedule[k]) + "): " + err, (long long)k);
            if (overflow)
                return Error{"action " + std::to_string(k) + " (" + describe(schedule[k]) + "): level 0 would hold " +
                                 formatBytes(double(overflowBytes)) + ", over the budget of " +
                                 formatBytes(double(opt.budget_bytes)),
                             (long long)k, true};
        }
        for (int v = n - 1; v >= 0; --v)
            if (!done[std::size_t(v)])
                return fail("the plan ends (after " + std::to_string(schedule.size()) +
                                " actions) before the backward of node '" + graph.node(v).id +
                                "': every node must be reversed",
                            (long long)schedule.size());
        tl.totals.steps = n;
        tl.totals.recomputed_steps = tl.totals.forward_steps - n;
        tl.totals.makespan_s = tl.totals.compute_s = clock;
        return std::move(tl);
    }

private:
    const Graph& graph;
    const GraphSchedule& schedule;
    const SimOptions& opt;
    int n;
    std::vector<char> held, grad, done;
    std::vector<int> runs;
    int reversed = 0;
    double clock = 0;
    std::int32_t cur = 0;
    std::array<std::int64_t, kMemoryCategories> now{};
    bool overflow = false;
    std::int64_t overflowBytes = 0;
    Timeline tl;

    std::string describe(const GraphAction& a) const {
        std::string id = a.node >= 0 && a.node < n ? graph.node(a.node).id : std::to_string(a.node);
        switch (a.kind) {
        case GraphActionKind::Forward:
            return "forward " + id;
        case GraphActionKind::Backward:
            return "backward " + id;
        case GraphActionKind::Free:
            return "free " + id;
        case GraphActionKind::Invert:
            return "invert " + id;
        }
        return "?";
    }

    void change(double t, MemoryCategory c, std::int64_t delta) {
        if (delta == 0) return;
        now[std::size_t(c)] += delta;
        std::int64_t total = now[0] + now[1] + now[2] + now[3];
        if (total > tl.totals.peak_bytes[0]) tl.totals.peak_bytes[0] = total, tl.totals.peak_time_s[0] = t;
        if (delta > 0 && opt.budget_bytes > 0 && total > opt.budget_bytes && !overflow)
            overflow = true, overflowBytes = total;
        if (!opt.memory_curve) return;
        auto& curve = tl.memory[0];
        if (!curve.empty() && curve.back().time == t)
            curve.back().bytes = now;
        else
            curve.push_back(MemorySample{t, now});
    }

    bool dead(int v) const {
        for (int c : graph.consumers(v))
            if (!done[std::size_t(c)]) return false;
        return done[std::size_t(v)] || !graph.node(v).needs_output;
    }

    void release(int v, double t) {
        if (!held[std::size_t(v)]) return;
        held[std::size_t(v)] = 0;
        change(t, MemoryCategory::State, -graph.node(v).output_bytes);
    }

    std::string step(const GraphAction& a) {
        if (reversed == n) return "every node is already reversed; nothing may follow";
        if (a.node < 0 || a.node >= n) return "there is no node " + std::to_string(a.node);
        const int v = a.node;
        const GraphNode& node = graph.node(v);
        switch (a.kind) {
        case GraphActionKind::Forward: {
            if (done[std::size_t(v)]) return "node '" + node.id + "' was already reversed";
            if (held[std::size_t(v)]) return "the output of '" + node.id + "' is already held";
            for (int u : graph.inputs(v))
                if (!held[std::size_t(u)]) return "its input '" + graph.node(u).id + "' is not held";
            double start = clock, end = clock + node.forward;
            tl.intervals.push_back(Interval{start, end, cur, v, node.output_bytes, 0,
                                            runs[std::size_t(v)]++ ? IntervalKind::Recompute : IntervalKind::Forward});
            ++tl.totals.forward_steps;
            change(start, MemoryCategory::State, node.output_bytes);
            held[std::size_t(v)] = 1;
            change(start, MemoryCategory::Temporary, node.workspace_bytes);
            change(end, MemoryCategory::Temporary, -node.workspace_bytes);
            clock = end;
            if (dead(v)) release(v, end);
            return {};
        }
        case GraphActionKind::Backward: {
            if (done[std::size_t(v)]) return "the backward of '" + node.id + "' is done twice";
            for (int c : graph.consumers(v))
                if (!done[std::size_t(c)])
                    return "the gradient of '" + node.id + "' is not complete: the backward of '" + graph.node(c).id +
                           "' must come first";
            if (node.needs_inputs)
                for (int u : graph.inputs(v))
                    if (!held[std::size_t(u)])
                        return "its backward needs the output of '" + graph.node(u).id + "', which is not held";
            if (node.needs_output && !held[std::size_t(v)])
                return "its backward needs its own output, which is not held";
            if (runs[std::size_t(v)] == 0) return "its forward has not run yet";
            double start = clock, end = clock + node.backward;
            tl.intervals.push_back(Interval{start, end, cur, v, node.output_bytes, 0, IntervalKind::Backward});
            ++tl.totals.backward_steps;
            if (graph.consumers(v).empty())
                change(start, MemoryCategory::Gradient, node.output_bytes), grad[std::size_t(v)] = 1;
            for (int u : graph.inputs(v))
                if (!grad[std::size_t(u)])
                    grad[std::size_t(u)] = 1, change(start, MemoryCategory::Gradient, graph.node(u).output_bytes);
            change(start, MemoryCategory::Temporary, node.workspace_bytes);
            change(end, MemoryCategory::Temporary, -node.workspace_bytes);
            change(end, MemoryCategory::Gradient, -node.output_bytes);
            grad[std::size_t(v)] = 0;
            done[std::size_t(v)] = 1;
            ++reversed;
            clock = end;
            if (dead(v)) release(v, end);
            for (int u : graph.inputs(v))
                if (dead(u)) release(u, end);
            return {};
        }
        case GraphActionKind::Free:
            if (!held[std::size_t(v)]) return "the output of '" + node.id + "' is not held";
            release(v, clock);
            return {};
        case GraphActionKind::Invert: {
            if (!node.reversible) return "node '" + node.id + "' is not reversible";
            if (graph.inputs(v).size() != 1) return "only a node with exactly one input can be inverted";
            if (!held[std::size_t(v)]) return "inverting needs the output of '" + node.id + "', which is not held";
            const int u = graph.inputs(v).front();
            if (held[std::size_t(u)]) return "the output of '" + graph.node(u).id + "' is already held";
            if (done[std::size_t(u)]) return "node '" + graph.node(u).id + "' was already reversed";
            const GraphNode& input = graph.node(u);
            double start = clock, end = clock + node.forward;
            tl.intervals.push_back(Interval{start, end, cur, u, input.output_bytes, 0, IntervalKind::Recompute});
            ++tl.totals.forward_steps;
            ++runs[std::size_t(u)];
            change(start, MemoryCategory::State, input.output_bytes);
            held[std::size_t(u)] = 1;
            change(start, MemoryCategory::Temporary, node.workspace_bytes);
            change(end, MemoryCategory::Temporary, -node.workspace_bytes);
            clock = end;
            return {};
        }
        }
        return "unknown action";
    }
};

} // namespace

Result<Timeline> simulateGraph(const Graph& graph, const GraphSchedule& schedule, const SimOptions& opt) {
    GraphReplay r(graph, schedule, opt);
    return r.run();
}

GraphSchedule graphStoreAll(const Graph& graph) {
    // Autograd's rule: an output that no backward needs goes once its consumers have run; the rest stays until its
    // last backward use (the simulator releases it then).
    auto needed = [&](int v) {
        if (graph.node(v).needs_output) return true;
        for (int c : graph.consumers(v))
            if (graph.node(c).needs_inputs) return true;
        return false;
    };
    std::vector<char> computed(std::size_t(graph.size()), 0), held(computed);
    auto freeIfDone = [&](GraphSchedule& s, int u) {
        if (!held[std::size_t(u)] || needed(u)) return;
        for (int c : graph.consumers(u))
            if (!computed[std::size_t(c)]) return;
        s.push_back(GraphAction::free(u));
        held[std::size_t(u)] = 0;
    };
    GraphSchedule s;
    for (int v : graph.topologicalOrder()) {
        s.push_back(GraphAction::forward(v));
        computed[std::size_t(v)] = 1;
        // A sink whose backward does not need its output is released by the simulator at once.
        held[std::size_t(v)] = !graph.consumers(v).empty() || graph.node(v).needs_output;
        for (int u : graph.inputs(v))
            freeIfDone(s, u);
        freeIfDone(s, v);
    }
    const auto& order = graph.topologicalOrder();
    for (auto it = order.rbegin(); it != order.rend(); ++it)
        s.push_back(GraphAction::backward(*it));
    return s;
}

} // namespace ckpt
