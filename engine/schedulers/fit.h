#pragma once
// Turning a byte budget into a scheduler's discrete knob (slots, segments): the simulator measures each candidate's
// peak in level 0, so the fit holds for whatever memory model the simulator implements.
#include "model/chain.h"
#include "model/hardware.h"
#include "plan/plan.h"
#include "util/result.h"

#include <functional>
#include <optional>
#include <string>

namespace ckpt {

// The budget that binds level 0: the smaller of the user's budget (if > 0) and level 0's capacity; 0 if neither.
std::int64_t levelZeroLimit(const Hardware& hw, std::int64_t budget);

// Peak of level 0 for a plan, or -1 if the plan does not validate (a scheduler bug; tests catch it).
std::int64_t planPeak(const Chain& chain, const Hardware& hw, const Plan& plan);

// Largest k in [lo, hi] whose plan peaks within `limit`, assuming the peak grows with k. Infeasible when even `lo`
// does not fit; the message names the peak of `lo`, the smallest budget that works. `knob` names k in messages.
Result<Plan> largestFitting(const std::string& scheduler, const std::string& knob, int lo, int hi, std::int64_t limit,
                            const Chain& chain, const Hardware& hw, const std::function<Plan(int)>& make);

// The peak in level 0 of the leanest schedule (x_0 kept, every step rebuilt from it: Revolve with one slot), by a
// formula in O(n), so that long chains get their lower bound without building n^2/2 actions. No plan in the
// simulator's model peaks lower, since every schedule keeps x_0 to the end.
std::int64_t leanestPeak(const Chain& chain);

// Bytes in whole slots of `unit` bytes, rounded up, for the programmes that cut memory into slots (rotor, offload-dp,
// join-dp). A size over kMaxSlotCount slots counts as that many: more than any table has (so it fits nowhere, as its
// true count would), and few enough that sums of a handful of sizes cannot overflow an int.
constexpr int kMaxSlotCount = 1 << 26;
int slotsOf(std::int64_t bytes, std::int64_t unit);

// Plans longer than this are refused with a message rather than built: a plan takes 8 B an action, and the simulator
// that judges it about 200 B more (sim/simulator.h refuses what it could not hold).
constexpr long long kMaxPlanActions = 10'000'000;
// Dynamic programmes are refused, before any allocation, when their tables would hold more cells than this (each 4
// or 8 bytes) or their inner loops would run more than this many times (a minute or more).
constexpr double kMaxTableCells = 2.5e8;
constexpr double kMaxTableOperations = 1e11;

// The refusal of a plan or table estimated too large: "<what> would take <estimate> <unit>, over the limit of
// <limit>; <hint>". An error of the request (exit 2 in the CLI), not an infeasible budget.
Error tooLarge(const std::string& what, double estimate, double limit, const std::string& unit,
               const std::string& hint);
// The same for a plan of `actions` actions (nothing when within kMaxPlanActions).
std::optional<Error> checkPlanActions(const std::string& what, double actions, const std::string& hint);

// The smallest k in [lo, hi] whose plan is estimated within kMaxPlanActions, given estimates that fall as k grows;
// hi + 1 when none is.
int fewestBuildable(int lo, int hi, const std::function<double(int)>& actions);

// An infeasible error naming the budget a plan needs.
Error needsBudget(const std::string& scheduler, std::int64_t need, std::int64_t limit);

} // namespace ckpt
