#pragma once
// Kirisame, Lyubomirsky, Haan, Brennan, He, Roesch, Chen, Tatlock, "Dynamic Tensor Rematerialization" (ICLR 2021):
// online eviction. The store-all program is replayed against the budget; before each operation, resident outputs
// are evicted by a heuristic until it fits, and evicted outputs it needs are recomputed on demand (model B).
#include "schedulers/graph_registry.h"

#include <atomic>
#include <cstdint>

namespace ckpt {

// dtr: cost of t and its evicted neighbourhood e*(t) / (size * staleness); eq-class: the same with e* from the
// paper's union-find approximation; local: t's own cost only; lru: least recently used; size: largest first;
// msps: least memory saved per second of recomputation, size / (cost + the evicted ancestors its recomputation
// needs), no staleness, as the DTR paper states Capuchin's heuristic. Every heuristic breaks ties to the lowest index.
enum class DtrHeuristic { Dtr, EqClass, Local, Lru, Size, Msps };

// The replay at `limit` bytes of level 0 (0: no limit). Errors: infeasible (an operation does not fit even with
// every other output evicted; the message names the bytes it needed; or the replay thrashes), or cancelled.
Result<GraphPlan> dtrPlan(const Graph& graph, std::int64_t limit, DtrHeuristic heuristic,
                          const std::atomic<bool>* cancel = nullptr);

GraphSchedulerInfo dtrScheduler();

} // namespace ckpt
