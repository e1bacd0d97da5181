#pragma once
// The action vocabulary of a graph schedule (level 0; transfers come later).
// Forward(v): computes node v from the outputs of its inputs, which must be held; its output is then held.
// Backward(v): once every consumer of v has run its backward (so the gradient of v's output is complete; for a node
//   without consumers the loss gradient appears here), needs the outputs of v's inputs (needs_inputs) and its own
//   output (needs_output); adds into the gradient of each input and releases the gradient of v's output.
// Free(v): releases the output of v.
// An output that can never be used again (every consumer reversed, and v reversed or not needed by it) is released by
// the simulator, as for chains.
#include <cstdint>
#include <string>
#include <vector>

namespace ckpt {

enum class GraphActionKind : std::uint8_t { Forward, Backward, Free };

struct GraphAction {
    GraphActionKind kind = GraphActionKind::Forward;
    std::int32_t node = 0;
    static GraphAction forward(int v) { return {GraphActionKind::Forward, v}; }
    static GraphAction backward(int v) { return {GraphActionKind::Backward, v}; }
    static GraphAction free(int v) { return {GraphActionKind::Free, v}; }
    bool operator==(const GraphAction&) const = default;
};

using GraphSchedule = std::vector<GraphAction>;

} // namespace ckpt
