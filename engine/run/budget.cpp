#include "run/budget.h"

#include "schedulers/fit.h"
#include "schedulers/store_all.h"
#include "sim/graph_simulator.h"
#include "sim/simulator.h"
#include "util/units.h"

#include <algorithm>
#include <sstream>

namespace ckpt {

std::int64_t storeAllPeak(const Chain& chain, const Hardware&) {
    return storeAllPeakBytes(chain); // a formula, so a percentage of a long chain's peak costs no simulation
}

std::int64_t graphStoreAllPeak(const Graph& graph) {
    SimOptions opt;
    opt.memory_curve = false;
    auto tl = simulateGraph(graph, graphStoreAll(graph), opt);
    return tl ? tl->totals.peak_bytes[0] : 0;
}

std::int64_t storeAllPeak(const Problem& problem, const Hardware& hw) {
    if (const Graph* g = problem.graph()) return graphStoreAllPeak(*g);
    return storeAllPeak(*problem.chain(), hw);
}

std::int64_t graphBudgetFloor(const Graph& graph) {
    std::int64_t low = 0;
    for (int v = 0; v < graph.size(); ++v) {
        std::int64_t need = graph.node(v).output_bytes + graph.node(v).workspace_bytes;
        for (int u : graph.inputs(v))
            need += graph.node(u).output_bytes;
        low = std::max(low, need);
    }
    return low;
}

std::int64_t chainBudgetFloor(const Chain& chain) {
    // Every schedule reverses every step: B(j) holds step j's tape, the gradient of x_j (the loss gradient for the
    // last step), the gradient of x_{j-1} it makes, and its temporaries, all at once (leanestPeak's last term, without
    // the x_0 that a schedule may replace by a kept tape).
    std::int64_t low = 0;
    for (int j = 1; j <= chain.length(); ++j) {
        const Step& s = chain.step(j);
        low = std::max(low, s.tape_bytes + chain.stateBytes(j) + chain.stateBytes(j - 1) + s.backward_tmp_bytes);
    }
    return low;
}

BudgetRange budgetRange(const Problem& problem, const Hardware& hw) {
    BudgetRange r;
    if (const Graph* g = problem.graph()) {
        r.floor = graphBudgetFloor(*g);
        // A chain scheduler runs on the chain such a graph converts to; its leanest plan may go lower.
        if (problem.chain()) r.floor = std::min(r.floor, chainBudgetFloor(*problem.chain()));
    } else {
        r.floor = chainBudgetFloor(*problem.chain());
    }
    r.ceiling = storeAllPeak(problem, hw);
    return r;
}

Result<std::vector<std::int64_t>> parseBudgetList(const std::string& text, const Problem& problem, const Hardware& hw) {
    return parseBudgets(text, [&] { return storeAllPeak(problem, hw); });
}

} // namespace ckpt
