#pragma once
// A decoder-only transformer at the operator level of Korthikanti et al. 2022, "Reducing Activation Recomputation in
// Large Transformer Models" (Figure 2 and section 4): per layer, layer norm, the QKV projection, QK^T, softmax, its
// dropout, attention over values, the output projection with its dropout, a residual add, layer norm, the two MLP
// GEMMs with GeLU between, their dropout and a residual add. Each dropout's one-byte mask is a node of its own, so a
// backward that needs only the mask keeps only the mask. What store-all keeps of a layer is the paper's closed form:
//   sbh (34 + 5as/h) bytes                  (16-bit values, no parallelism),
//   sbh (10 + 24/t + 5as/(ht))              (tensor parallelism over t devices),
//   sbh (34/t + 5as/(ht))                   (tensor and sequence parallelism),
// for one device's share (s sequence, b micro-batch, h hidden, a heads).
#include "model/graph.h"
#include "model/hardware.h"
#include "util/result.h"

#include <cstdint>

namespace ckpt {

struct TransformerShape {
    int layers = 24;
    std::int64_t hidden = 1024;
    std::int64_t heads = 16;
    std::int64_t seq = 2048;
    std::int64_t batch = 1;
    int bytes_per_value = 2; // 2: fp16 or bf16, 4: fp32 (the masks are one byte whatever it is)
    int tensor_parallel = 1;
    bool sequence_parallel = false;
    // FlashAttention (Dao et al. 2022): QK^T, softmax, dropout and attention over values are one kernel that keeps no
    // a x s x s matrix: its backward recomputes them from Q, K, V, its output and the softmax's row statistics (4asb
    // bytes in fp32, a node of their own), and regenerates the dropout mask from its seed. A layer then keeps
    // 34sbh + 4asb bytes (the s^2 terms gone), over t with tensor parallelism as above.
    bool flash_attention = false;
    // The vocabulary (0: none). With one, the graph starts from the token ids (8 bytes each), looks up their
    // embeddings (split over t, gathered) with a dropout, and ends with the output projection to the vocabulary (split
    // over t) and the cross entropy, which keeps its fp32 logits for the backward: the paper's 4sbv/t bytes.
    std::int64_t vocab = 0;
};

// The graph of one device's share, its times from the roofline of `hw` (level 0's flops and read bandwidth; a
// backward as twice its forward's FLOPs and bytes). Refused with a message: sizes < 1, hidden not a multiple of heads,
// heads or hidden not a multiple of t, with sequence parallelism a sequence not a multiple of t.
Result<Graph> transformerGraph(const TransformerShape& shape, const Hardware& hw);

} // namespace ckpt
