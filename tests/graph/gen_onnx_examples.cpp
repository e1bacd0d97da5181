// Writes the shape-only ONNX exports of examples/onnx/ (scripts/gen-onnx-examples runs it) and, given a second folder,
// the ONNX seeds of the fuzz corpus; with --weights, ResNet-50 with its weights' data for the import benchmark. The
// models are those of tests/common/onnx_models.h.
#include "common/onnx_hostile.h"
#include "common/onnx_models.h"

#include <cstdio>
#include <fstream>
#include <functional>

using namespace ckpt::test;

namespace {

bool write(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), std::streamsize(bytes.size()));
    if (!f) {
        std::fprintf(stderr, "gen_onnx_examples: cannot write %s\n", path.c_str());
        return false;
    }
    std::printf("wrote %s (%zu bytes)\n", path.c_str(), bytes.size());
    return true;
}

// Malformed and refused models for the fuzz corpus, next to the good ones.
bool writeCorpus(const std::string& dir) {
    bool ok = true;
    auto put = [&](const std::string& name, const std::string& bytes) { ok = write(dir + "/" + name, bytes) && ok; };
    put("conv-stack.onnx", convStack().bytes());
    put("residual-block.onnx", residualBlock().bytes());
    put("attention-block.onnx", attentionBlock().bytes());
    put("resnet18.onnx", resnet(18).bytes());
    const std::string attention = attentionBlock().bytes();
    put("truncated.onnx", attention.substr(0, attention.size() / 2));
    put("json.onnx", "{\"format\": \"ckpt-graph\", \"version\": 1}\n");
    put("empty.onnx", "");
    OnnxBuilder newer = convStack();
    newer.model().mutable_opset_import(0)->set_version(99);
    put("opset99.onnx", newer.bytes());
    OnnxBuilder noGraph = convStack();
    noGraph.model().clear_graph();
    put("no-graph.onnx", noGraph.bytes());
    OnnxBuilder branch("if");
    branch.input("x", {1, 4});
    branch.weight("cond", {});
    auto* n = branch.node("If", "branch", {"cond"}, {"y"});
    auto* a = n->add_attribute();
    a->set_name("then_branch");
    a->set_type(onnx::AttributeProto::GRAPH);
    a->mutable_g()->set_name("then");
    branch.output("y");
    put("if.onnx", branch.bytes());
    OnnxBuilder custom("custom");
    custom.input("x", {2, 8});
    custom.node("Frobnicate", "frob", {"x"}, {"y"})->set_domain("com.example");
    custom.output(custom.op("Relu", "relu", {"y"}));
    put("custom-op.onnx", custom.bytes());
    // Refused since issue 33: a batch fixed by the file, a size that depends on data, a shape computed from data.
    OnnxBuilder fixed("fixed_batch");
    fixed.input("x", {2, 3, 8, 8});
    fixed.output(fixed.op("Relu", "relu", {"x"}));
    put("fixed-batch.onnx", fixed.bytes());
    OnnxBuilder nonzero("data_dependent");
    nonzero.input("x", {4, 4});
    const std::string nz = nonzero.op("NonZero", "nz", {"x"});
    nonzero.output(nonzero.op("Relu", "after", {nonzero.op("Cast", "as_float", {nz})}));
    OnnxBuilder::attr(nonzero.graph()->mutable_node(1), "to", std::int64_t(onnx::TensorProto::FLOAT));
    put("nonzero.onnx", nonzero.bytes());
    OnnxBuilder byData("reshape_by_data");
    byData.input("x", {2, 3});
    byData.input("target", {2}, {}, onnx::TensorProto::INT64);
    byData.output(
        byData.op("Relu", "relu", {byData.op("Reshape", "reshape", {"x", byData.op("Abs", "abs", {"target"})})}));
    put("reshape-by-data.onnx", byData.bytes());
    OnnxBuilder one("one_node");
    one.input("x", {2, 8});
    one.output(one.op("Relu", "relu", {"x"}));
    put("one-node.onnx", one.bytes());
    // Issue 36's hostile models (tests/common/onnx_hostile.h): recursive and deeply nested model-local functions, which
    // overflowed the stack in libonnx's shape inference; Ifs nested past protobuf's limit; invalid attributes and
    // sizes past 64 bits, which were imported.
    put("hostile-function-recursive.onnx", hostile::recursiveFunction().bytes());
    put("hostile-functions-mutual.onnx", hostile::mutuallyRecursiveFunctions().bytes());
    put("hostile-functions-nested-40.onnx", hostile::nestedFunctions(40).bytes());
    put("hostile-functions-nested-5000.onnx", hostile::nestedFunctions(5000).bytes()); // past libFuzzer's -max_len
    put("hostile-functions-doubling-24.onnx", hostile::doublingFunctions(24).bytes());
    put("hostile-if-nested-40.onnx", hostile::nestedIf(40).bytes());
    put("hostile-conv-group-0.onnx", hostile::convGroup(0).bytes());
    put("hostile-conv-group-1e9.onnx", hostile::convGroup(1000000000).bytes());
    put("hostile-conv-auto-pad.onnx", hostile::convAutoPad("SIDEWAYS").bytes());
    put("hostile-conv-weights-2p80.onnx", hostile::convWeightsPast64Bits().bytes());
    put("hostile-lstm-hidden-size-wraps.onnx", hostile::lstmHiddenSizeThatWraps().bytes());
    put("hostile-lstm-bias.onnx", hostile::lstmBiasOfAnotherSize().bytes());
    return ok;
}

// ResNet-50 with all its weights' data (zeros, as raw bytes like torch writes them): a full-size file (98 MiB) for
// `ckpt bench --onnx`, not checked in.
bool writeWithWeights(const std::string& path) {
    OnnxBuilder b = resnet(50);
    for (auto& t : *b.graph()->mutable_initializer()) {
        std::int64_t n = 1;
        for (auto d : t.dims())
            n *= d;
        t.set_raw_data(std::string(std::size_t(n) * 4, '\0'));
    }
    return write(path, b.bytes());
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--weights") return writeWithWeights(argv[2]) ? 0 : 1;
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: gen_onnx_examples EXAMPLES_DIR [FUZZ_CORPUS_DIR]\n"
                             "       gen_onnx_examples --weights RESNET50.onnx\n");
        return 2;
    }
    const std::string dir = argv[1];
    bool ok = write(dir + "/resnet18.onnx", resnet(18).bytes());
    ok = write(dir + "/resnet50.onnx", resnet(50).bytes()) && ok;
    ok = write(dir + "/vgg16.onnx", vgg16().bytes()) && ok;
    ok = write(dir + "/transformer-encoder.onnx", transformerEncoder().bytes()) && ok;
    if (argc == 3) ok = writeCorpus(argv[2]) && ok;
    return ok ? 0 : 1;
}
