#pragma once
// The plan shape that async-multistage and double-checkpointing share (model A): one forward sweep that writes the
// start state of every segment to a slower level while the sweep goes on, then the segments reversed from the last
// to the first, each with Revolve in level 0, the previous segment's start read back (prefetched) before the current
// segment's reversal begins.
#include "model/chain.h"
#include "model/hardware.h"
#include "plan/plan.h"

#include <vector>

namespace ckpt {

// Segments [kI, min((k+1)I, n)]. x_0 stays in level 0 (it is the input, and its segment is reversed last); the last
// segment's start is not written either: the sweep ends there and its reversal starts at once. Every other segment
// start x_kI is written to `level` right after the forward step that makes it, and the next forward step (keep none)
// consumes the level-0 copy: the simulator delays that release until the write is done. (A Free right after the
// Write would not do: the next forward needs x_kI in level 0 when it is issued.) predicted_makespan_s replays the
// overlap rule (TransferClock), so it equals the simulated makespan.
Plan segmentedOffloadPlan(const Chain& chain, const Hardware& hw, int segment, int innerSlots, int level);

// The number of actions of that plan, in closed form (to refuse one too large before building it).
double segmentedOffloadActions(int n, int segment, int innerSlots);

// The states that plan writes to the slower level, in order.
std::vector<int> offloadedStates(int n, int segment);

} // namespace ckpt
