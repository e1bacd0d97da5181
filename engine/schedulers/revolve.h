#pragma once
#include "schedulers/registry.h"

#include <cstdint>

namespace ckpt {

// beta(s, r) = C(s + r, s), saturated at INT64_MAX: the most steps s slots reverse with r repetitions.
std::int64_t revolveBeta(int s, int r);
// Griewank's closed form: the fewest plain forward steps (advances) to reverse n steps with s slots, model A.
std::int64_t revolveAdvances(std::int64_t n, int s);
// The binomial schedule: s slots, the input state's slot included (s >= 1).
Plan revolvePlan(const Chain& chain, int slotCount);
SchedulerInfo revolveScheduler();

} // namespace ckpt
