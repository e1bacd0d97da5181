#pragma once
// The action vocabulary of a graph schedule, and the graph plan.
// Forward(v): computes node v from the outputs of its inputs, which must be held; its output is then held.
// Backward(v): once every consumer of v has run its backward (so the gradient of v's output is complete; for a node
//   without consumers the loss gradient appears here), needs the outputs of v's inputs (needs_inputs) and its own
//   output (needs_output); adds into the gradient of each input and releases the gradient of v's output.
// Free(v, L): releases the copy of v's output held on level L (level 0 by default).
// Write(v, L) / Read(v, L): asynchronous copies of v's output between level 0 and the slower level L, on L's
//   channel, as for chain states: a copy is usable once its transfer ends, and its source stays until then.
// Invert(v): v is reversible (RevNet) and has one input u; from v's held output it rebuilds u's output at the cost of
//   v's forward, without needing u's input (a recomputation of u, drawn as one).
// An output that can never be used again (every consumer reversed, and v reversed or not needed by it) is released by
// the simulator, as for chains.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ckpt {

enum class GraphActionKind : std::uint8_t { Forward, Backward, Free, Invert, Write, Read };

struct GraphAction {
    GraphActionKind kind = GraphActionKind::Forward;
    std::int32_t node = 0;
    std::int16_t level = 0; // Free, Write, Read
    static GraphAction forward(int v) { return {GraphActionKind::Forward, v}; }
    static GraphAction backward(int v) { return {GraphActionKind::Backward, v}; }
    static GraphAction free(int v, int level = 0) { return {GraphActionKind::Free, v, std::int16_t(level)}; }
    static GraphAction invert(int v) { return {GraphActionKind::Invert, v}; }
    static GraphAction write(int v, int level) { return {GraphActionKind::Write, v, std::int16_t(level)}; }
    static GraphAction read(int v, int level) { return {GraphActionKind::Read, v, std::int16_t(level)}; }
    bool operator==(const GraphAction&) const = default;
};

using GraphSchedule = std::vector<GraphAction>;

// A graph schedule with what made it, as Plan is for chains.
struct GraphPlan {
    std::string scheduler;
    std::map<std::string, std::string> params; // after defaults, plus what the scheduler derived
    GraphSchedule actions;
    double predicted_makespan_s = 0;       // the scheduler's own sum, checked against the simulator in tests
    std::int64_t predicted_peak_bytes = 0; // the scheduler's own memory model (0: it has none); >= the simulated peak
    std::int64_t budget_bytes = 0;
    // Which implementation each node runs (Graph::withImplementations; empty: every node its own). The simulator
    // judges the plan on the graph with these applied.
    std::vector<int> implementation;
};

} // namespace ckpt
