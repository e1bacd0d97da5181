// The ONNX importer on what real exports hold (issue 33), on small models built here with the ONNX C++ API:
// - shapes computed by shape subgraphs (Shape -> Gather -> Unsqueeze -> Concat -> Reshape, Div, a causal mask sliced
//   to the sequence) are folded on the concrete dimensions, so every node has a size;
// - a node whose size still cannot be known is refused, naming it, unless allow_unsized;
// - --batch and --input fill only the dimensions the file leaves open;
// - training semantics: BatchNorm's statistics, MaxPool's indices, Dropout's mask kept as autograd keeps them, and the
//   store-all plan's held_after_forward_bytes equal to the sum of what the backward needs, counted by hand;
// - GELU, SiLU, LayerNorm and softmax written as primitive operators fused into one node each;
// - an LSTM unrolled into one node per time step, keeping what ATen's cell keeps; a chain under --as-chain.
#include "common/onnx_builder.h"
#include "io/onnx_import.h"
#include "model/segment_chain.h"
#include "sim/graph_simulator.h"

#include <QtTest>

using namespace ckpt;
using namespace ckpt::test;

namespace {

const std::string kSource = "model.onnx";

Result<OnnxImport> load(OnnxBuilder& b, const OnnxImportOptions& options = {}) {
    return importOnnxBytes(b.bytes(), kSource, options);
}

const GraphNode& node(const Graph& g, const std::string& id) {
    const int i = g.indexOf(id);
    if (i < 0) qFatal("no node %s", id.c_str());
    return g.node(i);
}

QString error(const Result<OnnxImport>& r) {
    return r.ok() ? QString("imported") : QString::fromStdString(r.error());
}

// What the store-all plan holds in level 0 when its forward sweep ends (the simulator's figure).
std::int64_t heldAfterForward(const Graph& g) {
    auto t = simulateGraph(g, graphStoreAll(g));
    if (!t) qFatal("store-all: %s", t.error().c_str());
    return t->totals.held_after_forward_bytes;
}

void boolScalar(OnnxBuilder& b, const std::string& name, bool v) {
    auto* t = b.graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::BOOL);
    t->add_int32_data(v ? 1 : 0);
}

void floatScalar(OnnxBuilder& b, const std::string& name, float v) {
    b.weight(name, {}, {v});
}

