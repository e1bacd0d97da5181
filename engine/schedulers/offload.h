#pragma once
// Offloading activations: the tapes the backward needs move to a slower level during the forward and come back in
// time for their backward, as PyTorch's save_on_cpu hooks do. Beaumont, Eyraud-Dubois, Shilova, Zhao, "Efficient
// combination of rematerialization and offloading for training DNNs" (NeurIPS 2021) study the policy against
// recomputation.
#include "schedulers/registry.h"

namespace ckpt {

// offload-all on `level`, reading `prefetch` tapes ahead of the backward: every step taped, its tape written to
// `level` at once and freed in level 0 when the write ends; during the backward the tape of step i - prefetch is read
// while step i runs.
Plan offloadAllPlan(const Chain& chain, const Hardware& hw, int level, int prefetch);

SchedulerInfo offloadAllScheduler();

} // namespace ckpt
