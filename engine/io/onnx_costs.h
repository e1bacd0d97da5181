#pragma once
// What one ONNX operator costs, from its tensors' shapes alone (no ONNX types here, so the table is tested without
// libonnx): FLOPs for the products (Conv, ConvTranspose, Gemm, MatMul, Einsum, the recurrent cells), a count per
// element for the rest, the bytes it reads and writes, and what its backward needs. The conventions are those of the
// shipped examples (scripts/gen-examples.py): a multiply-add is 2 FLOPs, bias adds 1 per output element; relu, add,
// a copy 1 per element, BN and layernorm 8, softmax 5 (its 1/sqrt(d) scale is a Div node of its own in ONNX), max-pool
// k-1 per output, average pool k, global pool and reductions 1 per input element.
#include "model/hardware.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ckpt {

// How the importer treats an operator of the default ONNX domain.
enum class OnnxOpKind {
    Compute,     // a node of the graph, costed by onnxOpCost
    View,        // no data moves (Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout at inference): folded into
                 // the producer of its data input
    ShapeOnly,   // reads metadata only (Shape, Size, Constant): its output is a constant, not an activation
    ControlFlow, // Loop, If, Scan, SequenceMap: a body graph run a data-dependent number of times; refused
    Unknown,     // not in the table: imported at zero cost with a warning (refused with --strict)
};
OnnxOpKind onnxOpKind(const std::string& op);

struct OnnxTensor {
    std::vector<std::int64_t> dims;
    bool present = false;    // an omitted optional input is not
    bool activation = false; // produced by the network (not a weight or a constant)
    std::int64_t bytes = 0;  // elements x element size
};

struct OnnxOp {
    std::string type;
    std::vector<OnnxTensor> inputs, outputs;
    std::map<std::string, std::vector<std::int64_t>> ints; // integer attributes; an INT attribute as one element
    std::string equation;                                  // Einsum's
    int element_bytes = 4;                                 // of its first output, for a workspace
};

struct OnnxOpCost {
    double flops = 0;
    double bytes_moved = 0; // every present input (weights too) read once, every output written once
    bool needs_inputs = true;
    bool needs_output = false;
    std::int64_t workspace_bytes = 0; // the recurrent cells' gates of every step; 0 elsewhere, as in the examples
};

// For a Compute or Unknown operator (Unknown: zero FLOPs and bytes, needs its inputs).
OnnxOpCost onnxOpCost(const OnnxOp& op);

// What is wrong with the attributes onnxOpCost reads, or "" when nothing is: Gemm's transA and transB and a recurrent
// cell's layout are 0 or 1; a convolution's group is >= 1 and agrees with its tensors (Conv: the input's channels are
// the weights' channels per group times the groups, and the filters divide into the groups; ConvTranspose: the
// input's channels are the weights' first dimension and divide into the groups). To follow "node 'conv' (Conv): ".
std::string onnxOpProblem(const OnnxOp& op);

} // namespace ckpt
