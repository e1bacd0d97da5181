// The shape-only ONNX exports of examples/onnx/ (scripts/gen-onnx-examples) against the shipped graphs that
// scripts/gen-examples.py derives by hand: ResNet-50, ResNet-18 and VGG-16 node for node (output bytes, backward needs,
// forward times, edges), the transformer's products to the FLOP; and the segment chain of the imported ResNet-18
// against the shipped ResNet-18 chain.
#include "io/graph_io.h"
#include "io/json_io.h"
#include "io/onnx_import.h"
#include "io/segment_chain.h"
#include "run/runner.h"

#include <QtTest>
#include <cmath>
#include <functional>
#include <set>

using namespace ckpt;

namespace {

const std::string kExamples = CKPT_SOURCE_DIR "/examples/";

OnnxImport imported(const std::string& file, OnnxImportOptions o) {
    auto m = importOnnxFile(kExamples + "onnx/" + file, o);
    if (!m) qFatal("%s", m.error().c_str());
    return std::move(*m);
}

OnnxImport batch(const std::string& file, std::int64_t b) {
    OnnxImportOptions o;
    o.batch = b;
    return imported(file, o);
}

Graph shipped(const std::string& file) {
    auto g = loadGraph(kExamples + file);
    if (!g) qFatal("%s", g.error().c_str());
    return std::move(*g);
}

std::set<std::pair<std::string, std::string>> edgeSet(const Graph& g) {
    std::set<std::pair<std::string, std::string>> s;
    for (const GraphEdge& e : g.edges())
        s.insert({e.from, e.to});
    return s;
}

// The shipped graph's FLOPs: its forward times at the rate they were computed with (V100 fp32, 15.7e12).
double shippedFlops(const Graph& g) {
    return g.totalForward() * 15.7e12;
}

// Node for node: the same ids, output bytes, backward needs and edges; forward times equal but where `flopsDiffer`
// says the import counts a bias the hand derivation leaves out. Returns how many nodes differ in time.
int compareNodeForNode(const OnnxImport& m, const Graph& ref, const std::function<bool(const std::string&)>& biased) {
    const Graph& g = m.graph;
    if (g.size() != ref.size()) qFatal("node counts differ: %d imported, %d shipped", g.size(), ref.size());
    int differ = 0;
    for (const GraphNode& r : ref.nodes()) {
        const int i = g.indexOf(r.id);
        if (i < 0) qFatal("the import has no node %s", r.id.c_str());
        const GraphNode& n = g.node(i);
        if (n.output_bytes != r.output_bytes || n.needs_inputs != r.needs_inputs || n.needs_output != r.needs_output ||
            n.workspace_bytes != r.workspace_bytes || n.in_place != r.in_place)
            qFatal("node %s differs in size, needs or in_place", r.id.c_str());
        const bool same = std::abs(n.forward - r.forward) <= 1e-9 * r.forward;
        if (!same && !biased(r.id))
            qFatal("node %s: forward %g imported, %g shipped", r.id.c_str(), n.forward, r.forward);
        differ += !same;
    }
    if (edgeSet(g) != edgeSet(ref)) qFatal("the edges differ");
    return differ;
}

} // namespace

class TestOnnxExamples : public QObject {
    Q_OBJECT
private slots:
    void resnet50MatchesTheShippedGraph() {
        const OnnxImport m = batch("resnet50.onnx", 32);
        const Graph ref = shipped("resnet50-b32-224.ckpt-graph.json");
        QCOMPARE(m.graph.size(), 175);
        QVERIFY(m.warnings.empty());
        // Only the fc differs in time: the import counts its bias add (B*1000 FLOPs); the convs have no bias.
        QCOMPARE(compareNodeForNode(m, ref, [](const std::string& id) { return id == "fc"; }), 1);
        QVERIFY(std::abs(m.totalFlops() - shippedFlops(ref)) <= 0.05 * shippedFlops(ref));
        QVERIFY(std::abs(m.totalFlops() - 32.0 * 1000 - shippedFlops(ref)) <= 1e-9 * shippedFlops(ref));
        // ResNet-50's 25,557,032 parameters (torchvision's count) and BN's running means and variances (2 x 26,560
        // channels), fp32.
        QCOMPARE(m.weight_bytes, std::int64_t(25557032 + 53120) * 4);
    }

