// The example graphs (examples/*.ckpt-graph.json, written by scripts/gen-examples.py): every file loads and runs
// store-all in the simulator; per network, the counts, convolution FLOPs and what each node's backward needs are
// derived here again from the architecture's definition (closed forms, published FLOP counts), not from the files.
#include "io/graph_io.h"
#include "sim/graph_simulator.h"

#include <QtTest>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

using namespace ckpt;

namespace {

constexpr double kV100Fp32 = 15.7e12; // FLOP/s, the rate every example uses

std::string examplesDir() {
    return std::string(CKPT_SOURCE_DIR) + "/examples/";
}

// The op type from a node id: the last dotted part without trailing digits and '_' ("layer1.0.conv2" -> "conv").
std::string kindOf(const std::string& id) {
    std::string k = id.substr(id.rfind('.') == std::string::npos ? 0 : id.rfind('.') + 1);
    while (!k.empty() && (std::isdigit(static_cast<unsigned char>(k.back())) || k.back() == '_'))
        k.pop_back();
    return k;
}

// What each op's backward needs: {needs_inputs, needs_output}.
std::pair<bool, bool> needsOf(const std::string& kind) {
    static const std::set<std::string> weighted = {"conv", "up", "fc", "qkv", "scores", "context", "proj", "ffn"};
    static const std::set<std::string> inputOnly = {"bn", "ln", "ln_f", "gelu"};
    static const std::set<std::string> outputOnly = {"relu", "softmax"};
    static const std::set<std::string> both = {"pool", "maxpool"};
    if (weighted.count(kind) || inputOnly.count(kind)) return {true, false};
    if (outputOnly.count(kind)) return {false, true};
    if (both.count(kind)) return {true, true};
    return {false, false}; // input, add, concat, avgpool
}

// Multiply-adds per image of VGG-16's convolutions (configuration D, 224x224x3, pad 1) and of its three fcs.
double vggConvMacs() {
    const int cfg[] = {64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0}; // 0: pool
    double macs = 0, h = 224, cin = 3;
    for (int c : cfg) {
        if (c == 0) {
            h /= 2;
            continue;
        }
        macs += h * h * c * cin * 9, cin = c;
    }
    return macs;
}
constexpr double kVggFcMacs = 512.0 * 7 * 7 * 4096 + 4096.0 * 4096 + 4096.0 * 1000;

// Multiply-adds per image of a ResNet's convolutions (torchvision: stride on the 3x3 of a bottleneck).
double resnetConvMacs(bool bottleneck, const std::vector<int>& blocks) {
    double macs = 112.0 * 112 * 64 * 3 * 49, h = 56, cin = 64;
    for (int s = 0; s < 4; ++s)
        for (int b = 0; b < blocks[std::size_t(s)]; ++b) {
            const double w = 64 << s, stride = s > 0 && b == 0 ? 2 : 1, ho = h / stride;
            const double cout = bottleneck ? 4 * w : w;
            if (bottleneck)
                macs += h * h * w * cin + ho * ho * w * w * 9 + ho * ho * cout * w;
            else
                macs += ho * ho * w * cin * 9 + ho * ho * w * w * 9;
            if (stride != 1 || cin != cout) macs += ho * ho * cout * cin; // the 1x1 downsample
            cin = cout, h = ho;
        }
    return macs;
}

// Multiply-adds per image of the small U-Net (depth 3, 32 base channels, 128x128x3, 2 classes).
double unetConvMacs() {
    double macs = 0, h = 128, cin = 3;
    auto doubleConv = [&](double c) { macs += h * h * c * cin * 9 + h * h * c * c * 9, cin = c; };
    for (int i = 0; i < 3; ++i)
        doubleConv(32 << i), h /= 2;
    doubleConv(256);
    for (int i = 2; i >= 0; --i) {
        const double c = 32 << i;
        h *= 2;
        macs += h * h * c * cin; // transposed conv 2x2/2: each output pixel gets cin multiply-adds per channel
        cin = 2 * c;             // concat with the encoder stage
        doubleConv(c);
    }
    return macs + h * h * 2 * cin; // the 1x1 head
}

struct Expectation {
    std::string file;
    int nodes = 0, edges = 0;
    std::map<std::string, int> kinds;
    std::set<std::string> flopKinds; // the nodes whose forward times are summed
    double flops = 0;                // their FLOPs for the whole batch, from the closed form
    double published = 0;            // a published FLOP count for the batch (0: none), checked within 5%
    std::string spotId;              // one node whose output size is checked
    std::int64_t spotBytes = 0;
};

std::vector<Expectation> expectations() {
    std::vector<Expectation> e;
    // VGG-16: input, 13 conv + relu, 5 pools, fc6 relu6 fc7 relu7 fc8; a linear graph.
    e.push_back({"vgg16-b32-224.ckpt-graph.json",
                 1 + 13 * 2 + 5 + 5,
                 1 + 13 * 2 + 5 + 5 - 1,
                 {{"conv", 13}, {"relu", 15}, {"pool", 5}, {"fc", 3}, {"input", 1}},
                 {"conv", "fc"},
                 2 * 32 * (vggConvMacs() + kVggFcMacs),
                 2 * 32 * 15.47e9, // torchvision's VGG16 weights: 15.47 GFLOPS (multiply-adds) per image
                 "relu1_1",
                 32LL * 64 * 224 * 224 * 4});
    // ResNet-18: stem 5 (input, conv, bn, relu, maxpool), 8 basic blocks of 7, 3 downsamples of 2, avgpool, fc.
    // Every node but the input has one input, an add two.
    const int r18 = 5 + 8 * 7 + 3 * 2 + 2, r50 = 5 + 16 * 10 + 4 * 2 + 2;
    e.push_back({"resnet18-b32-224.ckpt-graph.json",
                 r18,
                 r18 - 1 + 8,
                 {{"conv", 1 + 16 + 3},
                  {"bn", 20},
                  {"relu", 17},
                  {"add", 8},
                  {"maxpool", 1},
                  {"avgpool", 1},
                  {"fc", 1},
                  {"input", 1}},
                 {"conv"},
                 2 * 32 * resnetConvMacs(false, {2, 2, 2, 2}),
                 2 * 32 * 1.81e9, // torchvision: 1.81 GFLOPS; He et al. 2016: 1.8e9
                 "layer2.0.downsample.conv",
                 32LL * 128 * 28 * 28 * 4});
    // ResNet-50: 16 bottlenecks of 10, a downsample on the first block of each of the 4 stages.
    e.push_back({"resnet50-b32-224.ckpt-graph.json",
                 r50,
                 r50 - 1 + 16,
                 {{"conv", 1 + 48 + 4},
                  {"bn", 53},
                  {"relu", 49},
                  {"add", 16},
                  {"maxpool", 1},
                  {"avgpool", 1},
                  {"fc", 1},
                  {"input", 1}},
                 {"conv"},
                 2 * 32 * resnetConvMacs(true, {3, 4, 6, 3}),
                 2 * 32 * 4.1e9, // torchvision's ResNet-50 (v1.5): 4.09 GFLOPS
                 "layer1.0.conv3",
                 32LL * 256 * 56 * 56 * 4});
    // U-Net: input, 3 encoder double convs of 6 + pool, bottleneck 6, 3 decoder stages of up + concat + 6, head.
    const int unet = 1 + 3 * 6 + 3 + 6 + 3 * 8 + 1;
    e.push_back({"unet-small-b8-128.ckpt-graph.json",
                 unet,
                 unet - 1 + 3,
                 {{"conv", 14 + 1}, {"up", 3}, {"bn", 14}, {"relu", 14}, {"pool", 3}, {"concat", 3}, {"input", 1}},
                 {"conv", "up"},
                 2 * 8 * unetConvMacs(),
                 0,
                 "dec1.concat",
                 8LL * 64 * 128 * 128 * 4});
    // Transformer: input, 4 blocks of 12, ln_f; context, add1, add2 have two inputs. Matmul FLOPs per block:
    // 24*B*S*d^2 + 4*B*S^2*d (Narayanan et al. 2021).
    const double B = 8, S = 512, d = 512;
    e.push_back({"transformer-4x-b8-s512.ckpt-graph.json",
                 1 + 4 * 12 + 1,
                 4 * 12 + 1 + 4 * 3,
                 {{"ln", 8},
                  {"qkv", 4},
                  {"scores", 4},
                  {"softmax", 4},
                  {"context", 4},
                  {"proj", 4},
                  {"add", 8},
                  {"ffn", 8},
                  {"gelu", 4},
                  {"ln_f", 1},
                  {"input", 1}},
                 {"qkv", "scores", "context", "proj", "ffn"},
                 4 * (24 * B * S * d * d + 4 * B * S * S * d),
                 0,
                 "block3.scores",
                 8LL * 8 * 512 * 512 * 4});
    return e;
}

// Whether some backward needs v's output: its own, or a consumer's that needs its inputs.
bool needed(const Graph& g, int v) {
    bool byConsumer = false;
    for (int c : g.consumers(v))
        byConsumer = byConsumer || g.node(c).needs_inputs;
    return byConsumer || g.node(v).needs_output;
}

// Store-all's peak by hand, from the memory model (graph_action.h, graph_simulator.h) and autograd's rule: an output
// no backward needs goes once all its consumers have run, the rest stays until its last backward use. Forward phase:
// what is live + v's output + v's workspace while v runs. Backward phase, in reverse topological order: the needed
// outputs still held + the gradients alive (u's from the first consumer's backward to the end of u's own; the sink's
// during its backward) + v's workspace. The peak is not always at the first backward: a pool's backward creates a
// gradient 4x its output's size, after the small outputs of the layers behind it have gone.
std::int64_t storeAllPeakByHand(const Graph& g) {
    const std::size_t n = std::size_t(g.size());
    std::vector<char> computed(n, 0), reversed(n, 0), held(n, 0), grad(n, 0);
    std::int64_t live = 0, peak = 0;
    auto out = [&](int v) { return g.node(v).output_bytes; };
    for (int v : g.topologicalOrder()) {
        live += out(v), held[std::size_t(v)] = 1;
        peak = std::max(peak, live + g.node(v).workspace_bytes);
        computed[std::size_t(v)] = 1;
        std::vector<int> maybeDone = g.inputs(v);
        maybeDone.push_back(v);
        for (int u : maybeDone) {
            bool allRan = true;
            for (int c : g.consumers(u))
                allRan = allRan && computed[std::size_t(c)];
            if (allRan && !needed(g, u) && held[std::size_t(u)]) live -= out(u), held[std::size_t(u)] = 0;
        }
    }
    const auto& order = g.topologicalOrder();
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const int v = *it;
        if (g.consumers(v).empty()) live += out(v), grad[std::size_t(v)] = 1; // the loss gradient
        for (int u : g.inputs(v))
            if (!grad[std::size_t(u)]) live += out(u), grad[std::size_t(u)] = 1;
        peak = std::max(peak, live + g.node(v).workspace_bytes);
        live -= out(v), grad[std::size_t(v)] = 0, reversed[std::size_t(v)] = 1;
        // An output is dead once all its consumers are reversed and its own backward is done or does not need it.
        std::vector<int> maybeDead = g.inputs(v);
        maybeDead.push_back(v);
        for (int u : maybeDead) {
            bool consumersDone = true;
            for (int c : g.consumers(u))
                consumersDone = consumersDone && reversed[std::size_t(c)];
            if (held[std::size_t(u)] && consumersDone && (reversed[std::size_t(u)] || !g.node(u).needs_output))
                live -= out(u), held[std::size_t(u)] = 0;
        }
    }
    return peak;
}

} // namespace

