#pragma once
// The narration of the shown plan (run/narrate.h), made once for the views that read it (the sweep diagram and Held
// now): a plan of 10^4 actions takes tens of milliseconds to narrate, which a budget-slider move should pay once.
#include "model/chain.h"
#include "model/hardware.h"
#include "run/narrate.h"
#include "run/runner.h"

#include <memory>

// The narration of `run`'s chain plan on `chain` and `hw` (null: no chain plan, infeasible, over
// kMaxNarratedActions, or not narratable); the last one made is kept for the next caller with the same arguments.
std::shared_ptr<const ckpt::Narration> sharedNarration(const std::shared_ptr<const ckpt::Run>& run,
                                                       const ckpt::Chain& chain, const ckpt::Hardware& hw);
