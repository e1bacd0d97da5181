#pragma once
// Internal to engine/io (onnx_import.cpp): what the importer checks in a model before libonnx's shape inference sees
// it, which takes much for granted (in Debian's libonnx 1.12 a malformed node can make it read past its vectors or
// divide by zero). Every refusal names the source and the node. Only built with CKPT_HAVE_ONNX.
#include "io/onnx_import.h"
#include "util/result.h"

#include <cstdint>
#include <onnx/onnx_pb.h>
#include <optional>
#include <string>

namespace ckpt::onnxio {

// The node's name, or its first output's when it has none, or else its place in the graph ("#3": the third node),
// then the operator: "'conv1' (Conv)".
std::string nodeLabel(const onnx::GraphProto& g, const onnx::NodeProto& n, const std::string& op);

// The model-local functions (ModelProto.functions), checked before libonnx's shape inference, which runs a function's
// body at every call, recursing into the calls it makes: their calls must form no cycle (a function that calls itself,
// or two that call each other, recursed until the stack overflowed), nest at most kMaxFunctionDepth deep (5,000 nested
// calls overflowed it too) and expand into at most kMaxFunctionNodes nodes (a few levels that each call the next twice
// make an exponential amount of work). A refusal names the functions; one defined twice is refused too.
constexpr int kMaxFunctionDepth = 32;
constexpr std::int64_t kMaxFunctionNodes = 200000;
std::optional<Error> checkFunctions(const onnx::ModelProto& model, const std::string& source);

// An --input (options.inputs) for a data input the file gives no shape must have the rank its readers take: a
// convolution's or pooling's (its kernel's and 2), a Gemm's (2), a recurrent layer's (3). libonnx's shape inference
// leaves their outputs unsized otherwise (every node 0 bytes with --allow-unsized). Before fixInputs, which gives the
// input those dimensions; refusals name the input, the node and the rank.
std::optional<Error> checkInputRanks(const onnx::GraphProto& graph, const OnnxImportOptions& options,
                                     const std::string& source);

// Control flow (Loop, If, Scan, or any node with a body graph) is refused, naming the node: before shape inference,
// which would walk the body graphs.
std::optional<Error> refuseControlFlow(const onnx::GraphProto& g, const std::string& source);

// Every value a node reads is a graph input, an initializer or an earlier node's output, and a node of an operator
// libonnx knows has the inputs, outputs and attributes its schema allows (libonnx's own check, and message).
std::optional<Error> checkNodes(const onnx::ModelProto& model, const std::string& source);

// The convolutions' and poolings' attributes: strides, dilations and kernel sizes >= 1, pads >= 0, group >= 1, auto_pad
// one of ONNX's four values (libonnx 1.12 took any other as NOTSET); a convolution without kernel_shape is given the
// one its stored weights hold.
std::optional<Error> guardShapeInference(onnx::GraphProto& graph, const std::string& source);

} // namespace ckpt::onnxio
