#pragma once
// Beaumont, Herrmann, Pallez, Shilova, "Optimal memory-aware backpropagation of deep join networks" (Phil. Trans.
// R. Soc. A 378, 2020): k chains (the branches: encoders of a siamese or cross-modal network) that merge into one
// join node, then a chain (the trunk) to the loss. A chain is the join of one branch.
//
// The class of plans (the paper's): every branch is swept forward once, keeping some of its outputs as checkpoints
// and its end; the join runs; the trunk is reversed as a chain from the join's output; the join's backward gives
// every branch its gradient; then the branches are reversed one after the other, each from its checkpoints. The
// branches are swept in the reverse of the order they are reversed in, so that the branch reversed last, whose
// checkpoints are held longest, is swept first. Every chain part (a segment between checkpoints, the trunk) is
// reversed by the optimal recursion of rotor (Beaumont, Eyraud-Dubois, Herrmann, Joly, Shilova 2019) written in the
// graph simulator's memory model: sweep forward to one more checkpoint, reverse what lies right of it, then what
// lies left. Over this class the programme is exact: the order of the branches (a DP over subsets) and, per
// branch, how many bytes of checkpoints it keeps (a knapsack over memory slots) are chosen together, and its time
// equals the simulated makespan. Memory is counted in slots (the budget over `slots`, sizes rounded up), so the plan
// always fits; with a budget of at most `slots` bytes, a slot is a byte and nothing is rounded.
//
// The class leaves out two things exhaustive search finds on small joins: a checkpoint dropped at the peak and rebuilt
// from an earlier one (rotor's plans are persistent; here a checkpoint goes early only when nothing after reads it),
// and the recomputations of two branches interleaved. The scheduler's guard (guard=checkmate; by default on graphs
// of up to 20 nodes) also solves checkmate's MILP and returns its plan when it is faster, so join-dp is never slower
// than checkmate.
#include "model/graph_shape.h"
#include "schedulers/graph_registry.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace ckpt {

// The fastest plan of the class within `limit` bytes of level 0 (0: none). Infeasible when no plan of the class
// fits; the message names the least budget that does (to a slot).
Result<GraphPlan> joinDp(const Graph& graph, std::int64_t limit, int slots = 500,
                         const std::atomic<bool>* cancel = nullptr);

GraphSchedulerInfo joinDpScheduler();

} // namespace ckpt