    void resnet18AndVgg16MatchTheirShippedGraphs() {
        const OnnxImport r18 = batch("resnet18.onnx", 32);
        QCOMPARE(compareNodeForNode(r18, shipped("resnet18-b32-224.ckpt-graph.json"),
                                    [](const std::string& id) { return id == "fc"; }),
                 1);
        // VGG-16's convs have biases (1 FLOP per output element), as do its fcs; flatten and the dropouts fold.
        const OnnxImport vgg = batch("vgg16.onnx", 32);
        const Graph ref = shipped("vgg16-b32-224.ckpt-graph.json");
        QCOMPARE(vgg.folded, 3);
        const int biased = compareNodeForNode(
            vgg, ref, [](const std::string& id) { return id.rfind("conv", 0) == 0 || id.rfind("fc", 0) == 0; });
        QCOMPARE(biased, 13 + 3);
        double biasFlops = 0;
        for (const GraphNode& n : ref.nodes())
            if (n.id.rfind("conv", 0) == 0 || n.id.rfind("fc", 0) == 0) biasFlops += double(n.output_bytes) / 4;
        QVERIFY(std::abs(vgg.totalFlops() - biasFlops - shippedFlops(ref)) <= 1e-9 * shippedFlops(ref));
        QVERIFY(std::abs(vgg.totalFlops() - shippedFlops(ref)) <= 0.05 * shippedFlops(ref));
    }

    void transformerProductsMatchTheClosedForm() {
        OnnxImportOptions o;
        o.inputs = {{"input", {8, 512, 512}}};
        const OnnxImport m = imported("transformer-encoder.onnx", o);
        QVERIFY(m.warnings.empty());
        double matmul = 0;
        for (std::size_t k = 0; k < m.ops.size(); ++k)
            if (m.ops[k] == "MatMul") matmul += m.flops[k];
        // 24*B*S*d^2 + 4*B*S^2*d per block (Narayanan et al. 2021), 4 blocks: the shipped example's 120.26 GFLOP.
        const double B = 8, S = 512, d = 512;
        QCOMPARE(matmul, 4 * (24 * B * S * d * d + 4 * B * S * S * d));
        const Graph ref = shipped("transformer-4x-b8-s512.ckpt-graph.json");
        QVERIFY(std::abs(m.totalFlops() - shippedFlops(ref)) <= 0.05 * shippedFlops(ref));
        // The scores of a block: B*heads*S*S fp32, as in the shipped graph.
        QCOMPARE(m.graph.node(m.graph.indexOf("block0.scores")).output_bytes,
                 ref.node(ref.indexOf("block0.scores")).output_bytes);
        QCOMPARE(m.graph.node(m.graph.indexOf("block0.softmax")).output_bytes,
                 ref.node(ref.indexOf("block0.softmax")).output_bytes);
    }

    void resnet18SegmentsMatchTheShippedChain() {
        auto chain = segmentChain(batch("resnet18.onnx", 32).graph);
        QVERIFY(chain.ok());
        // Every articulation point cuts: conv1 (with the input), bn1, relu and maxpool alone; each block as its
        // convolutions up to the add, then its last relu; avgpool; fc. The shipped chain folds the stem, each block
        // and the head into one step each.
        QCOMPARE(chain->length(), 4 + 8 * 2 + 2);
        auto ref = loadChain(kExamples + "resnet18-b32-224.ckpt-chain.json");
        QVERIFY(ref.ok());
        for (int block = 1; block <= 8; ++block) {
            const Step& body = chain->step(3 + 2 * block);
            const Step& relu = chain->step(4 + 2 * block);
            QCOMPARE(body.state_bytes, ref->step(1 + block).state_bytes);
            QCOMPARE(body.tape_bytes + relu.tape_bytes, ref->step(1 + block).tape_bytes);
        }
        // Rotor plans the chain within half of store-all's peak, as the simulator judges it.
        const Problem problem(*chain);
        SolveRequest req;
        req.budget_bytes = storeAllPeak(problem, Hardware::unbounded()) / 2;
        Run run = runScheduler("rotor", problem, Hardware::unbounded(), req);
        QVERIFY2(run.feasible, run.message.c_str());
        QVERIFY(run.timeline->totals.peak_bytes[0] <= req.budget_bytes);
    }
};

QTEST_GUILESS_MAIN(TestOnnxExamples)
#include "tst_onnx_examples.moc"
