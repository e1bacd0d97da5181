#include "schedulers/segment_offload.h"

#include "schedulers/multilevel.h"
#include "schedulers/revolve.h"

#include <algorithm>

namespace ckpt {

std::vector<int> offloadedStates(int n, int segment) {
    std::vector<int> out;
    const int I = std::clamp(segment, 1, n);
    const int last = (n - 1) / I * I; // start of the last segment
    for (int a = I; a < last; a += I)
        out.push_back(a);
    return out;
}

Plan segmentedOffloadPlan(const Chain& chain, const Hardware& hw, int segment, int innerSlots, int level) {
    const int n = chain.length();
    const int I = std::clamp(segment, 1, n);
    const int last = (n - 1) / I * I;
    Plan p;
    double compute = 0; // appendRevolve's running sum; the makespan comes from the overlap rule below
    p.actions.reserve(static_cast<std::size_t>(3 * n));
    for (int i = 1; i <= last; ++i) {
        p.actions.push_back(Action::forward(i, i == 1 ? Keep::State : Keep::None));
        if (i % I == 0 && i < last) p.actions.push_back(Action::write(i, level));
    }
    for (int a = last; a >= 0; a -= I) {
        if (a - I > 0) p.actions.push_back(Action::read(a - I, level)); // the previous segment's start, in advance
        appendRevolve(chain, a, std::min(a + I, n), innerSlots, p.actions, compute);
    }
    p.predicted_makespan_s = overlappedMakespan(chain, hw, p.actions);
    return p;
}

} // namespace ckpt
