#include "util/budget_list.h"

#include "util/units.h"

#include <algorithm>
#include <sstream>

namespace ckpt {

Result<std::vector<std::int64_t>> parseBudgets(const std::string& text, const std::function<std::int64_t()>& baseOf) {
    std::vector<std::int64_t> out;
    std::stringstream ss(text);
    std::string item;
    std::int64_t base = -1;
    while (std::getline(ss, item, ',')) {
        while (!item.empty() && item.front() == ' ')
            item.erase(item.begin());
        while (!item.empty() && item.back() == ' ')
            item.pop_back();
        if (item.empty()) continue;
        if (item == "none" || item == "0") {
            out.push_back(0);
        } else if (item.back() == '%') {
            auto pct = parseSeconds(item.substr(0, item.size() - 1)); // a plain non-negative number
            if (!pct || *pct <= 0)
                return fail("budget '" + item + "': expected a percentage > 0 of store-all's peak, e.g. 5%");
            if (base < 0) base = baseOf();
            // A huge percentage would overflow the conversion to bytes (9e18 is parseBytes' largest size too).
            const double bytes = std::min(double(base) * *pct / 100.0, 9.0e18);
            out.push_back(std::max<std::int64_t>(1, std::int64_t(bytes)));
        } else {
            auto b = parseBytes(item);
            if (!b) return fail("budget '" + item + "': " + b.error());
            if (*b <= 0) return fail("budget '" + item + "': expected a size > 0");
            out.push_back(*b);
        }
    }
    if (out.empty()) return fail("the budget list is empty");
    return out;
}

Result<std::vector<std::int64_t>> checkBudgets(const std::string& text) {
    return parseBudgets(text, [] { return std::int64_t(1) << 40; });
}

} // namespace ckpt