// The transformer's head split as torch.onnx.export writes it with a dynamic batch and sequence: the new shape
// [B, S, heads, D / heads] computed from Shape(x), then a transpose and the scores, scaled by a constant computed as
// sqrt(D / heads) from the shape too, plus a causal mask [1, 1, 16, 16] sliced to [.., S, S].
OnnxBuilder attentionWithComputedShapes() {
    OnnxBuilder b("heads");
    b.input("x", {-1, -1, 8}, {"batch", "seq"});
    b.ints("i0", {0}, true);
    b.ints("i1", {1}, true);
    b.ints("i2", {2}, true);
    b.ints("axes0", {0});
    b.ints("heads", {2}, true);
    b.ints("heads1", {2});
    const std::string shape = b.op("Shape", "shape", {"x"});
    const std::string batch = b.op("Gather", "g_batch", {shape, "i0"});
    const std::string seq = b.op("Gather", "g_seq", {shape, "i1"});
    const std::string width = b.op("Gather", "g_width", {shape, "i2"});
    const std::string headDim = b.op("Div", "head_dim", {width, "heads"});
    const std::string target =
        b.op("Concat", "target",
             {b.op("Unsqueeze", "u_batch", {batch, "axes0"}), b.op("Unsqueeze", "u_seq", {seq, "axes0"}), "heads1",
              b.op("Unsqueeze", "u_dim", {headDim, "axes0"})});
    OnnxBuilder::attr(b.last(), "axis", std::int64_t(0));
    const std::string split = b.op("Reshape", "split_heads", {"x", target});
    const std::string q = b.op("Transpose", "q", {split});
    OnnxBuilder::attr(b.last(), "perm", std::vector<std::int64_t>{0, 2, 1, 3});
    const std::string k = b.op("Transpose", "k", {split});
    OnnxBuilder::attr(b.last(), "perm", std::vector<std::int64_t>{0, 2, 3, 1});
    const std::string scores = b.op("MatMul", "scores", {q, k});
    const std::string scale = b.op("Sqrt", "scale", {b.op("Cast", "dim_f", {headDim})});
    OnnxBuilder::attr(b.graph()->mutable_node(b.graph()->node_size() - 2), "to",
                      std::int64_t(onnx::TensorProto::FLOAT));
    const std::string scaled = b.op("Div", "scaled", {scores, scale});
    // The causal mask, a constant of 16 x 16 positions, sliced to the sequence.
    auto* mask = b.graph()->add_initializer();
    mask->set_name("mask");
    mask->set_data_type(onnx::TensorProto::FLOAT);
    for (auto d : {1, 1, 16, 16})
        mask->add_dims(d);
    b.ints("zero", {0});
    b.ints("axes23", {2, 3});
    const std::string seq1 = b.op("Unsqueeze", "u_seq2", {seq, "axes0"});
    const std::string ends = b.op("Concat", "ends", {seq1, seq1});
    OnnxBuilder::attr(b.last(), "axis", std::int64_t(0));
    b.ints("zeros2", {0, 0});
    const std::string sliced = b.op("Slice", "mask_sliced", {"mask", "zeros2", ends, "axes23"});
    const std::string masked = b.op("Add", "masked", {scaled, sliced});
    b.output(b.op("Softmax", "softmax", {masked}));
    return b;
}

} // namespace

class TestOnnxTraining : public QObject {
    Q_OBJECT
private slots:
    void shapeComputationsAreFoldedOnTheGivenDimensions() {
        OnnxBuilder b = attentionWithComputedShapes();
        OnnxImportOptions o;
        o.batch = 3;
        o.inputs = {{"x", {3, 5, 8}}};
        auto m = load(b, o);
        QVERIFY2(m.ok(), qPrintable(error(m)));
        QVERIFY2(m->warnings.empty(), m->warnings.empty() ? "" : m->warnings.front().c_str());
        const Graph& g = m->graph;
        // B 3, S 5, 2 heads of 4: q (3,2,5,4), k (3,2,4,5), scores (3,2,5,5); fp32.
        QCOMPARE(node(g, "q").output_bytes, 3 * 2 * 5 * 4 * 4);
        QCOMPARE(node(g, "k").output_bytes, 3 * 2 * 4 * 5 * 4);
        QCOMPARE(node(g, "scores").output_bytes, 3 * 2 * 5 * 5 * 4);
        QCOMPARE(node(g, "scaled").output_bytes, 3 * 2 * 5 * 5 * 4);
        QCOMPARE(node(g, "masked").output_bytes, 3 * 2 * 5 * 5 * 4);
        QCOMPARE(node(g, "softmax").output_bytes, 3 * 2 * 5 * 5 * 4);
        // The shape computations are no nodes: x, q, k, scores, scaled, masked, softmax (the mask is a constant; its
        // slice, of a constant, too).
        QCOMPARE(g.size(), 7);
        // Another sequence length: the same file, other sizes.
        o.inputs = {{"x", {3, 16, 8}}};
        auto longer = load(b, o);
        QVERIFY2(longer.ok(), qPrintable(error(longer)));
        QCOMPARE(node(longer->graph, "softmax").output_bytes, 3 * 2 * 16 * 16 * 4);
    }

