#pragma once
// The trainer's memory count: every byte of held states, tapes and state gradients on every level, as events in
// wall-clock time, with the peak per level and the memory curves of a Timeline. Thread-safe (the I/O workers count
// the transfers they run). The count follows the simulator's rules event for event, so on a plan without transfers
// the measured peak of level 0 equals the predicted one byte for byte.
//
// Not counted, as in the chain model: the parameters, their gradients and the optimiser's moments; the batch (inputs
// and targets); the scratch of a step (the chain declares no temporaries).
#include "sim/timeline.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <vector>

namespace ckpt::trainer {

class CountedStore {
public:
    using Clock = std::chrono::steady_clock;

    explicit CountedStore(int levels = 1) { reset(levels); }

    // Forgets everything; time 0 is now.
    void reset(int levels);
    // Seconds since the reset.
    double now() const;
    // Counts `delta` bytes (negative: released) of `cat` on `level` now; returns the event's time.
    double add(int level, MemoryCategory cat, std::int64_t delta);

    std::int64_t held(int level) const;
    std::int64_t held(int level, MemoryCategory cat) const;
    std::vector<std::int64_t> peaks() const;
    std::vector<double> peakTimes() const;
    // One step function per level, as Timeline::memory.
    std::vector<std::vector<MemorySample>> curves() const;

private:
    mutable std::mutex m_mu;
    Clock::time_point m_origin;
    std::vector<std::array<std::int64_t, kMemoryCategories>> m_now;
    std::vector<std::int64_t> m_total, m_peak;
    std::vector<double> m_peakTime;
    std::vector<std::vector<MemorySample>> m_curves;
};

} // namespace ckpt::trainer
