#pragma once
// The makespan and the level-0 peak of periodicPlan(chain, S) for any S without building the plan, so that fitting the
// segment count to a budget simulates nothing: hundreds of candidate plans of 3n actions each took minutes on 1e6
// steps. The tests hold both formulas to the simulator for every S.
#include "model/chain.h"

#include <cstdint>
#include <vector>

namespace ckpt {

class PeriodicCosts {
public:
    // O(n) time and memory: prefix sums and per-step sums of the chain, shared by every S.
    explicit PeriodicCosts(const Chain& chain);

    // All forwards and backwards plus the re-run forwards of steps 1..(S-1)k, k = floor(n/S): O(1).
    double makespan(int segments) const;
    // The peak in level 0 in the simulator's memory model: O(n), allocates nothing.
    std::int64_t peakBytes(int segments) const;

private:
    int m_n = 0;
    double m_all = 0;                         // every forward and backward once
    std::vector<double> m_forwards;           // [j]: forward times of steps 1..j
    std::vector<std::int64_t> m_state;        // [j]: x_j, j = 0..n
    std::vector<std::int64_t> m_tapes;        // [j]: tapes of steps 1..j
    std::vector<std::int64_t> m_through;      // [i]: x_{i-1} + forward temporaries of i + x_i
    std::vector<std::int64_t> m_tapedForward; // [i]: tapes of 1..i + m_through[i]
    std::vector<std::int64_t> m_backward;     // [i]: tapes of 1..i + x_i + x_{i-1} + backward temporaries of i
};

} // namespace ckpt
