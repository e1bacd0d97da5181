#pragma once
// ONNX models (.onnx) as graphs of a training step: every operator of the file becomes a node (io/onnx_costs.h prices
// it), with Debian's libonnx reading the protobuf and inferring every tensor's shape, and shape computations the
// inference cannot follow evaluated on the concrete dimensions (onnx_fold.cpp). Weights and constants are not
// activations: they make no node. Views (Reshape, Flatten, Squeeze, Unsqueeze, Identity, an inference Dropout) and
// shape computations are folded: a consumer of a view reads the view's producer. An operator with several outputs is
// one node whose output bytes add up the outputs the network uses. What the backward keeps follows PyTorch's autograd:
// BatchNorm's and LayerNorm's statistics are counted with their input (kept_bytes), MaxPool's indices and a training
// Dropout's mask are nodes of their own, LSTM/GRU/RNN unroll into one node per time step (stacked layers joined), and
// GELU, SiLU, LayerNorm and softmax written as primitive operators are fused (onnx_patterns.cpp). Graph inputs become
// source nodes (forward 0, as the examples' "input"). Control flow (Loop, If, Scan) is refused, naming the node; an
// input dimension that is not fixed is refused unless batch or inputs fix it, and a fixed one cannot be changed; a
// node whose size stays unknown is refused unless allow_unsized.
//
// A weight's data is never read (only its dims), so a shape-only file, whose initializers keep their dims and type but
// no data (examples/onnx/), imports as the full model; integer initializers (shapes, axes) must keep their values.
// Without libonnx at configure time onnxImportAvailable() is false and every import fails saying so.
#include "model/graph.h"
#include "model/hardware.h"
#include "util/result.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ckpt {

// Protobuf cannot parse a message of 2 GiB or more; larger models keep their weights in external data files, which
// the importer never reads.
constexpr std::uint64_t kMaxOnnxBytes = (std::uint64_t(1) << 31) - 1;

struct OnnxImportOptions {
    std::int64_t batch = 0; // > 0: the first dimension of every graph input (the file's own value or symbol replaced)
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> inputs; // an input's whole shape (before batch)
    int element_bytes = 0; // > 0: every floating-point tensor's element size (2 for fp16 and bf16); 0: the file's types
    Hardware hardware = Hardware::unbounded(); // compute speed and level 0 bandwidth for the roofline
    bool strict = false;                       // refuse unknown operators
    bool allow_unsized = false; // import an output whose size cannot be computed as 0 bytes (else: refused)
};

struct OnnxImport {
    Graph graph;
    std::vector<std::string> ops;    // per graph node: its ONNX operator ("input" for a graph input)
    std::vector<double> flops;       // per graph node
    std::vector<double> bytes_moved; // per graph node: the memory side of its roofline
    // Per graph node: bytes its output_bytes holds besides the tensor itself, for tensors that live as long as it
    // (the statistics of the BatchNorms and LayerNorms it feeds, which their backward keeps with it).
    std::vector<std::int64_t> kept_bytes;
    int operators = 0;             // in the file
    int folded = 0;                // of them, views and shape computations (no node)
    std::int64_t weight_bytes = 0; // the initializers (parameters): resident, not activations
    int fused = 0;                 // of them, primitive operators fused into kernels (GELU, LayerNorm, ...)
    std::vector<std::string> warnings;
    // What the import counted that no node's output shows (BatchNorm's statistics, MaxPool's indices, Dropout's
    // masks, fused kernels) and what a folded export lost: one line each, for the summary.
    std::vector<std::string> notes;
    double totalFlops() const;
};

bool onnxImportAvailable();
// Reads a regular file of at most kMaxOnnxBytes (the guards of readTextFile); messages start with the path.
Result<OnnxImport> importOnnxFile(const std::string& path, const OnnxImportOptions& options);
// `source` names the bytes in messages.
Result<OnnxImport> importOnnxBytes(const std::string& bytes, const std::string& source,
                                   const OnnxImportOptions& options);

// A graph input as the file declares it: -1 for a dimension that is not fixed, with its symbol (or "").
struct OnnxInput {
    std::string name;
    std::vector<std::int64_t> dims;
    std::vector<std::string> symbols;
};
// What a dialog shows before importing: the file's data inputs (not its weights).
Result<std::vector<OnnxInput>> onnxInputs(const std::string& path);

// The graph file, with "comment" and, per node, its "op" and "flops" (which the framework policies read).
nlohmann::json onnxImportToJson(const OnnxImport& imported, const std::string& comment);

} // namespace ckpt
