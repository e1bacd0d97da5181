#include "sim/graph_simulator.h"

#include "sim/memory_ledger.h"
#include "util/bounds.h"
#include "util/units.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

namespace ckpt {
namespace {

// A copy of a node's output on one level.
struct Copy {
    bool held = false;
    std::int64_t bytes = 0;  // the buffer: the node's output, or the larger input buffer it was written over
    double ready = 0;        // when its bytes are all there
    double pinned_until = 0; // a transfer reads it until then; a release waits for it
};

class GraphReplay {
public:
    GraphReplay(const Graph& g, const Hardware& h, const GraphSchedule& s, const SimOptions& o)
        : graph(g), hw(h), schedule(s), opt(o), n(g.size()), levels(h.levelCount()) {
        copies.assign(std::size_t(levels), std::vector<Copy>(std::size_t(n)));
        grad.assign(std::size_t(n), 0), done.assign(std::size_t(n), 0), runs.assign(std::size_t(n), 0);
        channelFree.assign(std::size_t(levels), 0.0);
        tl.lanes = {"compute"};
        for (int l = 1; l < levels; ++l)
            tl.lanes.push_back(hw.level(l).name.empty() ? "level " + std::to_string(l) : hw.level(l).name);
        ledger.reserve(schedule.size() * 4 + 8);
        findInPlace();
        bufferOf.assign(std::size_t(n), -1);
        generation.assign(std::size_t(n), 0);
    }

    Result<Timeline> run() {
        long long bad = -1;
        std::string why;
        for (std::size_t k = 0; k < schedule.size() && bad < 0; ++k) {
            cur = std::int32_t(k);
            std::string err = step(schedule[k]);
            if (!err.empty())
                bad = (long long)k, why = "action " + std::to_string(k) + " (" + describe(schedule[k]) + "): " + err;
        }
        if (bad < 0)
            for (int v = n - 1; v >= 0; --v)
                if (!done[std::size_t(v)]) {
                    bad = (long long)schedule.size();
                    why = "the plan ends (after " + std::to_string(schedule.size()) +
                          " actions) before the backward of node '" + graph.node(v).id +
                          "': every node must be reversed";
                    break;
                }
        // Memory is judged over the actions that were valid; an earlier overflow wins over a later logic error.
        std::vector<std::int64_t> cap(static_cast<std::size_t>(levels), 0);
        for (int l = 0; l < levels; ++l)
            cap[std::size_t(l)] = hw.isUnbounded(l) ? 0 : hw.level(l).capacity_bytes;
        const bool budgetBinds = opt.budget_bytes > 0 && (cap[0] == 0 || opt.budget_bytes < cap[0]);
        if (budgetBinds) cap[0] = opt.budget_bytes;
        std::string capErr;
        long long capAt = ledger.sweep(
            bad < 0 ? std::numeric_limits<long long>::max() : bad, cap, opt.memory_curve, tl,
            [&](std::int32_t a, int l, std::int64_t total, std::int64_t limit) {
                return "action " + std::to_string(a) + " (" + describe(schedule[std::size_t(a)]) + "): level " +
                       std::to_string(l) + " would hold " +
                       (total < 0 ? "more than 2^63 bytes, more than any level holds"
                                  : formatBytes(double(total)) + ", over " +
                                        (l == 0 && budgetBinds ? "the budget" : "its capacity") + " of " +
                                        formatBytes(double(limit)));
            },
            capErr);
        if (capAt >= 0 && (bad < 0 || capAt <= bad)) return Error{capErr, capAt, true};
        if (bad >= 0) return fail(why, bad);
        finishTotals(tl, n, levels, clock);
        std::size_t firstBackward = 0;
        while (firstBackward < schedule.size() && schedule[firstBackward].kind != GraphActionKind::Backward)
            ++firstBackward;
        tl.totals.held_after_forward_bytes = ledger.heldBefore((long long)firstBackward, 0);
        if (opt.tensors) *opt.tensors = ledger.lifetimes(0, std::numeric_limits<long long>::max());
        return std::move(tl);
    }

private:
    const Graph& graph;
    const Hardware& hw;
    const GraphSchedule& schedule;
    const SimOptions& opt;
    int n, levels;
    std::vector<std::vector<Copy>> copies; // [level][node]
    std::vector<char> grad, done;
    std::vector<int> runs;
    std::vector<double> channelFree;
    std::vector<char> inPlace;            // [action]: a forward of an in-place node that may write over its input
    std::vector<char> overwritten;        // [node]: its level-0 copy was written over by an in-place consumer
    std::vector<std::int32_t> bufferOf;   // [node]: the layout's name of its level-0 buffer
    std::vector<std::int64_t> generation; // [node]: level-0 buffers it has had
    int reversed = 0;
    double clock = 0; // end of the last compute action
    std::int32_t cur = 0;
    MemoryLedger ledger;
    Timeline tl;

