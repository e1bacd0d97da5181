#pragma once
// Plans and timelines in the formats other tools read.
#include "model/chain.h"
#include "plan/plan.h"
#include "sim/timeline.h"

#include <string>

namespace ckpt {

// One row per action: index,action,kind,step_or_state,keep,level,lane,start_s,end_s,bytes
std::string timelineToCsv(const Plan& plan, const Timeline& tl);
// Chrome trace JSON ("traceEvents", complete events "ph":"X" in microseconds), one thread id per lane, with thread
// names; memory per level as counter events ("ph":"C"). Opens in Perfetto and chrome://tracing.
std::string timelineToChromeTrace(const Plan& plan, const Timeline& tl);

} // namespace ckpt
