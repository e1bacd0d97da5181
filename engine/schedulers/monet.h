#pragma once
// MONeT (Shah et al., ICLR 2021): each node's implementation chosen jointly with what to keep and recompute, as
// checkmate's MILP with implementation binaries (schedulers/checkmate_milp.h), solved with CBC. The plan carries the
// choice (GraphPlan::implementation) and is judged on the graph it makes.
#include "schedulers/graph_registry.h"

namespace ckpt {

GraphSchedulerInfo monetScheduler();

} // namespace ckpt
