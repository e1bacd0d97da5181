#pragma once
// A budget list as the front ends and the files write it: sizes ("64MiB,1GiB"), percentages of store-all's peak in
// level 0 ("5%,10%,50%"), or "none" (0). run/budget.h's parseBudgetList takes the percentages of a problem's peak.
#include "util/result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ckpt {

// Percentages are taken of `base` (store-all's peak), computed only when a percentage asks.
Result<std::vector<std::int64_t>> parseBudgets(const std::string& text, const std::function<std::int64_t()>& base);
// The same before a problem is known (a file's or a field's syntax): percentages of a stand-in peak of 1 TiB.
Result<std::vector<std::int64_t>> checkBudgets(const std::string& text);

} // namespace ckpt