class TestGraphExamples : public QObject {
    Q_OBJECT
private slots:
    void everyExampleLoadsAndRunsStoreAll() {
        int files = 0;
        for (const auto& entry : std::filesystem::directory_iterator(examplesDir())) {
            const std::string path = entry.path().string();
            if (path.size() < 16 || path.substr(path.size() - 16) != ".ckpt-graph.json") continue;
            ++files;
            auto g = loadGraph(path);
            QVERIFY2(g.ok(), g.ok() ? "" : g.error().c_str());
            std::vector<int> sinks;
            std::int64_t neededBytes = 0;
            for (int v = 0; v < g->size(); ++v) {
                if (g->consumers(v).empty()) sinks.push_back(v);
                if (needed(*g, v)) neededBytes += g->node(v).output_bytes;
            }
            QCOMPARE(sinks.size(), std::size_t(1)); // the logits: the loss gradient seeds one backward
            auto tl = simulateGraph(*g, graphStoreAll(*g));
            QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
            const double work = g->totalForward() + g->totalBackward();
            QVERIFY(std::abs(tl->totals.makespan_s - work) <= 1e-12 * work); // nothing is recomputed
            const std::int64_t peak = tl->totals.peak_bytes[0], byHand = storeAllPeakByHand(*g);
            QCOMPARE(peak, byHand);
            QVERIFY(peak >= neededBytes);
            qInfo("%s: %d nodes, %zu edges, forward %.6f s, store-all peak %lld bytes (%.1f MiB; outputs the "
                  "backward needs %.1f MiB)",
                  entry.path().filename().string().c_str(), g->size(), g->edges().size(), g->totalForward(),
                  (long long)peak, double(peak) / (1 << 20), double(neededBytes) / (1 << 20));
        }
        QVERIFY(files >= 6);
    }

