#include "run/run_layout.h"

#include "sim/graph_simulator.h"
#include "sim/simulator.h"

namespace ckpt {

Result<MemoryLayout> layoutRun(const Run& run, const Problem& problem, const Hardware& hw) {
    if (!run.feasible) return fail("the run found no plan" + (run.message.empty() ? "" : ": " + run.message));
    const Plan* plan = run.chainPlan();
    const GraphPlan* graphPlan = run.graphPlan();
    const Chain* chain = problem.schedulingChain();
    const Graph* graph = problem.graph();
    if (!(plan && chain) && !(graphPlan && graph)) return fail("the plan is not of " + problem.name());
    std::vector<TensorLife> lives;
    SimOptions opt;
    opt.budget_bytes = run.budget_bytes;
    opt.memory_curve = false;
    opt.tensors = &lives;
    auto timeline =
        plan && chain ? simulate(*chain, hw, plan->actions, opt) : simulateGraphPlan(*graph, hw, *graphPlan, opt);
    if (!timeline) return timeline.errorValue();
    return packLayout(lives);
}

} // namespace ckpt
