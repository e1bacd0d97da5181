// The peak of periodicPlan in the chain simulator's memory model. There a forward holds its input, its temporaries,
// its output and (taped) its tape at once, then drops its temporaries, its input unless it keeps it as a checkpoint,
// and its output when nothing will read it (x_n; x_i once step i+1 is reversed). A backward holds the gradient of
// its output (the loss's for step n), makes that of its input, holds its temporaries, then drops the first gradient,
// its tape and its input state. With k = floor(n/S), segment m covers steps mk+1..(m+1)k (the last one up to n), and
// C_m = x_0 + x_k + ... + x_{(m-1)k} are the kept inputs below it. The peak is the largest of
//   the untaped forwards of segment m < S-1: C_m + x_{mk} + [i > mk+1] x_{i-1} + tmpF_i + x_i;
//   the taped re-run of segment m from a to b: C_m + g_b + tapes(a..i) + x_{i-1} + tmpF_i + x_i, where g_b = x_b is
//     the gradient the segment above made (none for the last segment, whose forward is its first and only one);
//   its backward: C_m + tapes(a..i) + x_i + x_{i-1} + tmpB_i.
// (x_0 alone, before anything runs, is below the first term.) Each segment's terms are a maximum over its steps of
// per-step sums that do not depend on S, shifted by terms that do not depend on the step.
#include "schedulers/periodic_costs.h"

#include <algorithm>

namespace ckpt {

PeriodicCosts::PeriodicCosts(const Chain& chain) : m_n(chain.length()) {
    const auto size = static_cast<std::size_t>(m_n) + 1;
    m_forwards.assign(size, 0.0);
    m_state.assign(size, 0);
    m_tapes.assign(size, 0);
    m_through.assign(size, 0);
    m_tapedForward.assign(size, 0);
    m_backward.assign(size, 0);
    for (int j = 0; j <= m_n; ++j)
        m_state[std::size_t(j)] = chain.stateBytes(j);
    for (int i = 1; i <= m_n; ++i) {
        const Step& s = chain.step(i);
        const auto u = std::size_t(i);
        m_forwards[u] = m_forwards[u - 1] + s.forward;
        m_tapes[u] = m_tapes[u - 1] + s.tape_bytes;
        m_through[u] = m_state[u - 1] + s.forward_tmp_bytes + m_state[u];
        m_tapedForward[u] = m_tapes[u] + m_through[u];
        m_backward[u] = m_tapes[u] + m_state[u] + m_state[u - 1] + s.backward_tmp_bytes;
    }
    m_all = chain.totalForward() + chain.totalBackward();
}

double PeriodicCosts::makespan(int segments) const {
    const int S = std::clamp(segments, 1, m_n);
    return m_all + m_forwards[std::size_t(S - 1) * std::size_t(m_n / S)];
}

std::int64_t PeriodicCosts::peakBytes(int segments) const {
    const int S = std::clamp(segments, 1, m_n);
    const int k = m_n / S;
    const std::int64_t* x = m_state.data();
    std::int64_t peak = x[0];
    std::int64_t kept = 0; // C_m
    for (int m = 0; m < S; ++m) {
        const int a = m * k + 1, b = m == S - 1 ? m_n : a + k - 1;
        std::int64_t forward = m_tapedForward[std::size_t(a)], backward = m_backward[std::size_t(a)];
        for (int i = a + 1; i <= b; ++i) {
            forward = std::max(forward, m_tapedForward[std::size_t(i)]);
            backward = std::max(backward, m_backward[std::size_t(i)]);
        }
        const std::int64_t below = kept - m_tapes[std::size_t(a - 1)];
        if (m < S - 1) {
            std::int64_t untaped = m_through[std::size_t(a)] - x[a - 1]; // x_{mk} is the kept input, counted once
            for (int i = a + 1; i <= b; ++i)
                untaped = std::max(untaped, m_through[std::size_t(i)]);
            peak = std::max({peak, kept + x[a - 1] + untaped, below + x[b] + forward, below + backward});
        } else {
            peak = std::max({peak, below + forward, below + backward});
        }
        kept += x[a - 1];
    }
    return peak;
}

} // namespace ckpt
