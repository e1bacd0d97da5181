// ckpt generate: graphs made in code (a seeded random layered DAG, a seeded random join, the linear graph, a
// transformer at Korthikanti et al.'s operator level), written as ckpt-graph files.
#include "commands.h"
#include "common.h"
#include "io/graph_io.h"
#include "model/transformer.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

namespace ckpt::cli {

namespace {

// ckpt generate --kind transformer: the shape from its options, the times from --hardware.
int generateTransformer(const Args& args) {
    TransformerShape m;
    int hidden = int(m.hidden), heads = int(m.heads), seq = int(m.seq), batch = int(m.batch);
    if (!wholeNumber(args, "layers", 1, m.layers, 10'000) || !wholeNumber(args, "hidden", 1, hidden, 1'000'000) ||
        !wholeNumber(args, "heads", 1, heads, 100'000) || !wholeNumber(args, "seq", 1, seq, 10'000'000) ||
        !wholeNumber(args, "batch", 1, batch, 1'000'000) ||
        !wholeNumber(args, "tensor-parallel", 1, m.tensor_parallel, 100'000))
        return BadInput;
    int vocab = 0;
    if (args.has("vocab") && !wholeNumber(args, "vocab", 1, vocab, 100'000'000)) return BadInput;
    m.hidden = hidden, m.heads = heads, m.seq = seq, m.batch = batch, m.vocab = vocab;
    m.sequence_parallel = args.has("sequence-parallel");
    m.flash_attention = args.has("flash-attention");
    const std::string dtype = args.value("dtype", "bf16");
    if (dtype != "bf16" && dtype != "fp16" && dtype != "fp32") {
        complain("generate: --dtype: expected bf16, fp16 or fp32, got '" + dtype + "'");
        return BadInput;
    }
    m.bytes_per_value = dtype == "fp32" ? 4 : 2;
    auto hw = loadMachine(args.value("hardware"), "generate: --hardware");
    if (!hw) return BadInput;
    auto g = transformerGraph(m, *hw);
    if (!g) {
        complain("generate: " + g.error());
        return BadInput;
    }
    auto ok = saveGraph(args.value("out"), *g);
    if (!ok) {
        complain(ok.error());
        return BadInput;
    }
    std::printf("%s: %s, %d nodes, %zu edges\n", args.value("out").c_str(), g->name().c_str(), g->size(),
                g->edges().size());
    return Done;
}

} // namespace

int cmdGenerate(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "generate")) return BadInput;
    const std::string kind = args.value("kind", "random-dag");
    if (kind == "transformer") {
        if (!args.has("out")) {
            complain("generate: --out FILE is required");
            return BadInput;
        }
        return generateTransformer(args);
    }
    char* end = nullptr;
    const std::string nodesText = args.value("nodes", "50");
    long nodes = std::strtol(nodesText.c_str(), &end, 10);
    if (*end || nodes < 1 || nodes > 1'000'000) {
        complain("generate: --nodes: expected a whole number from 1 to 1000000, got '" + nodesText + "'");
        return BadInput;
    }
    const std::string seedText = args.value("seed", "1");
    errno = 0;
    const unsigned long long seed = std::strtoull(seedText.c_str(), &end, 10);
    if (seedText.empty() || *end || seedText.find_first_not_of("0123456789") != std::string::npos || errno == ERANGE) {
        complain("generate: --seed: expected a whole number from 0 to " +
                 std::to_string(std::numeric_limits<unsigned long long>::max()) + ", got '" + seedText + "'");
        return BadInput;
    }
    int width = 4;
    if (!wholeNumber(args, "width", 1, width, 1'000'000)) return BadInput;
    if (!args.has("out")) {
        complain("generate: --out FILE is required");
        return BadInput;
    }
    if (kind != "linear" && kind != "random-dag" && kind != "join") {
        complain("generate: --kind: expected random-dag, join, linear or transformer, got '" + kind + "'");
        return BadInput;
    }
    if (kind == "join" && nodes < width + 1) {
        complain("generate: --nodes: a join of " + std::to_string(width) + " branches needs at least " +
                 std::to_string(width + 1) + " nodes");
        return BadInput;
    }
    Graph g = kind == "linear" ? linearGraph(int(nodes))
              : kind == "join" ? randomJoinGraph(int(nodes), seed, width)
                               : randomLayeredGraph(int(nodes), seed, width);
    auto ok = saveGraph(args.value("out"), g);
    if (!ok) {
        complain(ok.error());
        return BadInput;
    }
    std::printf("%s: %d nodes, %zu edges\n", args.value("out").c_str(), g.size(), g.edges().size());
    return Done;
}

} // namespace ckpt::cli