    std::string describe(const GraphAction& a) const {
        std::string id = a.node >= 0 && a.node < n ? graph.node(a.node).id : std::to_string(a.node);
        std::string at = " (level " + std::to_string(a.level) + ")";
        switch (a.kind) {
        case GraphActionKind::Forward:
            return "forward " + id;
        case GraphActionKind::Backward:
            return "backward " + id;
        case GraphActionKind::Free:
            return "free " + id + (a.level ? at : "");
        case GraphActionKind::Invert:
            return "invert " + id;
        case GraphActionKind::Write:
            return "write " + id + " to level " + std::to_string(a.level);
        case GraphActionKind::Read:
            return "read " + id + " from level " + std::to_string(a.level);
        }
        return "?";
    }

    // An in-place forward may take over its input's buffer when the plan never reads that copy of the input again:
    // scanning the plan backwards, each node's next use in level 0 is a read (a forward or backward that needs it, a
    // write to a slower level, an inversion from it) or an end (it is computed, read back or freed anew first).
    void findInPlace() {
        inPlace.assign(schedule.size(), 0);
        overwritten.assign(std::size_t(n), 0);
        enum Next : char { None, Reads, Ends };
        std::vector<char> next(std::size_t(n), None);
        auto valid = [&](int v) { return v >= 0 && v < n; };
        for (std::size_t k = schedule.size(); k-- > 0;) {
            const GraphAction& a = schedule[k];
            if (!valid(a.node)) continue;
            const int v = a.node;
            const GraphNode& node = graph.node(v);
            switch (a.kind) {
            case GraphActionKind::Forward:
                if (node.in_place && next[std::size_t(graph.inputs(v).front())] != Reads) inPlace[k] = 1;
                next[std::size_t(v)] = Ends;
                for (int u : graph.inputs(v))
                    next[std::size_t(u)] = Reads;
                break;
            case GraphActionKind::Backward:
                if (node.needs_output) next[std::size_t(v)] = Reads;
                if (node.needs_inputs)
                    for (int u : graph.inputs(v))
                        next[std::size_t(u)] = Reads;
                break;
            case GraphActionKind::Free:
                if (a.level == 0) next[std::size_t(v)] = Ends;
                break;
            case GraphActionKind::Write:
                next[std::size_t(v)] = Reads;
                break;
            case GraphActionKind::Read:
                next[std::size_t(v)] = Ends;
                break;
            case GraphActionKind::Invert:
                if (graph.inputs(v).size() == 1) next[std::size_t(graph.inputs(v).front())] = Ends;
                next[std::size_t(v)] = Reads;
                break;
            }
        }
    }

