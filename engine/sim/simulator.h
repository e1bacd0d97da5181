#pragma once
// The one judge of every schedule: replays it on a chain and a machine and returns the Timeline, or the index of the
// first bad action and what was wrong with it.
#include "model/chain.h"
#include "model/hardware.h"
#include "plan/plan.h"
#include "sim/timeline.h"
#include "util/result.h"

namespace ckpt {

struct SimOptions {
    std::int64_t budget_bytes = 0; // > 0: level 0 may hold at most this much (in addition to its capacity)
    bool memory_curve = true;      // false: totals and peaks only (faster, for sweeps)
};

// What the simulator holds per action, estimated before it allocates: an interval, up to four memory events and,
// with the curves, two samples. Schedules whose estimate passes kMaxSimulationBytes are refused with a message.
double simulationBytes(std::size_t actions, bool curves);
constexpr double kMaxSimulationBytes = 4.0 * (1 << 30);

Result<Timeline> simulate(const Chain& chain, const Hardware& hw, const Schedule& schedule, const SimOptions& opt = {});

} // namespace ckpt
