// The ONNX importer on small models built here with the ONNX C++ API (tests/common/onnx_models.h): sizes, FLOPs,
// edges and backward needs against hand-computed values; folding, several outputs, element sizes, the roofline; the
// refusals (not ONNX, truncated, wrong opset, no graph, control flow, dynamic dimensions); the segment chain; the
// reader that leaves out the floating-point weights' values (io/onnx_reader.h), from bytes and from a mapped file.
#include "common/onnx_hostile.h"
#include "common/onnx_models.h"
#include "io/graph_io.h"
#include "io/json_io.h"
#include "io/onnx_costs.h"
#include "io/onnx_import.h"
#include "io/onnx_reader.h"
#include "model/segment_chain.h"
#include "util/files.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ckpt;
using namespace ckpt::test;

namespace {

const std::string kSource = "model.onnx";

Result<OnnxImport> load(OnnxBuilder b, const OnnxImportOptions& options = {}) {
    return importOnnxBytes(b.bytes(), kSource, options);
}

const GraphNode& node(const Graph& g, const std::string& id) {
    const int i = g.indexOf(id);
    if (i < 0) qFatal("no node %s", id.c_str());
    return g.node(i);
}

double flopsOf(const OnnxImport& m, const std::string& id) {
    return m.flops[std::size_t(m.graph.indexOf(id))];
}

std::set<std::pair<std::string, std::string>> edgeSet(const Graph& g) {
    std::set<std::pair<std::string, std::string>> s;
    for (const GraphEdge& e : g.edges())
        s.insert({e.from, e.to});
    return s;
}

// The error, which must name the source.
QString refusal(const Result<OnnxImport>& r) {
    if (r.ok()) return "imported";
    if (r.error().rfind(kSource, 0) != 0) return "does not name the source: " + QString::fromStdString(r.error());
    return QString::fromStdString(r.error());
}

// Protobuf's wire format by hand, for bytes the builder does not write: a length-delimited field.
std::string varintBytes(std::uint64_t v) {
    std::string out;
    for (; v >= 0x80; v >>= 7)
        out += char((v & 0x7f) | 0x80);
    return out + char(v);
}
std::string lengthField(int number, const std::string& payload) {
    return varintBytes(std::uint64_t(number) << 3 | 2) + varintBytes(payload.size()) + payload;
}

void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// The model's bytes as header (every top-level field but the graph) + the graph last, with `graph` as its bytes.
std::string withGraph(OnnxBuilder b, const std::string& graph) {
    onnx::ModelProto& m = b.model();
    m.clear_graph();
    return m.SerializeAsString() + lengthField(7, graph);
}

} // namespace

class TestOnnxImport : public QObject {
    Q_OBJECT
private slots:
    void convStack() {
        auto m = load(ckpt::test::convStack());
        QVERIFY2(m.ok(), m ? "" : m.error().c_str());
        const Graph& g = m->graph;
        // x (2,3,8,8), conv -> (2,4,8,8), relu, pool -> (2,4,4,4) and its int64 indices, flatten folded, fc -> (2,10);
        // fp32.
        QCOMPARE(g.size(), 6);
        QCOMPARE(node(g, "pool.indices").output_bytes, 2 * 4 * 4 * 4 * 8);
        QCOMPARE(m->operators, 5);
        QCOMPARE(m->folded, 1);
        QCOMPARE(node(g, "x").output_bytes, 2 * 3 * 8 * 8 * 4);
        QCOMPARE(node(g, "conv").output_bytes, 2 * 4 * 8 * 8 * 4);
        QCOMPARE(node(g, "relu").output_bytes, 2048);
        QCOMPARE(node(g, "pool").output_bytes, 2 * 4 * 4 * 4 * 4);
        QCOMPARE(node(g, "fc").output_bytes, 2 * 10 * 4);
        // conv: 2 * 512 outputs * (3*3*3) + 512 bias; relu 1 per element; pool (2*2 - 1) per output; fc 2*M*K*N + M*N.
        QCOMPARE(flopsOf(*m, "conv"), 2.0 * 512 * 27 + 512);
        QCOMPARE(flopsOf(*m, "relu"), 512.0);
        QCOMPARE(flopsOf(*m, "pool"), 128.0 * 3);
        QCOMPARE(flopsOf(*m, "fc"), 2.0 * 2 * 64 * 10 + 20);
        QCOMPARE(m->totalFlops(), 28160.0 + 512 + 384 + 2580);
        QCOMPARE(m->weight_bytes, std::int64_t(108 + 4 + 640 + 10) * 4);
        // The flatten is folded: the pool feeds the fc.
        QCOMPARE(edgeSet(g), (std::set<std::pair<std::string, std::string>>{{"x", "conv"},
                                                                            {"conv", "relu"},
                                                                            {"relu", "pool"},
                                                                            {"relu", "pool.indices"},
                                                                            {"pool.indices", "pool"},
                                                                            {"pool", "fc"}}));
        // Without a machine: 15.7 TFLOP/s and no memory bound; backward 2x forward.
        QCOMPARE(node(g, "conv").forward, 28160 / 15.7e12);
        QCOMPARE(node(g, "conv").backward, 2 * 28160 / 15.7e12);
        QCOMPARE(node(g, "x").forward, 0.0);
        auto needs = [&](const char* id) { return std::pair{node(g, id).needs_inputs, node(g, id).needs_output}; };
        QCOMPARE(needs("x"), std::pair(false, false));
        QCOMPARE(needs("conv"), std::pair(true, false));
        QCOMPARE(needs("relu"), std::pair(false, true));
        // As autograd's max_pool2d_with_indices: its input and the indices.
        QCOMPARE(needs("pool"), std::pair(true, false));
        QCOMPARE(needs("fc"), std::pair(true, false));
        QVERIFY(m->warnings.empty());
    }

    void rooflineTakesTheLargerTime() {
        OnnxImportOptions o;
        o.hardware = *Hardware::make("slow", {MemoryLevel{"mem", 1 << 30, 1e6, 1e6, 0, 1e9}});
        auto m = load(ckpt::test::convStack(), o);
        QVERIFY(m.ok());
        // conv reads x (1536 B), its weight (432 B) and bias (16 B), writes 2048 B: 4032 B at 1 MB/s beats 28160 FLOP
        // at 1 GFLOP/s.
        QCOMPARE(m->bytes_moved[std::size_t(m->graph.indexOf("conv"))], 4032.0);
        QCOMPARE(node(m->graph, "conv").forward, 4032 / 1e6);
        // Compute-bound at 1 GB/s and 1 MFLOP/s.
        o.hardware = *Hardware::make("fast memory", {MemoryLevel{"mem", 1 << 30, 1e9, 1e9, 0, 1e6}});
        m = load(ckpt::test::convStack(), o);
        QCOMPARE(node(m->graph, "conv").forward, 28160 / 1e6);
        QCOMPARE(rooflineSeconds(10, 10, Hardware::unbounded()), 10 / kDefaultFlopsPerSecond);
    }

    void halfPrecisionHalvesFloatTensors() {
        OnnxImportOptions o;
        o.element_bytes = 2;
        auto m = load(ckpt::test::convStack(), o);
        QVERIFY(m.ok());
        QCOMPARE(node(m->graph, "conv").output_bytes, 2 * 4 * 8 * 8 * 2);
        QCOMPARE(m->weight_bytes, std::int64_t(762) * 2);
        QCOMPARE(flopsOf(*m, "conv"), 28160.0); // the work does not change
    }

    void weightsWithDataImportAsShapeOnlyOnes() {
        OnnxBuilder b = ckpt::test::convStack();
        for (auto& t : *b.graph()->mutable_initializer()) {
            std::int64_t n = 1;
            for (auto d : t.dims())
                n *= d;
            for (std::int64_t k = 0; k < n; ++k)
                t.add_float_data(0.5f);
        }
        auto full = load(b), shapeOnly = load(ckpt::test::convStack());
        QVERIFY(full.ok() && shapeOnly.ok());
        QCOMPARE(full->graph.nodes(), shapeOnly->graph.nodes());
        QCOMPARE(full->graph.edges(), shapeOnly->graph.edges());
        QCOMPARE(full->weight_bytes, shapeOnly->weight_bytes);
    }

