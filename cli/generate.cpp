// ckpt generate: graphs made in code (a seeded random layered DAG, a seeded random join, the linear graph), written as
// ckpt-graph files.
#include "commands.h"
#include "common.h"
#include "io/graph_io.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

namespace ckpt::cli {

int cmdGenerate(int argc, char** argv) {
    Args args;
    if (!args.parse(argc, argv, 2, {}, {"kind", "nodes", "seed", "width", "out"})) {
        complain("generate: " + args.error() + " (see ckpt --help)");
        return BadInput;
    }
    const std::string kind = args.value("kind", "random-dag");
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
        complain("generate: --kind: expected random-dag, join or linear, got '" + kind + "'");
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
