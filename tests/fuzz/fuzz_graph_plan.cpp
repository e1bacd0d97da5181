// Graph plan files (graphPlanFromJson), read against a small fixed graph (node ids "a".."f"). A plan that loads must
// save and read back equal, and goes through the graph simulator on one level and on a three-level machine.
#include "fuzz_target.h"
#include "io/graph_plan_io.h"
#include "run/runner.h"

#include <algorithm>

using namespace ckpt;
using namespace ckpt::fuzz;

namespace {

bool samePlan(const GraphPlan& a, const GraphPlan& b) {
    // Implementations compare as chosen: none given is every node its own.
    auto chosen = [](const GraphPlan& p, std::size_t v) {
        return v < p.implementation.size() ? p.implementation[v] : 0;
    };
    for (std::size_t v = 0; v < std::max(a.implementation.size(), b.implementation.size()); ++v)
        if (chosen(a, v) != chosen(b, v)) return false;
    return a.scheduler == b.scheduler && a.params == b.params && a.actions == b.actions &&
           a.predicted_makespan_s == b.predicted_makespan_s && a.budget_bytes == b.budget_bytes;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const Graph graph = fixedGraph();
    auto plan = loadInput(data, size, [&](const auto& doc) { return graphPlanFromJson(doc, graph, kSource); });
    if (!plan) return 0;

    const auto again = readBack(graphPlanToJson(*plan, graph), "graph plan",
                                [&](const auto& j) { return graphPlanFromJson(j, graph, "saved"); });
    check(samePlan(again, *plan), "a graph plan does not read back equal");

    for (const Hardware& hw : {Hardware::unbounded(), fixedHardware()}) {
        Run run = runPlan(*plan, graph, hw);
        if (run.feasible && run.timeline) checkTimeline(*run.timeline, 0, "the graph plan");
    }
    return 0;
}
