#pragma once
// A Schedule (the ordered actions) with what made it: the scheduler, its parameters, and its own cost prediction.
#include "plan/action.h"

#include <map>
#include <string>
#include <vector>

namespace ckpt {

using Schedule = std::vector<Action>;

struct Plan {
    std::string scheduler;
    std::map<std::string, std::string> params; // as given, after defaults; printed back into plan files
    Schedule actions;
    double predicted_makespan_s = 0; // the scheduler's own sum, checked against the simulator in tests
    std::int64_t budget_bytes = 0;   // 0: none given
};

} // namespace ckpt