    // The reader keeps a floating-point initializer's dims, type and name and leaves out its values, wherever they are
    // (float_data, raw_data, double_data, FLOAT16's int32_data; a data_type that comes after raw_data), unless they
    // take at most 256 bytes; integer and bool initializers keep theirs. The same from bytes and from a file.
    void floatWeightsAreReadWithoutTheirValues() {
        OnnxBuilder b = ckpt::test::convStack(); // conv.weight (4,3,3,3), conv.bias (4), fc.weight (10,64), fc.bias
        for (auto& t : *b.graph()->mutable_initializer()) {
            std::int64_t n = 1;
            for (auto d : t.dims())
                n *= d;
            if (t.name() == "fc.weight") {
                t.set_raw_data(std::string(std::size_t(n) * 4, '\x3f'));
                continue;
            }
            for (std::int64_t k = 0; k < n; ++k)
                t.add_float_data(0.25f * float(k));
        }
        auto* half = b.graph()->add_initializer();
        half->set_name("half");
        half->set_data_type(onnx::TensorProto::FLOAT16);
        half->add_dims(200);
        for (int k = 0; k < 200; ++k)
            half->add_int32_data(0x3c00); // 1.0
        auto* wide = b.graph()->add_initializer();
        wide->set_name("wide");
        wide->set_data_type(onnx::TensorProto::DOUBLE);
        wide->add_dims(8);
        wide->add_dims(8);
        for (int k = 0; k < 64; ++k)
            wide->add_double_data(k);
        b.ints("shape", {2, -1});
        std::vector<std::int64_t> many(100);
        for (std::size_t k = 0; k < many.size(); ++k)
            many[k] = std::int64_t(k) * 1000;
        b.ints("many", many);
        auto* mask = b.graph()->add_initializer();
        mask->set_name("mask");
        mask->set_data_type(onnx::TensorProto::UINT8);
        mask->add_dims(1000);
        mask->set_raw_data(std::string(1000, '\x01'));
        b.weight("scales", {4}, {1, 1, 2, 2});
        // "late": raw_data, then its data_type.
        onnx::TensorProto late;
        late.set_name("late");
        late.add_dims(256);
        late.set_raw_data(std::string(1024, '\x7f'));
        const std::string graph =
            b.graph()->SerializeAsString() + lengthField(5, late.SerializeAsString() + "\x10\x01");
        const std::string bytes = withGraph(b, graph);

        onnx::ModelProto expected;
        QVERIFY(expected.ParseFromString(bytes));
        const std::set<std::string> stripped = {"conv.weight", "fc.weight", "half", "wide", "late"};
        for (auto& t : *expected.mutable_graph()->mutable_initializer())
            if (stripped.count(t.name())) {
                t.clear_float_data();
                t.clear_raw_data();
                t.clear_double_data();
                t.clear_int32_data();
            }
        const std::string want = expected.SerializeAsString();

        auto fromBytes = onnxio::parseModel(bytes, kSource);
        QVERIFY2(fromBytes.ok(), fromBytes ? "" : fromBytes.error().c_str());
        QVERIFY(fromBytes->SerializeAsString() == want);
        QTemporaryDir dir;
        const std::string path = dir.filePath("weights.onnx").toStdString();
        writeFile(path, bytes);
        auto fromFile = onnxio::readModel(path, kSource);
        QVERIFY2(fromFile.ok(), fromFile ? "" : fromFile.error().c_str());
        QVERIFY(fromFile->SerializeAsString() == want);
        auto strippedBytes = onnxio::readModelBytes(path, kSource);
        QVERIFY(strippedBytes.ok());
        QCOMPARE(*strippedBytes, *onnxio::stripFloatData(bytes, kSource));
        QVERIFY(strippedBytes->size() + 432 + 2560 + 400 + 512 + 1024 < bytes.size()); // half: 2-byte varints

        std::map<std::string, const onnx::TensorProto*> read;
        for (const auto& t : fromFile->graph().initializer())
            read[t.name()] = &t;
        QCOMPARE(read.size(), std::size_t(11));
        const onnx::TensorProto& w = *read.at("conv.weight");
        QCOMPARE(w.data_type(), int(onnx::TensorProto::FLOAT));
        QCOMPARE(std::vector<std::int64_t>(w.dims().begin(), w.dims().end()), (std::vector<std::int64_t>{4, 3, 3, 3}));
        QCOMPARE(w.float_data_size(), 0);
        QCOMPARE(read.at("fc.weight")->raw_data().size(), std::size_t(0));
        QCOMPARE(read.at("fc.weight")->dims_size(), 2);
        QCOMPARE(read.at("half")->data_type(), int(onnx::TensorProto::FLOAT16));
        QCOMPARE(read.at("half")->int32_data_size(), 0);
        QCOMPARE(read.at("wide")->double_data_size(), 0);
        QCOMPARE(read.at("late")->data_type(), int(onnx::TensorProto::FLOAT));
        QCOMPARE(read.at("late")->dims(0), std::int64_t(256));
        QVERIFY(!read.at("late")->has_raw_data());
        QCOMPARE(
            std::vector<std::int64_t>(read.at("shape")->int64_data().begin(), read.at("shape")->int64_data().end()),
            (std::vector<std::int64_t>{2, -1}));
        QCOMPARE(std::vector<std::int64_t>(read.at("many")->int64_data().begin(), read.at("many")->int64_data().end()),
                 many);
        QCOMPARE(read.at("mask")->raw_data(), std::string(1000, '\x01'));
        QCOMPARE(read.at("conv.bias")->float_data_size(), 4); // 16 bytes: kept
        QCOMPARE(std::vector<float>(read.at("scales")->float_data().begin(), read.at("scales")->float_data().end()),
                 (std::vector<float>{1, 1, 2, 2}));
        // The import does not change.
        auto full = importOnnxBytes(bytes, kSource, {}), shapeOnly = load(ckpt::test::convStack());
        QVERIFY(full.ok() && shapeOnly.ok());
        QCOMPARE(full->graph.nodes(), shapeOnly->graph.nodes());
    }

    // Resize's scales are a float initializer that shape inference reads: small, so kept.
    void resizeScalesAreKept() {
        OnnxBuilder b("resize");
        b.input("x", {1, 3, 4, 4});
        b.weight("scales", {4}, {1, 1, 2, 3});
        b.output(b.op("Resize", "resize", {"x", "", "scales"}));
        QTemporaryDir dir;
        const std::string path = dir.filePath("resize.onnx").toStdString();
        writeFile(path, b.bytes());
        auto bytes = onnxio::readModelBytes(path, path);
        QVERIFY(bytes.ok());
        auto m = importOnnxBytes(*bytes, kSource, {});
        QVERIFY2(m.ok(), m ? "" : m.error().c_str());
        QVERIFY2(m->warnings.empty(), m->warnings.empty() ? "" : m->warnings.front().c_str());
        QCOMPARE(node(m->graph, "resize").output_bytes, 1 * 3 * 8 * 12 * 4);
    }

