#pragma once
#include "model/chain.h"
#include "model/hardware.h"
#include "plan/plan.h"

namespace ckpt {

// Binomial checkpointing over memorySlots + diskSlots slots, the slots that are accessed least (cheapest to write
// and read back, as counted on the all-memory schedule) placed on `level`. predicted_makespan_s follows the overlap
// rule; `synchronous` (if given) receives the plan's cost with every transfer blocking.
Plan stummWaltherPlan(const Chain& chain, const Hardware& hw, int memorySlots, int diskSlots, int level,
                      double* synchronous = nullptr);

// The disk slot count (0..n, at most what the level holds) whose plan has the least synchronous cost, by a scan, among
// the plans whose level-0 peak stays within `limit` (if > 0; transfers in flight keep their states in level 0, so many
// disk slots can cost memory).
int stummWaltherBestDisk(const Chain& chain, const Hardware& hw, int memorySlots, int level, std::int64_t limit);

} // namespace ckpt
