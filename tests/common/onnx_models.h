#pragma once
// The ONNX models of the importer's tests and of examples/onnx/, built with the ONNX C++ API (OnnxBuilder). The real
// networks follow torchvision's module structure and names (the node ids of the shipped ckpt-graph examples) with the
// operators torch.onnx.export writes for them, BatchNormalization kept as an operator of its own (an inference export
// fuses it into the convolution) and Dropout without its training flag (an identity, which the importer folds). Their
// weights are shape-only, and the batch (and the transformer's sequence) is a symbolic dimension, as with dynamic_axes.
#include "common/onnx_builder.h"

#include <cmath>

namespace ckpt::test {

// Layers that name their output "<name>:0" and declare their weights.
struct OnnxLayers {
    OnnxBuilder& b;

    std::string conv(const std::string& name, const std::string& x, std::int64_t cin, std::int64_t cout, std::int64_t k,
                     std::int64_t stride = 1, bool bias = false) {
        b.weight(name + ".weight", {cout, cin, k, k});
        std::vector<std::string> in = {x, name + ".weight"};
        if (bias) b.weight(name + ".bias", {cout}), in.push_back(name + ".bias");
        const std::string y = b.op("Conv", name, in);
        OnnxBuilder::attr(b.last(), "kernel_shape", std::vector<std::int64_t>{k, k});
        OnnxBuilder::attr(b.last(), "strides", std::vector<std::int64_t>{stride, stride});
        OnnxBuilder::attr(b.last(), "pads", std::vector<std::int64_t>{k / 2, k / 2, k / 2, k / 2});
        return y;
    }
    std::string bn(const std::string& name, const std::string& x, std::int64_t c) {
        for (const char* p : {".weight", ".bias", ".running_mean", ".running_var"})
            b.weight(name + p, {c});
        const std::string y =
            b.op("BatchNormalization", name,
                 {x, name + ".weight", name + ".bias", name + ".running_mean", name + ".running_var"});
        OnnxBuilder::attr(b.last(), "epsilon", 1e-5f);
        return y;
    }
    std::string maxpool(const std::string& name, const std::string& x, std::int64_t k, std::int64_t stride,
                        std::int64_t pad) {
        const std::string y = b.op("MaxPool", name, {x});
        OnnxBuilder::attr(b.last(), "kernel_shape", std::vector<std::int64_t>{k, k});
        OnnxBuilder::attr(b.last(), "strides", std::vector<std::int64_t>{stride, stride});
        OnnxBuilder::attr(b.last(), "pads", std::vector<std::int64_t>{pad, pad, pad, pad});
        return y;
    }
    std::string flatten(const std::string& name, const std::string& x) {
        const std::string y = b.op("Flatten", name, {x});
        OnnxBuilder::attr(b.last(), "axis", std::int64_t(1));
        return y;
    }
    // y = x W^T + bias, W (out, in) as torch.nn.Linear stores it.
    std::string gemm(const std::string& name, const std::string& x, std::int64_t in, std::int64_t out) {
        b.weight(name + ".weight", {out, in});
        b.weight(name + ".bias", {out});
        const std::string y = b.op("Gemm", name, {x, name + ".weight", name + ".bias"});
        OnnxBuilder::attr(b.last(), "transB", std::int64_t(1));
        return y;
    }
    // x W + bias over the last dimension, as torch exports nn.Linear on a 3-d tensor: MatMul, then Add.
    std::string linear(const std::string& name, const std::string& x, std::int64_t in, std::int64_t out) {
        b.weight(name + ".weight", {in, out});
        b.weight(name + ".bias", {out});
        return b.op("Add", name + ".bias_add", {b.op("MatMul", name, {x, name + ".weight"}), name + ".bias"});
    }
    std::string transpose(const std::string& name, const std::string& x, const std::vector<std::int64_t>& perm) {
        const std::string y = b.op("Transpose", name, {x});
        OnnxBuilder::attr(b.last(), "perm", perm);
        return y;
    }
    std::string layernorm(const std::string& name, const std::string& x, std::int64_t d) {
        b.weight(name + ".weight", {d});
        b.weight(name + ".bias", {d});
        const std::string y = b.op("LayerNormalization", name, {x, name + ".weight", name + ".bias"});
        OnnxBuilder::attr(b.last(), "axis", std::int64_t(-1));
        return y;
    }
};

// Self-attention over x (B, S, d) with `heads` heads: qkv (one d -> 3d MatMul), Split into Q, K, V, each reshaped to
// (B, S, heads, d/heads) and transposed, scores = Q K^T, Div by sqrt(d/heads), Softmax, context = P V, transposed back
// and reshaped to (B, S, d) through a shape computed from x's (Shape, Gather, Unsqueeze, Concat: what torch writes
// for a dynamic reshape), proj (d -> d). With `bias`, each MatMul adds its bias (torch's nn.Linear). Returns proj.
inline std::string attention(OnnxLayers& l, const std::string& p, const std::string& x, std::int64_t d,
                             std::int64_t heads, bool bias) {
    OnnxBuilder& b = l.b;
    const std::int64_t dh = d / heads;
    auto linear = [&](const std::string& name, const std::string& in, std::int64_t n, std::int64_t m) {
        if (bias) return l.linear(name, in, n, m);
        b.weight(name + ".weight", {n, m});
        return b.op("MatMul", name, {in, name + ".weight"});
    };
    const std::string qkv = linear(p + "qkv", x, d, 3 * d);
    b.ints(p + "split_sizes", {d, d, d});
    b.node("Split", p + "split", {qkv, p + "split_sizes"}, {p + "q", p + "k", p + "v"});
    OnnxBuilder::attr(b.last(), "axis", std::int64_t(-1));
    b.ints(p + "heads_shape", {0, 0, heads, dh});
    auto heads4 = [&](const std::string& t, const std::vector<std::int64_t>& perm) {
        return l.transpose(t + "_t", b.op("Reshape", t + "_heads", {t, p + "heads_shape"}), perm);
    };
    const std::string q = heads4(p + "q", {0, 2, 1, 3}), k = heads4(p + "k", {0, 2, 3, 1});
    const std::string v = heads4(p + "v", {0, 2, 1, 3});
    b.weight(p + "scale", {}, {float(std::sqrt(double(dh)))});
    const std::string probs = b.op("Softmax", p + "softmax",
                                   {b.op("Div", p + "scale_div", {b.op("MatMul", p + "scores", {q, k}), p + "scale"})});
    OnnxBuilder::attr(b.last(), "axis", std::int64_t(-1));
    const std::string ctx = l.transpose(p + "context_t", b.op("MatMul", p + "context", {probs, v}), {0, 2, 1, 3});
    // The (B, S, d) target shape, from x's own shape.
    const std::string shape = b.op("Shape", p + "shape", {x});
    std::vector<std::string> parts;
    for (int axis = 0; axis < 2; ++axis) {
        const std::string a = p + "axis" + std::to_string(axis);
        b.ints(a, {axis}, true);
        b.ints(a + "_unsqueeze", {0});
        parts.push_back(b.op("Unsqueeze", a + "_dim", {b.op("Gather", a + "_gather", {shape, a}), a + "_unsqueeze"}));
    }
    b.ints(p + "width", {d});
    parts.push_back(p + "width");
    const std::string target = b.op("Concat", p + "target", parts);
    OnnxBuilder::attr(b.last(), "axis", std::int64_t(0));
    return linear(p + "proj", b.op("Reshape", p + "merge_heads", {ctx, target}), d, d);
}

// input (2, 3, 8, 8) -> conv 3x3 pad 1 (4 channels, bias) -> relu -> max-pool 2x2/2 -> flatten -> gemm (64 -> 10).
inline OnnxBuilder convStack() {
    OnnxBuilder b("conv-stack");
    OnnxLayers l{b};
    b.input("x", {2, 3, 8, 8});
    const std::string y = l.conv("conv", "x", 3, 4, 3, 1, true);
    const std::string p = l.maxpool("pool", b.op("Relu", "relu", {y}), 2, 2, 0);
    b.output(l.gemm("fc", l.flatten("flatten", p), 64, 10));
    return b;
}

// x (1, 8, 4, 4) -> conv 3x3 -> bn -> relu -> conv 3x3 -> add x -> relu.
inline OnnxBuilder residualBlock() {
    OnnxBuilder b("residual-block");
    OnnxLayers l{b};
    b.input("x", {1, 8, 4, 4});
    const std::string y = b.op("Relu", "relu1", {l.bn("bn", l.conv("conv1", "x", 8, 8, 3), 8)});
    b.output(b.op("Relu", "relu2", {b.op("Add", "add", {l.conv("conv2", y, 8, 8, 3), "x"})}));
    return b;
}

// x (1, 4, 8): attention with 2 heads of 4, no biases, then the residual add.
inline OnnxBuilder attentionBlock() {
    OnnxBuilder b("attention-block");
    OnnxLayers l{b};
    b.input("x", {1, 4, 8});
    b.output(b.op("Add", "add", {attention(l, "", "x", 8, 2, false), "x"}));
    return b;
}

// torchvision's ResNet-18 (basic blocks) or ResNet-50 (bottlenecks, the stride on the 3x3 conv: "v1.5").
inline OnnxBuilder resnet(int depth) {
    OnnxBuilder b("resnet" + std::to_string(depth));
    OnnxLayers l{b};
    b.input("input", {-1, 3, 224, 224}, {"batch"});
    std::string x =
        l.maxpool("maxpool", b.op("Relu", "relu", {l.bn("bn1", l.conv("conv1", "input", 3, 64, 7, 2), 64)}), 3, 2, 1);
    const bool bottleneck = depth == 50;
    const int blocks[] = {bottleneck ? 3 : 2, bottleneck ? 4 : 2, bottleneck ? 6 : 2, bottleneck ? 3 : 2};
    std::int64_t channels = 64;
    for (int s = 1; s <= 4; ++s) {
        const std::int64_t width = std::int64_t(64) << (s - 1), out = bottleneck ? 4 * width : width;
        for (int k = 0; k < blocks[s - 1]; ++k) {
            const std::string p = "layer" + std::to_string(s) + "." + std::to_string(k) + ".";
            const std::int64_t stride = s > 1 && k == 0 ? 2 : 1;
            std::string y;
            if (bottleneck) {
                y = b.op("Relu", p + "relu1", {l.bn(p + "bn1", l.conv(p + "conv1", x, channels, width, 1), width)});
                y = b.op("Relu", p + "relu2",
                         {l.bn(p + "bn2", l.conv(p + "conv2", y, width, width, 3, stride), width)});
                y = l.bn(p + "bn3", l.conv(p + "conv3", y, width, out, 1), out);
            } else {
                y = b.op("Relu", p + "relu1",
                         {l.bn(p + "bn1", l.conv(p + "conv1", x, channels, width, 3, stride), width)});
                y = l.bn(p + "bn2", l.conv(p + "conv2", y, width, width, 3), width);
            }
            std::string shortcut = x;
            if (stride != 1 || channels != out)
                shortcut = l.bn(p + "downsample.bn", l.conv(p + "downsample.conv", x, channels, out, 1, stride), out);
            x = b.op("Relu", p + (bottleneck ? "relu3" : "relu2"), {b.op("Add", p + "add", {y, shortcut})});
            channels = out;
        }
    }
    b.output(l.gemm("fc", l.flatten("flatten", b.op("GlobalAveragePool", "avgpool", {x})), channels, 1000));
    return b;
}

// torchvision's VGG-16 (configuration D): convs with biases, dropout in the classifier (folded at import).
inline OnnxBuilder vgg16() {
    OnnxBuilder b("vgg16");
    OnnxLayers l{b};
    b.input("input", {-1, 3, 224, 224}, {"batch"});
    std::string x = "input";
    std::int64_t channels = 3;
    const std::pair<std::int64_t, int> stages[] = {{64, 2}, {128, 2}, {256, 3}, {512, 3}, {512, 3}};
    for (int s = 1; s <= 5; ++s) {
        for (int k = 1; k <= stages[s - 1].second; ++k) {
            const std::string id = std::to_string(s) + "_" + std::to_string(k);
            x = b.op("Relu", "relu" + id, {l.conv("conv" + id, x, channels, stages[s - 1].first, 3, 1, true)});
            channels = stages[s - 1].first;
        }
        x = l.maxpool("pool" + std::to_string(s), x, 2, 2, 0);
    }
    x = b.op("Dropout", "drop6", {b.op("Relu", "relu6", {l.gemm("fc6", l.flatten("flatten", x), 512 * 7 * 7, 4096)})});
    x = b.op("Dropout", "drop7", {b.op("Relu", "relu7", {l.gemm("fc7", x, 4096, 4096)})});
    b.output(l.gemm("fc8", x, 4096, 1000));
    return b;
}

// The shipped transformer-4x-b8-s512 example as torch exports it: 4 pre-LN encoder blocks, d 512, 8 heads, ffn 2048,
// GELU as torch writes the exact one (x * 0.5 * (1 + erf(x / sqrt 2)): Div, Erf, Add, Mul, Mul), a final layernorm.
// Input (batch, seq, 512), both symbolic.
inline OnnxBuilder transformerEncoder() {
    const std::int64_t d = 512, heads = 8, ffn = 2048;
    OnnxBuilder b("transformer-encoder");
    OnnxLayers l{b};
    b.input("input", {-1, -1, d}, {"batch", "seq"});
    b.weight("sqrt2", {}, {float(std::sqrt(2.0))});
    b.weight("one", {}, {1.0f});
    b.weight("half", {}, {0.5f});
    std::string x = "input";
    for (int k = 0; k < 4; ++k) {
        const std::string p = "block" + std::to_string(k) + ".";
        x = b.op("Add", p + "add1", {attention(l, p, l.layernorm(p + "ln1", x, d), d, heads, true), x});
        const std::string h = l.linear(p + "ffn1", l.layernorm(p + "ln2", x, d), d, ffn);
        const std::string erf = b.op("Erf", p + "gelu.erf", {b.op("Div", p + "gelu.div", {h, "sqrt2"})});
        const std::string gelu =
            b.op("Mul", p + "gelu.half",
                 {b.op("Mul", p + "gelu.mul", {h, b.op("Add", p + "gelu.add", {erf, "one"})}), "half"});
        x = b.op("Add", p + "add2", {l.linear(p + "ffn2", gelu, ffn, d), x});
    }
    b.output(l.layernorm("ln_f", x, d));
    return b;
}

} // namespace ckpt::test
