// ckpt layout: every tensor a plan (of a chain or of a graph) holds in level 0 placed at an address (run/run_layout.h),
// and how far the packed arena is above the ideal peak.
#include "commands.h"
#include "common.h"
#include "run/run_layout.h"
#include "util/units.h"

#include <cstdio>

namespace ckpt::cli {

int cmdLayout(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "layout")) return BadInput;
    if (args.positional().size() != 1 || !args.has("scheduler")) {
        complain("layout: expected PROBLEM and --scheduler NAME (see ckpt --help)");
        return BadInput;
    }
    auto solved = solveFromArgs(args, args.value("scheduler"));
    if (!solved) return BadInput;
    const Run& run = solved->run;
    if (!run.feasible) {
        complain("layout: " + run.message);
        return exitCodeOf(run);
    }
    const GraphPlan* graphPlan = run.graphPlan();
    const Graph* graph = solved->problem.graph();
    auto layout = layoutRun(run, solved->problem, solved->hw);
    if (!layout) {
        complain("layout: " + layout.error());
        return BadInput;
    }
    if (args.has("json")) {
        nlohmann::json blocks = nlohmann::json::array();
        for (const PlacedTensor& p : layout->tensors) {
            nlohmann::json b = {{"category", memoryCategoryName(p.life.category)},
                                {"index", p.life.index},
                                {"bytes", p.life.bytes},
                                {"offset_bytes", p.offset},
                                {"start_s", p.life.start},
                                {"end_s", p.life.end}};
            // A graph plan's tensors name their node (an output buffer's index counts the node's buffers too).
            if (graphPlan && graph && p.life.index >= 0) b["node"] = graph->node(p.life.index % graph->size()).id;
            blocks.push_back(std::move(b));
        }
        nlohmann::json doc = {{"scheduler", run.scheduler},
                              {"tensors", layout->tensors.size()},
                              {"ideal_peak_bytes", layout->ideal_peak},
                              {"packed_peak_bytes", layout->packed_peak},
                              {"fragmentation", layout->fragmentation()},
                              {"blocks", std::move(blocks)}};
        std::printf("%s\n", jsonText(doc).c_str());
        return Done;
    }
    std::printf("%s: %s", solved->problem.name().c_str(), run.scheduler.c_str());
    for (const auto& [k, v] : run.params)
        std::printf(" %s=%s", k.c_str(), v.c_str());
    std::printf(" · %zu tensors in level 0\n", layout->tensors.size());
    std::printf("ideal peak     %s  (the most held at once)\n", formatBytes(double(layout->ideal_peak)).c_str());
    std::printf("packed peak    %s  (each tensor at an address: first fit, largest first)\n",
                formatBytes(double(layout->packed_peak)).c_str());
    std::printf("fragmentation  %.1f %%\n", 100.0 * layout->fragmentation());
    return Done;
}

} // namespace ckpt::cli
