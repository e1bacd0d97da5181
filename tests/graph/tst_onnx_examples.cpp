// The shape-only ONNX exports of examples/onnx/ (scripts/gen-onnx-examples) against the shipped graphs that
// scripts/gen-examples.py derives by hand: ResNet-50, ResNet-18 and VGG-16 node for node (output bytes, backward needs,
// forward times, edges), the transformer's products to the FLOP; and the segment chain of the imported ResNet-18
// against the shipped ResNet-18 chain.
#include "io/graph_io.h"
#include "io/json_io.h"
#include "io/onnx_import.h"
#include "model/segment_chain.h"
#include "run/runner.h"
#include "sim/graph_simulator.h"

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

// A node the import adds beside an operator for what autograd keeps that no output shows (MaxPool's indices, Dropout's
// mask): the hand-derived graphs have none. (BatchNorm's statistics are counted with its input: kept_bytes.)
bool kept(const std::string& id) {
    for (const char* suffix : {".statistics", ".indices", ".mask"}) {
        const std::string s = suffix;
        if (id.size() > s.size() && id.compare(id.size() - s.size(), s.size(), s) == 0) return true;
    }
    return false;
}

// Node for node: the same ids, output bytes, backward needs and edges; forward times equal but where `flopsDiffer`
// says the import counts a bias the hand derivation leaves out. Returns how many nodes differ in time. The nodes of
// kept tensors and their edges are left out; a max-pool keeps its indices where the hand derivation has it keep its
// output (both re-derive the argmax; the indices are what PyTorch saves), and a global average pool keeps its input as
// PyTorch's adaptive pooling does (the hand derivation keeps nothing; the input is a ReLU's output, kept anyway).
int compareNodeForNode(const OnnxImport& m, const Graph& ref, const std::function<bool(const std::string&)>& biased) {
    const Graph& g = m.graph;
    int own = 0;
    for (const GraphNode& n : g.nodes())
        own += !kept(n.id);
    if (own != ref.size()) qFatal("node counts differ: %d imported, %d shipped", own, ref.size());
    int differ = 0;
    for (const GraphNode& r : ref.nodes()) {
        const int i = g.indexOf(r.id);
        if (i < 0) qFatal("the import has no node %s", r.id.c_str());
        const GraphNode& n = g.node(i);
        const bool pool = m.ops[std::size_t(i)] == "MaxPool";
        const bool average = m.ops[std::size_t(i)] == "GlobalAveragePool";
        if (n.output_bytes - m.kept_bytes[std::size_t(i)] != r.output_bytes ||
            (n.needs_inputs != r.needs_inputs && !(average && n.needs_inputs)) ||
            (n.needs_output != r.needs_output && !(pool && r.needs_output && g.indexOf(r.id + ".indices") >= 0)) ||
            n.workspace_bytes != r.workspace_bytes || n.in_place != r.in_place)
            qFatal("node %s differs in size, needs or in_place", r.id.c_str());
        const bool same = std::abs(n.forward - r.forward) <= 1e-9 * r.forward;
        if (!same && !biased(r.id))
            qFatal("node %s: forward %g imported, %g shipped", r.id.c_str(), n.forward, r.forward);
        differ += !same;
    }
    auto own_ = edgeSet(g);
    for (auto it = own_.begin(); it != own_.end();)
        it = kept(it->first) || kept(it->second) ? own_.erase(it) : std::next(it);
    if (own_ != edgeSet(ref)) qFatal("the edges differ");
    return differ;
}

// How many nodes of kept tensors of each kind, and their bytes.
std::pair<int, std::int64_t> keptNodes(const Graph& g, const std::string& suffix) {
    std::pair<int, std::int64_t> out{0, 0};
    for (const GraphNode& n : g.nodes())
        if (n.id.size() > suffix.size() && n.id.compare(n.id.size() - suffix.size(), suffix.size(), suffix) == 0)
            ++out.first, out.second += n.output_bytes;
    return out;
}

} // namespace