    void aNodeOfUnknownSizeIsRefusedNamingIt() {
        // NonZero's output length depends on the data: no shape computation can know it, nor the Relu after it.
        OnnxBuilder b("data_dependent");
        b.input("x", {4, 4});
        const std::string nz = b.op("NonZero", "nz", {"x"});
        b.output(b.op("Relu", "after", {b.op("Cast", "as_float", {nz})}));
        OnnxBuilder::attr(b.graph()->mutable_node(1), "to", std::int64_t(onnx::TensorProto::FLOAT));
        const QString e = error(load(b));
        QVERIFY2(e.startsWith("model.onnx: 3 nodes with an output of unknown size: nz (NonZero), as_float (Cast), "
                              "after (Relu)"),
                 qPrintable(e));
        QVERIFY2(e.contains("--allow-unsized imports them as 0 bytes"), qPrintable(e));
        OnnxImportOptions o;
        o.allow_unsized = true;
        auto m = load(b, o);
        QVERIFY2(m.ok(), qPrintable(error(m)));
        QCOMPARE(m->warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(m->warnings.front()).contains("counted as 0 bytes (--allow-unsized)"));
        QCOMPARE(node(m->graph, "after").output_bytes, 0);
    }

    void aShapeComputedFromDataCannotBeFolded() {
        // The Reshape's target is computed from x's values, not its dimensions: nothing can fold it.
        OnnxBuilder b("reshape_by_data");
        b.input("x", {2, 3});
        b.input("target", {2}, {}, onnx::TensorProto::INT64);
        const std::string shape = b.op("Abs", "target_abs", {"target"});
        b.output(b.op("Reshape", "reshape", {"x", shape}));
        b.output(b.op("Relu", "relu", {"reshape:0"}));
        const QString e = error(load(b));
        QVERIFY2(e.startsWith("model.onnx: ") && e.contains("reshape (Reshape)") && e.contains("relu (Relu)") &&
                     e.contains("with an output of unknown size"),
                 qPrintable(e));
    }

    void hostileShapeComputationsAreLeftUnfolded() {
        // A Reshape of a constant to dimensions whose product overflows 64 bits, a Range of 10^12 elements: neither
        // is folded (and nothing overflows: UBSan runs this in CI); the activation path imports.
        OnnxBuilder b("hostile");
        b.input("x", {2, 3});
        b.ints("four", {1, 2, 3, 4});
        b.ints("huge", {std::int64_t(1) << 40, std::int64_t(1) << 40, -1});
        b.ints("start", {0}, true);
        b.ints("limit", {1000000000000}, true);
        b.ints("step", {1}, true);
        b.ints("far", {99}, true);
        b.op("Reshape", "reshape", {"four", "huge"});
        b.op("Range", "range", {"start", "limit", "step"});
        b.output(b.op("Relu", "relu", {"x"}));
        auto m = load(b);
        QVERIFY2(m.ok(), qPrintable(error(m)));
        QCOMPARE(node(m->graph, "relu").output_bytes, 2 * 3 * 4);
        // A Gather out of range: libonnx's inference stops there (every later node unsized), and the import says so
        // instead of guessing.
        OnnxBuilder c("hostile_gather");
        c.input("x", {2, 3});
        c.ints("four", {1, 2, 3, 4});
        c.ints("far", {99}, true);
        c.op("Gather", "gather", {"four", "far"});
        c.output(c.op("Relu", "relu", {"x"}));
        const QString e = error(load(c));
        QVERIFY2(e.startsWith("model.onnx: 1 node with an output of unknown size: relu (Relu)") &&
                     e.contains("indices must be in [-rank, rank-1]"),
                 qPrintable(e));
    }

