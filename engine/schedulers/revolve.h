#pragma once
#include "schedulers/registry.h"

#include <cstdint>

namespace ckpt {

// beta(s, r) = C(s + r, s), saturated at INT64_MAX: the most steps s slots reverse with r repetitions.
std::int64_t revolveBeta(int s, int r);
// Griewank's closed form: the fewest plain forward steps (advances) to reverse n steps with s slots, model A.
std::int64_t revolveAdvances(std::int64_t n, int s);
// The actions of revolvePlan: a forward and a backward per step, and the advances.
std::int64_t revolveActions(std::int64_t n, int s);
// The fewest slots whose plan on n steps stays within kMaxPlanActions (fit.h); n + 1 when even n slots do not.
int revolveFewestSlots(int n);
// The binomial schedule: s slots, the input state's slot included (s >= 1).
Plan revolvePlan(const Chain& chain, int slotCount);
// Appends the binomial reversal of steps a+1..b to `out`, given x_a held in level 0 (it takes one of the `slotCount`
// slots, clamped to 1..b-a); adds the compute time of the appended actions to `time`. For schedulers that reverse a
// part of the chain with Revolve (the segments of the multi-level schedulers).
void appendRevolve(const Chain& chain, int a, int b, int slotCount, Schedule& out, double& time);
SchedulerInfo revolveScheduler();

} // namespace ckpt