class TestOnnxExamples : public QObject {
    Q_OBJECT
private slots:
    void resnet50MatchesTheShippedGraph() {
        const OnnxImport m = batch("resnet50.onnx", 32);
        const Graph ref = shipped("resnet50-b32-224.ckpt-graph.json");
        // 175 operators' nodes, plus the int64 indices of the one max-pool (32 x 64 x 56 x 56); the statistics of 53
        // BatchNorms (2 x channels x fp32: 2 x 26,560 x 4 bytes) counted with their inputs.
        QCOMPARE(m.graph.size(), 175 + 1);
        std::int64_t statistics = 0;
        for (std::int64_t b : m.kept_bytes)
            statistics += b;
        QCOMPARE(statistics, std::int64_t(2 * 26560 * 4));
        QCOMPARE(keptNodes(m.graph, ".indices"), std::make_pair(1, std::int64_t(32) * 64 * 56 * 56 * 8));
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
        const OnnxImport r18 = batch("resnet18.onnx", 32);
        const Graph& g = r18.graph;
        auto chain = segmentChain(g);
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
            // Besides what the hand derivation tapes: the statistics of the block's BatchNorms.
            const std::string prefix =
                "layer" + std::to_string(1 + (block - 1) / 2) + "." + std::to_string((block - 1) % 2);
            std::int64_t statistics = 0;
            for (int v = 0; v < g.size(); ++v)
                if (g.node(v).id.rfind(prefix + ".", 0) == 0) statistics += r18.kept_bytes[std::size_t(v)];
            QVERIFY(statistics > 0);
            QCOMPARE(body.tape_bytes + relu.tape_bytes, ref->step(1 + block).tape_bytes + statistics);
        }
        // Rotor plans the chain within half of store-all's peak, as the simulator judges it.
        const Problem problem(*chain);
        SolveRequest req;
        req.budget_bytes = storeAllPeak(problem, Hardware::unbounded()) / 2;
        Run run = runScheduler("rotor", problem, Hardware::unbounded(), req);
        QVERIFY2(run.feasible, run.message.c_str());
        QVERIFY(run.timeline->totals.peak_bytes[0] <= req.budget_bytes);
    }

    // The PyTorch exports of examples/onnx/ (scripts/gen-onnx-examples: training mode, dynamic batch) at batch 8:
    // every node sized, and what the store-all plan holds when its forward ends equal to what PyTorch 1.13's autograd
    // saved in one training step (scripts/check-against-pytorch: saved_tensors_hooks, de-duplicated by storage,
    // parameters and buffers left out, each dropout's noise counted as CUDA's one-byte mask), less the differences
    // docs/onnx.md explains, each to the byte.
    void pytorchExportsHoldWhatAutogradSaves_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("pytorch");
        QTest::addColumn<qint64>("explained");
        // ResNets and DenseNet: exactly. MobileNetV2: its classifier's dropout, float noise on the CPU (40960 bytes)
        // where the import counts a byte mask (10240) — included in `pytorch` as the byte mask, so 0 left.
        QTest::newRow("resnet18") << "resnet18.onnx" << qint64(177477120) << qint64(0);
        QTest::newRow("resnet50") << "resnet50.onnx" << qint64(687488512) << qint64(0);
        QTest::newRow("densenet121") << "densenet121.onnx" << qint64(1043225344) << qint64(0);
        QTest::newRow("mobilenet-v2") << "mobilenet-v2.onnx" << qint64(627819776 - 40960 + 10240) << qint64(0);
        // EfficientNet-B0: stochastic depth's noise (9 x [8,1,1,1] fp32), computed from random numbers the import
        // treats as constants.
        QTest::newRow("efficientnet-b0") << "efficientnet-b0.onnx" << qint64(707727520 - 40960 + 10240) << qint64(288);
        // ViT-B/16: the head reads the class token as x[:, 0], a view that keeps the whole final LayerNorm output
        // (8 x 197 x 768 fp32, less the 8 x 768 the import counts), and twelve float64 scalars (1/sqrt(64)).
        QTest::newRow("vit-b16") << "vit-b16.onnx" << qint64(1123209632) << qint64(4841472 - 24576 + 96);
        // The LSTM (two layers joined per time step, then a head on the last hidden state): the head reads h_n[-1], a
        // view that keeps h_n of both layers (2 x 8 x 512 fp32) where the import's Gather counts one layer's.
        QTest::newRow("lstm2") << "lstm2.onnx" << qint64(12730368) << qint64(16384);
    }
    void pytorchExportsHoldWhatAutogradSaves() {
        QFETCH(QString, file);
        QFETCH(qint64, pytorch);
        QFETCH(qint64, explained);
        const OnnxImport m = batch(file.toStdString(), 8);
        QVERIFY2(m.warnings.empty(), m.warnings.empty() ? "" : m.warnings.front().c_str());
        for (const GraphNode& n : m.graph.nodes())
            QVERIFY2(n.output_bytes > 0 || m.ops[std::size_t(m.graph.indexOf(n.id))] == "input", n.id.c_str());
        auto t = simulateGraph(m.graph, graphStoreAll(m.graph));
        QVERIFY2(t.ok(), t ? "" : t.error().c_str());
        QCOMPARE(qint64(t->totals.held_after_forward_bytes), pytorch - explained);
    }

    // The 2-layer LSTM is a chain of its 50 time steps (each holding both layers' cells), which rotor plans.
    void lstmIsAChainOfTimeSteps() {
        const OnnxImport m = batch("lstm2.onnx", 8);
        int cells = 0;
        for (const std::string& op : m.ops)
            cells += op == "LSTM";
        QCOMPARE(cells, 50);
        auto chain = segmentChain(m.graph);
        QVERIFY2(chain.ok(), chain ? "" : chain.error().c_str());
        // The input with the first step's gates, the first cell, each later step (gates and cell), the concat of the
        // last states, the last state's gather and the head.
        QCOMPARE(chain->length(), 1 + 1 + 49 + 3);
        const Problem problem(*chain);
        SolveRequest req;
        req.budget_bytes = storeAllPeak(problem, Hardware::unbounded()) / 4;
        for (const char* s : {"rotor", "revolve", "bptt-dp"}) {
            Run run = runScheduler(s, problem, Hardware::unbounded(), req);
            QVERIFY2(run.feasible, (std::string(s) + ": " + run.message).c_str());
            QVERIFY(run.timeline->totals.peak_bytes[0] <= req.budget_bytes);
        }
    }

    // GPT-2 small (12 layers, d 768, 12 heads, vocabulary 50257, a tied head) at batch 8 x 256 tokens: its shapes
    // computed from Shape(ids) (the causal mask sliced to the sequence, the head split) all fold; its products equal
    // the closed form; it holds what autograd saves but the twelve masked_fill masks ([1,1,256,256] bool, made from
    // the constant causal buffer) and twelve float64 scalars.
    void gpt2FoldsItsShapesAndMatchesTheClosedForm() {
        OnnxImportOptions o;
        o.batch = 8;
        o.inputs = {{"ids", {8, 256}}};
        const OnnxImport m = imported("gpt2-small.onnx", o);
        QVERIFY(m.warnings.empty());
        double products = 0;
        for (std::size_t k = 0; k < m.ops.size(); ++k)
            if (m.ops[k] == "MatMul" || m.ops[k] == "Gemm") products += m.flops[k];
        // Per layer 24*B*S*d^2 + 4*B*S^2*d, and the head 2*B*S*d*V.
        const double B = 8, S = 256, d = 768, V = 50257;
        QCOMPARE(products, 12 * (24 * B * S * d * d + 4 * B * S * S * d) + 2 * B * S * d * V);
        QVERIFY(m.totalFlops() <= 1.02 * products);
        auto t = simulateGraph(m.graph, graphStoreAll(m.graph));
        QVERIFY(t.ok());
        const std::int64_t dropoutNoise = 459276288; // 37 dropouts' float noise on the CPU; a byte mask on CUDA
        QCOMPARE(qint64(t->totals.held_after_forward_bytes),
                 qint64(2285011040 - dropoutNoise + dropoutNoise / 4 - 12 * 256 * 256 - 96));
    }

    // ViT-B/16 at batch 32: 17.56 GMACs per image (the closed form of its patch embedding, 12 layers and head).
    void vitMatchesTheClosedForm() {
        const OnnxImport m = batch("vit-b16.onnx", 32);
        double products = 0;
        for (std::size_t k = 0; k < m.ops.size(); ++k)
            if (m.ops[k] == "MatMul" || m.ops[k] == "Gemm" || m.ops[k] == "Conv") products += m.flops[k];
        const double n = 197, d = 768, h = 12, dh = 64, mlp = 3072;
        const double macs = 768.0 * 3 * 16 * 16 * 196 +
                            12 * (n * d * 3 * d + 2 * h * n * n * dh + n * d * d + 2 * n * d * mlp) + d * 1000;
        QVERIFY2(std::abs(products - 2 * 32 * macs) <= 0.002 * 2 * 32 * macs,
                 qPrintable(QString::number(products / (2 * 32 * macs))));
        QVERIFY(m.totalFlops() <= 1.02 * 2 * 32 * macs);
    }
};

QTEST_GUILESS_MAIN(TestOnnxExamples)
#include "tst_onnx_examples.moc"