    void batchFillsOnlyOpenDimensions() {
        OnnxBuilder fixed("fixed");
        fixed.input("x", {2, 3, 8, 8});
        fixed.output(fixed.op("Relu", "relu", {"x"}));
        OnnxImportOptions o;
        o.batch = 32;
        QCOMPARE(error(load(fixed, o)),
                 "model.onnx: input 'x' dimension 0 is fixed at 2 in the file; --batch 32 cannot change it: the "
                 "file's Reshape targets and other shapes were computed for 2 when it was exported. Re-export with "
                 "that dimension dynamic (torch.onnx.export(..., dynamic_axes={'x': {0: 'batch'}})), or leave "
                 "--batch out");
        o.batch = 2; // the file's own value
        QVERIFY(load(fixed, o).ok());
        o = {};
        o.inputs = {{"x", {2, 3, 9, 8}}};
        QVERIFY2(error(load(fixed, o))
                     .startsWith("model.onnx: input 'x' dimension 2 is fixed at 8 in the file; "
                                 "--input x=2x3x9x8 cannot change it"),
                 qPrintable(error(load(fixed, o))));
        o.inputs = {{"x", {2, 3, 8}}};
        QCOMPARE(error(load(fixed, o)), "model.onnx: input 'x' has 4 dimensions in the file; --input x=2x3x8 gives 3");

        // Sequence first, batch second (nn.TransformerEncoder's layout): --batch fills the dimension named batch.
        OnnxBuilder seqFirst("seq_first");
        seqFirst.input("x", {64, -1, 16}, {"", "batch"});
        seqFirst.output(seqFirst.op("Relu", "relu", {"x"}));
        o = {};
        o.batch = 4;
        auto m = load(seqFirst, o);
        QVERIFY2(m.ok(), qPrintable(error(m)));
        QCOMPARE(node(m->graph, "relu").output_bytes, 64 * 4 * 16 * 4);
        // --input fills the open dimension; its fixed ones must agree.
        o = {};
        o.inputs = {{"x", {64, 2, 16}}};
        QCOMPARE(node(load(seqFirst, o)->graph, "relu").output_bytes, 64 * 2 * 16 * 4);
    }

    void trainingModeKeepsWhatAutogradKeeps() {
        // conv -> BatchNorm (training: three outputs) -> ReLU -> MaxPool -> Dropout (training, 10 %) -> Gemm.
        OnnxBuilder b("train");
        b.input("x", {-1, 3, 8, 8}, {"batch"});
        b.weight("w", {4, 3, 3, 3});
        for (const char* p : {"gamma", "beta", "mean", "var"})
            b.weight(p, {4});
        b.weight("fc_w", {10, 64});
        floatScalar(b, "ratio", 0.1f);
        boolScalar(b, "training", true);
        b.ints("flat", {-1, 64});
        OnnxBuilder::attr(b.node("Conv", "conv", {"x", "w"}, {"conv:0"}), "pads",
                          std::vector<std::int64_t>{1, 1, 1, 1});
        auto* bn = b.node("BatchNormalization", "bn", {"conv:0", "gamma", "beta", "mean", "var"},
                          {"bn:0", "bn_mean", "bn_var"});
        OnnxBuilder::attr(bn, "training_mode", std::int64_t(1));
        const std::string relu = b.op("Relu", "relu", {"bn:0"});
        const std::string pool = b.op("MaxPool", "pool", {relu});
        OnnxBuilder::attr(b.last(), "kernel_shape", std::vector<std::int64_t>{2, 2});
        OnnxBuilder::attr(b.last(), "strides", std::vector<std::int64_t>{2, 2});
        b.node("Dropout", "drop", {pool, "ratio", "training"}, {"drop:0", "drop_mask"});
        const std::string flat = b.op("Reshape", "flatten", {"drop:0", "flat"});
        b.output(b.op("Gemm", "fc", {flat, "fc_w"}));
        OnnxBuilder::attr(b.last(), "transB", std::int64_t(1));
        b.output("bn_mean");
        b.output("bn_var");
        OnnxImportOptions o;
        o.batch = 2;
        auto m = load(b, o);
        QVERIFY2(m.ok(), qPrintable(error(m)));
        const Graph& g = m->graph;
        const std::int64_t act = 2 * 4 * 8 * 8 * 4; // conv, bn, relu outputs
        const std::int64_t pooled = 2 * 4 * 4 * 4 * 4;
        QCOMPARE(node(g, "bn").output_bytes, act); // not the running statistics
        // BatchNorm keeps its input and per-channel mean and inverse deviation (fp32), counted with its input; MaxPool
        // its input and int64 indices; Dropout a byte per element.
        QCOMPARE(node(g, "conv").output_bytes, act + 2 * 4 * 4);
        QCOMPARE(m->kept_bytes[std::size_t(g.indexOf("conv"))], 2 * 4 * 4);
        QCOMPARE(g.indexOf("bn.statistics"), -1);
        QCOMPARE(node(g, "pool.indices").output_bytes, pooled / 4 * 8);
        QCOMPARE(node(g, "drop.mask").output_bytes, pooled / 4);
        QVERIFY(node(g, "bn").needs_inputs && !node(g, "bn").needs_output);
        QVERIFY(node(g, "pool").needs_inputs && !node(g, "pool").needs_output);
        QVERIFY(!node(g, "drop").needs_inputs && !node(g, "drop").needs_output);
        QVERIFY(node(g, "drop.mask").needs_output);
        QVERIFY(node(g, "relu").in_place);
        // Held when the forward ends, as autograd saves them: x (conv's input), conv's output (bn's input), bn's
        // statistics, relu's output (its own backward's; the pool's input; written over bn's output), the pool's
        // indices, the dropout mask, the dropout's output (fc's input).
        const std::int64_t expected = 2 * 3 * 8 * 8 * 4 + act + 32 + act + pooled * 2 + pooled / 4 + pooled;
        QCOMPARE(heldAfterForward(g), expected);
        std::string notes;
        for (const auto& n : m->notes)
            notes += n + "\n";
        QVERIFY2(QString::fromStdString(notes).contains("BatchNormalization x1: keeps its input and per-channel mean"),
                 notes.c_str());
        QVERIFY2(QString::fromStdString(notes).contains("MaxPool x1: keeps its input and the int64 indices"),
                 notes.c_str());
        QVERIFY2(QString::fromStdString(notes).contains("Dropout x1: keeps a one-byte mask"), notes.c_str());
    }