    // A file cut short: the messages of the whole-file reader (readFileBytes, then parseModel), from every cut.
    void truncatedFilesAreRefusedAsBefore() {
        OnnxBuilder b = ckpt::test::attentionBlock();
        const std::string whole = b.bytes();
        QTemporaryDir dir;
        const std::string path = dir.filePath("cut.onnx").toStdString();
        auto fromFile = [&](std::size_t cut) {
            writeFile(path, whole.substr(0, cut));
            auto r = onnxio::readModel(path, kSource);
            return r ? std::string("read") : r.error();
        };
        QCOMPARE(fromFile(0), "model.onnx: not an ONNX model: the file is empty");
        QCOMPARE(fromFile(3), "model.onnx: truncated: the file ends inside field 2 at byte 2");
        // The graph: after ir_version (2 bytes) and producer_name (27 bytes).
        const std::size_t graph = b.graph()->ByteSizeLong();
        const std::size_t graphAt = 29, dataAt = graphAt + 1 + varintBytes(graph).size();
        QCOMPARE(fromFile(whole.size() / 2), "model.onnx: truncated: graph at byte 29 holds " + std::to_string(graph) +
                                                 " bytes, but the file ends " +
                                                 std::to_string(whole.size() / 2 - dataAt) + " bytes later");
        // The opset import, last: domain "" and version 17 in 4 bytes.
        QCOMPARE(fromFile(whole.size() - 1), "model.onnx: truncated: opset_import at byte " +
                                                 std::to_string(whole.size() - 6) +
                                                 " holds 4 bytes, but the file ends 3 bytes later");
        for (std::size_t cut = 0; cut < whole.size(); ++cut) {
            const std::string message = fromFile(cut);
            QCOMPARE(message, refusal(importOnnxBytes(whole.substr(0, cut), kSource, {})).toStdString());
            QVERIFY2(
                message.find("truncated") != std::string::npos || message.find("model.onnx: not an ONNX model") == 0 ||
                    message == "model.onnx: the model has no graph" || message.find("model.onnx: wrong opset") == 0,
                message.c_str());
        }
    }

