// Graph files (graphFromJson). A graph that loads must save and read back equal, and a small one goes through the
// graph store-all schedule and the simulator (and through the chain it converts to, when it is a chain), whose
// totals must be finite.
#include "fuzz_target.h"
#include "io/graph_io.h"
#include "run/runner.h"
#include "schedulers/graph_registry.h"
#include "schedulers/store_all.h"
#include "sim/graph_simulator.h"

#include <algorithm>

using namespace ckpt;
using namespace ckpt::fuzz;

namespace {

bool sameGraph(const Graph& a, const Graph& b) {
    return a.name() == b.name() && a.nodes() == b.nodes() && a.edges() == b.edges();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto graph = loadInput(data, size, [](const auto& doc) { return graphFromJson(doc, kSource); });
    if (!graph) return 0;

    const auto again = readBack(graphToJson(*graph), "graph", [](const auto& j) { return graphFromJson(j, "saved"); });
    check(sameGraph(again, *graph), "a graph does not read back equal");

    if (graph->size() > 256) return 0;
    (void)graphStoreAllPeak(*graph);
    auto tl = simulateGraph(*graph, graphStoreAll(*graph));
    // Refusing a graph whose sums cannot be represented is right.
    if (tl) {
        checkTimeline(*tl, graph->totalForward() + graph->totalBackward(), "graph store-all");
        // A node's forward holds its inputs, its output and its workspace at once (an in-place node the larger of its
        // input and output): a lower peak means a sum overflowed.
        for (int v = 0; v < graph->size(); ++v) {
            const GraphNode& node = graph->node(v);
            long double need = static_cast<long double>(node.output_bytes) + node.workspace_bytes;
            for (int u : graph->inputs(v))
                need =
                    node.in_place
                        ? std::max(need, static_cast<long double>(graph->node(u).output_bytes) + node.workspace_bytes)
                        : need + static_cast<long double>(graph->node(u).output_bytes);
            check(static_cast<long double>(tl->totals.peak_bytes.at(0)) >= need,
                  "graph store-all's peak " + std::to_string(tl->totals.peak_bytes.at(0)) + " is below what node '" +
                      graph->node(v).id + "' holds while it runs");
        }
    }
    // The framework policies read each node's op and block from the file: on a small graph each must plan (no
    // budget binds) and its plan must validate.
    if (tl && graph->size() <= 64) {
        for (const char* policy : {"full-ac", "min-cut", "memory-budget", "jax-policy", "selective-ac"}) {
            const GraphSchedulerInfo* info = findGraphScheduler(policy);
            if (info->lacks && !info->lacks(*graph).empty()) continue;
            SolveRequest req;
            if (std::string(policy) == "memory-budget") req.params = {{"budget", "0.5"}, {"search", "off"}};
            auto plan = solveGraph(policy, *graph, Hardware::unbounded(), req);
            check(plan.ok(), std::string(policy) + " found no plan without a budget: " + (plan ? "" : plan.error()));
            auto replay = simulateGraph(*graph, plan->actions);
            check(replay.ok(), std::string(policy) + "'s plan does not validate: " + (replay ? "" : replay.error()));
        }
    }
    if (graph->isChain()) {
        const Chain chain = graph->toChain();
        Run run = runScheduler("store-all", chain, Hardware::unbounded(), SolveRequest{});
        if (run.feasible && run.timeline) checkTimeline(*run.timeline, 0, "store-all on the graph's chain");
    }
    return 0;
}
