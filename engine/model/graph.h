#pragma once
// A DAG of forward operations. Each node produces one output tensor of output_bytes, uses workspace_bytes while it
// runs, and takes its inputs from the outputs of its predecessors. Its backward needs its inputs, its output, or
// both (needs_inputs / needs_output); a reversible node can rebuild its input from its output (RevNet). An in-place
// node (ReLU, in-place activated batch norm) writes its output over its single input's buffer whenever the plan never
// reads that input again, so the two share memory. The backward graph is the same DAG reversed. A chain is the
// linear graph.
#include "model/chain.h"
#include "util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ckpt {

// Another way to run a node (MONeT, Shah et al. 2021: e.g. a convolution algorithm trading workspace for time).
struct NodeImplementation {
    std::string name;
    double forward = 0;  // seconds
    double backward = 0; // seconds
    std::int64_t workspace_bytes = 0;
    bool operator==(const NodeImplementation&) const = default;
};

struct GraphNode {
    std::string id;
    double forward = 0;  // seconds
    double backward = 0; // seconds
    std::int64_t output_bytes = 0;
    std::int64_t workspace_bytes = 0;
    bool needs_inputs = true;
    bool needs_output = false;
    bool reversible = false;
    bool in_place = false; // only with exactly one input
    // Implementations besides the node's own (forward, backward, workspace_bytes above, named "default"): a plan may
    // pick one per node (GraphPlan::implementation); its output and what its backward needs are the same.
    std::vector<NodeImplementation> alternatives;
    // What the node is, for the framework policies (schedulers/policies.h), which save or recompute by kind of
    // operation and by block: `op` an operator name as ONNX or PyTorch spells it ("MatMul", "Softmax", "LayerNorm",
    // "DropoutMask"...), `block` the layer it belongs to ("l3"; empty: none), `flops` its forward's floating-point
    // operations (0: unknown). None of them changes what the simulator does.
    std::string op;
    std::string block;
    double flops = 0;
    bool operator==(const GraphNode&) const = default;
};

struct GraphEdge {
    std::string from, to; // node ids: `to` consumes the output of `from`
    bool operator==(const GraphEdge&) const = default;
};

class Graph {
public:
    // Checks every node and edge: sizes >= 0, times finite, >= 0 and at most kMaxSeconds, all the bytes adding up to
    // at most kMaxTotalBytes (util/bounds.h), ids unique and non-empty, edges between known nodes, no self-loop, no
    // duplicate edge, no cycle. Messages name the node.
    static Result<Graph> make(std::string name, std::vector<GraphNode> nodes, std::vector<GraphEdge> edges);
    // Step i becomes node "s<i>" with output = the state after it (x_i), edges s<i> -> s<i+1>; a tape-free chain
    // model has no workspace, so the step's tape is recorded as its workspace during the forward.
    static Graph fromChain(const Chain& chain);

    // For a graph that is a chain (isChain()): step i is the i-th node in order, its state x_{i-1} the previous node's
    // output (the first node's own output size stands in for the graph's input), its tape what its backward needs
    // (the input if needs_inputs, the output if needs_output), its workspace as forward and backward temporaries.
    Chain toChain() const;

    const std::string& name() const { return m_name; }
    int size() const { return int(m_nodes.size()); }
    const std::vector<GraphNode>& nodes() const { return m_nodes; }
    const std::vector<GraphEdge>& edges() const { return m_edges; }
    const GraphNode& node(int i) const { return m_nodes[std::size_t(i)]; }
    int indexOf(const std::string& id) const; // -1 when unknown
    const std::vector<int>& inputs(int i) const { return m_inputs[std::size_t(i)]; }
    const std::vector<int>& consumers(int i) const { return m_consumers[std::size_t(i)]; }
    const std::vector<int>& topologicalOrder() const { return m_order; }
    bool isChain() const; // every node has at most one input and one consumer, and the graph is connected
    double totalForward() const;
    double totalBackward() const;
    bool hasAlternatives() const;
    // Node v's implementation c: 0 is its own ("default"), c >= 1 alternatives[c - 1].
    int implementationCount(int v) const { return 1 + int(node(v).alternatives.size()); }
    std::string implementationName(int v, int c) const;
    // The graph with each node run as `choice` picks (empty: every node its own; one entry per node otherwise, each
    // in range): forward, backward and workspace replaced, the alternatives dropped.
    Result<Graph> withImplementations(const std::vector<int>& choice) const;

private:
    Graph() = default;
    static Result<Graph> build(std::string name, std::vector<GraphNode> nodes, std::vector<GraphEdge> edges,
                               bool boundTotal);
    std::string m_name;
    std::vector<GraphNode> m_nodes;
    std::vector<GraphEdge> m_edges;
    std::vector<std::vector<int>> m_inputs, m_consumers;
    std::vector<int> m_order;
};

} // namespace ckpt
