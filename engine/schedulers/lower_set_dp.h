#pragma once
// Kusumoto, Inoue, Watanabe, Akiba, Koyama, "A Graph Theoretic Framework of Recomputation Algorithms for
// Memory-Efficient Backpropagation" (NeurIPS 2019): a DP over increasing lower sets ∅ = L_0 ⊂ ... ⊂ L_k = V, each
// difference one segment of segmentPlan (graph_fit.h); its time is exact, its memory an upper bound of the simulator's.
#include "schedulers/graph_registry.h"

#include <atomic>
#include <cstdint>

namespace ckpt {

// Exact: every lower set of the graph (refused beyond kMaxLowerSets); approximate: ∅, V and the ancestor closure of
// each node (a node and all its ancestors), which on a chain are all the lower sets.
enum class LowerSetFamily { Exact, Approximate };

// The exact family's limit: the DP compares every pair of lower sets, so the work grows with its square. Past it the
// lower sets are counted, up to kCountedLowerSets, for the refusal to say how many there are.
constexpr long long kMaxLowerSets = 20000;
constexpr long long kCountedLowerSets = 2'000'000;
// The approximate variant's fronts keep labels at least a 1/kFrontLabels of the budget apart in checkpoint bytes.
constexpr std::int64_t kFrontLabels = 512;
// The search's work, estimated before it starts: one step per pair of lower sets compared, and a pass over the
// nodes and edges per nested pair (the transition between them). Past kMaxSearchSteps it is refused with the estimate
// (a 1000-node random graph, 9e8 steps, takes 8 s in a release build; DenseNet-121 1.3e8). The approximate variant
// takes graphs of up to kMaxClosureNodes nodes (its closures' bits take n^2 / 8 bytes).
constexpr double kMaxSearchSteps = 1e9;
constexpr int kMaxClosureNodes = 16384;

// The fastest segmentation whose modelled peak stays within `limit` (0: none, so one segment, store-all's time).
// The plan records the modelled peak (predicted_peak_bytes, >= the simulated one) and the exact makespan. When no
// segmentation fits, the error is infeasible and names the smallest modelled peak the family reaches.
Result<GraphPlan> lowerSetDp(const Graph& graph, std::int64_t limit, LowerSetFamily family,
                             const std::atomic<bool>* cancel = nullptr);

GraphSchedulerInfo lowerSetDpScheduler();

} // namespace ckpt