    // `object` names the tensor for the memory layout (MemoryLedger::lifetimes): a node's output buffer in level 0
    // by bufferOf, its gradient and its workspace by the node.
    void change(double t, MemoryCategory c, std::int64_t delta, int level = 0, std::int32_t object = -1) {
        ledger.add(t, level, cur, c, delta, object);
    }
    // A new buffer for v's output in level 0: v + n * (how many v had before), so that no two open ones share a name.
    std::int32_t newBuffer(int v) {
        const std::int64_t id = std::int64_t(v) + std::int64_t(n) * generation[std::size_t(v)]++;
        return bufferOf[std::size_t(v)] = id <= INT32_MAX ? std::int32_t(id) : -1;
    }
    Copy& at0(int v) { return copies[0][std::size_t(v)]; }
    bool held0(int v) const { return copies[0][std::size_t(v)].held; }

    bool dead(int v) const {
        for (int c : graph.consumers(v))
            if (!done[std::size_t(c)]) return false;
        return done[std::size_t(v)] || !graph.node(v).needs_output;
    }

    void release(int level, int v, double t) {
        Copy& c = copies[std::size_t(level)][std::size_t(v)];
        if (!c.held) return;
        c.held = false;
        change(std::max(t, c.pinned_until), MemoryCategory::State, -c.bytes, level,
               level == 0 ? bufferOf[std::size_t(v)] : std::int32_t(v));
    }
    void releaseEverywhere(int v, double t) {
        for (int l = 0; l < levels; ++l)
            release(l, v, t);
    }

    // Why v's output cannot be used in level 0 now ("" when it can).
    std::string missing(int v, const std::string& what) const {
        if (held0(v)) return {};
        for (int l = 1; l < levels; ++l)
            if (copies[std::size_t(l)][std::size_t(v)].held)
                return what + " '" + graph.node(v).id + "' is on level " + std::to_string(l) +
                       ", not in level 0: read it first";
        return what + " '" + graph.node(v).id + "' is not held";
    }

    std::string step(const GraphAction& a) {
        if (reversed == n) return "every node is already reversed; nothing may follow";
        if (a.node < 0 || a.node >= n) return "there is no node " + std::to_string(a.node);
        const bool transfer = a.kind == GraphActionKind::Write || a.kind == GraphActionKind::Read;
        if (a.level < 0 || a.level >= levels)
            return "there is no memory level " + std::to_string(a.level) + " (the machine has " +
                   std::to_string(levels) + ")";
        if (transfer && a.level == 0)
            return "transfers go between level 0 and a slower level; level 0 cannot be the other end";
        switch (a.kind) {
        case GraphActionKind::Forward:
            return forward(a.node);
        case GraphActionKind::Backward:
            return backward(a.node);
        case GraphActionKind::Free:
            return freeOutput(a);
        case GraphActionKind::Invert:
            return invert(a.node);
        case GraphActionKind::Write:
        case GraphActionKind::Read:
            return transferOf(a);
        }
        return "unknown action";
    }

