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

// The disk slot count (0..n) whose plan has the least synchronous cost, by a scan.
int stummWaltherBestDisk(const Chain& chain, const Hardware& hw, int memorySlots, int level);

} // namespace ckpt
