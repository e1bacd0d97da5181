#pragma once
// Hostile ONNX models (issue 36): each crashed the importer, or was imported though invalid. The importer's tests check
// how they are refused; gen_onnx_examples writes them into the fuzz corpus (tests/fuzz/corpus/onnx/hostile-*.onnx).
#include "common/onnx_builder.h"

#include <string>
#include <vector>

namespace ckpt::test::hostile {

// The domain of the model-local functions below.
inline const std::string kLocal = "local";

// A model-local function of one input and one output: the functions `calls` in turn, then a Relu. Its calling nodes
// are named "<name>.call<k>" when `named` (else unnamed, for a smaller file).
inline void function(OnnxBuilder& b, const std::string& name, const std::vector<std::string>& calls,
                     bool named = false) {
    auto* f = b.model().add_functions();
    f->set_name(name);
    f->set_domain(kLocal);
    f->add_input("x");
    f->add_output("y");
    for (const auto& [domain, version] : {std::pair{std::string(), 17}, std::pair{kLocal, 1}}) {
        auto* o = f->add_opset_import();
        o->set_domain(domain);
        o->set_version(version);
    }
    std::string x = "x";
    for (std::size_t k = 0; k < calls.size(); ++k) {
        auto* n = f->add_node();
        n->set_op_type(calls[k]);
        n->set_domain(kLocal);
        if (named) n->set_name(name + ".call" + std::to_string(k));
        n->add_input(x);
        n->add_output(x = "t" + std::to_string(k));
    }
    auto* relu = f->add_node();
    relu->set_op_type("Relu");
    relu->add_input(x);
    relu->add_output("y");
}

// A graph x (2, 8) -> function `entry` -> y.
inline OnnxBuilder callingModel(const std::string& name, const std::string& entry) {
    OnnxBuilder b(name);
    auto* o = b.model().add_opset_import();
    o->set_domain(kLocal);
    o->set_version(1);
    b.input("x", {2, 8});
    b.node(entry, "call", {"x"}, {"y"})->set_domain(kLocal);
    b.output("y");
    return b;
}

// A function that calls itself.
inline OnnxBuilder recursiveFunction() {
    OnnxBuilder b = callingModel("recursive_function", "again");
    function(b, "again", {"again"}, true);
    return b;
}

// Two functions that call each other.
inline OnnxBuilder mutuallyRecursiveFunctions() {
    OnnxBuilder b = callingModel("mutual_functions", "ping");
    function(b, "ping", {"pong"});
    function(b, "pong", {"ping"});
    return b;
}

// `depth` functions, each calling the next: f0 -> f1 -> ... -> f<depth-1>.
inline OnnxBuilder nestedFunctions(int depth) {
    OnnxBuilder b = callingModel("nested_functions", "f0");
    for (int k = 0; k < depth; ++k)
        function(b, "f" + std::to_string(k),
                 k + 1 < depth ? std::vector<std::string>{"f" + std::to_string(k + 1)} : std::vector<std::string>{});
    return b;
}

// `depth` functions, each calling the next twice: no cycle and shallow, but 2^depth calls once expanded.
inline OnnxBuilder doublingFunctions(int depth) {
    OnnxBuilder b = callingModel("doubling_functions", "f0");
    for (int k = 0; k < depth; ++k) {
        const std::string next = "f" + std::to_string(k + 1);
        function(b, "f" + std::to_string(k),
                 k + 1 < depth ? std::vector<std::string>{next, next} : std::vector<std::string>{});
    }
    return b;
}

// An If whose then-branch holds an If, `depth` deep ("if0" in the main graph, "if<depth-1>" innermost).
inline OnnxBuilder nestedIf(int depth) {
    OnnxBuilder b("nested_if");
    b.input("x", {2, 8});
    auto* cond = b.graph()->add_initializer();
    cond->set_name("cond");
    cond->set_data_type(onnx::TensorProto::BOOL);
    cond->add_int32_data(1);
    onnx::GraphProto* g = b.graph();
    for (int k = 0; k < depth; ++k) {
        auto* n = g->add_node();
        n->set_op_type("If");
        n->set_name("if" + std::to_string(k));
        n->add_input("cond");
        n->add_output(k == 0 ? "y" : "y" + std::to_string(k));
        auto* a = n->add_attribute();
        a->set_name("then_branch");
        a->set_type(onnx::AttributeProto::GRAPH);
        g = a->mutable_g();
        g->set_name("then" + std::to_string(k));
        g->add_output()->set_name("y" + std::to_string(k + 1));
    }
    auto* id = g->add_node();
    id->set_op_type("Identity");
    id->add_input("x");
    id->add_output("y" + std::to_string(depth));
    b.output("y");
    return b;
}

// x (2, 3, 8, 8) -> Conv with weights (4, 3, 3, 3) -> y; the conv node ("conv") is last(), for its attributes.
inline OnnxBuilder conv(const std::string& name, const std::vector<std::int64_t>& weights = {4, 3, 3, 3}) {
    OnnxBuilder b(name);
    b.input("x", {2, 3, 8, 8});
    b.weight("w", weights);
    b.output(b.op("Conv", "conv", {"x", "w"}));
    return b;
}

inline OnnxBuilder convGroup(std::int64_t group) {
    OnnxBuilder b = conv("conv_group");
    OnnxBuilder::attr(b.last(), "group", group);
    return b;
}

inline OnnxBuilder convAutoPad(const std::string& value) {
    OnnxBuilder b = conv("conv_auto_pad");
    auto* a = b.last()->add_attribute();
    a->set_name("auto_pad");
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(value);
    return b;
}

// Weights of 2^40 filters of 2^40 channels: 2^80 elements, which wrapped around to "0 B, 0 FLOP".
inline OnnxBuilder convWeightsPast64Bits() {
    const std::int64_t big = std::int64_t(1) << 40;
    return conv("conv_huge_weights", {big, big, 3, 3});
}

// A data input "x" whose shape the file leaves out (--input gives it), read by a Relu, then a Conv of 4-D weights.
inline OnnxBuilder shapelessInput() {
    OnnxBuilder b("shapeless");
    auto* in = b.graph()->add_input();
    in->set_name("x");
    in->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    b.weight("w", {4, 3, 3, 3});
    b.output(b.op("Conv", "conv", {b.op("Relu", "relu", {"x"}), "w"}));
    return b;
}

// An LSTM "lstm" over x (5, 2, 3) with weights W and R, its attribute hidden_size, and `optional` inputs (by index:
// 3 B, 4 sequence_lens, 5 initial_h, 6 initial_c, 7 P) of the dims given; the node is last().
inline OnnxBuilder lstm(const std::string& name, std::int64_t hiddenSize, const std::vector<std::int64_t>& w,
                        const std::vector<std::int64_t>& r,
                        const std::vector<std::pair<int, std::vector<std::int64_t>>>& optional = {}) {
    OnnxBuilder b(name);
    b.input("x", {5, 2, 3});
    b.weight("W", w);
    b.weight("R", r);
    std::vector<std::string> inputs = {"x", "W", "R"};
    for (const auto& [index, dims] : optional) {
        inputs.resize(std::size_t(index) + 1);
        inputs[std::size_t(index)] = "in" + std::to_string(index);
        b.weight(inputs[std::size_t(index)], dims);
    }
    OnnxBuilder::attr(b.node("LSTM", "lstm", inputs, {"Y", "Y_h"}), "hidden_size", hiddenSize);
    b.output("Y_h");
    return b;
}

// Weights of hidden size 4 with a bias of hidden size 5.
inline OnnxBuilder lstmBiasOfAnotherSize() {
    return lstm("lstm_bias", 4, {1, 16, 3}, {1, 16, 4}, {{3, {1, 40}}});
}

// hidden_size 2^62: its 4 gates' rows, 2^64, wrap around to the 0 rows of W and R.
inline OnnxBuilder lstmHiddenSizeThatWraps() {
    const std::int64_t h = std::int64_t(1) << 62;
    return lstm("lstm_wraps", h, {1, 0, 3}, {1, 0, h});
}

} // namespace ckpt::test::hostile
