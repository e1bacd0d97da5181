#pragma once
// Internal to engine/io (onnx_import.cpp): reading an ONNX file with libonnx, fixing its input shapes and inferring
// every other shape. Only built with CKPT_HAVE_ONNX.
#include "io/onnx_import.h"

#include <functional>
#include <onnx/onnx_pb.h>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt::onnxio {

// The default ONNX domain: "" or "ai.onnx".
bool isDefaultDomain(const std::string& domain);

// The newest opset of the default domain this libonnx knows (17 for ONNX 1.12).
int newestOpset();

// The model in `bytes`, checked: an ONNX ModelProto (not another file, not cut short), with a graph of at least one
// node and an opset of the default domain that libonnx knows. Messages start with `source`. The floating-point
// initializers come without their values (stripFloatData): the importer reads only their dims and type.
Result<onnx::ModelProto> parseModel(std::string_view bytes, const std::string& source);

// The same for the file at `path`, mapped rather than read (util/files.h MappedFile), with readFileBytes' guards (a
// regular file of at most kMaxOnnxBytes; those messages start with the path): the weights' pages are never read, so a
// 553 MB VGG-16 takes a few MB. Messages about the model start with `source`.
Result<onnx::ModelProto> readModel(const std::string& path, const std::string& source);
// The model's bytes as stripFloatData gives them, for importOnnxBytes.
Result<std::string> readModelBytes(const std::string& path, const std::string& source);

// The model in `bytes` without the values of its floating-point initializers (FLOAT, FLOAT16, BFLOAT16, DOUBLE,
// COMPLEX64, COMPLEX128: their raw_data, float_data, int32_data and double_data), which are skipped, never read; one
// with at most 256 bytes of values keeps them (Resize's scales: shape inference reads them). Everything else is kept
// byte for byte: integer and bool initializers with their values (shapes, axes), sparse initializers, the nodes and
// their Constant tensors; the graphs' and initializers' lengths are written anew. Checks first what parseModel checks
// at the top level (empty, not a model, truncated); a field that runs past the graph or initializer that holds it, or
// an initializer that is not a message, is refused as damaged, naming the byte. Messages start with `source`.
Result<std::string> stripFloatData(std::string_view bytes, const std::string& source);

// The data inputs (not the initializers listed as inputs, as IR < 4 files do).
std::vector<const onnx::ValueInfoProto*> dataInputs(const onnx::GraphProto& graph);

// Which dimension of an input --batch sets: the first whose symbol names a batch ("batch", "batch_size", "N", "B";
// a sequence-first export has it second), else the first; -1 for a scalar or an input without a shape.
int batchDimension(const onnx::TypeProto_Tensor& type);

// Gives every data input a fixed shape: options.inputs and options.batch (on batchDimension) fill only the dimensions
// the file leaves open; a value other than the one the file fixes is refused, as is an --input of another rank, and so
// is a dimension still open, each naming the input and the dimension. Clears the shapes the file recorded for
// intermediate values and outputs, which a new batch size would contradict.
std::optional<Error> fixInputs(onnx::GraphProto& graph, const OnnxImportOptions& options, const std::string& source);

// Runs libonnx's shape inference (with data propagation, so shapes computed by Shape -> Gather -> Concat -> Reshape are
// known). Returns libonnx's message when some operator could not be inferred (its outputs then stay unsized), else "".
std::string inferShapes(onnx::ModelProto& model);

// Shape inference with the shape computations folded (onnx_fold.cpp): inferShapes, then every node whose output is a
// small value computed from constants and from the dimensions of sized tensors becomes a Constant node holding it,
// and shapes are inferred again, until nothing new folds. `foldedNodes` counts the nodes replaced. Returns the last
// inference's message ("" when libonnx sized everything it could).
std::string inferAndFold(onnx::ModelProto& model, int& foldedNodes);

// The first element of a tensor that holds its data (any integer or floating-point storage), else nullopt.
std::optional<double> tensorScalar(const onnx::TensorProto& tensor);

// A kernel written as primitive operators (onnx_patterns.cpp): `nodes` (indices in the graph, ascending) compute
// `kernel` ("Gelu", "Silu", "LayerNormalization", "Softmax") of the activation `input`; node `exit` gives its output.
struct Fusion {
    std::string kernel;
    std::string input;
    int exit = -1;
    std::vector<int> nodes;
};
// Every such kernel in the graph; `activation` tells a value of the network from a constant.
std::vector<Fusion> findFusions(const onnx::GraphProto& graph,
                                const std::function<bool(const std::string&)>& activation);

} // namespace ckpt::onnxio
