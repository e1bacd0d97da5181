#pragma once
// What the simulator (or the trainer's measurement) says happened: an interval per action on its lane, memory per
// level over time split by category, and totals. Every chart and every number of the program is read from here.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ckpt {

enum class IntervalKind : std::uint8_t { Forward, Recompute, Backward, Write, Read };
const char* intervalKindName(IntervalKind k); // "forward", "recompute", ...

struct Interval {
    double start = 0;
    double end = 0;
    std::int32_t action = 0; // index in the schedule
    std::int32_t index = 0;  // step (compute) or state (transfer)
    std::int64_t bytes = 0;  // bytes moved (transfers) or produced (compute)
    std::int16_t lane = 0;   // 0 = compute, L = channel of level L
    IntervalKind kind = IntervalKind::Forward;
    bool tape = false; // a transfer of the tape of step `index` (not of the state x_index)
};

enum class MemoryCategory : std::uint8_t { State, Tape, Gradient, Temporary };
constexpr int kMemoryCategories = 4;
const char* memoryCategoryName(MemoryCategory c); // "states", "tapes", "gradients", "temporaries"

// Memory of one level from `time` until the next sample's time.
struct MemorySample {
    double time = 0;
    std::array<std::int64_t, kMemoryCategories> bytes{};
    std::int64_t total() const { return bytes[0] + bytes[1] + bytes[2] + bytes[3]; }
};

struct Totals {
    double makespan_s = 0;
    double compute_s = 0; // busy time of the compute lane
    long long steps = 0;
    long long forward_steps = 0; // every forward executed, taped re-runs included
    long long backward_steps = 0;
    long long recomputed_steps = 0; // forward_steps - steps
    long long bytes_written = 0;
    long long bytes_read = 0;
    long long in_place = 0;               // graph forwards that wrote over their input's buffer
    std::vector<std::int64_t> peak_bytes; // per level
    std::vector<double> peak_time_s;      // when each peak is first reached
    std::vector<double> channel_busy_s;   // per level (0 unused)
    // What level 0 holds once every action before the first backward has run: what the plan keeps for the backward
    // pass when its forward sweep ends, the figure people call activation memory (PyTorch's saved tensors).
    std::int64_t held_after_forward_bytes = 0;
};

// One allocation in a level, from the event that made it to the one that released it: times, and positions in the
// memory ledger's order (two tensors are held at once exactly when each starts before the other ends, by position).
struct TensorLife {
    double start = 0, end = 0;
    std::int64_t first = 0, last = 0; // positions; last = one past the final event for a tensor never released
    std::int64_t bytes = 0;
    MemoryCategory category = MemoryCategory::State;
    std::int32_t index = 0; // the state, tape or gradient index, or the step of a temporary
};

struct Timeline {
    std::vector<std::string> lanes;                // "compute", then one name per slower level
    std::vector<Interval> intervals;               // in schedule order
    std::vector<std::vector<MemorySample>> memory; // per level, a step function in time order
    std::vector<std::int32_t> in_place_actions;    // graph forwards that wrote over their input (plan order)
    Totals totals;
};

} // namespace ckpt
