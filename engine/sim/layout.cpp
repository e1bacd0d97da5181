#include "sim/layout.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace ckpt {

std::int64_t idealPeak(const std::vector<TensorLife>& tensors) {
    std::vector<std::pair<std::int64_t, std::int64_t>> events; // (position, delta); a release sorts first
    events.reserve(2 * tensors.size());
    for (const TensorLife& t : tensors) {
        events.push_back({t.first, t.bytes});
        events.push_back({t.last, -t.bytes});
    }
    std::sort(events.begin(), events.end());
    std::int64_t now = 0, peak = 0;
    for (const auto& [pos, delta] : events) {
        now += delta;
        peak = std::max(peak, now);
    }
    return peak;
}

MemoryLayout firstFitLayout(const std::vector<TensorLife>& tensors, const std::vector<std::size_t>& order) {
    MemoryLayout out;
    out.tensors.reserve(order.size());
    std::vector<std::pair<std::int64_t, std::int64_t>> taken; // [offset, end) of the overlapping ones
    for (std::size_t k : order) {
        const TensorLife& t = tensors[k];
        taken.clear();
        for (const PlacedTensor& p : out.tensors)
            if (p.life.first < t.last && t.first < p.life.last) taken.push_back({p.offset, p.offset + p.life.bytes});
        std::sort(taken.begin(), taken.end());
        std::int64_t at = 0;
        for (const auto& [lo, hi] : taken) {
            if (lo >= at + t.bytes) break; // the gap below this one fits
            at = std::max(at, hi);
        }
        out.tensors.push_back(PlacedTensor{t, at});
        out.packed_peak = std::max(out.packed_peak, at + t.bytes);
    }
    out.ideal_peak = idealPeak(tensors);
    return out;
}

Result<MemoryLayout> packLayout(const std::vector<TensorLife>& tensors) {
    if (tensors.size() > kMaxLayoutTensors)
        return fail("the plan allocates " + std::to_string(tensors.size()) +
                    " tensors in level 0; laying out more than " + std::to_string(kMaxLayoutTensors) +
                    " is refused (it grows with their square): pick a shorter "
                    "chain or a plan with fewer actions");
    std::vector<std::size_t> order(tensors.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (tensors[a].bytes != tensors[b].bytes) return tensors[a].bytes > tensors[b].bytes;
        return tensors[a].first < tensors[b].first;
    });
    return firstFitLayout(tensors, order);
}

} // namespace ckpt
