#pragma once
// Plans and timelines in the formats other tools read.
#include "model/chain.h"
#include "model/graph.h"
#include "plan/graph_action.h"
#include "plan/plan.h"
#include "sim/timeline.h"

#include <string>

namespace ckpt {

// One CSV field: as it is, or in double quotes (quotes doubled) when it holds a comma, a quote or a line break
// (RFC 4180).
void appendCsvField(std::string& out, const std::string& field);
// An integer, and the shortest text that reads back to the same double (a non-finite one as 0).
void appendInt(std::string& out, long long v);
void appendDouble(std::string& out, double v);

// CSV with a header line and one row per interval of the timeline (a free has none), in timeline order:
//   index          the action's index in the plan (0-based)
//   action         the plan's action as a short code: "F12/tape", "B7", "W40@1" (write x40 to level 1), "R40@1"
//   kind           forward, recompute (a forward step that already ran), backward, write, read
//   step_or_state  the step of a compute interval, the state of a transfer
//   keep           none, state or tape for forward steps, else empty
//   level          the memory level of a transfer, else empty
//   lane           the lane's name ("compute", or the slower level's name)
//   start_s,end_s  seconds, written with as many digits as the double needs to read back exactly
//   bytes          bytes moved (transfers) or produced (compute), as in Interval
std::string timelineToCsv(const Plan& plan, const Timeline& tl);
// The same columns for a graph plan: action "F:conv1", "B:fc", "I:block2" (invert), "W:conv1@1", "R:conv1@1",
// "D:conv1@0" (free; no interval, so no row); step_or_state is the node's index; keep is empty.
std::string timelineToCsv(const GraphPlan& plan, const Graph& graph, const Timeline& tl);
// Chrome trace JSON: {"traceEvents": [...], "displayTimeUnit": "ms"}. Thread 0 is the compute lane, thread L the
// channel of level L (named by "thread_name" metadata); one complete event ("ph": "X", ts/dur in microseconds) per
// interval, named "F12", "R12" (recompute), "B12", "W40→L1", "R40←L1", with cat = intervalKindName and args
// {action, step or state, bytes}; memory per level as counter events ("ph": "C", one series per category).
// Opens in Perfetto and chrome://tracing.
std::string timelineToChromeTrace(const Plan& plan, const Timeline& tl);
// The same for a graph plan: events named by node id ("F conv1", "R conv1", "B fc", "W conv1→L1"), args {action,
// node (its index), id, bytes}.
std::string timelineToChromeTrace(const GraphPlan& plan, const Graph& graph, const Timeline& tl);

} // namespace ckpt
