#pragma once
#include "schedulers/hrevolve.h"
#include "schedulers/registry.h"
#include "util/table_cache.h"

namespace ckpt {

// The programme's inputs derived from a chain and a machine: uf and ub are the chain's mean step costs, and each
// slower level costs writeSeconds / readSeconds of the largest state; its slots are what its capacity holds (and at
// most `diskSlots` on the outermost level, if > 0).
struct MultistageCosts {
    double uf = 0, ub = 0;
    std::vector<StorageLevel> levels; // innermost first
};
MultistageCosts multistageCosts(const Chain& chain, const Hardware& hw, const std::vector<int>& levels, int diskSlots);

// Periodic-Disk-Revolve (Aupy & Herrmann 2017): a state written to the level every `period` steps in one sweep, the
// last period reversed by the programme, every other one read back and reversed by it with its start on the level.
// `table` must cover lengths up to `period`. Its synchronous cost, from the tables, goes to `synchronous`.
Plan periodicDiskRevolvePlan(const Chain& chain, const Hardware& hw, const HierarchicalRevolve& table, int period,
                             int memorySlots, int level, double* synchronous = nullptr);

SchedulerInfo multistageScheduler();

// The scheduler keeps its programme's tables between solves, keyed by length, step costs and levels
// (util/table_cache.h): what the cache holds, and emptying it (for tests).
TableCacheStats multistageCacheStats();
void clearMultistageCache();

} // namespace ckpt
