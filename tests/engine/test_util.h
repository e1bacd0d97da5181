#pragma once
// Small helpers shared by the engine tests.
#include "model/chain.h"
#include "model/hardware.h"

#include <random>

namespace ckpt::test {

inline Chain uniformChain(int n, double f = 1.0, double b = 2.0, std::int64_t x = 100, std::int64_t tape = 300) {
    return *Chain::uniform("uniform", n, Step{f, b, x, tape, 0, 0});
}

// Random heterogeneous chain with small integer-valued costs (exact sums in double).
inline Chain randomChain(int n, unsigned seed, bool temporaries = true) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> cost(1, 9), size(1, 50);
    std::vector<Step> steps;
    for (int i = 0; i < n; ++i) {
        Step s;
        s.forward = cost(rng);
        s.backward = cost(rng) * 2;
        s.state_bytes = size(rng) * 8;
        s.tape_bytes = size(rng) * 16;
        if (temporaries) {
            s.forward_tmp_bytes = size(rng);
            s.backward_tmp_bytes = size(rng);
        }
        steps.push_back(s);
    }
    return *Chain::make("random", steps);
}

} // namespace ckpt::test
