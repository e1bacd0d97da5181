#pragma once
// The action vocabulary of a graph schedule (level 0; transfers come later), and the graph plan.
// Forward(v): computes node v from the outputs of its inputs, which must be held; its output is then held.
// Backward(v): once every consumer of v has run its backward (so the gradient of v's output is complete; for a node
//   without consumers the loss gradient appears here), needs the outputs of v's inputs (needs_inputs) and its own
//   output (needs_output); adds into the gradient of each input and releases the gradient of v's output.
// Free(v): releases the output of v.
// Invert(v): v is reversible (RevNet) and has one input u; from v's held output it rebuilds u's output at the cost of
//   v's forward, without needing u's input (a recomputation of u, drawn as one).
// An output that can never be used again (every consumer reversed, and v reversed or not needed by it) is released by
// the simulator, as for chains.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ckpt {

enum class GraphActionKind : std::uint8_t { Forward, Backward, Free, Invert };

struct GraphAction {
    GraphActionKind kind = GraphActionKind::Forward;
    std::int32_t node = 0;
    static GraphAction forward(int v) { return {GraphActionKind::Forward, v}; }
    static GraphAction backward(int v) { return {GraphActionKind::Backward, v}; }
    static GraphAction free(int v) { return {GraphActionKind::Free, v}; }
    static GraphAction invert(int v) { return {GraphActionKind::Invert, v}; }
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
};

} // namespace ckpt