    void networksMatchTheirArchitecture() {
        for (const Expectation& e : expectations()) {
            auto g = loadGraph(examplesDir() + e.file);
            QVERIFY2(g.ok(), g.ok() ? "" : g.error().c_str());
            const QByteArray name = QByteArray::fromStdString(e.file);
            QVERIFY2(g->size() == e.nodes, name);
            QVERIFY2(int(g->edges().size()) == e.edges, name);
            std::map<std::string, int> kinds;
            double flops = 0;
            std::int64_t spot = -1;
            for (const GraphNode& n : g->nodes()) {
                const std::string kind = kindOf(n.id);
                ++kinds[kind];
                if (e.flopKinds.count(kind)) flops += n.forward * kV100Fp32;
                if (n.id == e.spotId) spot = n.output_bytes;
                const auto [in, out] = needsOf(kind);
                QVERIFY2(n.needs_inputs == in && n.needs_output == out, (e.file + ": " + n.id).c_str());
                QVERIFY2(n.backward == 2 * n.forward && n.workspace_bytes == 0 && !n.reversible,
                         (e.file + ": " + n.id).c_str());
                QVERIFY2((n.forward == 0) == (kind == "input"), (e.file + ": " + n.id).c_str());
            }
            QVERIFY2(kinds == e.kinds, name);
            QVERIFY2(std::abs(flops - e.flops) <= 1e-9 * e.flops,
                     (e.file + ": " + std::to_string(flops) + " vs " + std::to_string(e.flops)).c_str());
            if (e.published > 0)
                QVERIFY2(
                    std::abs(flops - e.published) <= 0.05 * e.published,
                    (e.file + ": " + std::to_string(flops) + " vs published " + std::to_string(e.published)).c_str());
            QVERIFY2(spot == e.spotBytes, (e.file + ": " + e.spotId).c_str());
        }
    }