    // Inside the graph and its initializers every length is checked against the message that holds it: a field that
    // runs past it, a tag that is not one, an initializer that is not a message are refused naming the byte.
    void damagedNestingIsRefusedNamingTheByte() {
        OnnxBuilder b = ckpt::test::convStack();
        const std::string valid = b.graph()->SerializeAsString();
        const std::size_t graphAt = withGraph(b, "").size() - 2; // the graph's tag, after the other fields
        // The graph as `valid` + `tail`; "{G}" in the message is the graph's byte, "{T+k}" the tail's k-th.
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"", "read"},
            {"\x2a\x10"
             "abcd",
             "damaged: field 5 at byte {T+0}, inside the graph at byte {G}, holds 16 bytes, but the graph ends 4 bytes "
             "later"},
            {"\x0f"
             "x",
             "damaged: byte {T+0}, inside the graph at byte {G}, does not start a protobuf field"},
            {"\x13", "damaged: byte {T+0}, inside the graph at byte {G}, does not start a protobuf field"}, // a group
            {"\xff",
             "damaged: the field tag at byte {T+0}, inside the graph at byte {G}, runs past the end of the graph"},
            {"\x28\x01", "damaged: the initializer at byte {T+0}, inside the graph at byte {G}, is not a tensor "
                         "(protobuf wire type 0, not 2)"},
            {lengthField(5, "\x4a\x20"
                            "abc"),
             "damaged: field 9 at byte {T+2}, inside the initializer at byte {T+0}, holds 32 bytes, but the "
             "initializer ends 3 bytes later"},
            {lengthField(5, "\x10\xff"),
             "damaged: field 2 at byte {T+2}, inside the initializer at byte {T+0}, runs past the end of the "
             "initializer"},
            {lengthField(5, "\x09"
                            "abc"),
             "damaged: field 1 at byte {T+2}, inside the initializer at byte {T+0}, runs past the end of the "
             "initializer"},
            {lengthField(5, "\x10\x01\x4a\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01"), // a length of 2^63
             "damaged: field 9 at byte {T+4}, inside the initializer at byte {T+0}, holds 9223372036854775808 bytes, "
             "but the initializer ends 0 bytes later"},
            // A node that runs past the graph: what libprotobuf refused as "does not parse" now names its byte.
            {"\x0a\x05"
             "ab",
             "damaged: field 1 at byte {T+0}, inside the graph at byte {G}, holds 5 bytes, but the graph ends 2 bytes "
             "later"},
            // Well-formed fields of the graph, wrong inside a node: libprotobuf's message, as before.
            {lengthField(1, "\x0a\x05"
                            "ab"),
             "damaged: the ONNX model does not parse (a field inside it is malformed)"},
        };
        for (const auto& [tail, text] : cases) {
            const std::string graph = valid + tail;
            const std::size_t t = graphAt + 1 + varintBytes(graph.size()).size() + valid.size();
            std::string want = text == "read" ? text : "model.onnx: " + text;
            for (const auto& [from, to] : {std::pair<std::string, std::size_t>{"{G}", graphAt},
                                           {"{T+0}", t},
                                           {"{T+2}", t + 2},
                                           {"{T+4}", t + 4}})
                if (auto p = want.find(from); p != std::string::npos) want.replace(p, from.size(), std::to_string(to));
            auto r = onnxio::parseModel(withGraph(b, graph), kSource);
            QCOMPARE(r ? std::string("read") : r.error(), want);
            auto stripped = onnxio::stripFloatData(withGraph(b, graph), kSource);
            if (!r && want.find("does not parse") == std::string::npos) QCOMPARE(stripped.error(), want);
        }
    }

    // Protobuf parses at most 100 levels of nested messages: an If nested 40 deep in Ifs did not parse and was called
    // damaged (issue 36). The refusal now says how deep the model nests and names the reader's limit; 32 nested
    // bodies still parse, and are refused as control flow.
    void subgraphsNestedPastTheReadersLimitAreNamed() {
        const QString past = "past the limit of this reader: protobuf parses at most 100 levels of nested messages";
        for (int depth : {33, 40, 1000})
            QCOMPARE(refusal(load(hostile::nestedIf(depth))),
                     "model.onnx: subgraphs nested too deep: node 'if0' (If) holds bodies of If, Loop or Scan nested "
                     "more than 32 deep (level 33 in node 'if32' (If)), " +
                         past + ", which allows 32 nested subgraphs");
        QVERIFY(refusal(load(hostile::nestedIf(32))).startsWith("model.onnx: node 'if0' (If): control flow"));
        // Any other message nested that deep: the path to it. A graph input's type, a sequence of sequences ...
        OnnxBuilder types("types");
        types.input("x", {2, 8});
        types.output(types.op("Relu", "relu", {"x"}));
        auto* in = types.graph()->add_input();
        in->set_name("s");
        onnx::TypeProto* t = in->mutable_type();
        for (int k = 0; k < 120; ++k)
            t = t->mutable_sequence_type()->mutable_elem_type();
        t->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
        QCOMPARE(refusal(load(types)),
                 "model.onnx: nested too deep: the model nests messages 101 deep (graph 'types' > "
                 "input 's' > type > sequence_type > elem_type > sequence_type > ...), " +
                     past);
    }

    // A 1.5 GB model whose weights are a hole in a sparse file: the reader never reads them, so the process stays
    // far below their size (the whole-file reader took 1.5 GB for the bytes and as much for the parsed tensor).
    void aLargeModelIsReadWithoutItsWeights() {
        OnnxBuilder b("large");
        b.input("x", {2, 4096});
        b.output(b.op("MatMul", "mm", {"x", "w"}));
        const std::uint64_t n = 4096 * 98304; // 1.5 GiB of floats
        onnx::TensorProto w;
        w.set_name("w");
        w.set_data_type(onnx::TensorProto::FLOAT);
        w.add_dims(4096);
        w.add_dims(98304);
        const std::string header = w.SerializeAsString() + varintBytes(9 << 3 | 2) + varintBytes(n * 4);
        const std::uint64_t tensorBytes = header.size() + n * 4;
        const std::string graph = b.graph()->SerializeAsString() + varintBytes(5 << 3 | 2) + varintBytes(tensorBytes);
        const std::uint64_t graphBytes = graph.size() + tensorBytes;
        onnx::ModelProto m = b.model();
        m.clear_graph();
        const std::string prefix =
            m.SerializeAsString() + varintBytes(7 << 3 | 2) + varintBytes(graphBytes) + graph + header;
        QTemporaryDir dir;
        const std::string path = dir.filePath("large.onnx").toStdString();
        writeFile(path, prefix);
        QCOMPARE(::truncate(path.c_str(), off_t(prefix.size() + n * 4)), 0);

        auto model = onnxio::readModel(path, kSource);
        QVERIFY2(model.ok(), model ? "" : model.error().c_str());
        QCOMPARE(model->graph().initializer_size(), 1);
        QCOMPARE(model->graph().initializer(0).dims(1), std::int64_t(98304));
        QVERIFY(!model->graph().initializer(0).has_raw_data());
        auto inputs = onnxio::dataInputs(model->graph());
        QCOMPARE(inputs.size(), std::size_t(1));
        struct rusage usage {};
        QCOMPARE(::getrusage(RUSAGE_SELF, &usage), 0);
        QVERIFY2(usage.ru_maxrss < 1024 * 1024, qPrintable(QString::number(usage.ru_maxrss) + " KB")); // < 1 GiB
    }

    // The mapped reader keeps readFileBytes' guards and messages.
    void readModelGuardsTheFile() {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("pipe.onnx").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QCOMPARE(onnxio::readModel(fifo, kSource).error(),
                 fifo + ": cannot read (not a regular file: a pipe, a device or a socket never ends or blocks)");
        const std::string folder = dir.path().toStdString();
        QCOMPARE(onnxio::readModel(folder, kSource).error(), folder + ": cannot read (it is a folder, not a file)");
        const std::string missing = dir.filePath("missing.onnx").toStdString();
        QCOMPARE(onnxio::readModel(missing, kSource).error(), missing + ": cannot open (No such file or directory)");
        const std::string empty = dir.filePath("empty.onnx").toStdString();
        writeFile(empty, "");
        QCOMPARE(onnxio::readModel(empty, kSource).error(), "model.onnx: not an ONNX model: the file is empty");
        const std::string huge = dir.filePath("huge.onnx").toStdString();
        writeFile(huge, "");
        QCOMPARE(::truncate(huge.c_str(), off_t(kMaxOnnxBytes + 1)), 0);
        QCOMPARE(onnxio::readModel(huge, kSource).error(),
                 huge + ": the file is 2147483648 bytes; this program reads files of at most 2147483647 bytes (2 GiB: "
                        "protobuf's limit for one message; larger models keep their weights in external files)");
        const std::string json = dir.filePath("graph.onnx").toStdString();
        writeFile(json, "{\"format\": \"ckpt-graph\"}");
        QCOMPARE(onnxio::readModel(json, kSource).error(),
                 "model.onnx: not an ONNX model: byte 0 does not start an ONNX model field (it looks like JSON)");
        const std::string good = dir.filePath("good.onnx").toStdString();
        writeFile(good, ckpt::test::convStack().bytes());
        QVERIFY(onnxio::readModel(good, kSource).ok());
    }

    void residualBlock() {
        auto m = load(ckpt::test::residualBlock());
        QVERIFY(m.ok());
        const Graph& g = m->graph;
        QCOMPARE(g.size(), 7);
        // conv1's output holds bn's statistics too (2 x 8 channels, fp32), which bn's backward keeps with it.
        for (const GraphNode& n : g.nodes())
            QCOMPARE(n.output_bytes, 1 * 8 * 4 * 4 * 4 + (n.id == "conv1" ? 2 * 8 * 4 : 0));
        // conv 3x3, 8 -> 8 channels on 4x4: 2 * 128 outputs * 72; bn 8 per element; relu and add 1.
        QCOMPARE(flopsOf(*m, "conv1"), 2.0 * 128 * 72);
        QCOMPARE(flopsOf(*m, "bn"), 8.0 * 128);
        QCOMPARE(flopsOf(*m, "add"), 128.0);
        QCOMPARE(m->totalFlops(), 2 * 18432.0 + 1024 + 3 * 128);
        QCOMPARE(edgeSet(g), (std::set<std::pair<std::string, std::string>>{{"x", "conv1"},
                                                                            {"conv1", "bn"},
                                                                            {"bn", "relu1"},
                                                                            {"relu1", "conv2"},
                                                                            {"conv2", "add"},
                                                                            {"x", "add"},
                                                                            {"add", "relu2"}}));
        QVERIFY(!node(g, "add").needs_inputs && !node(g, "add").needs_output);
        QVERIFY(node(g, "bn").needs_inputs);

        // The skip edge x -> add starts at the graph input, the chain's x_0, held from start to end: it splits
        // nothing, so every node is an articulation point: six segments.
        auto chain = segmentChain(g);
        QVERIFY2(chain.ok(), chain ? "" : chain.error().c_str());
        QCOMPARE(chain->length(), 6);
        // Each step's input: x, conv1's output (with bn's statistics), then bn's, relu1's, conv2's, add's.
        const std::vector<std::int64_t> states = {512, 576, 512, 512, 512, 512};
        // conv1 tapes x; bn its input (and statistics); relu1 and relu2 their outputs; conv2 its input; add nothing
        // (and not x, resident as x_0).
        const std::vector<std::int64_t> tapes = {512, 576, 512, 512, 0, 512};
        for (int i = 1; i <= 6; ++i) {
            QCOMPARE(chain->step(i).state_bytes, states[std::size_t(i - 1)]);
            QCOMPARE(chain->step(i).tape_bytes, tapes[std::size_t(i - 1)]);
        }
        QCOMPARE(chain->step(2).forward, node(g, "bn").forward);
    }

    void attentionBlock() {
        auto m = load(ckpt::test::attentionBlock());
        QVERIFY2(m.ok(), m ? "" : m.error().c_str());
        const Graph& g = m->graph;
        QVERIFY2(m->warnings.empty(), m->warnings.empty() ? "" : m->warnings.front().c_str());
        // Folded: the three head reshapes, the merge reshape, and its target shape computed from x (Shape, two
        // Gathers, two Unsqueezes, Concat). 22 operators, 12 nodes and the input.
        QCOMPARE(m->operators, 22);
        QCOMPARE(m->folded, 10);
        QCOMPARE(g.size(), 13);
        // B=1, S=4, d=8, 2 heads of 4: qkv (1,4,24); the Split's three parts are one node; heads (1,2,4,4).
        QCOMPARE(node(g, "qkv").output_bytes, 96 * 4);
        QCOMPARE(node(g, "split").output_bytes, 3 * 32 * 4);
        QCOMPARE(node(g, "q_t").output_bytes, 32 * 4);
        QCOMPARE(node(g, "scores").output_bytes, 2 * 4 * 4 * 4);
        QCOMPARE(node(g, "proj").output_bytes, 32 * 4);
        // Products: qkv 2*B*S*d*3d, scores and context 2*B*heads*S*S*dh each, proj 2*B*S*d*d: 6BSd^2 + 4BS^2d + 2BSd^2.
        QCOMPARE(flopsOf(*m, "qkv"), 1536.0);
        QCOMPARE(flopsOf(*m, "scores"), 256.0);
        QCOMPARE(flopsOf(*m, "context"), 256.0);
        QCOMPARE(flopsOf(*m, "proj"), 512.0);
        QCOMPARE(flopsOf(*m, "softmax"), 5.0 * 32);
        QCOMPARE(flopsOf(*m, "split"), 96.0); // a copy of every part
        QCOMPARE(m->totalFlops(), 1536.0 + 96 + 3 * 32 + 256 + 32 + 160 + 256 + 32 + 512 + 32);
        QCOMPARE(edgeSet(g), (std::set<std::pair<std::string, std::string>>{{"x", "qkv"},
                                                                            {"qkv", "split"},
                                                                            {"split", "q_t"},
                                                                            {"split", "k_t"},
                                                                            {"split", "v_t"},
                                                                            {"q_t", "scores"},
                                                                            {"k_t", "scores"},
                                                                            {"scores", "scale_div"},
                                                                            {"scale_div", "softmax"},
                                                                            {"softmax", "context"},
                                                                            {"v_t", "context"},
                                                                            {"context", "context_t"},
                                                                            {"context_t", "proj"},
                                                                            {"proj", "add"},
                                                                            {"x", "add"}}));
        QVERIFY(!node(g, "softmax").needs_inputs && node(g, "softmax").needs_output);
        QVERIFY(node(g, "scores").needs_inputs && !node(g, "split").needs_inputs);
    }

    void batchFixesTheFirstDimension() {
        OnnxBuilder b("batched");
        b.input("x", {-1, 3, 8, 8}, {"batch"});
        b.output(b.op("Relu", "relu", {"x"}));
        QCOMPARE(refusal(load(b)), "model.onnx: input 'x' dimension 0 ('batch') is not fixed: give --batch N or "
                                   "--input x=DIMS (all of its dimensions, e.g. 1x3x224x224)");
        OnnxImportOptions o;
        o.batch = 5;
        auto m = load(b, o);
        QVERIFY(m.ok());
        QCOMPARE(node(m->graph, "relu").output_bytes, 5 * 3 * 8 * 8 * 4);
        o = {};
        o.inputs = {{"x", {2, 3, 8, 8}}}; // the fixed dimensions as the file has them
        QCOMPARE(node(load(b, o)->graph, "relu").output_bytes, 2 * 3 * 8 * 8 * 4);
        o.inputs = {{"y", {1}}};
        QCOMPARE(refusal(load(b, o)),
                 "model.onnx: --input y: the model has no data input of that name (its inputs: 'x')");
        // A later dimension needs --input.
        OnnxBuilder c("wide");
        c.input("x", {2, -1}, {"", "width"});
        c.output(c.op("Relu", "relu", {"x"}));
        QVERIFY(refusal(load(c)).contains("input 'x' dimension 1 ('width') is not fixed: give --input x=DIMS"));
    }

    // An --input for an input the file gives no shape must have the rank its readers take (issue 36: of another rank,
    // libonnx left every node unsized, and --allow-unsized imported them all as 0 bytes).
    void anInputOfTheWrongRankIsRefused() {
        OnnxImportOptions o;
        o.allow_unsized = true;
        o.inputs = {{"x", {2, 3}}};
        QCOMPARE(refusal(load(hostile::shapelessInput(), o)),
                 "model.onnx: input 'x': --input x=2x3 gives 2 dimensions, but node 'conv' (Conv), which reads it "
                 "through node 'relu' (Relu), takes 4");
        o.inputs = {{"x", {2, 3, 8, 8}}};
        auto m = load(hostile::shapelessInput(), o);
        QVERIFY2(m.ok(), m ? "" : m.error().c_str());
        QVERIFY(m->warnings.empty());
        QCOMPARE(node(m->graph, "conv").output_bytes, 2 * 4 * 6 * 6 * 4);
        OnnxBuilder gemm("gemm");
        gemm.graph()->add_input()->set_name("x");
        gemm.graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
        gemm.weight("w", {4, 5});
        gemm.output(gemm.op("Gemm", "fc", {"x", "w"}));
        o.inputs = {{"x", {2, 2, 4}}};
        QCOMPARE(refusal(load(gemm, o)), "model.onnx: input 'x': --input x=2x2x4 gives 3 dimensions, but node 'fc' "
                                         "(Gemm), which reads it, takes 2");
        // A file that gives the shape: its rank is the one to match, as before.
        o.inputs = {{"x", {2, 3}}};
        QCOMPARE(refusal(load(ckpt::test::convStack(), o)),
                 "model.onnx: input 'x' has 4 dimensions in the file; --input x=2x3 gives 2");
    }

    void refusals() {
        auto bytes = [](const std::string& b) { return refusal(importOnnxBytes(b, kSource, {})); };
        QVERIFY(bytes("").contains("not an ONNX model: the file is empty"));
        QVERIFY(bytes("{\"format\": \"ckpt-graph\"}").contains("not an ONNX model"));
        QVERIFY(bytes("{\"format\": \"ckpt-graph\"}").contains("looks like JSON"));
        QVERIFY(bytes("hello, this is a text file\n").contains("not an ONNX model"));
        const std::string whole = ckpt::test::attentionBlock().bytes();
        for (std::size_t cut : {whole.size() / 2, whole.size() - 1, std::size_t(3)})
            QVERIFY2(bytes(whole.substr(0, cut)).contains("truncated"), qPrintable(bytes(whole.substr(0, cut))));

        OnnxBuilder newer = ckpt::test::convStack();
        newer.model().mutable_opset_import(0)->set_version(18);
        QVERIFY(refusal(load(newer))
                    .startsWith("model.onnx: wrong opset: the model uses opset 18 of the default ONNX "
                                "domain; this program's libonnx (Debian's libonnx-dev) knows opsets 1 to 17"));
        OnnxBuilder none = ckpt::test::convStack();
        none.model().clear_opset_import();
        QVERIFY(refusal(load(none)).contains("wrong opset: the model imports no opset of the default ONNX domain"));
        OnnxBuilder noGraph = ckpt::test::convStack();
        noGraph.model().clear_graph();
        QCOMPARE(refusal(load(noGraph)), "model.onnx: the model has no graph");

        OnnxBuilder loop("loop");
        loop.input("x", {2});
        loop.ints("trips", {3}, true);
        loop.node("Loop", "repeat", {"trips", "", "x"}, {"y"})->add_attribute()->set_name("body");
        loop.last()->mutable_attribute(0)->set_type(onnx::AttributeProto::GRAPH);
        loop.output("y");
        QVERIFY2(refusal(load(loop)).startsWith("model.onnx: node 'repeat' (Loop): control flow (Loop, If, Scan"),
                 qPrintable(refusal(load(loop))));

        OnnxBuilder strings("strings");
        strings.input("s", {2}, {}, onnx::TensorProto::STRING);
        strings.output(strings.op("Relu", "relu", {"s"}));
        QCOMPARE(refusal(load(strings)),
                 "model.onnx: input 's': its elements have no fixed size (strings, or no element type)");

        OnnxBuilder dangling("dangling");
        dangling.input("x", {2});
        dangling.output(dangling.op("Add", "sum", {"x", "nowhere"}));
        QVERIFY(refusal(load(dangling)).contains("node 'sum' (Add) reads 'nowhere', which no graph input"));
    }

    // libonnx 1.12's shape inference reads past its vectors on a convolution whose kernel it takes from weights of
    // another rank than the input, and divides by a stride of 0 (the fuzzer's finds, now in corpus/onnx/): the importer
    // checks those nodes first. Before, each of these crashed the process.
    void malformedConvolutionsAreRefusedOrSizedWithout() {
        // Weights of 2 spatial dimensions on an input of 1, no kernel_shape: the conv's output cannot be sized, so the
        // import is refused naming it (and libonnx's reason); with allow_unsized, imported without it.
        OnnxBuilder rank("rank");
        rank.input("x", {2, 8, 8});
        rank.weight("w", {4, 2, 3, 3});
        rank.output(rank.op("Relu", "relu", {rank.op("Conv", "conv", {"x", "w"})}));
        const QString refused = refusal(load(rank));
        QVERIFY2(refused.startsWith("model.onnx: 2 nodes with an output of unknown size: conv (Conv), relu (Relu)") &&
                     refused.contains("kernel_shape has incorrect size"),
                 qPrintable(refused));
        OnnxImportOptions allow;
        allow.allow_unsized = true;
        auto r = load(rank, allow);
        QVERIFY2(r.ok(), r ? "" : r.error().c_str());
        QCOMPARE(r->warnings.size(), std::size_t(1));
        QVERIFY2(r->warnings[0].find("2 nodes with an output of unknown size: conv (Conv)") == 0,
                 r->warnings[0].c_str());
        QVERIFY(r->warnings[0].find("kernel_shape has incorrect size") != std::string::npos);

        // Without kernel_shape, a conv takes its weights' sizes: the same import as with the attribute.
        OnnxBuilder implied = ckpt::test::convStack();
        auto* conv = implied.graph()->mutable_node(0);
        QCOMPARE(conv->op_type(), "Conv");
        QCOMPARE(conv->attribute(0).name(), "kernel_shape");
        conv->mutable_attribute()->DeleteSubrange(0, 1);
        auto withAttribute = load(ckpt::test::convStack()), without = load(implied);
        QVERIFY(withAttribute.ok() && without.ok());
        QVERIFY(without->warnings.empty());
        QCOMPARE(without->flops, withAttribute->flops);
        QVERIFY(without->graph.nodes() == withAttribute->graph.nodes());

        OnnxBuilder computed("computed");
        computed.input("x", {2, 3, 8, 8});
        computed.weight("w", {4, 3, 3, 3});
        computed.node("Identity", "copy", {"w"}, {"wc"});
        computed.output(computed.op("Conv", "conv", {"x", "wc"}));
        QCOMPARE(refusal(load(computed)),
                 "model.onnx: node 'conv' (Conv): its weights are not stored in the model (no initializer 'wc'), and "
                 "without a kernel_shape attribute it needs their shape; store them, or give kernel_shape");

        OnnxBuilder transposed("transposed");
        transposed.input("x", {2, 3, 8, 8});
        transposed.weight("w", {3, 4, 3, 3});
        transposed.node("Identity", "copy", {"w"}, {"wc"});
        transposed.output(transposed.op("ConvTranspose", "up", {"x", "wc"}));
        OnnxBuilder::attr(transposed.last(), "kernel_shape", std::vector<std::int64_t>{3, 3});
        QCOMPARE(refusal(load(transposed)), "model.onnx: node 'up' (ConvTranspose): its weights are not stored in the "
                                            "model (no initializer 'wc'), and ConvTranspose needs their shape; store "
                                            "them");
        OnnxBuilder stored("stored");
        stored.input("x", {2, 3, 8, 8});
        stored.weight("w", {3, 4, 3, 3});
        stored.output(stored.op("ConvTranspose", "up", {"x", "w"}));
        auto up = load(stored);
        QVERIFY2(up.ok(), up ? "" : up.error().c_str());
        QCOMPARE(node(up->graph, "up").output_bytes, 2 * 4 * 10 * 10 * 4); // (2, 4, 8 + 3 - 1, ...) floats

        OnnxBuilder flat("flat");
        flat.input("x", {2, 3, 8, 8});
        flat.weight("w", {4, 3});
        flat.output(flat.op("Conv", "conv", {"x", "w"}));
        QCOMPARE(refusal(load(flat)), "model.onnx: node 'conv' (Conv): its weights 'w' have 2 dimensions; a "
                                      "convolution's weights have at least 3 (filters, channels, then the kernel's "
                                      "sizes)");

        OnnxBuilder still("still");
        still.input("x", {2, 3, 8, 8});
        still.output(still.op("MaxPool", "pool", {"x"}));
        OnnxBuilder::attr(still.last(), "kernel_shape", std::vector<std::int64_t>{2, 2});
        OnnxBuilder::attr(still.last(), "strides", std::vector<std::int64_t>{2, 0});
        QCOMPARE(refusal(load(still)),
                 "model.onnx: node 'pool' (MaxPool): attribute strides holds 0; each of its sizes must be >= 1");
        OnnxBuilder negative("negative");
        negative.input("x", {2, 3, 8, 8});
        negative.output(negative.op("AveragePool", "pool", {"x"}));
        OnnxBuilder::attr(negative.last(), "kernel_shape", std::vector<std::int64_t>{2, 2});
        OnnxBuilder::attr(negative.last(), "pads", std::vector<std::int64_t>{0, -1, 0, 0});
        QCOMPARE(refusal(load(negative)),
                 "model.onnx: node 'pool' (AveragePool): attribute pads holds -1; each of its pads must be >= 0");
    }

    // Nodes that libonnx 1.12's shape inference would crash on, refused before it runs: a value read before any node
    // produces it (a Shape of it dereferenced nothing), and a Split with no outputs (it divided by their count).
    void nodesAreCheckedBeforeShapeInference() {
        OnnxBuilder ghost("ghost");
        ghost.input("x", {2, 6});
        ghost.output(ghost.op("Add", "add", {"x", ghost.op("Shape", "shape", {"nowhere"})}));
        QCOMPARE(refusal(load(ghost)), "model.onnx: node 'shape' (Shape) reads 'nowhere', which no graph input, "
                                       "initializer or earlier node produces (ONNX lists nodes in topological order)");
        OnnxBuilder late("late");
        late.input("x", {2, 6});
        late.node("Relu", "first", {"y"}, {"z"});
        late.node("Relu", "second", {"x"}, {"y"});
        late.output("z");
        QVERIFY(refusal(load(late)).startsWith("model.onnx: node 'first' (Relu) reads 'y', which no graph input"));

        OnnxBuilder split("split");
        split.input("x", {2, 6});
        split.node("Split", "split", {"x"}, {});
        OnnxBuilder::attr(split.last(), "axis", std::int64_t(1));
        split.output(split.op("Relu", "relu", {"x"}));
        const QString r = refusal(load(split));
        QVERIFY2(r.startsWith("model.onnx: node 'split' (Split): ") && r.contains("output size 0"), qPrintable(r));
        split.graph()->mutable_node(0)->clear_name(); // no name and no output: the node's place names it
        QVERIFY2(refusal(load(split)).startsWith("model.onnx: node #1 (Split): "), qPrintable(refusal(load(split))));

        OnnxBuilder typo = ckpt::test::convStack();
        OnnxBuilder::attr(typo.graph()->mutable_node(0), "stride", std::vector<std::int64_t>{1, 1});
        const QString t = refusal(load(typo));
        QVERIFY2(t.startsWith("model.onnx: node 'conv' (Conv): ") && t.contains("stride"), qPrintable(t));
    }

    // Model-local functions are checked before libonnx's shape inference, which runs a function's body at every call:
    // a function that calls itself, two that call each other and 5,000 nested calls each overflowed the stack (issue
    // 36), and functions that each call the next twice took exponential time.
    void recursiveAndDeepFunctionsAreRefused() {
        const QString cycle = "the calls between functions must form no cycle; libonnx's shape inference would recurse "
                              "until the stack overflows";
        QCOMPARE(refusal(load(hostile::recursiveFunction())),
                 "model.onnx: model-local function 'local.again' calls itself (its node 'again.call0'): " + cycle);
        QCOMPARE(refusal(load(hostile::mutuallyRecursiveFunctions())),
                 "model.onnx: model-local functions call each other in a cycle: 'local.ping' -> 'local.pong' -> "
                 "'local.ping'; " +
                     cycle);
        QCOMPARE(refusal(load(hostile::nestedFunctions(5000))),
                 "model.onnx: model-local functions nest their calls 5000 deep ('local.f0' -> 'local.f1' -> "
                 "'local.f2' -> ... -> 'local.f4999'); this importer follows at most 32 nested calls");
        QVERIFY(refusal(load(hostile::nestedFunctions(33))).contains("nest their calls 33 deep"));
        // As deep as allowed: imported, the call an operator of zero cost (its output sized by libonnx, through the
        // 32 functions).
        OnnxImportOptions allow;
        auto deep = load(hostile::nestedFunctions(32), allow);
        QVERIFY2(deep.ok(), deep ? "" : deep.error().c_str());
        QCOMPARE(node(deep->graph, "call").output_bytes, 2 * 8 * 4);
        QCOMPARE(deep->warnings.size(), std::size_t(1));
        QVERIFY(deep->warnings[0].find("local.f0 x1 (call)") != std::string::npos);
        // f0 calls f1 twice, ..., f23 only has its Relu: 3 * (2^23 - 1) + 2^23 nodes expanded.
        QCOMPARE(refusal(load(hostile::doublingFunctions(24))),
                 "model.onnx: model-local function 'local.f0' expands into 33554429 nodes once the calls it makes are "
                 "expanded; libonnx's shape inference runs a function's body at every call, and this importer takes "
                 "at most 200000 nodes in functions");
        QVERIFY(load(hostile::doublingFunctions(8)).ok());
        // Calling a small function many times adds up.
        OnnxBuilder many = hostile::doublingFunctions(16); // 131069 nodes in f0
        many.node("f0", "again", {"y"}, {"z"})->set_domain(hostile::kLocal);
        many.graph()->mutable_output(0)->set_name("z");
        QVERIFY2(refusal(load(many))
                     .startsWith("model.onnx: the model's calls to its model-local functions expand "
                                 "into 262138 nodes (the largest function, 'local.f0', into 131069)"),
                 qPrintable(refusal(load(many))));
        OnnxBuilder twice = hostile::callingModel("twice", "f");
        hostile::function(twice, "f", {});
        hostile::function(twice, "f", {});
        QCOMPARE(refusal(load(twice)), "model.onnx: model-local function 'local.f' is defined twice");
    }

    // Attributes the importer and the cost model read, range-checked after issue 36, which found them imported
    // though invalid: each refusal names the node and the value.
    void invalidAttributesAreRefusedNamingTheNode() {
        const QString conv = "model.onnx: node 'conv' (Conv): ";
        QCOMPARE(refusal(load(hostile::convGroup(0))), conv + "attribute group is 0; it must be >= 1");
        QCOMPARE(refusal(load(hostile::convGroup(-3))), conv + "attribute group is -3; it must be >= 1");
        QCOMPARE(refusal(load(hostile::convGroup(1000000000))),
                 conv + "its input has 3 channels, but group 1000000000 times its weights' 3 channels per group is "
                        "3000000000");
        QCOMPARE(refusal(load(hostile::convGroup(std::int64_t(1) << 62))),
                 conv + "its input has 3 channels, but group 4611686018427387904 times its weights' 3 channels per "
                        "group is more than 2^63");
        OnnxBuilder filters = hostile::conv("filters", {4, 1, 3, 3});
        OnnxBuilder::attr(filters.last(), "group", std::int64_t(3));
        QCOMPARE(refusal(load(filters)), conv + "group 3 does not divide its weights' 4 filters");
        // A depthwise convolution is fine: 3 groups of one channel, (2, 3, 6, 6) out, 3 x 3 multiply-adds each.
        OnnxBuilder depthwise = hostile::conv("depthwise", {3, 1, 3, 3});
        OnnxBuilder::attr(depthwise.last(), "group", std::int64_t(3));
        auto d = load(depthwise);
        QVERIFY2(d.ok(), d ? "" : d.error().c_str());
        QCOMPARE(flopsOf(*d, "conv"), 2.0 * (2 * 3 * 6 * 6) * 9);
        OnnxBuilder transposed("transposed");
        transposed.input("x", {2, 3, 8, 8});
        transposed.weight("w", {3, 4, 3, 3});
        transposed.output(transposed.op("ConvTranspose", "up", {"x", "w"}));
        OnnxBuilder::attr(transposed.last(), "group", std::int64_t(2));
        QCOMPARE(refusal(load(transposed)),
                 "model.onnx: node 'up' (ConvTranspose): group 2 does not divide its input's 3 channels");

        QCOMPARE(refusal(load(hostile::convAutoPad("SIDEWAYS"))),
                 conv + "attribute auto_pad is 'SIDEWAYS'; it must be NOTSET, SAME_UPPER, SAME_LOWER or VALID");
        auto same = load(hostile::convAutoPad("SAME_UPPER"));
        QVERIFY2(same.ok(), same ? "" : same.error().c_str());
        QCOMPARE(node(same->graph, "conv").output_bytes, 2 * 4 * 8 * 8 * 4);

        OnnxBuilder gemm("gemm");
        gemm.input("x", {2, 8});
        gemm.weight("w", {8, 4});
        gemm.output(gemm.op("Gemm", "fc", {"x", "w"}));
        OnnxBuilder::attr(gemm.last(), "transA", std::int64_t(2));
        QCOMPARE(refusal(load(gemm)), "model.onnx: node 'fc' (Gemm): attribute transA is 2; it must be 0 or 1");

        OnnxBuilder norm("norm");
        norm.input("x", {2, 4, 8});
        norm.weight("scale", {8});
        norm.node("LayerNormalization", "ln", {"x", "scale"}, {"y"});
        OnnxBuilder::attr(norm.last(), "axis", std::int64_t(5));
        norm.output("y");
        QCOMPARE(refusal(load(norm)), "model.onnx: node 'ln' (LayerNormalization): attribute axis is 5; for its input "
                                      "of 3 dimensions it must be from -3 to 2");

        OnnxBuilder drop("drop");
        drop.input("x", {2, 8});
        auto* ratio = drop.graph()->add_initializer();
        ratio->set_name("ratio");
        ratio->set_data_type(onnx::TensorProto::FLOAT);
        ratio->add_float_data(1.5f);
        auto* training = drop.graph()->add_initializer();
        training->set_name("training");
        training->set_data_type(onnx::TensorProto::BOOL);
        training->add_int32_data(1);
        drop.node("Dropout", "dropout", {"x", "ratio", "training"}, {"y", "mask"});
        drop.output("y");
        QCOMPARE(refusal(load(drop)), "model.onnx: node 'dropout' (Dropout): its ratio is 1.5; a dropout ratio is from "
                                      "0 to 1");
    }

    // A recurrent layer's hidden_size must agree with all its weights, its states and its direction (issue 36: a
    // hidden_size whose gates' rows wrap around 64 bits to its weights' was imported as a layer of 0 bytes).
    void recurrentLayersAgreeWithTheirWeights() {
        const QString lstm = "model.onnx: node 'lstm' (LSTM): ";
        QCOMPARE(refusal(load(hostile::lstmHiddenSizeThatWraps())),
                 lstm +
                     "hidden_size 4611686018427387904 disagrees with its weights (W 1x0x3, R 1x0x4611686018427387904; "
                     "expected 4 gates of the hidden size, over 3 inputs, in 1 or 2 directions)");
        QCOMPARE(refusal(load(hostile::lstmBiasOfAnotherSize())),
                 lstm + "its input B (bias) is 1x40; hidden_size 4 over 2 batch rows in 1 direction needs 1x32");
        QCOMPARE(refusal(load(hostile::lstm("h0", 4, {1, 16, 3}, {1, 16, 4}, {{5, {1, 2, 5}}}))),
                 lstm + "its input initial_h is 1x2x5; hidden_size 4 over 2 batch rows in 1 direction needs 1x2x4");
        QCOMPARE(refusal(load(hostile::lstm("p", 4, {1, 16, 3}, {1, 16, 4}, {{7, {1, 16}}}))),
                 lstm + "its input P (peepholes) is 1x16; hidden_size 4 over 2 batch rows in 1 direction needs 1x12");
        OnnxBuilder both = hostile::lstm("both", 4, {1, 16, 3}, {1, 16, 4});
        auto* direction = both.last()->add_attribute();
        direction->set_name("direction");
        direction->set_type(onnx::AttributeProto::STRING);
        direction->set_s("bidirectional");
        QCOMPARE(refusal(load(both)),
                 lstm + "attribute direction is bidirectional, but its weights W 1x16x3 hold 1 direction");
        direction->set_s("sideways");
        QCOMPARE(refusal(load(both)),
                 lstm + "attribute direction is 'sideways'; it must be forward, reverse or bidirectional");
        OnnxBuilder layout = hostile::lstm("layout", 4, {1, 16, 3}, {1, 16, 4});
        OnnxBuilder::attr(layout.last(), "layout", std::int64_t(2));
        QCOMPARE(refusal(load(layout)), lstm + "attribute layout is 2; it must be 0 or 1");
        // The same layer with all its inputs of the right shapes imports.
        auto good = load(hostile::lstm("good", 4, {1, 16, 3}, {1, 16, 4},
                                       {{3, {1, 32}}, {5, {1, 2, 4}}, {6, {1, 2, 4}}, {7, {1, 12}}}));
        QVERIFY2(good.ok(), good ? "" : good.error().c_str());
        QCOMPARE(node(good->graph, "lstm.t5").output_bytes, 2 * 2 * 4 * 4); // h and c of 2 rows of 4 floats
    }

    // Sizes and FLOPs are computed with overflow checks: what does not fit in 64 bits is refused, naming the tensor or
    // node (issue 36: weights of 2^40 x 2^40 x 3 x 3 floats wrapped around to "0 B, 0 FLOP").
    void sizesPast64BitsAreRefused() {
        QCOMPARE(refusal(load(hostile::convWeightsPast64Bits())),
                 "model.onnx: initializer 'w' (1099511627776x1099511627776x3x3, 4 bytes each) is larger than 2^63 "
                 "bytes: its size does not fit in 64 bits");
        QVERIFY2(refusal(load(hostile::conv("kernel", {4, 3, std::int64_t(1) << 40, 3})))
                     .startsWith("model.onnx: node 'conv' (Conv): its output 'conv:0' has a negative dimension "
                                 "(2x4x-1099511627767x6 by libonnx's shape inference)"),
                 qPrintable(refusal(load(hostile::conv("kernel", {4, 3, std::int64_t(1) << 40, 3})))));
        // A Tile to 2^60 x 2^20 floats.
        OnnxBuilder tile("tile");
        tile.input("x", {1 << 20, 1 << 20});
        tile.ints("repeats", {std::int64_t(1) << 40, 1});
        tile.output(tile.op("Tile", "tile", {"x", "repeats"}));
        QCOMPARE(refusal(load(tile)),
                 "model.onnx: node 'tile' (Tile): its output 'tile:0' (1152921504606846976x1048576, "
                 "4 bytes each) is larger than 2^63 bytes: its size does not fit in 64 bits");
        // 2 x 2^20 x 2^22 x 2^22 FLOPs: 2^65.
        OnnxBuilder product("product");
        product.input("x", {1 << 20, 1 << 22});
        product.weight("w", {1 << 22, 1 << 22});
        product.output(product.op("MatMul", "mm", {"x", "w"}));
        QVERIFY2(refusal(load(product))
                     .startsWith("model.onnx: node 'mm' (MatMul): its cost does not fit in 64 bits "
                                 "(3.69e+19 FLOPs, "),
                 qPrintable(refusal(load(product))));
        // An LSTM whose states overflow: 2^40 batch rows of 2^22 hidden units.
        OnnxBuilder wide("wide");
        wide.input("x", {5, std::int64_t(1) << 40, 3});
        wide.weight("W", {1, 1 << 24, 3});
        wide.weight("R", {1, 1 << 24, 1 << 22});
        OnnxBuilder::attr(wide.node("LSTM", "lstm", {"x", "W", "R"}, {"Y", "Y_h"}), "hidden_size",
                          std::int64_t(1) << 22);
        wide.output("Y_h");
        QCOMPARE(refusal(load(wide)), "model.onnx: node 'lstm' (LSTM): the tensors its 5 time steps keep (hidden_size "
                                      "4194304, 1099511627776 batch rows, 4-byte elements) do not fit in 64 bits");
    }

    // An operator's name is any bytes; an unnamed node's id is made from it, and a graph's ids are UTF-8 (the fuzzer
    // found an id that did not save and read back equal).
    void unnamedNodesOfUnknownOperatorsGetUtf8Ids() {
        OnnxBuilder b("bytes");
        b.input("x", {2, 8});
        b.node("G\xa4\x92m", "", {"x"}, {"y"});
        b.output(b.op("Relu", "relu", {"y"}));
        OnnxImportOptions allow;
        allow.allow_unsized = true; // an unknown operator's output has no size
        auto m = load(b, allow);
        QVERIFY2(m.ok(), m ? "" : m.error().c_str());
        QCOMPARE(m->graph.node(1).id, "G\xef\xbf\xbd\xef\xbf\xbdm_0"); // each invalid byte: U+FFFD
        QVERIFY(m->warnings[0].find("G\xef\xbf\xbd\xef\xbf\xbdm x1") != std::string::npos);
        auto again = graphFromJson(graphToJson(m->graph), "saved");
        QVERIFY2(again.ok(), again ? "" : again.error().c_str());
        QVERIFY(again->nodes() == m->graph.nodes());
    }

    void unknownOperatorsWarnOrAreRefused() {
        OnnxBuilder b("custom");
        b.input("x", {2, 8});
        b.node("Frobnicate", "frob", {"x"}, {"y"})->set_domain("com.example");
        b.output(b.op("Relu", "relu", {"y"}));
        // Its output has no size: refused, unless allowed.
        QVERIFY2(refusal(load(b)).startsWith("model.onnx: 2 nodes with an output of unknown size: frob "
                                             "(com.example.Frobnicate), relu (Relu)"),
                 qPrintable(refusal(load(b))));
        OnnxImportOptions allow;
        allow.allow_unsized = true;
        auto m = load(b, allow);
        QVERIFY(m.ok());
        QCOMPARE(m->graph.size(), 3);
        QCOMPARE(m->warnings.size(), std::size_t(2));
        QCOMPARE(m->warnings[0], "operators this importer does not know, imported at zero cost: com.example.Frobnicate "
                                 "x1 (frob)");
        QVERIFY(m->warnings[1].find("2 nodes with an output of unknown size: frob (com.example.Frobnicate), "
                                    "relu (Relu), counted as 0 bytes (--allow-unsized)") == 0);
        QCOMPARE(node(m->graph, "frob").forward, 0.0);
        OnnxImportOptions strict;
        strict.strict = true;
        QVERIFY(refusal(load(b, strict)).endsWith("(frob) (--strict)"));
    }

    void fileGuards() {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("pipe.onnx").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        auto r = importOnnxFile(fifo, {});
        QVERIFY(!r.ok() && r.error().find("not a regular file") != std::string::npos);
        QVERIFY(importOnnxFile(dir.path().toStdString(), {}).error().find("folder") != std::string::npos);
        const std::string path = dir.filePath("model.onnx").toStdString();
        QVERIFY(writeTextFileAtomic(path, ckpt::test::convStack().bytes()).ok());
        QVERIFY(importOnnxFile(path, {}).ok());
        auto small = readFileBytes(path, 10, "ten bytes");
        QVERIFY(!small.ok() && small.error().find("at most 10 bytes (ten bytes)") != std::string::npos);
        auto inputs = onnxInputs(path);
        QVERIFY(inputs.ok());
        QCOMPARE(inputs->size(), std::size_t(1));
        QCOMPARE(inputs->front().name, "x");
        QCOMPARE(inputs->front().dims, (std::vector<std::int64_t>{2, 3, 8, 8}));
    }

    void hardwareComputeSpeed() {
        auto doc = parseJson(R"({"format": "ckpt-hardware", "version": 1, "levels": [
            {"name": "HBM", "capacity_bytes": 1000, "flops_per_s": 19.5e12}, {"name": "host", "read_bytes_per_s": 1e9,
             "write_bytes_per_s": 1e9}]})",
                             "hw.json");
        auto hw = hardwareFromJson(*doc, "hw.json");
        QVERIFY(hw.ok());
        QCOMPARE(hw->flopsPerSecond(), 19.5e12);
        QCOMPARE(hardwareToJson(*hw)["levels"][0]["flops_per_s"].get<double>(), 19.5e12);
        QCOMPARE(*hardwareFromJson(hardwareToJson(*hw), "back"), *hw);
        QCOMPARE(Hardware::unbounded().flopsPerSecond(), 15.7e12);
        QVERIFY(!hardwareToJson(Hardware::unbounded())["levels"][0].contains("flops_per_s"));
        auto onLevel1 = parseJson(R"({"format": "ckpt-hardware", "version": 1, "levels": [{"name": "a"},
            {"name": "b", "read_bytes_per_s": 1, "write_bytes_per_s": 1, "flops_per_s": 1e12}]})",
                                  "hw.json");
        QCOMPARE(hardwareFromJson(*onLevel1, "hw.json").error(),
                 "hw.json: levels[1].flops_per_s: only level 0, where compute runs, has a compute speed");
        auto negative = parseJson(
            R"({"format": "ckpt-hardware", "version": 1, "levels": [{"name": "a", "flops_per_s": -1}]})", "hw.json");
        QVERIFY(
            hardwareFromJson(*negative, "hw.json").error().find("levels[0].flops_per_s: expected a number of FLOP/s") !=
            std::string::npos);
        // The presets give their documented figures.
        const std::string presets = CKPT_SOURCE_DIR "/resources/hardware/";
        QCOMPARE(loadHardware(presets + "gpu-a100.ckpt-hardware.json")->flopsPerSecond(), 19.5e12);
        QCOMPARE(loadHardware(presets + "ipu-gc200.ckpt-hardware.json")->flopsPerSecond(), 62.5e12);
        QCOMPARE(loadHardware(presets + "cpu-server.ckpt-hardware.json")->flopsPerSecond(), 1e12);
    }
};

QTEST_GUILESS_MAIN(TestOnnxImport)
#include "tst_onnx_import.moc"
