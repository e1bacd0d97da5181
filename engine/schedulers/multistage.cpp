// Multistage checkpointing over level 0 and slower levels (model A), four variants:
//   disk-revolve           Aupy, Herrmann, Hovland, Robert 2016, "Optimal multistage algorithm for adjoint
//                          computation": the optimal dynamic programme for memory + disk (hrevolve.cpp);
//   periodic-disk-revolve  Aupy & Herrmann 2017, "Periodicity in optimal hierarchical checkpointing schemes for adjoint
//                          computations": a disk checkpoint every period, each period reversed by that programme;
//   h-revolve              Herrmann & Pallez 2020, "H-Revolve: a framework for adjoint computation on synchronous
//                          hierarchical platforms": the programme nested level by level over every slower level;
//   stumm-walther          Stumm & Walther 2009, "MultiStage approaches for optimal offline checkpointing": binomial
//                          checkpoints split between memory and disk (stumm_walther.cpp).
// The papers' transfers are synchronous. The simulator overlaps them with compute, so a plan runs at most as long as
// its synchronous cost (a write no longer blocks; a read still blocks the forward step that needs it). The plans are
// emitted as the papers order them, and predicted_makespan_s replays the simulator's overlap rule (TransferClock), so
// it equals the simulated makespan; the synchronous optimum stays available from HierarchicalRevolve::cost and
// diskRevolveOptimum. The programme takes homogeneous costs: the chain's mean forward and backward times, and the
// transfer time of its largest state.
#include "schedulers/multistage.h"

#include "schedulers/fit.h"
#include "schedulers/multilevel.h"
#include "schedulers/revolve.h"
#include "schedulers/stumm_walther.h"
#include "util/table_cache.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>

