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

double segmentedOffloadActions(int n, int segment, int innerSlots) {
    const int I = std::clamp(segment, 1, n);
    const int last = (n - 1) / I * I;
    const double full = last / I; // segments of I steps before the last one
    const int tail = n - last;
    const double transfers = 2.0 * double(offloadedStates(n, segment).size());
    return double(last) + transfers + full * double(revolveActions(I, std::clamp(innerSlots, 1, I))) +
           double(revolveActions(tail, std::clamp(innerSlots, 1, tail)));
}

Plan segmentedOffloadPlan(const Chain& chain, const Hardware& hw, int segment, int innerSlots, int level) {
    const int n = chain.length();
    const int I = std::clamp(segment, 1, n);
    const int last = (n - 1) / I * I;
    Plan p;
    double compute = 0; // appendRevolve's running sum; the makespan comes from the overlap rule below
    p.actions.reserve(static_cast<std::size_t>(segmentedOffloadActions(n, segment, innerSlots)));
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
