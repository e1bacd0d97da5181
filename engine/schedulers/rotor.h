#pragma once
#include "schedulers/registry.h"
#include "util/table_cache.h"

#include <limits>
#include <memory>
#include <optional>

namespace ckpt {

namespace rotor_detail {
class RotorTable;
// Fills rotor's table for `chain` in slots of `unit` bytes twice, by tiles as rotorSolve does (on `threads` threads;
// 0: as rotorSolve picks) and cell by cell in the order of the recurrence, and returns how many rows (s, t) differ in
// any bit, in either layer of the paper's model (tests).
std::size_t tiledTableDifferences(const Chain& chain, std::int64_t unit, int slots, int threads = 0);
// The optimum at m = slots of rotor's table filled by the rotor paper's algorithm: every split point at every slot,
// cell by cell in the order of the recurrence, on one thread (ckpt bench --rotor-reference).
float plainOptimum(const Chain& chain, std::int64_t unit, int slots);
// Cells per side of the tiles (tests pick chain lengths around its multiples).
int tileCells();
// An upper bound of the programme's optimal overhead at m = slots (its time less one forward and one backward of every
// step), from the best plan whose checkpoints lie on every g-th state (the standard model); +infinity if none fits.
// With g = 1 it is the optimal overhead itself, in doubles.
double gridBound(const Chain& chain, std::int64_t unit, int slots, int g);
// Fills rotor's table for `chain` cell by cell without pruning, and by tiles (on `threads` threads) pruned by each of
// `bounds` on the optimal overhead as rotorSolve prunes, and compares them (tests).
struct CappedFill {
    float plain = 0, capped = 0; // the optimum at m = slots
    bool exact = false;          // what the pruned table says of its optimum
    bool samePlan = false;       // both tables' optima emit the same actions (when exact and finite)
    std::size_t rowsDiffer = 0;  // rows (s, t) that pruning left different in any slot
};
std::vector<CappedFill> cappedFills(const Chain& chain, std::int64_t unit, int slots, const std::vector<double>& bounds,
                                    int threads = 0);
} // namespace rotor_detail

struct RotorResult {
    Plan plan;
    double dp_cost = 0;    // the programme's optimum in its discretised memory model
    std::int64_t unit = 1; // bytes per memory slot
    int threads = 1;       // that filled the programme's table (ckpt bench)
    // When the table was too large to keep and its fill was pruned (branch and bound): the overhead (time less one
    // forward and one backward of every step) of the grid plan that bounded it (rotor_detail::gridBound).
    std::optional<double> bound;
};
namespace rotor_detail {
// rotorSolve, pruning the table when it takes more than `pruneAbove` bytes (rotorSolve: when it is too large to keep
// between solves). The optimum and plan are the same either way (tests).
Result<RotorResult> solve(const Chain& chain, std::int64_t budget, int slots, std::size_t pruneAbove);
} // namespace rotor_detail

// Rotor's programme for a chain and budget, as a part of another programme (offload-dp reverses the part before
// each of its checkpoints with it). Sizes are in slots of `unit` bytes; the budget is M slots.
struct RotorProgramme {
    std::shared_ptr<const rotor_detail::RotorTable> table;
    std::int64_t unit = 1;
    int M = 0;
    // A pruned table (rotorProgramme's pruneAbove): the overhead of the grid plan that bounded it (see RotorResult).
    // Its rows (s, t < n) are then exact wherever their value is at most the backward times of s+1..t plus the bound,
    // which is all a plan of overhead within the bound can read from them, as the part before a checkpoint advanced
    // over in the first sweep. A caller checks its own optimum with trusts().
    std::optional<double> bound;
    // Whether a plan taking this time reads only exact rows: always for an unpruned table; for a pruned one, when its
    // overhead (the time less one forward and one backward of every step) is within the bound and the margin.
    bool trusts(double time) const;
    // Opt(s, t, m): the least time to reverse steps s+1..t from x_s, holding grad x_t (t < n) and at most m slots;
    // +infinity if m is too few.
    float cost(int s, int t, int m) const;
    int threads() const;                  // that filled the table
    int slots() const;                    // the table holds m = 0..slots() (at least M)
    const float* row(int s, int t) const; // cost(s, t, m) for m = 0..M
    // Appends that schedule's actions to `plan`, adding their compute time to `time`.
    void emit(int s, int t, int m, Plan& plan, double& time) const;
};
// Tables over `pruneAbove` bytes (heterogeneous chains in the standard model) are pruned, and read as `bound` says;
// rotorPruneAbove(): those too large to keep between solves.
Result<RotorProgramme> rotorProgramme(const Chain& chain, std::int64_t budget, int slots,
                                      std::size_t pruneAbove = std::numeric_limits<std::size_t>::max());
std::size_t rotorPruneAbove();
// The bytes a slot of the programme for `budget` bytes holds (RotorProgramme::unit): a table depends on the chain and
// this unit, the budget picks its column.
std::int64_t rotorSlotUnit(const Chain& chain, std::int64_t budget, int slots);
// An unpruned programme `p` of `chain` with a table of at least `slots` slots (kept as rotor keeps its own), or of as
// many as the kept tables allow; a pruned one as it is.
RotorProgramme rotorProgrammeGrown(const RotorProgramme& p, const Chain& chain, int slots);

// The optimal persistent schedule of a heterogeneous chain within `budget` bytes of level 0, sizes rounded up to
// multiples of budget / slots. Infeasible: the message names the smallest budget that works.
Result<RotorResult> rotorSolve(const Chain& chain, std::int64_t budget, int slots);
// The refusal of a programme too large to run (steps, or inner-loop steps over kMaxTableOperations); nothing if
// it may run. The table's bytes are checked in rotorSolve, where the slot unit is known.
std::optional<Error> rotorCheckSize(int n, int slots, bool uniform);
SchedulerInfo rotorScheduler();

// rotorSolve keeps its programme's tables between solves, keyed by the chain in slots (util/table_cache.h): what the
// cache holds, and emptying it (for tests: a solve after the clear builds every table afresh).
TableCacheStats rotorCacheStats();
void clearRotorCache();

} // namespace ckpt
