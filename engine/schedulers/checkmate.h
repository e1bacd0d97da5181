#pragma once
// Jain, Jain, Nrusimha, Gholami, Abbeel, Keutzer, Stoica, Gonzalez, "Checkmate: Breaking the Memory Wall with Optimal
// Tensor Rematerialization" (MLSys 2020): a MILP over which forward outputs each stage computes and keeps, in the graph
// simulator's memory model (outputs, gradients, workspace), solved with COIN-OR CBC; or its LP relaxation, rounded.
// Optimal only within Checkmate's fixed order (forwards in topological order, backwards in reverse, recomputations in
// position order within a stage): lower-set-dp may be faster by reversing nodes in another order. CBC starts from the
// fastest of the fast graph schedulers' plans that runs in that order, and such a plan is returned as it is when the
// MILP ends with nothing faster.
#include "schedulers/graph_registry.h"

namespace ckpt {

// mode = milp (the exact MILP, within time_limit seconds) or lp-rounding (the LP relaxation's keep decisions rounded,
// the best rounding within the budget; the LP's objective is recorded as lp_bound_s, a lower bound on the MILP).
GraphSchedulerInfo checkmateScheduler();

// The MILP's limits, shared with monet: time_limit (s), node_limit (CBC nodes, deterministic), max_memory_mb.
ParamSpec milpTimeLimitParam();
ParamSpec milpNodeLimitParam();
ParamSpec milpMemoryParam();

// Checkmate's plan for `graph` within `limit` bytes of level 0 (0: none), solved with the MILP limits that `limits`
// holds of the three above (time_limit, node_limit, max_memory_mb; checkmate's defaults for the others): what monet and
// join-dp compare their own plans with.
Result<GraphPlan> checkmateWithin(const Graph& graph, std::int64_t limit, const Params& limits,
                                  const GraphSolveContext& ctx);

} // namespace ckpt
