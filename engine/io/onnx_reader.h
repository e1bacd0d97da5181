#pragma once
// Internal to engine/io (onnx_import.cpp): reading an ONNX file with libonnx, fixing its input shapes and inferring
// every other shape. Only built with CKPT_HAVE_ONNX.
#include "io/onnx_import.h"

#include <onnx/onnx_pb.h>
#include <optional>
#include <string>

namespace ckpt::onnxio {

// The default ONNX domain: "" or "ai.onnx".
bool isDefaultDomain(const std::string& domain);

// The newest opset of the default domain this libonnx knows (17 for ONNX 1.12).
int newestOpset();

// The model in `bytes`, checked: an ONNX ModelProto (not another file, not cut short), with a graph of at least one
// node and an opset of the default domain that libonnx knows. Messages start with `source`.
Result<onnx::ModelProto> parseModel(const std::string& bytes, const std::string& source);

// The data inputs (not the initializers listed as inputs, as IR < 4 files do).
std::vector<const onnx::ValueInfoProto*> dataInputs(const onnx::GraphProto& graph);

// Gives every data input a fixed shape (options.inputs, then options.batch on the first dimension) and refuses one
// left with a dimension that is not fixed, naming the input and the dimension. Clears the shapes the file recorded
// for intermediate values and outputs, which a new batch size would contradict.
std::optional<Error> fixInputs(onnx::GraphProto& graph, const OnnxImportOptions& options, const std::string& source);

// Runs libonnx's shape inference (with data propagation, so shapes computed by Shape -> Gather -> Concat -> Reshape are
// known). Returns libonnx's message when some operator could not be inferred (its outputs then stay unsized), else "".
std::string inferShapes(onnx::ModelProto& model);

} // namespace ckpt::onnxio