namespace ckpt {
namespace {

const std::string kName = "multistage";
constexpr double kMaxOperations = 4e9; // a few seconds of the programme's inner loop
constexpr double kMaxCells = 2.5e7;    // about 0.8 GB of tables

// What a programme's table depends on besides its slot count (which the budget picks): kept between solves.
struct TableKey {
    int length = 0;
    double uf = 0, ub = 0;
    std::vector<StorageLevel> levels;
    bool operator==(const TableKey&) const = default;
};

TableCache<TableKey, HierarchicalRevolve>& keptTables() {
    static TableCache<TableKey, HierarchicalRevolve> cache(4, std::size_t(256) << 20);
    return cache;
}

bool tooMuch(const HierarchicalRevolve::Effort& e) {
    return e.operations > kMaxOperations || e.cells > kMaxCells;
}

// The programme for `length` steps with at least `memory` level-0 slots: a kept table, or a new one (kept). Entries
// do not depend on the table's slot count (each reads entries with fewer or as many slots), so after a kept table
// proved too small the new one grows towards length - 2, past which every entry is the same lower bound.
Result<std::shared_ptr<const HierarchicalRevolve>> buildTable(const std::string& what, int length, int memory,
                                                              const MultistageCosts& c) {
    auto e = HierarchicalRevolve::effort(length, memory, c.levels);
    if (tooMuch(e)) {
        char buf[240];
        std::snprintf(buf, sizeof buf, "%.2g table cells and %.2g steps (the limits are %.2g and %.2g)", e.cells,
                      e.operations, kMaxCells, kMaxOperations);
        return overLimit(kName + " (" + what + "): the programme for " + std::to_string(length) + " steps and " +
                         std::to_string(memory) + " memory slots would take " + buf +
                         "; use variant periodic-disk-revolve, fewer memory slots, or async-multistage");
    }
    const TableKey key{length, c.uf, c.ub, c.levels};
    std::shared_ptr<const HierarchicalRevolve> smaller;
    if (auto kept = keptTables().find(
            key, [memory](const HierarchicalRevolve& t) { return t.memory() >= memory; }, &smaller))
        return kept;
    int build = grownSlots(memory, smaller ? smaller->memory() : 0, std::max(memory, length - 2));
    if (tooMuch(HierarchicalRevolve::effort(length, build, c.levels))) build = memory;
    auto table = std::make_shared<const HierarchicalRevolve>(length, build, c.uf, c.ub, c.levels);
    keptTables().keep(key, table);
    return table;
}

// The most Revolve slots within `limit`: memory-only plans with that many slots have the same level-0 footprint as
// the multistage plans, so the fit for those searches no further (plus one, for the transfers in flight). 0: none.
int revolveSlotsThatFit(const Chain& chain, const Hardware& hw, std::int64_t limit) {
    const int lo = revolveFewestSlots(chain.length());
    if (lo > chain.length()) return 0;
    auto r = largestFitting("revolve", "slots", lo, chain.length(), limit, chain, hw,
                            [&](int k) { return revolvePlan(chain, k); });
    return r ? std::stoi(r->params.at("slots")) : 0;
}

struct Periodic {
    int period = 1;
    double cost = 0;
};

// Disk checkpoints a period of P writes over n steps: one at 0, P, 2P... while more than one period and a step remain
// after it (Aupy & Herrmann stop writing once at most one period remains), so the part reversed in memory at the end
// has 2 to P + 1 steps. Writing at every multiple below n made a period dividing n - 1 leave a 1-step tail behind an
// extra write and read.
int periodicWrites(int n, int P) {
    return n >= 2 ? (n - 2) / P : 0;
}

// The period with the least synchronous cost of the whole plan: W(wd + P uf + rd + D(P)) + A(n - W P), W the writes.
// `capacity`: states the level holds (-1: unbounded); the sweep keeps W there.
Periodic bestPeriod(int n, int fixed, int maxPeriod, int memory, int capacity, const MultistageCosts& c,
                    const HierarchicalRevolve& table) {
    const StorageLevel& io = c.levels.back();
    Periodic best{0, 0};
    for (int P = fixed > 0 ? fixed : 1; P <= (fixed > 0 ? fixed : maxPeriod); ++P) {
        const int K = periodicWrites(n, P) + 1;
        if (capacity >= 0 && K - 1 > capacity) continue;
        const double cost = (K - 1) * (io.write + P * c.uf + io.read + table.costStored(P, memory)) +
                            table.cost(n - (K - 1) * P, memory);
        if (best.period == 0 || cost < best.cost) best = {P, cost};
    }
    return best;
}

// A solve's settings: the variant, the slower level and the costs of the levels it uses, the level-0 limit, and the
// memory slots asked for.
struct Setup {
    std::string variant, who;
    int level = 1; // the slower level used as disk (h-revolve: the first of those it uses)
    int n = 0;
    int diskSlots = 0;
    MultistageCosts costs;
    std::int64_t limit = 0;
    int memory = 0; // 0: the most that fit
    int most = 0;   // the most memory slots a plan may use (>= 1)
};

Result<Setup> multistageSetup(const Chain& chain, const Hardware& hw, const Params& params, std::int64_t budget) {
    Setup s;
    s.variant = params.text("variant");
    s.who = kName + " (" + s.variant + ")";
    auto level = slowerLevel(s.who, hw, s.variant == "h-revolve" ? 1 : params.integer("level"));
    if (!level) return level.errorValue();
    s.level = *level;
    s.n = chain.length();
    std::vector<int> levels = {*level};
    if (s.variant == "h-revolve")
        for (int l = 2; l < hw.levelCount(); ++l)
            levels.push_back(l);
    s.diskSlots = int(std::min<long long>(params.integer("disk_slots"), s.n));
    s.costs = multistageCosts(chain, hw, levels, s.diskSlots);
    s.limit = levelZeroLimit(hw, budget);
    s.memory = int(std::min<long long>(params.integer("memory_slots"), s.n));
    if (s.memory == 0 && s.limit == 0) s.memory = std::max(1, int(std::ceil(std::sqrt(double(s.n)))));
    return s;
}

// A variant's plan for cm memory slots, and an upper bound of its size before building it.
struct Programme {
    std::function<Plan(int)> make;
    std::function<double(int)> actions;
    std::shared_ptr<const HierarchicalRevolve> table; // held: another solve may evict it from the cache
};

Programme stummWaltherProgramme(const Chain& chain, const Hardware& hw, const Setup& s) {
    Programme p;
    const int n = s.n, diskSlots = s.diskSlots, level = s.level;
    const std::int64_t limit = s.limit;
    const long long fit = levelSlots(hw, level, largestState(chain));
    // Binomial over cm + cd slots (at least cm): forward steps n + t(n, cm), a transfer at most per forward.
    p.actions = [n](int cm) { return double(n) + 3.0 * double(n + revolveAdvances(n, cm)); };
    p.make = [&chain, &hw, diskSlots, level, limit, fit](int cm) {
        int cd = diskSlots > 0 ? diskSlots : stummWaltherBestDisk(chain, hw, cm, level, limit);
        cd = int(std::min<long long>(cd, fit));
        Plan plan = stummWaltherPlan(chain, hw, cm, cd, level);
        plan.params["disk_slots"] = std::to_string(cd);
        return plan;
    };
    return p;
}

Result<Programme> periodicProgramme(const Chain& chain, const Hardware& hw, const Params& params, const Setup& s) {
    Programme p;
    const int n = s.n, most = s.most, level = s.level;
    MultistageCosts inner = s.costs; // periods keep their starts on the level; inside, more only if unbounded
    if (inner.levels.back().capacity >= 0) inner.levels.back().capacity = 0;
    const int fixed = int(std::min<long long>(params.integer("period"), n));
    // The free scan covers every period up to n (the longest is Disk-Revolve's programme itself, no periodic write)
    // when the programme's table for n fits the limits; else up to max(64, 2 × slots).
    const int inMemory = std::min(most, std::max(0, n - 2));
    int maxPeriod = fixed > 0 ? fixed
                    : !tooMuch(HierarchicalRevolve::effort(n, inMemory, inner.levels))
                        ? n
                        : std::min(n, std::max(64, 2 * most));
    if (s.costs.levels.back().capacity >= 0)
        maxPeriod = std::max(maxPeriod, (n - 2) / (s.costs.levels.back().capacity + 1) + 1);
    // The part reversed in memory at the end has up to P + 1 steps: the table covers it.
    const int tableLength = std::min(n, maxPeriod + 1);
    auto t = buildTable(s.variant, tableLength, std::min(most, std::max(0, tableLength - 2)), inner);
    if (!t) return t.errorValue();
    p.table = std::move(*t);
    const int capacity = s.costs.levels.back().capacity;
    // The sweep, then each period reversed within the programme's bound (below).
    p.actions = [n, tableLength](int cm) {
        return 2.0 * n + 4.0 * (double(n) / std::max(1, tableLength - 1) + 1) *
                             double(tableLength + revolveAdvances(tableLength, cm));
    };
    p.make = [&chain, &hw, table = p.table, n, inner, fixed, maxPeriod, capacity, level](int cm) {
        Periodic best = bestPeriod(n, fixed, maxPeriod, cm, capacity, inner, *table);
        Plan plan = periodicDiskRevolvePlan(chain, hw, *table, best.period, cm, level);
        plan.params["period"] = std::to_string(best.period);
        return plan;
    };
    if (bestPeriod(n, fixed, maxPeriod, most, capacity, inner, *p.table).period == 0)
        return infeasible(s.who + ": level " + std::to_string(level) + " holds " + std::to_string(capacity) +
                          " states; period " + std::to_string(fixed) + " keeps " +
                          std::to_string(periodicWrites(n, fixed)) + " there: use a period of at least " +
                          std::to_string((n - 2) / (capacity + 1) + 1));
    return p;
}

// Disk-Revolve and H-Revolve: the programme's table over the whole chain.
Result<Programme> revolveProgramme(const Chain& chain, const Hardware& hw, const Setup& s) {
    Programme p;
    const int n = s.n;
    auto t = buildTable(s.variant, n, std::min(s.most, std::max(0, n - 2)), s.costs);
    if (!t) return t.errorValue();
    p.table = std::move(*t);
    // The programme's plan costs at most Revolve's with cm slots, so it has at most n + t(n, cm) forward steps; each
    // write and each read is followed by a forward step of its own.
    p.actions = [n](int cm) { return double(n) + 4.0 * double(n + revolveAdvances(n, cm)); };
    p.make = [&chain, &hw, table = p.table, n](int cm) {
        Plan plan;
        table->append(chain, 0, n, cm, plan.actions);
        plan.predicted_makespan_s = overlappedMakespan(chain, hw, plan.actions);
        return plan;
    };
    return p;
}

// The programme's plan with the memory slots asked for, or with the most that fit the limit.
Result<Plan> planWithMemorySlots(const Chain& chain, const Hardware& hw, const Setup& s, const Programme& prog) {
    auto finish = [&](Plan p, int cm) {
        p.params["memory_slots"] = std::to_string(cm);
        return p;
    };
    const std::string sized = s.who + " on " + std::to_string(s.n) + " steps with ";
    if (s.memory > 0) {
        if (auto e = checkPlanActions(sized + std::to_string(s.memory) + " memory slots", prog.actions(s.memory),
                                      "give it more memory slots"))
            return *e;
        Plan p = finish(prog.make(s.memory), s.memory);
        if (s.limit > 0) {
            const std::int64_t peak = planPeak(chain, hw, p);
            if (peak > s.limit)
                return needsBudget(s.who + " with " + std::to_string(s.memory) + " memory slots", peak, s.limit);
        }
        return p;
    }
    const int lo = fewestBuildable(1, s.most, prog.actions);
    if (lo > s.most)
        return *checkPlanActions(sized + std::to_string(s.most) + " memory slots", prog.actions(s.most),
                                 "give it a larger budget, or use async-multistage");
    return largestFitting(s.who, "memory_slots", lo, s.most, s.limit, chain, hw,
                          [&](int cm) { return finish(prog.make(cm), cm); });
}

Result<Plan> solveMultistage(const Chain& chain, const Hardware& hw, const Params& params, std::int64_t budget) {
    auto setup = multistageSetup(chain, hw, params, budget);
    if (!setup) return setup.errorValue();
    Setup& s = *setup;
    const int n = s.n, memory = s.memory;
    if (s.variant == "disk-revolve" || s.variant == "h-revolve") {
        // The programme spans the whole chain: refused at once when even one memory slot makes it too large, before
        // the fit below builds any plan.
        auto least = HierarchicalRevolve::effort(n, std::min(std::max(memory, 1), std::max(1, n - 2)), s.costs.levels);
        if (least.operations > kMaxOperations || least.cells > kMaxCells)
            return buildTable(s.variant, n, std::min(std::max(memory, 1), std::max(1, n - 2)), s.costs).errorValue();
    }
    const int fitting = memory > 0 ? 0 : revolveSlotsThatFit(chain, hw, s.limit);
    if (memory == 0 && fitting >= 1 && fitting >= n - 1) {
        // Room for every state: Revolve alone takes (2n - 1) forward steps, the least of any model-A plan, and no
        // transfer; every variant's programme ends there.
        Plan p = revolvePlan(chain, fitting);
        p.params.erase("slots");
        p.params["memory_slots"] = std::to_string(fitting);
        return p;
    }
    s.most = memory > 0 ? memory : std::min(n, fitting + 1); // >= 1
    auto prog = s.variant == "stumm-walther"           ? Result<Programme>(stummWaltherProgramme(chain, hw, s))
                : s.variant == "periodic-disk-revolve" ? periodicProgramme(chain, hw, params, s)
                                                       : revolveProgramme(chain, hw, s);
    if (!prog) return prog.errorValue();
    return planWithMemorySlots(chain, hw, s, *prog);
}

} // namespace

MultistageCosts multistageCosts(const Chain& chain, const Hardware& hw, const std::vector<int>& levels, int diskSlots) {
    MultistageCosts c;
    c.uf = meanForward(chain);
    c.ub = meanBackward(chain);
    const std::int64_t x = largestState(chain);
    for (int l : levels) {
        long long cap = levelSlots(hw, l, x);
        if (l == levels.back() && diskSlots > 0) cap = std::min<long long>(cap, diskSlots);
        c.levels.push_back(
            StorageLevel{l, hw.writeSeconds(l, x), hw.readSeconds(l, x), cap >= chain.length() ? -1 : int(cap)});
    }
    return c;
}

Plan periodicDiskRevolvePlan(const Chain& chain, const Hardware& hw, const HierarchicalRevolve& table, int period,
                             int memorySlots, int level, double* synchronous) {
    const int n = chain.length();
    const int P = std::clamp(period, 1, n);
    const int last = periodicWrites(n, P) * P; // where the part reversed in memory starts
    Plan p;
    for (int a = 0; a < last; a += P) {
        p.actions.push_back(Action::write(a, level));
        for (int i = a + 1; i <= a + P; ++i)
            p.actions.push_back(Action::forward(i, Keep::None));
    }
    table.append(chain, last, n - last, memorySlots, p.actions);
    for (int a = last - P; a >= 0; a -= P) {
        p.actions.push_back(Action::read(a, level));
        table.appendStored(chain, a, P, memorySlots, p.actions);
    }
    TransferClock clock(chain, hw);
    clock.apply(p.actions);
    p.predicted_makespan_s = clock.makespan();
    if (synchronous) *synchronous = clock.synchronous();
    return p;
}

TableCacheStats multistageCacheStats() {
    return keptTables().stats();
}

void clearMultistageCache() {
    keptTables().clear();
}

SchedulerInfo multistageScheduler() {
    SchedulerInfo s;
    s.name = kName;
    s.description = "Checkpoints in memory and on slower levels: Disk-Revolve's programme (optimal with synchronous "
                    "transfers), its periodic form, H-Revolve over every level, or Stumm & Walther's binomial split "
                    "(model A)";
    s.paper = "Stumm & Walther 2009; Aupy, Herrmann, Hovland, Robert 2016 (Disk-Revolve); Aupy & Herrmann 2017 "
              "(Periodic-Disk-Revolve); Herrmann & Pallez 2020 (H-Revolve)";
    s.model = 'A';
    s.optimality = Optimality::Optimal; // disk-revolve, in the papers' synchronous model; the others approximate it
    s.min_levels = 2;
    s.params = {
        {.name = "variant",
         .description =
             "disk-revolve (optimal, two levels), periodic-disk-revolve, h-revolve (every level), stumm-walther",
         .type = ParamType::Choice,
         .default_value = "disk-revolve",
         .choices = {"disk-revolve", "periodic-disk-revolve", "h-revolve", "stumm-walther"}},
        {.name = "memory_slots",
         .description = "state slots in level 0 (the input's included); 0 = the most that fit the budget, or "
                        "ceil(sqrt(n)) without one",
         .type = ParamType::Int,
         .default_value = "0",
         .min = 0,
         .max = 1e9},
        {.name = "disk_slots",
         .description = "states the slower level holds at once (h-revolve: the slowest); 0 = as many as its capacity "
                        "holds (stumm-walther: the count with the least cost)",
         .type = ParamType::Int,
         .default_value = "0",
         .min = 0,
         .max = 1e9},
        {.name = "level",
         .description = "the slower level used as disk (not h-revolve, which uses them all)",
         .type = ParamType::Int,
         .default_value = "1",
         .min = 1,
         .max = 64},
        {.name = "period",
         .description = "periodic-disk-revolve: steps between disk checkpoints; 0 = the best by a scan",
         .type = ParamType::Int,
         .default_value = "0",
         .min = 0,
         .max = 1e9},
    };
    s.solve = solveMultistage;
    // One table for every budget (the largest budget's slots serve every smaller one), but where Revolve with a slot
    // for every state fits: no table is read there (the solve's shortcut above).
    s.table_budgets = [](const Chain& chain, const Hardware& hw, const Params& params,
                         const std::vector<std::int64_t>& budgets) {
        if (params.text("variant") == "stumm-walther") return std::vector<std::int64_t>{}; // no table
        const int n = chain.length();
        const std::int64_t roomForAll = params.integer("memory_slots") > 0 || n < 2
                                            ? std::numeric_limits<std::int64_t>::max()
                                            : planPeak(chain, hw, revolvePlan(chain, n - 1));
        return largestBudgetPerTable(chain, hw, budgets, [&](std::int64_t limit) {
            return std::pair<std::int64_t, std::int64_t>{roomForAll >= 0 && limit >= roomForAll ? -1 : 0, limit};
        });
    };
    s.table_stats = multistageCacheStats;
    return s;
}

} // namespace ckpt
