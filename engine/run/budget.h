#pragma once
// Budgets in level 0: store-all's peak (the ceiling, and the base of percentages), the smallest budget worth asking
// for (the floor), and budget lists as the front ends read them.
#include "model/hardware.h"
#include "model/problem.h"
#include "util/budget_list.h"
#include "util/result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ckpt {

std::int64_t storeAllPeak(const Chain& chain, const Hardware& hw);
std::int64_t graphStoreAllPeak(const Graph& graph);
std::int64_t storeAllPeak(const Problem& problem, const Hardware& hw);

// Where the budget slider runs. ceiling: store-all's peak, no plan needs more. floor: a bound no plan goes below, from
// what one action holds at once: for a chain, the largest backward step (its tape, the gradients of its output and
// input, its temporaries); for a graph, the largest forward (its inputs, its output and its workspace); on a graph
// that is a chain, the lower of the two. Not every problem has a plan at its floor: Revolve with one slot reaches
// leanestPeak, which is above it, and rotor can go below leanestPeak (so leanestPeak is no floor).
struct BudgetRange {
    std::int64_t floor = 0;
    std::int64_t ceiling = 0;
};
BudgetRange budgetRange(const Problem& problem, const Hardware& hw);
std::int64_t graphBudgetFloor(const Graph& graph);
std::int64_t chainBudgetFloor(const Chain& chain);

// A budget list: "64MiB,1GiB", or percentages of store-all's peak in level 0 ("5%,10%,50%"), or "none" (0).
Result<std::vector<std::int64_t>> parseBudgetList(const std::string& text, const Problem& problem, const Hardware& hw);

} // namespace ckpt
