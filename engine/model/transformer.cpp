#include "model/transformer.h"

#include "model/hardware.h"

#include <string>
#include <vector>

namespace ckpt {

namespace {

// Builds the nodes of the graph one by one, each with its inputs.
struct Builder {
    const Hardware& hw;
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    std::string block; // the layer the next nodes belong to

    // A node `op` of `bytes` output, whose forward does `flops` reading and writing `traffic` bytes.
    std::string add(const std::string& id, const char* op, const std::vector<std::string>& inputs, std::int64_t bytes,
                    double flops, double traffic, bool needsInputs, bool needsOutput = false) {
        GraphNode n;
        n.id = block.empty() ? id : block + "." + id;
        n.op = op;
        n.block = block;
        n.flops = flops;
        n.output_bytes = bytes;
        n.forward = rooflineSeconds(flops, traffic, hw);
        n.backward = rooflineSeconds(2 * flops, 2 * traffic, hw);
        n.needs_inputs = needsInputs;
        n.needs_output = needsOutput;
        for (const std::string& from : inputs)
            edges.push_back(GraphEdge{from, n.id});
        nodes.push_back(std::move(n));
        return nodes.back().id;
    }
};

} // namespace

Result<Graph> transformerGraph(const TransformerShape& m, const Hardware& hw) {
    const std::int64_t s = m.seq, b = m.batch, h = m.hidden, a = m.heads, t = m.tensor_parallel;
    if (m.layers < 1 || s < 1 || b < 1 || h < 1 || a < 1 || t < 1)
        return fail("transformer: layers, hidden, heads, sequence, batch and tensor parallelism must be >= 1");
    if (m.bytes_per_value != 2 && m.bytes_per_value != 4)
        return fail("transformer: values take 2 bytes (fp16, bf16) or 4 (fp32), not " +
                    std::to_string(m.bytes_per_value));
    if (h % a != 0)
        return fail("transformer: the hidden size " + std::to_string(h) + " is not a multiple of the " +
                    std::to_string(a) + " heads");
    if (a % t != 0 || h % t != 0)
        return fail("transformer: tensor parallelism over " + std::to_string(t) +
                    " devices splits the heads and the hidden size, so both must be multiples of it (heads " +
                    std::to_string(a) + ", hidden " + std::to_string(h) + ")");
    if (m.sequence_parallel && s % t != 0)
        return fail("transformer: sequence parallelism over " + std::to_string(t) + " devices splits the sequence of " +
                    std::to_string(s) + ", which must be a multiple of it");
    if (!m.flash_attention && double(s) * double(s) * double(a) * double(b) * m.bytes_per_value > 1e15)
        return fail("transformer: an attention matrix of a*s^2*b values would take over 1 PB");

    const std::int64_t v = m.bytes_per_value;
    const std::int64_t sbh = s * b * h;
    const std::int64_t shared = m.sequence_parallel ? sbh / t : sbh; // what tensor parallelism alone does not split
    const std::int64_t scores = a * s * s * b / t;                   // one device's attention scores
    const double dh = double(h), ds = double(s), db = double(b), dt = double(t);
    Builder g{hw, {}, {}};
    // Layer norm keeps its input for its backward; a dropout mask (one byte a value) is kept by its dropout alone; a
    // residual add needs nothing. All three on the tensors tensor parallelism leaves whole.
    auto layerNorm = [&](const std::string& id, const std::string& in) {
        return g.add(id, "LayerNorm", {in}, shared * v, 5.0 * double(shared), 2.0 * double(shared * v), true);
    };
    auto mask = [&](const std::string& id, const std::string& after) {
        return g.add(id, "DropoutMask", {after}, shared, double(shared), double(shared), false);
    };
    auto residual = [&](const std::string& id, const std::string& a1, const std::string& a2) {
        return g.add(id, "Add", {a1, a2}, shared * v, double(shared), 3.0 * double(shared * v), false);
    };
    std::string x;
    if (m.vocab > 0) {
        // The lookup and its dropout as one node: its backward reads the token ids and the mask.
        auto tokens = g.add("tokens", "Input", {}, s * b * 8, 0, double(s * b * 8), false);
        auto embedMask = mask("embed-mask", tokens);
        x = g.add("embed", "Gather", {tokens, embedMask}, shared * v, double(shared), double(shared * (2 * v + 1)),
                  true);
    } else {
        x = g.add("embed", "Embedding", {}, shared * v, 0, double(shared * v), false);
    }
    for (int l = 0; l < m.layers; ++l) {
        g.block = "l" + std::to_string(l);
        const double gemm = 2 * ds * db * dh * dh / dt; // an h x h projection on the device's share
        auto ln1 = layerNorm("ln1", x);
        auto qkv = g.add("qkv", "MatMul", {ln1}, 3 * sbh / t * v, 3 * gemm, double((sbh + 3 * sbh / t) * v), true);
        std::string av;
        if (m.flash_attention) {
            const std::int64_t stats = 4 * a * s * b / t; // fp32 row maxima and sums of the softmax
            auto lse = g.add("attn-stats", "AttentionStats", {qkv}, stats, 0, double(stats), false);
            av = g.add("attention", "Attention", {qkv, lse}, sbh / t * v, 4 * db * ds * ds * dh / dt,
                       double(4 * sbh / t * v + stats), true, true);
        } else {
            auto qk = g.add("qk", "BatchMatMul", {qkv}, scores * v, 2 * db * ds * ds * dh / dt,
                            double((2 * sbh / t + scores) * v), true);
            auto softmax = g.add("softmax", "Softmax", {qk}, scores * v, 5.0 * double(scores), 2.0 * double(scores * v),
                                 false, true);
            auto attnMask = g.add("attn-mask", "DropoutMask", {softmax}, scores, double(scores), double(scores), false);
            auto attnDrop = g.add("attn-dropout", "Dropout", {softmax, attnMask}, scores * v, double(scores),
                                  double(scores * (2 * v + 1)), true);
            av = g.add("av", "BatchMatMul", {attnDrop, qkv}, sbh / t * v, 2 * db * ds * ds * dh / dt,
                       double((scores + 2 * sbh / t) * v), true);
        }
        auto projMask = mask("proj-mask", av);
        auto proj =
            g.add("proj", "MatMul", {av, projMask}, shared * v, gemm, double((sbh / t + shared) * v + shared), true);
        auto res1 = residual("residual1", x, proj);
        auto ln2 = layerNorm("ln2", res1);
        auto fc1 = g.add("fc1", "MatMul", {ln2}, 4 * sbh / t * v, 4 * gemm, double((sbh + 4 * sbh / t) * v), true);
        auto gelu =
            g.add("gelu", "Gelu", {fc1}, 4 * sbh / t * v, 8.0 * double(4 * sbh / t), double(8 * sbh / t * v), true);
        auto fcMask = mask("fc2-mask", gelu);
        auto fc2 = g.add("fc2", "MatMul", {gelu, fcMask}, shared * v, 4 * gemm,
                         double((4 * sbh / t + shared) * v + shared), true);
        x = residual("residual2", res1, fc2);
    }
    g.block.clear();
    auto lnf = layerNorm("final-ln", x);
    if (m.vocab > 0) {
        const std::int64_t logits = s * b * m.vocab / t * 4; // fp32, as the vocabulary-parallel cross entropy keeps
        auto out = g.add("logits", "MatMul", {lnf}, logits, 2 * ds * db * dh * double(m.vocab) / dt,
                         double(sbh * v + logits), true);
        g.add("loss", "Loss", {out}, 4, 5.0 * double(logits / 4), double(logits), true);
    } else {
        g.add("loss", "Loss", {lnf}, 4, double(shared), double(shared * v), true);
    }
    const std::string name = "transformer L" + std::to_string(m.layers) + " h" + std::to_string(h) + " a" +
                             std::to_string(a) + " s" + std::to_string(s) + " b" + std::to_string(b) +
                             (t > 1 ? " t" + std::to_string(t) : "") + (m.sequence_parallel ? " sp" : "") +
                             (m.flash_attention ? " flash" : "");
    return Graph::make(name, std::move(g.nodes), std::move(g.edges));
}

} // namespace ckpt
