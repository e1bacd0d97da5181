#pragma once
// A run's plan laid out in level 0 (sim/layout.h): the plan simulated again for its tensors' lifetimes, then packed
// first fit, largest first. `ckpt layout` and the explorer's Layout tab both show this.
#include "model/hardware.h"
#include "model/problem.h"
#include "run/runner.h"
#include "sim/layout.h"
#include "util/result.h"

namespace ckpt {

// Fails when the run has no plan, when its plan is not of `problem` (a chain plan of a graph that is no chain), or
// when the simulator or the packing refuses it (too many tensors).
Result<MemoryLayout> layoutRun(const Run& run, const Problem& problem, const Hardware& hw);

} // namespace ckpt
