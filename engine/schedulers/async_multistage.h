#pragma once
#include "schedulers/registry.h"

namespace ckpt {

// The default interval: the fewest steps whose forward time (at the chain's mean) covers writing one state (the
// largest) to `level`, so the writes of the sweep never queue up in level 0.
int asyncDefaultInterval(const Chain& chain, const Hardware& hw, int level);
SchedulerInfo asyncMultistageScheduler();

} // namespace ckpt
