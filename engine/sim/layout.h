#pragma once
// Memory layout: every tensor a plan allocates in level 0, placed at an address for its lifetime, as an arena
// allocator would (Sekiyama, Imamichi, Imai, Raymond 2018, "Profile-guided memory optimization for deep neural
// networks": dynamic storage allocation, rectangles packed over time). The packed peak (the highest address used) is
// at least the ideal peak (the most held at once, the simulator's peak); the difference is fragmentation.
#include "sim/timeline.h"
#include "util/result.h"

#include <cstdint>
#include <vector>

namespace ckpt {

struct PlacedTensor {
    TensorLife life;
    std::int64_t offset = 0; // bytes from the start of the arena
};

struct MemoryLayout {
    std::vector<PlacedTensor> tensors;
    std::int64_t packed_peak = 0; // the highest address any tensor reaches
    std::int64_t ideal_peak = 0;  // the most bytes held at once
    double fragmentation() const { return packed_peak > 0 ? 1.0 - double(ideal_peak) / double(packed_peak) : 0.0; }
};

// The most bytes held at once: a sweep over the lifetimes' positions.
std::int64_t idealPeak(const std::vector<TensorLife>& tensors);

// First fit in `order` (indices into `tensors`): each tensor at the lowest address where it overlaps no tensor
// placed before it that lives at the same time. Every packing is what first fit makes in some order (place the
// tensors of a packing by increasing address: none lands higher), so the least over all orders is optimal.
MemoryLayout firstFitLayout(const std::vector<TensorLife>& tensors, const std::vector<std::size_t>& order);

// Greedy by size: first fit, largest first (then the earlier first), the arena planners' heuristic.
constexpr std::size_t kMaxLayoutTensors = 20000;
Result<MemoryLayout> packLayout(const std::vector<TensorLife>& tensors);

} // namespace ckpt