    std::string forward(int v) {
        const GraphNode& node = graph.node(v);
        if (done[std::size_t(v)]) return "node '" + node.id + "' was already reversed";
        if (held0(v)) return "the output of '" + node.id + "' is already held";
        double start = clock;
        for (int u : graph.inputs(v)) {
            if (auto e = missing(u, "its input"); !e.empty()) return e;
            start = std::max(start, at0(u).ready);
        }
        // In place: the output goes into the input's buffer (once any transfer reading it is done), which is
        // the input's no longer.
        std::int64_t buffer = node.output_bytes, grow = node.output_bytes;
        std::int32_t object = -1;
        if (inPlace[std::size_t(cur)]) {
            Copy& in = at0(graph.inputs(v).front());
            object = bufferOf[std::size_t(graph.inputs(v).front())]; // the same buffer, now v's
            start = std::max(start, in.pinned_until);
            buffer = std::max(in.bytes, node.output_bytes), grow = buffer - in.bytes;
            in = Copy{};
            overwritten[std::size_t(graph.inputs(v).front())] = 1;
            ++tl.totals.in_place;
            tl.in_place_actions.push_back(cur);
        }
        double end = start + node.forward;
        tl.intervals.push_back(Interval{start, end, cur, v, node.output_bytes, 0,
                                        runs[std::size_t(v)]++ ? IntervalKind::Recompute : IntervalKind::Forward});
        ++tl.totals.forward_steps;
        if (object < 0)
            change(start, MemoryCategory::State, grow, 0, newBuffer(v));
        else if (grow > 0) // an output larger than the input it overwrites: the buffer grows, by a release and
                           // a new allocation of the whole
            change(start, MemoryCategory::State, -(buffer - grow), 0, object),
                change(start, MemoryCategory::State, buffer, 0, newBuffer(v));
        else
            bufferOf[std::size_t(v)] = object;
        at0(v) = Copy{true, buffer, end, 0};
        overwritten[std::size_t(v)] = 0;
        change(start, MemoryCategory::Temporary, node.workspace_bytes, 0, v);
        change(end, MemoryCategory::Temporary, -node.workspace_bytes, 0, v);
        clock = end;
        if (dead(v)) release(0, v, end);
        return {};
    }

    std::string backward(int v) {
        const GraphNode& node = graph.node(v);
        if (done[std::size_t(v)]) return "the backward of '" + node.id + "' is done twice";
        for (int c : graph.consumers(v))
            if (!done[std::size_t(c)])
                return "the gradient of '" + node.id + "' is not complete: the backward of '" + graph.node(c).id +
                       "' must come first";
        double start = clock;
        if (node.needs_inputs)
            for (int u : graph.inputs(v)) {
                if (auto e = missing(u, "its backward needs the output of"); !e.empty()) return e;
                start = std::max(start, at0(u).ready);
            }
        if (node.needs_output) {
            if (!held0(v)) return "its backward needs its own output, which is not held in level 0";
            start = std::max(start, at0(v).ready);
        }
        if (runs[std::size_t(v)] == 0) return "its forward has not run yet";
        double end = start + node.backward;
        tl.intervals.push_back(Interval{start, end, cur, v, node.output_bytes, 0, IntervalKind::Backward});
        ++tl.totals.backward_steps;
        if (graph.consumers(v).empty())
            change(start, MemoryCategory::Gradient, node.output_bytes, 0, v), grad[std::size_t(v)] = 1;
        for (int u : graph.inputs(v))
            if (!grad[std::size_t(u)])
                grad[std::size_t(u)] = 1, change(start, MemoryCategory::Gradient, graph.node(u).output_bytes, 0, u);
        change(start, MemoryCategory::Temporary, node.workspace_bytes, 0, v);
        change(end, MemoryCategory::Temporary, -node.workspace_bytes, 0, v);
        change(end, MemoryCategory::Gradient, -node.output_bytes, 0, v);
        grad[std::size_t(v)] = 0;
        done[std::size_t(v)] = 1;
        ++reversed;
        clock = end;
        if (dead(v)) releaseEverywhere(v, end);
        for (int u : graph.inputs(v))
            if (dead(u)) releaseEverywhere(u, end);
        return {};
    }

    std::string freeOutput(const GraphAction& a) {
        const int v = a.node;
        const GraphNode& node = graph.node(v);
        // Freeing what an in-place consumer wrote over frees nothing more: a plan made without the flag in
        // mind stays valid.
        if (a.level == 0 && overwritten[std::size_t(v)]) return {};
        if (!copies[std::size_t(a.level)][std::size_t(v)].held)
            return "the output of '" + node.id + "' is not held" +
                   (a.level ? " on level " + std::to_string(a.level) : "");
        release(a.level, v, clock);
        return {};
    }

