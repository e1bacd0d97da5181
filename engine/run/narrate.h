#pragma once
// A chain plan told action by action, for teaching: one sentence in plain words per action ("Recompute step 5 from
// the checkpoint x3 (run 2 of step 5); 3 of 4 slots in use") and what each memory level holds once the action is
// done, taken from the simulator's own bookkeeping (SimOptions::observe), so the story cannot drift from the
// simulation. `ckpt explain` prints it; the explorer shows it under its charts.
#include "model/chain.h"
#include "model/hardware.h"
#include "plan/plan.h"
#include "sim/simulator.h"
#include "util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ckpt {

// Plans longer than this are not narrated in the window (each action keeps what is held); ckpt explain has no limit.
constexpr std::size_t kMaxNarratedActions = 20000;

struct NarratedAction {
    std::string sentence;
    Holdings held;                   // once the action is done
    std::vector<int> checkpoints;    // the states of level 0 held as checkpoints (kept or read back), ascending
    std::vector<std::int64_t> bytes; // [level]: states, tapes and the gradient held there
};

struct Narration {
    std::vector<NarratedAction> actions; // the plan's actions first..first + size - 1
    std::size_t first = 0;
    int slot_count = 0; // the plan's slot count when it has one (revolve, periodic...), else 0 (also for plans that
                        // write states to a slower level: their slots are counted per level)
};

// Fails as the simulator does on an invalid plan. `budget_bytes` as SimOptions. Only actions from..to (to < 0: the
// last) are told, in time and memory proportional to them and the plan's length: what each holds is copied from the
// simulator for them alone, the checkpoints before them followed through the simulator's on_state.
Result<Narration> narrate(const Chain& chain, const Hardware& hw, const Plan& plan, std::int64_t budget_bytes = 0,
                          std::size_t from = 0, long long to = -1);

// "L0: x0 x3 [2/3 slots] · tapes 7 8 · grad x6 · 12 MiB of 16 MiB", one level per part, for a handout line.
std::string heldLine(const NarratedAction& a, const Narration& n, const Hardware& hw, std::int64_t budget_bytes);

} // namespace ckpt
