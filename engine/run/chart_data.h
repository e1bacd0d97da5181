#pragma once
// The numbers behind each chart of `ckpt render` and `ckpt figure`, as CSV, so an author can replot a figure with
// other tools. Every file has a header line; text fields are quoted as RFC 4180 says (a field holding a comma, a
// quote or a line break is put in double quotes, a quote doubled); numbers read back to the same double.
#include "model/hardware.h"
#include "model/problem.h"
#include "run/runner.h"

#include <string>
#include <vector>

namespace ckpt {

// Gantt: one row per timed action, the columns of timelineToCsv (io/export.h): index, action, kind, step_or_state,
// keep, level, lane, start_s, end_s, bytes.
std::string ganttCsv(const Run& run, const Problem& problem);

// Memory over time: one row per sample of each level's step function (the value holds until the next row of the
// level; a last row at the makespan closes it):
//   level, level_name, time_s, states_bytes, tapes_bytes, gradients_bytes, temporaries_bytes, total_bytes,
//   limit_bytes (the line the chart draws: the budget in level 0 or the level's capacity, the smaller; empty: none)
std::string memoryCsv(const Run& run, const Hardware& hw);

// Sweep diagram: one row per compute action, drawn from (start_s, from_step) to (end_s, to_step):
//   action, kind (forward, recompute, backward), step, start_s, end_s, from_step, to_step, keep (none, state or tape
//   for a forward; a kept state is the mark at (start_s, from_step))
std::string sweepCsv(const Run& run);

// Trade-off and steps-against-slots: one row per run, in the order given:
//   series (the legend's name), scheduler, params ("k=v k=v"), slots (the slots or segments parameter, if any),
//   budget_bytes (0: none), status (ok, infeasible, n/a), peak_bytes_L0 .. peak_bytes_L<levels-1>, makespan_s,
//   overhead (makespan ÷ store-all's), forward_steps, recomputed_steps, optimality (the registry's kind: baseline,
//   optimal, approximate, heuristic), proven (yes: optimal by construction or proven by the solver; no: a heuristic,
//   or a solver stopped by a limit), reason (why infeasible or n/a)
// `series[i]` names run i (empty or missing: its scheduler).
std::string runsCsv(const std::vector<Run>& runs, const Hardware& hw, const std::vector<std::string>& series = {});

// True when the run's plan is optimal by its scheduler's construction (or is the store-all baseline) and no solver
// limit cut the proof short (checkmate records "optimal": "no: ..." in its parameters then).
bool provenOptimal(const Run& run);
// The registry's kind of the run's scheduler: "baseline", "optimal", "approximate", "heuristic" (empty: unknown).
// A run named as a figure's series, "SCHEDULER CHOICE", is its scheduler's.
std::string optimalityOf(const Run& run);

} // namespace ckpt