    // Recomputes v's one input from v's output.
    std::string invert(int v) {
        const GraphNode& node = graph.node(v);
        if (!node.reversible) return "node '" + node.id + "' is not reversible";
        if (graph.inputs(v).size() != 1) return "only a node with exactly one input can be inverted";
        if (!held0(v)) return "inverting needs the output of '" + node.id + "', which is not held in level 0";
        const int u = graph.inputs(v).front();
        if (held0(u)) return "the output of '" + graph.node(u).id + "' is already held";
        if (done[std::size_t(u)]) return "node '" + graph.node(u).id + "' was already reversed";
        const GraphNode& input = graph.node(u);
        double start = std::max(clock, at0(v).ready), end = start + node.forward;
        tl.intervals.push_back(Interval{start, end, cur, u, input.output_bytes, 0, IntervalKind::Recompute});
        ++tl.totals.forward_steps;
        ++runs[std::size_t(u)];
        change(start, MemoryCategory::State, input.output_bytes, 0, newBuffer(u));
        at0(u) = Copy{true, input.output_bytes, end, 0};
        overwritten[std::size_t(u)] = 0;
        change(start, MemoryCategory::Temporary, node.workspace_bytes, 0, v);
        change(end, MemoryCategory::Temporary, -node.workspace_bytes, 0, v);
        clock = end;
        return {};
    }

    // A write of v's output from level 0 to a slower level, or a read back.
    std::string transferOf(const GraphAction& a) {
        const int v = a.node;
        const GraphNode& node = graph.node(v);
        const bool write = a.kind == GraphActionKind::Write;
        const int l = a.level;
        Copy& src = write ? at0(v) : copies[std::size_t(l)][std::size_t(v)];
        Copy& dst = write ? copies[std::size_t(l)][std::size_t(v)] : at0(v);
        if (!src.held)
            return "the output of '" + node.id + "' is not held " +
                   (write ? "in level 0" : "on level " + std::to_string(l)) + ", so it cannot be " +
                   (write ? "written" : "read");
        if (dst.held)
            return "the output of '" + node.id + "' is already held " +
                   (write ? "on level " + std::to_string(l) : "in level 0");
        const std::int64_t bytes = node.output_bytes;
        double start = std::max({clock, channelFree[std::size_t(l)], src.ready});
        double end = start + (write ? hw.writeSeconds(l, bytes) : hw.readSeconds(l, bytes));
        channelFree[std::size_t(l)] = end;
        src.pinned_until = std::max(src.pinned_until, end);
        dst = Copy{true, bytes, end, 0};
        if (!write) overwritten[std::size_t(v)] = 0;
        change(start, MemoryCategory::State, bytes, write ? l : 0, write ? std::int32_t(v) : newBuffer(v));
        tl.intervals.push_back(
            Interval{start, end, cur, v, bytes, std::int16_t(l), write ? IntervalKind::Write : IntervalKind::Read});
        long long& moved = write ? tl.totals.bytes_written : tl.totals.bytes_read;
        if (!checkedAdd(moved, bytes, moved))
            return std::string("the bytes ") + (write ? "written" : "read") + " add up to more than 2^63";
        return {};
    }
};

} // namespace

Result<Timeline> simulateGraph(const Graph& graph, const Hardware& hw, const GraphSchedule& schedule,
                               const SimOptions& opt) {
    GraphReplay r(graph, hw, schedule, opt);
    return r.run();
}

Result<Timeline> simulateGraph(const Graph& graph, const GraphSchedule& schedule, const SimOptions& opt) {
    static const Hardware one = Hardware::unbounded();
    return simulateGraph(graph, one, schedule, opt);
}

Result<Timeline> simulateGraphPlan(const Graph& graph, const Hardware& hw, const GraphPlan& plan,
                                   const SimOptions& opt) {
    if (plan.implementation.empty()) return simulateGraph(graph, hw, plan.actions, opt);
    auto applied = graph.withImplementations(plan.implementation);
    if (!applied) return applied.errorValue();
    return simulateGraph(*applied, hw, plan.actions, opt);
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
