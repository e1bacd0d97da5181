// ckpt import: an ONNX model as a ckpt-graph file (engine/io/onnx_import.h), or with --as-chain as the ckpt-chain of
// its segments between articulation points (engine/model/segment_chain.h).
#include "commands.h"
#include "common.h"
#include "io/json_io.h"
#include "io/onnx_import.h"
#include "model/segment_chain.h"
#include "util/units.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace ckpt::cli {

namespace {

// A whole number from 1 to `max`, or nullopt.
std::optional<std::int64_t> wholeNumber(const std::string& text, std::int64_t max) {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end || errno || v < 1 || v > max) return std::nullopt;
    return v;
}

// "NAME=1x3x224x224"; false after a message.
bool parseInput(const std::string& text, OnnxImportOptions& options) {
    const auto eq = text.rfind('=');
    const std::string what = "--input: expected NAME=DIMS such as input=1x3x224x224, got '" + text + "'";
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) return complain(what), false;
    std::vector<std::int64_t> dims;
    std::size_t start = eq + 1;
    while (start <= text.size()) {
        std::size_t x = text.find('x', start);
        if (x == std::string::npos) x = text.size();
        auto d = wholeNumber(text.substr(start, x - start), std::int64_t(1) << 40);
        if (!d) return complain(what + " (each dimension a whole number from 1 to 2^40)"), false;
        dims.push_back(*d);
        start = x + 1;
    }
    options.inputs.emplace_back(text.substr(0, eq), std::move(dims));
    return true;
}

// "resnet50.onnx" -> "resnet50.ckpt-graph.json" beside it.
std::string defaultOut(const std::string& model, bool chain) {
    std::string base = model;
    const auto slash = base.find_last_of('/');
    if (auto dot = base.rfind('.'); dot != std::string::npos && (slash == std::string::npos || dot > slash))
        base.resize(dot);
    return base + (chain ? ".ckpt-chain.json" : ".ckpt-graph.json");
}

// "263.2 GFLOP".
std::string flopsText(double flops) {
    const char* units[] = {"", "k", "M", "G", "T", "P", "E"};
    int u = 0;
    while (flops >= 1000 && u < 6)
        flops /= 1000, ++u;
    return formatNumber(flops, 4) + " " + units[u] + "FLOP";
}

std::string machineText(const Hardware& hw) {
    const double bw = hw.level(0).read_bytes_per_s;
    return "machine '" + hw.name() + "': " + formatNumber(hw.flopsPerSecond() / 1e12) + " TFLOP/s, " +
           (bw > 0 ? "level 0 at " + formatNumber(bw / 1e9) + " GB/s" : "no memory bound (no level 0 bandwidth)");
}

} // namespace

int cmdImport(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "import")) return BadInput;
    if (args.positional().size() != 1) {
        complain("import: expected one MODEL.onnx (see ckpt --help)");
        return BadInput;
    }
    if (!onnxImportAvailable()) {
        complain("import: this build cannot import ONNX models: libonnx-dev was not installed when it was configured "
                 "(scripts/setup-debian installs it; then configure again)");
        return BadInput;
    }
    const std::string model = args.positional().front();
    OnnxImportOptions options;
    options.strict = args.has("strict");
    options.allow_unsized = args.has("allow-unsized");
    if (args.has("batch")) {
        auto b = wholeNumber(args.value("batch"), std::int64_t(1) << 31);
        if (!b)
            return complain("import: --batch: expected a whole number from 1 to 2^31, got '" + args.value("batch") +
                            "'"),
                   BadInput;
        options.batch = *b;
    }
    for (const auto& in : args.values("input"))
        if (!parseInput(in, options)) return BadInput;
    const std::string dtype = args.value("dtype");
    if (dtype == "fp32")
        options.element_bytes = 4;
    else if (dtype == "fp16" || dtype == "bf16")
        options.element_bytes = 2;
    else if (!dtype.empty())
        return complain("import: --dtype: expected fp32, fp16 or bf16, got '" + dtype + "'"), BadInput;
    auto hw = loadMachine(args.value("hardware"));
    if (!hw) return BadInput;
    options.hardware = *hw;

    auto imported = importOnnxFile(model, options);
    if (!imported) return complain(imported.error()), BadInput;
    for (const auto& w : imported->warnings)
        complain("warning: " + model + ": " + w);
    const Graph& g = imported->graph;
    const bool asChain = args.has("as-chain");
    const std::string out = args.value("out", defaultOut(model, asChain));
    const std::string how =
        "Imported from " + model + " by ckpt import (" +
        (options.batch ? "batch " + std::to_string(options.batch) + ", " : std::string()) +
        (dtype.empty() ? "element sizes as in the file" : dtype) + ", " + machineText(options.hardware) +
        "). Every ONNX operator is a node: output_bytes from the inferred shapes times the element size, forward = "
        "max(FLOPs / compute speed, bytes moved / level 0 bandwidth), backward = 2 x forward, what the backward needs "
        "by operator type (engine/io/onnx_costs.cpp). " +
        std::to_string(imported->folded) + " of " + std::to_string(imported->operators) +
        " operators folded (views, shape computations); weights (" + formatBytes(double(imported->weight_bytes)) +
        ") are not activations.";
    std::int64_t activations = 0;
    for (const GraphNode& n : g.nodes())
        activations += n.output_bytes;
    std::printf("%s: %d nodes, %zu edges (%d operators, %d folded: views and shape computations; %d fused into "
                "kernels)\n",
                model.c_str(), g.size(), g.edges().size(), imported->operators, imported->folded, imported->fused);
    std::printf("  activations %s (every node's output), weights %s (not activations)\n",
                formatBytes(double(activations)).c_str(), formatBytes(double(imported->weight_bytes)).c_str());
    std::printf("  %s per forward pass; forward %s, backward %s (%s)\n", flopsText(imported->totalFlops()).c_str(),
                formatSeconds(g.totalForward()).c_str(), formatSeconds(g.totalBackward()).c_str(),
                machineText(options.hardware).c_str());
    // What papers and profilers call a network's FLOPs: 2 x the multiply-adds of its products (the total above adds
    // the element-wise work: BatchNorm, activations, copies).
    double products = 0;
    for (std::size_t k = 0; k < imported->ops.size(); ++k) {
        const std::string& op = imported->ops[k];
        if (op == "Conv" || op == "ConvTranspose" || op == "Gemm" || op == "MatMul" || op == "Einsum" || op == "LSTM" ||
            op == "GRU" || op == "RNN")
            products += imported->flops[k];
    }
    if (products > 0)
        std::printf("  %s of them in convolutions and matrix products (2 x their multiply-adds, biases included)\n",
                    flopsText(products).c_str());
    for (const auto& note : imported->notes)
        std::printf("  %s\n", note.c_str());
    Result<bool> saved = true;
    if (asChain) {
        auto chain = segmentChain(g);
        if (!chain) return complain("import: --as-chain: " + chain.error()), BadInput;
        nlohmann::json doc = chainToJson(*chain);
        doc["comment"] = how + " The chain's steps are the graph's segments between articulation points.";
        saved = saveJson(out, doc);
        if (saved) std::printf("  a chain of %d segments between articulation points\n", chain->length());
    } else {
        saved = saveJson(out, onnxImportToJson(*imported, how));
    }
    if (!saved) return complain(saved.error()), BadInput;
    std::printf("wrote %s\n", out.c_str());
    return Done;
}

} // namespace ckpt::cli
