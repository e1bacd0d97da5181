#pragma once
// The one judge of every schedule: replays it on a chain and a machine and returns the Timeline, or the index of the
// first bad action and what was wrong with it.
#include "model/chain.h"
#include "model/hardware.h"
#include "plan/plan.h"
#include "sim/timeline.h"
#include "util/result.h"

#include <climits>
#include <cstdint>
#include <functional>
#include <vector>

namespace ckpt {

// What the simulator holds once an action is done, from its own bookkeeping (for narration and teaching views).
struct Holdings {
    std::vector<std::vector<int>> states;    // [level]: the j of every x_j held there, ascending
    std::vector<int> tapes;                  // the steps whose tape is held (in level 0), ascending
    std::vector<std::vector<int>> slowTapes; // [level]: the steps whose tape is held on that slower level ([0] empty)
    int gradient = -1;                       // j: the gradient of x_j is held (the backward has reached x_j); -1: none
};

struct SimOptions {
    std::int64_t budget_bytes = 0; // > 0: level 0 may hold at most this much (in addition to its capacity)
    bool memory_curve = true;      // false: totals and peaks only (faster, for sweeps)
    bool intervals = true;         // false: no intervals kept, the totals all the same (40 bytes an action less; the
                                   // chain simulator, the graph simulator keeps them)
    // Called after each valid action from observe_from to observe_to with its index and what is then held (a copy of
    // it all, so O(steps) per call). Empty: not called (no cost).
    std::function<void(std::int32_t action, const Holdings& held)> observe;
    std::int32_t observe_from = 0, observe_to = INT32_MAX;
    // Called whenever a copy of state x_j comes to or leaves a level, with the action doing it (O(1) per call: what a
    // narration of a long plan follows between its observed actions).
    std::function<void(std::int32_t action, int level, int state, bool held)> on_state;
    // Set: filled with every allocation of level 0 and its lifetime (sim/layout.h places them at addresses); the graph
    // simulator too, where an in-place output continues its input's buffer.
    std::vector<TensorLife>* tensors = nullptr;
};

// What the simulator holds per action, estimated before it allocates: an interval, up to four memory events and,
// with the curves, two samples. Schedules whose estimate passes kMaxSimulationBytes are refused with a message.
double simulationBytes(std::size_t actions, bool curves);
constexpr double kMaxSimulationBytes = 4.0 * (1 << 30);

Result<Timeline> simulate(const Chain& chain, const Hardware& hw, const Schedule& schedule, const SimOptions& opt = {});

} // namespace ckpt
