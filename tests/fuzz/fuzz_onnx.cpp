// ONNX models (importOnnxBytes). Any bytes must import or be refused with a message naming the input; libonnx's
// parser and shape inference run on them. An imported graph must be valid, its costs finite and >= 0, save and read
// back equal, and, when small, go through graph store-all and the simulator; its segment chain, when it has one, must
// add up to the graph's times.
#include "fuzz_target.h"
#include "io/graph_io.h"
#include "io/onnx_import.h"
#include "model/segment_chain.h"
#include "schedulers/store_all.h"
#include "sim/graph_simulator.h"

#include <cmath>

using namespace ckpt;
using namespace ckpt::fuzz;

namespace {

void checkImport(const OnnxImport& m) {
    const Graph& g = m.graph;
    check(m.ops.size() == std::size_t(g.size()) && m.flops.size() == std::size_t(g.size()),
          "an import's per-node lists do not match its graph");
    for (int v = 0; v < g.size(); ++v)
        check(std::isfinite(m.flops[std::size_t(v)]) && m.flops[std::size_t(v)] >= 0 &&
                  std::isfinite(m.bytes_moved[std::size_t(v)]) && m.bytes_moved[std::size_t(v)] >= 0,
              "node '" + g.node(v).id + "' has FLOPs or bytes moved that are not finite numbers >= 0");
    const auto again = readBack(graphToJson(g), "graph", [](const auto& j) { return graphFromJson(j, "saved"); });
    check(again.nodes() == g.nodes() && again.edges() == g.edges(), "an imported graph does not read back equal");
    if (g.size() > 256) return;
    auto tl = simulateGraph(g, graphStoreAll(g));
    if (tl) checkTimeline(*tl, g.totalForward() + g.totalBackward(), "graph store-all of an import");
    if (auto chain = segmentChain(g)) {
        check(std::abs(chain->totalForward() - g.totalForward()) <= 1e-9 * g.totalForward(),
              "the segment chain's forward time is not the graph's");
        check(chain->step(1).state_bytes >= 0, "a segment chain with a negative state");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes = text(data, size);
    // As the file declares its inputs, then with the batch fixed (most real models leave it symbolic).
    for (std::int64_t batch : {0, 2}) {
        OnnxImportOptions options;
        options.batch = batch;
        auto m = importOnnxBytes(bytes, kSource, options);
        if (!m) {
            checkError(m.error());
            continue;
        }
        checkImport(*m);
    }
    return 0;
}