    void skipEdgesAreWhereTheArchitecturePutsThem() {
        auto has = [](const Graph& g, const std::string& from, const std::string& to) {
            for (const GraphEdge& e : g.edges())
                if (e.from == from && e.to == to) return true;
            return false;
        };
        auto r18 = loadGraph(examplesDir() + "resnet18-b32-224.ckpt-graph.json");
        QVERIFY(r18.ok());
        QVERIFY(has(*r18, "layer1.0.bn2", "layer1.0.add") && has(*r18, "maxpool", "layer1.0.add"));
        QVERIFY(has(*r18, "layer1.1.relu2", "layer2.0.downsample.conv"));
        QVERIFY(has(*r18, "layer2.0.downsample.bn", "layer2.0.add"));
        auto r50 = loadGraph(examplesDir() + "resnet50-b32-224.ckpt-graph.json");
        QVERIFY(r50.ok());
        QVERIFY(has(*r50, "maxpool", "layer1.0.downsample.conv")); // stage 1 widens 64 -> 256
        QVERIFY(has(*r50, "layer1.0.relu3", "layer1.1.add"));
        auto unet = loadGraph(examplesDir() + "unet-small-b8-128.ckpt-graph.json");
        QVERIFY(unet.ok());
        for (int i = 1; i <= 3; ++i) {
            const std::string s = std::to_string(i);
            QVERIFY(has(*unet, "enc" + s + ".relu2", "dec" + s + ".concat"));
            QVERIFY(has(*unet, "dec" + s + ".up", "dec" + s + ".concat"));
        }
        auto tf = loadGraph(examplesDir() + "transformer-4x-b8-s512.ckpt-graph.json");
        QVERIFY(tf.ok());
        QVERIFY(has(*tf, "input", "block0.add1") && has(*tf, "block0.add1", "block0.add2"));
        QVERIFY(has(*tf, "block2.qkv", "block2.context") && has(*tf, "block3.add2", "ln_f"));
        auto vgg = loadGraph(examplesDir() + "vgg16-b32-224.ckpt-graph.json");
        QVERIFY(vgg.ok() && vgg->isChain());
    }

    void linearIsWhatTheGeneratorMakes() {
        auto g = loadGraph(examplesDir() + "linear-32.ckpt-graph.json");
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().c_str());
        const Graph made = linearGraph(32);
        QCOMPARE(g->name(), made.name());
        QVERIFY(g->nodes() == made.nodes());
        QVERIFY(g->edges() == made.edges());
        QVERIFY(g->isChain());
    }
};

QTEST_APPLESS_MAIN(TestGraphExamples)
#include "tst_graph_examples.moc"
