// Gomez, Ren, Urtasun, Grosse, "The Reversible Residual Network: Backpropagation Without Storing Activations" (2017).
// A node marked reversible (one input) rebuilds its input from its output at about its forward cost, so the input
// need not be kept: it goes as soon as the reversible node has run, and comes back, by inversion, just before it is
// needed in the backward pass. Every other output is kept as in store-all (model B).
#include "schedulers/reversible.h"

#include "schedulers/fit.h"
#include "schedulers/graph_fit.h"

namespace ckpt {
namespace {

// u's output can be dropped in the forward pass: its only consumer is reversible, has u as its only input, and
// its own output will still be there to invert (a sink whose backward does not need its output is released at once).
bool rebuildable(const Graph& g, int u) {
    if (g.consumers(u).size() != 1) return false;
    int v = g.consumers(u).front();
    return g.node(v).reversible && g.inputs(v).size() == 1 && (g.node(v).needs_output || !g.consumers(v).empty());
}

struct Replay {
    const Graph& g;
    std::vector<char> held, done;
    GraphPlan plan;

    bool dead(int v) const {
        for (int c : g.consumers(v))
            if (!done[std::size_t(c)]) return false;
        return done[std::size_t(v)] || !g.node(v).needs_output;
    }
    void invert(int v) { // rebuilds the one input of v
        plan.actions.push_back(GraphAction::invert(v));
        plan.predicted_makespan_s += g.node(v).forward;
        held[std::size_t(g.inputs(v).front())] = 1;
    }
};

} // namespace

GraphSchedulerInfo reversibleScheduler() {
    GraphSchedulerInfo s;
    s.name = "reversible";
    s.description = "Inputs of reversible nodes dropped in the forward pass and rebuilt by inversion for the backward";
    s.paper = "Gomez et al. 2017, The Reversible Residual Network (RevNet)";
    s.optimality = Optimality::Heuristic;
    s.solve = [](const Graph& g, const Hardware& hw, const Params&, const GraphSolveContext& ctx) -> Result<GraphPlan> {
        Replay r{g, std::vector<char>(std::size_t(g.size()), 0), std::vector<char>(std::size_t(g.size()), 0), {}};
        int dropped = 0;
        std::vector<char> computed(std::size_t(g.size()), 0);
        // As store-all, an output no backward needs goes once its consumers have run.
        auto unused = [&](int u) {
            if (neededByBackward(g, u)) return false;
            // The way back to a dropped input stays.
            if (g.node(u).reversible && g.inputs(u).size() == 1 && rebuildable(g, g.inputs(u).front())) return false;
            for (int c : g.consumers(u))
                if (!computed[std::size_t(c)]) return false;
            return true;
        };
        for (int v : g.topologicalOrder()) {
            r.plan.actions.push_back(GraphAction::forward(v));
            r.plan.predicted_makespan_s += g.node(v).forward;
            r.held[std::size_t(v)] = !r.dead(v);
            computed[std::size_t(v)] = 1;
            for (int u : g.inputs(v)) {
                if (!r.held[std::size_t(u)]) continue;
                const bool drop = rebuildable(g, u);
                if (!drop && !unused(u)) continue;
                r.plan.actions.push_back(GraphAction::free(u));
                r.held[std::size_t(u)] = 0;
                dropped += drop;
            }
            if (r.held[std::size_t(v)] && unused(v)) {
                r.plan.actions.push_back(GraphAction::free(v));
                r.held[std::size_t(v)] = 0;
            }
        }
        const auto& order = g.topologicalOrder();
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const int v = *it;
            // Its input back for its own backward (v's output is here: kept, or rebuilt by a consumer below); then,
            // while v's inputs are still here, the input of any of them that was dropped, since v's backward may
            // release them and with them the way back.
            if (g.node(v).reversible && g.inputs(v).size() == 1 && !r.held[std::size_t(g.inputs(v).front())])
                r.invert(v);
            for (int u : g.inputs(v))
                if (r.held[std::size_t(u)] && g.node(u).reversible && g.inputs(u).size() == 1 &&
                    !r.held[std::size_t(g.inputs(u).front())])
                    r.invert(u);
            r.plan.actions.push_back(GraphAction::backward(v));
            r.plan.predicted_makespan_s += g.node(v).backward;
            r.done[std::size_t(v)] = 1;
            if (r.dead(v)) r.held[std::size_t(v)] = 0;
            for (int u : g.inputs(v))
                if (r.dead(u)) r.held[std::size_t(u)] = 0;
        }
        r.plan.params["dropped"] = std::to_string(dropped);
        return planWithin("reversible", g, levelZeroLimit(hw, ctx.budget), std::move(r.plan));
    };
    return s;
}

} // namespace ckpt
