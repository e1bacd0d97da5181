#pragma once
// Timelines as JSON, so a measured run (ckpt train --timeline) can be shown beside the simulator's prediction:
//   {"lanes": [...], "intervals": [[start_s, end_s, action, step_or_state, bytes, lane, "kind"], ...],
//    "memory": [[[time_s, states, tapes, gradients, temporaries], ...] per level],
//    "totals": {"makespan_s", "compute_s", "steps", "forward_steps", "backward_steps", "recomputed_steps",
//               "bytes_written", "bytes_read", "peak_bytes": [...], "peak_time_s": [...], "channel_busy_s": [...]}}
// The file `ckpt train --timeline` writes is {"format": "ckpt-timelines", "version": 1, "scheduler", "params",
// "chain": {"name", "length"}, "predicted": <timeline>, "measured": <timeline>}.
#include "sim/timeline.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

namespace ckpt::trainer {

nlohmann::json timelineToJson(const Timeline& tl);
// `where` names the document in messages ("run.json: measured").
Result<Timeline> timelineFromJson(const nlohmann::json& j, const std::string& where);

} // namespace ckpt::trainer