    void anInferenceExportSaysWhatItLost() {
        // Dropout without training_mode (inference) is an identity, and a warning; convolutions without any
        // normalization are noted.
        OnnxBuilder b("eval");
        b.input("x", {1, 3, 8, 8});
        b.weight("w", {4, 3, 3, 3});
        b.weight("w2", {4, 4, 3, 3});
        const std::string conv = b.op("Conv", "conv", {"x", "w"});
        const std::string conv2 = b.op("Conv", "conv2", {b.op("Dropout", "drop", {conv}), "w2"});
        b.output(b.op("Relu", "relu", {conv2}));
        auto m = load(b);
        QVERIFY2(m.ok(), qPrintable(error(m)));
        QCOMPARE(m->graph.size(), 4); // x, conv, conv2, relu
        QCOMPARE(m->warnings.size(), std::size_t(1));
        QVERIFY2(m->warnings[0].find("Dropout x1 in inference mode: an identity") == 0, m->warnings[0].c_str());
        std::string notes;
        for (const auto& n : m->notes)
            notes += n + "\n";
        QVERIFY2(QString::fromStdString(notes).contains("no BatchNormalization among 2 convolutions"), notes.c_str());
    }

    void primitiveKernelsAreFusedIntoOneNodeEach() {
        // LayerNorm (nine operators, as opset < 17 exports it), then GELU (five), then SiLU (two), then a softmax
        // written out (five); between them MatMuls that keep their inputs.
        OnnxBuilder b("primitives", 13);
        b.input("x", {2, 4, 8});
        b.ints("axes", {-1});
        floatScalar(b, "two", 2.0f);
        floatScalar(b, "eps", 1e-5f);
        floatScalar(b, "sqrt2", 1.4142135f);
        floatScalar(b, "one", 1.0f);
        floatScalar(b, "half", 0.5f);
        b.weight("gamma", {8});
        b.weight("beta", {8});
        b.weight("w1", {8, 8});
        b.weight("w2", {8, 8});
        b.weight("w3", {8, 8});
        const std::string mean = b.op("ReduceMean", "ln_mean", {"x"});
        OnnxBuilder::attr(b.last(), "axes", std::vector<std::int64_t>{-1});
        const std::string d = b.op("Sub", "ln_sub", {"x", mean});
        const std::string var = b.op("ReduceMean", "ln_var", {b.op("Pow", "ln_pow", {d, "two"})});
        OnnxBuilder::attr(b.last(), "axes", std::vector<std::int64_t>{-1});
        const std::string std_ = b.op("Sqrt", "ln_sqrt", {b.op("Add", "ln_eps", {var, "eps"})});
        const std::string ln =
            b.op("Add", "ln", {b.op("Mul", "ln_scale", {b.op("Div", "ln_div", {d, std_}), "gamma"}), "beta"});
        const std::string h = b.op("MatMul", "fc1", {ln, "w1"});
        const std::string erf = b.op("Erf", "gelu_erf", {b.op("Div", "gelu_div", {h, "sqrt2"})});
        const std::string gelu =
            b.op("Mul", "gelu", {b.op("Mul", "gelu_mul", {h, b.op("Add", "gelu_add", {erf, "one"})}), "half"});
        const std::string h2 = b.op("MatMul", "fc2", {gelu, "w2"});
        const std::string silu = b.op("Mul", "silu", {h2, b.op("Sigmoid", "silu_sigmoid", {h2})});
        const std::string h3 = b.op("MatMul", "fc3", {silu, "w3"});
        const std::string max = b.op("ReduceMax", "sm_max", {h3});
        OnnxBuilder::attr(b.last(), "axes", std::vector<std::int64_t>{-1});
        const std::string e = b.op("Exp", "sm_exp", {b.op("Sub", "sm_sub", {h3, max})});
        const std::string sum = b.op("ReduceSum", "sm_sum", {e, "axes"});
        b.output(b.op("Div", "softmax", {e, sum}));
        auto m = load(b);
        QVERIFY2(m.ok(), qPrintable(error(m)));
        const Graph& g = m->graph;
        // x (with LayerNorm's statistics), ln, fc1, gelu, fc2, silu, fc3, softmax.
        QCOMPARE(g.size(), 8);
        QCOMPARE(m->fused, 8 + 4 + 1 + 4);
        QCOMPARE(m->ops[std::size_t(g.indexOf("ln"))], std::string("LayerNormalization"));
        QCOMPARE(m->ops[std::size_t(g.indexOf("gelu"))], std::string("Gelu"));
        QCOMPARE(m->ops[std::size_t(g.indexOf("silu"))], std::string("Silu"));
        QCOMPARE(m->ops[std::size_t(g.indexOf("softmax"))], std::string("Softmax"));
        const std::int64_t t = 2 * 4 * 8 * 4;
        for (const char* id : {"ln", "gelu", "silu", "softmax"})
            QCOMPARE(node(g, id).output_bytes, t);
        QCOMPARE(node(g, "x").output_bytes, t + 2 * 2 * 4 * 4); // and the mean and 1/std of each row of 8
        QVERIFY(node(g, "gelu").needs_inputs && node(g, "silu").needs_inputs);
        QVERIFY(!node(g, "softmax").needs_inputs && node(g, "softmax").needs_output);
        // Held: x and its statistics (LayerNorm), ln (fc1's input), fc1's output (GELU's), gelu (fc2's), fc2's
        // output (SiLU's), silu (fc3's), the softmax's output.
        QCOMPARE(heldAfterForward(g), 7 * t + 2 * 2 * 4 * 4);
        // As primitives they would be counted operator by operator: many more tensors.
        QCOMPARE(m->totalFlops(), 8.0 * t / 4 + 2.0 * 8 * 8 * 8 * 3 + 4.0 * t / 4 * 2 + 5.0 * t / 4);
    }

