// Plain backpropagation / BPTT: keep every tape, recompute nothing. Model B: n forward steps, the baseline that every
// time and memory ratio is taken against.
#include "schedulers/store_all.h"

#include "schedulers/fit.h"

#include <algorithm>

namespace ckpt {

Plan storeAllPlan(const Chain& chain) {
    Plan p;
    int n = chain.length();
    p.actions.reserve(2 * static_cast<std::size_t>(n));
    for (int i = 1; i <= n; ++i)
        p.actions.push_back(Action::forward(i, Keep::Tape));
    for (int i = n; i >= 1; --i)
        p.actions.push_back(Action::backward(i));
    p.predicted_makespan_s = chain.totalForward() + chain.totalBackward();
    return p;
}

std::int64_t storeAllPeakBytes(const Chain& c) {
    const int n = c.length();
    auto x = [&](int j) { return c.stateBytes(j); };
    if (c.memoryModel() == MemoryModel::RotorPaper) {
        // Each taped forward keeps its input, and every x_i (i >= 1) lives inside the tape of step i: x_0 is the only
        // state with bytes of its own, held until backward 1.
        std::int64_t peak = x(0), tapes = 0;
        for (int i = 1; i <= n; ++i) {
            const Step& s = c.step(i);
            peak = std::max(peak, x(0) + tapes + s.forward_tmp_bytes + s.tape_bytes);
            tapes += s.tape_bytes;
        }
        for (int i = n; i >= 1; --i) {
            const Step& s = c.step(i);
            peak = std::max(peak, x(0) + tapes + x(i) + x(i - 1) + s.backward_tmp_bytes);
            tapes -= s.tape_bytes;
        }
        return peak;
    }
    std::int64_t peak = x(0), tapes = 0; // tapes: those of the steps before the current one
    for (int i = 1; i <= n; ++i) {
        const Step& s = c.step(i);
        // Forward i (taped) while it runs: its input, the tapes so far, its temporaries, its output and its tape.
        peak = std::max(peak, x(i - 1) + tapes + s.forward_tmp_bytes + x(i) + s.tape_bytes);
        tapes += s.tape_bytes;
    }
    for (int i = n; i >= 1; --i) {
        const Step& s = c.step(i);
        // Backward i: the tapes up to i, the gradient of x_i (the loss's for i = n), the one of x_{i-1} it makes, and
        // its temporaries.
        peak = std::max(peak, tapes + x(i) + x(i - 1) + s.backward_tmp_bytes);
        tapes -= s.tape_bytes;
    }
    return peak;
}

SchedulerInfo storeAllScheduler() {
    SchedulerInfo s;
    s.name = "store-all";
    s.description = "Keep every tape, recompute nothing: the baseline of every ratio";
    s.paper = "plain backpropagation / BPTT";
    s.model = 'B';
    s.optimality = Optimality::Baseline;
    s.paper_model = true;
    s.solve = [](const Chain& chain, const Hardware& hw, const Params&, std::int64_t budget) -> Result<Plan> {
        Plan p = storeAllPlan(chain);
        std::int64_t limit = levelZeroLimit(hw, budget);
        if (limit > 0) {
            std::int64_t peak = storeAllPeakBytes(chain);
            if (peak > limit) return needsBudget("store-all", peak, limit);
        }
        return p;
    };
    return s;
}

} // namespace ckpt