    void anLstmUnrollsIntoItsTimeSteps() {
        // X (S 5, B 2, I 3), hidden 4, one direction; Y read by a MatMul (every step's output), or only Y_h.
        const std::int64_t S = 5, B = 2, I = 3, H = 4;
        auto build = [&](bool lastOnly) {
            OnnxBuilder b(lastOnly ? "lstm_last" : "lstm_all");
            b.input("x", {S, -1, I}, {"", "batch"});
            b.weight("W", {1, 4 * H, I});
            b.weight("R", {1, 4 * H, H});
            b.weight("Bias", {1, 8 * H});
            b.weight("head", {H, 10});
            OnnxBuilder::attr(b.node("LSTM", "lstm", {"x", "W", "R", "Bias"}, {"Y", "Y_h"}), "hidden_size", H);
            b.output(b.op("MatMul", "fc", {lastOnly ? "Y_h" : "Y", "head"}));
            return b;
        };
        OnnxImportOptions o;
        o.batch = B;
        OnnxBuilder all = build(false);
        auto m = load(all, o);
        QVERIFY2(m.ok(), qPrintable(error(m)));
        const Graph& g = m->graph;
        // x, the gates and the cell of each step, the stack Y, fc.
        QCOMPARE(g.size(), 1 + 2 * int(S) + 1 + 1);
        QCOMPARE(node(g, "lstm.t3").output_bytes, 2 * B * H * 4); // h and c
        QCOMPARE(node(g, "lstm.t3.gates").output_bytes, 5 * B * H * 4);
        QCOMPARE(node(g, "lstm.t1.gates").output_bytes, (5 + 2) * B * H * 4); // and the zero h0, c0
        QCOMPARE(node(g, "lstm.Y").output_bytes, S * B * H * 4);
        QVERIFY(node(g, "lstm.t3").needs_inputs);
        // Per step 2*B*4H*(I+H) multiply-adds' FLOPs and the gates' element-wise work.
        QCOMPARE(m->flops[std::size_t(g.indexOf("lstm.t3"))], 2.0 * B * 4 * H * (I + H) + 8.0 * B * H * 4);
        // Held as ATen's cell keeps them: X (the input projection's input), h and c before every step (h0, c0
        // included), the gates and tanh(c) of every step, and the stack Y (fc's input).
        QCOMPARE(heldAfterForward(g), 4 * (S * B * I + 2 * S * B * H + 5 * S * B * H + S * B * H));
        // A chain of time steps only when nothing reads every step: with Y read, every step's output jumps to the
        // stack, so only the first step's gates and cell cut (nothing jumps over them), then steps 2 to 5 and the
        // stack are one segment, the head another; with Y_h alone, a segment per time step.
        auto whole = segmentChain(g);
        QVERIFY2(whole.ok(), whole ? "" : whole.error().c_str());
        QCOMPARE(whole->length(), 4);
        OnnxBuilder last = build(true);
        auto m2 = load(last, o);
        QVERIFY2(m2.ok(), qPrintable(error(m2)));
        auto chain = segmentChain(m2->graph);
        QVERIFY2(chain.ok(), chain ? "" : chain.error().c_str());
        // The first step's gates (with x_0), its cell, then each later step, then the head.
        QCOMPARE(chain->length(), int(S) + 2);
        // Step 3 (time step 2)'s tape: its gates and the state before it (x is the chain's x_0, held throughout).
        QCOMPARE(chain->step(3).tape_bytes, 5 * B * H * 4 + 2 * B * H * 4);
        QCOMPARE(chain->step(3).state_bytes, 2 * B * H * 4);

        // A hidden_size its weights contradict is refused, naming the node.
        OnnxBuilder wrong = build(false);
        wrong.graph()->mutable_node(0)->mutable_attribute(0)->set_i(5);
        QVERIFY2(error(load(wrong, o))
                     .startsWith("model.onnx: node 'lstm' (LSTM): hidden_size 5 disagrees with its "
                                 "weights"),
                 qPrintable(error(load(wrong, o))));
    }
};

QTEST_GUILESS_MAIN(TestOnnxTraining)
#include "tst_onnx_training.moc"
