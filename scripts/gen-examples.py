#!/usr/bin/env python3
"""Regenerates the example problems in examples/ (run from anywhere: python3 scripts/gen-examples.py).

Every figure in the example files is derived here; the "comment" field of each file repeats the derivation.
Units: seconds and bytes; 1 MiB = 2**20 bytes. Batch B, fp32 = 4 bytes per element.

Conventions shared by all examples (the chain model of docs/architecture: step i maps state x_{i-1} to x_i):
  state_bytes  the step's input activation x_{i-1}: what a checkpoint must hold to re-run the forward from step i.
  tape_bytes   everything the step's backward needs, as a taped forward would record it (listed per example).
  forward      FLOPs / effective rate. A multiply-add counts as 2 FLOPs.
  backward     2 x forward: a layer's backward computes the gradient w.r.t. its input and w.r.t. its weights,
               each costing about one forward (the usual rule of thumb; Griewank & Walther bound it by ~3x).

lstm-h512-b32-fp32-1000 (uniform, 1000 LSTM steps, B=32, hidden H=512, input I=512, fp32):
  state = h_t and c_t                        = 2 * B*H*4                         = 131072 bytes (128 KiB)
  tape  = x_t (B*I*4) + h_{t-1}, c_{t-1}, the four gate activations i,f,g,o, c_t, tanh(c_t) (8 * B*H*4)
        = 65536 + 8*65536                                                        = 589824 bytes (576 KiB)
  FLOPs = gate matmul [x_t, h_{t-1}] (B x (I+H)) times W ((I+H) x 4H): B*(I+H)*4H multiply-adds = 2*B*(I+H)*4H FLOPs
          = 134217728, plus elementwise work (3 sigmoids, 2 tanh, 3 products, 1 sum, bias) ~ 10*B*H = 163840
          = 134381568 FLOPs
  rate  = 10 TFLOP/s effective (a mid-range GPU at a realistic fraction of fp32 peak for these small matmuls)
  forward = 134381568 / 1e13 = 13.438 us, backward = 26.876 us.

small-hetero-12: 12 hand-picked steps (no derivation): forward 0.5-3 ms, backward ~2x forward (1.8-2.2x),
  states 1-8 MiB, tapes 2-16 MiB (tape >= state, since a tape holds the input and more). Early steps have large
  activations but are cheap; the costly steps (4, 5, 10) have small states, so a uniform scheduler (Revolve) and a
  cost-aware one (the rotor DP) place checkpoints differently.

vgg16-b32-224 (Simonyan & Zisserman configuration D, B=32, 224x224x3 input, fp32): 16 steps
  13 conv3x3(pad 1)+ReLU steps, the 5 max-pools (2x2, stride 2) folded into the conv step before them
  (conv1_2, conv2_2, conv3_3, conv4_3, conv5_3), then fc6+ReLU, fc7+ReLU, fc8 (to the 1000 logits; the loss is
  the seed of the backward pass, outside the chain; dropout is left out).
  state = the step's input activation (B*C*H*W*4).
  tape  = input activation + ReLU output (B*Cout*H*W*4, before pooling). The conv's weight gradient needs its
          input; the ReLU backward needs its output (y > 0 is the mask); the max-pool backward re-derives its
          argmax from the ReLU output, which is its input, so nothing else is stored. fc8 has no ReLU: tape = input.
  FLOPs = 2*B*Hout*Wout*Cout*Cin*9 for conv, 2*B*in*out for fc (bias, ReLU and pooling add < 0.1%, left out).
  rate  = 15.7e12 FLOP/s, the NVIDIA V100 (SXM2) fp32 peak: the times are ideal, compute-bound lower bounds.

resnet18-b32-224 (He et al. 2016, B=32, 224x224x3, fp32): 10 steps: stem, 8 basic blocks, avgpool+fc.
  The skip connection stays inside its block, so the chain of blocks is exact.
  stem  = conv7x7/2 (3->64) + BN + ReLU + maxpool3x3/2: tape = input + conv output (BN input) + ReLU output
          (pool input; its argmax is re-derived from it).
  block = conv3x3 + BN + ReLU + conv3x3 + BN (+ 1x1/2 conv + BN downsample on the first block of stages 2-4)
          + add + ReLU. tape = block input (conv1 and downsample-conv input) + conv1 output (BN1 input)
          + ReLU1 output (conv2 input and mask) + conv2 output (BN2 input) + final ReLU output (mask)
          [+ downsample conv output (BN input)]. BN's per-channel mean/inverse-std are a few KiB, left out.
  head  = global average pool + fc 512->1000: tape = the pooled 512-vector (fc input); avgpool backward needs
          only shapes.
  state = the step's input activation. FLOPs and rate as for VGG-16 (convs and fc only; V100 fp32 peak 15.7e12).
Graph examples (ckpt-graph files, the node model of engine/model/graph.h and engine/plan/graph_action.h): one node
per layer, its output one tensor; an edge u -> v means v reads u's output. Shared conventions:
  output_bytes  the node's output tensor: B*C*H*W*4 for images, B*S*d*4 (or B*heads*S*S*4) for tokens.
  input         a source node "input" holds the batch (forward and backward 0: the data is given). Its output is what
                the first layer's backward needs. The simulator also counts a gradient for it while the first layer's
                backward runs, which no framework computes: a small overcount (18.4 MiB for the ResNets).
  forward       FLOPs / rate, the rate as for the chains; backward = 2 x forward for every node (the same rule of
                thumb). Written with 12 significant digits so the test's sums match its closed forms to 1e-9.
  FLOPs         conv k x k: 2*B*Hout*Wout*Cout*Cin*k*k; transposed conv 2x2/2: 2*B*Hout*Wout*Cout*Cin;
                fc and matmul (M x K times K x N): 2*M*K*N; bias left out. Elementwise and reduction ops, per output
                element: relu 1, add 1, concat 1 (a copy), BN 8 (training statistics: mean 1, variance 3; normalize 2,
                scale and shift 2), layernorm 8 (the same), gelu 9 (tanh form: x^3 2, *0.044715 1, +x 1,
                *sqrt(2/pi) 1, tanh 1, +1 1, *x/2 2), softmax 6 (the 1/sqrt(d_head) scale, max, subtract, exp, sum,
                divide), max-pool k x k: k*k-1 comparisons; global average pool 1 per input element. On a GPU these
                ops are memory-bound, so their compute-bound times here are optimistic: recomputing them looks cheaper
                than it is (a relu is ~1/(18*Cin) of the conv before it, not the few percent it really costs).
  needs         what the backward needs (needs_inputs / needs_output):
                  conv, transposed conv, fc, matmul  inputs (the weight gradient needs the input; a product of two
                                                     activations, Q K^T or P V, needs both)
                  relu                               its output only (y > 0 is the mask)
                  BN, layernorm, gelu                the input (BN and layernorm re-derive mean and inverse std from
                                                     it; the saved statistics are a few KiB, left out)
                  max-pool                           input and output (the argmax is re-derived by comparing each input
                                                     with the pooled maximum; frameworks store an index tensor instead)
                  softmax                            its output only (dx = y * (dy - sum(dy * y)))
                  add, concat, global average pool   nothing (the gradient is passed on, split or spread evenly)
  workspace     0 everywhere: a convolution's cuDNN workspace depends on the algorithm the library picks, not on the
                layer, so the examples stay about activations.
  reversible    false everywhere (none of these layers is invertible).
  in_place      true on relu, as torchvision builds these networks (nn.ReLU(inplace=True)): the output is written
                over the input's buffer whenever nothing reads the input again (its producer's backward needs its own
                input, not its output, so after a conv or BN nothing does). False everywhere else: BN, layernorm and
                gelu keep their input for the backward; in-place activated BN (Rota Bulo et al. 2018) is a different
                layer, left out.
  The last node (the logits, or the final layernorm) is the only sink: the loss gradient seeds its backward.

vgg16-b32-224 graph: the configuration, FLOPs and rate of the VGG-16 chain above, one node per layer:
  input, conv1_1, relu1_1, conv1_2, relu1_2, pool1, ..., conv5_3, relu5_3, pool5 (2x2/2), fc6, relu6, fc7, relu7,
  fc8 (the logits; pool5's 7x7x512 output is flattened as a view, no node; dropout left out).
  counts: 1 + 13*2 + 5 + 5 = 37 nodes, 36 edges (a linear graph). Convs + fcs: 15.47 GMAC per image (convs 15.35).

resnet18-b32-224 and resnet50-b32-224 graphs (He et al. 2016 as torchvision builds them, torchvision's layer names;
B=32, 224x224x3, fp32, rate 15.7e12):
  stem        input, conv1 (7x7/2, 3->64, 112x112), bn1, relu, maxpool (3x3/2 pad 1, to 56x56).
  basic block (ResNet-18: [2,2,2,2] blocks of width 64,128,256,512) conv1 (3x3, stride s), bn1, relu1, conv2 (3x3),
              bn2, add, relu2. The add takes bn2 and the shortcut: the block input (the skip edge), or on the first
              block of stages 2-4 downsample.conv (1x1, stride 2) -> downsample.bn.
  bottleneck  (ResNet-50: [3,4,6,3] blocks of width w = 64,128,256,512, output 4w) conv1 (1x1, to w), bn1, relu1,
              conv2 (3x3, stride s, to w), bn2, relu2, conv3 (1x1, to 4w), bn3, add, relu3. The stride sits on the 3x3
              conv (torchvision's "v1.5"; the paper put it on the first 1x1: 3.8 instead of 4.1 GMAC per image). The
              first block of every stage has downsample.conv (1x1, stride s, to 4w) -> downsample.bn, stage 1 too
              (64 -> 256 channels).
  head        avgpool (global 7x7 -> 1) and fc (512 or 2048 -> 1000), the sink.
  counts      ResNet-18: 5 + 8*7 + 3*2 + 2 = 69 nodes; every node but the input has one input and an add two:
              68 + 8 = 76 edges; 20 convs (1 + 16 + 3 downsample), 8 adds; convs 1.814 GMAC per image (torchvision
              lists 1.81). ResNet-50: 5 + 16*10 + 4*2 + 2 = 175 nodes, 174 + 16 = 190 edges; 53 convs (1 + 48 + 4),
              16 adds; convs 4.087 GMAC per image (torchvision lists 4.09).
  The chain example above folds each block into one step (its tape = what these nodes' backwards need); the graph
  exposes the block's inside, so a scheduler may keep the block input and recompute BN/ReLU outputs.

unet-small-b8-128 graph (a small U-Net after Ronneberger et al. 2015, with BN and same padding; depth 3, 32 base
channels, B=8, 128x128x3 input, 2 classes, fp32, rate 15.7e12):
  encoder     enc1, enc2, enc3 with c = 32, 64, 128 channels at 128, 64, 32 px: a double conv (conv1 3x3, bn1, relu1,
              conv2 3x3, bn2, relu2), then pool1..3 (max-pool 2x2/2).
  bottleneck  a double conv to 256 channels at 16 px.
  decoder     dec3, dec2, dec1: up (transposed conv 2x2/2, to c channels at twice the size), concat [enc_i.relu2, up]
              (2c channels; the edge from enc_i.relu2 is the long skip edge), a double conv to c.
  head        head.conv (1x1, 32 -> 2 class logits), the sink.
  counts      1 + 3*6 + 3 + 6 + 3*8 + 1 = 53 nodes, 52 + 3 = 55 edges (a concat has two inputs); 18 convolutions
              (14 3x3, 3 transposed, 1 1x1): 2.305 GMAC per image.

transformer-4x-b8-s512 graph (4 pre-LN transformer encoder blocks, Vaswani et al. 2017 with the layernorm before
each sublayer; d=512, 8 heads of 64, sequence S=512, B=8, ffn 2048, fp32):
  input       the embedded tokens (B*S*d*4 = 8 MiB).
  block b     ln1, qkv (one d -> 3d projection; Q, K, V are views of it), scores (Q K^T per head: B*8*S*S*4 = 64 MiB),
              softmax, context (softmax output times V; inputs softmax and qkv), proj (d -> d), add1 (proj + the block
              input), ln2, ffn1 (d -> 2048), gelu, ffn2 (2048 -> d), add2 (ffn2 + add1). Dropout and masks left out.
  head        ln_f (the final layernorm of a pre-LN stack), the sink.
  counts      1 + 4*12 + 1 = 50 nodes, 49 + 4*3 = 61 edges (context, add1 and add2 have two inputs).
  FLOPs       matmuls per block 24*B*S*d^2 + 4*B*S^2*d (qkv 6, proj 2, ffn1 and ffn2 8 each, times B*S*d^2; scores and
              context 2*B*S^2*d each; the count of Narayanan et al. 2021): 120.26 GFLOP for the 4 blocks.
  rate        15.7e12, the V100 fp32 peak as for the CNNs (fp32 matmuls without tensor cores), so the examples compare.

linear-32 graph: what `ckpt generate --kind linear --nodes 32` writes (linearGraph in engine/io/graph_io.cpp):
  Graph::fromChain of the uniform chain of 32 steps {forward 1 ms, backward 2 ms, state 1 MiB, tape 3 MiB}: node s<i>
  outputs the 1 MiB state x_i and holds the 3 MiB tape as workspace; edges s<i> -> s<i+1>.
"""

import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
FP32 = 4
MiB = 1 << 20


def write(filename, doc):
    path = os.path.join(EXAMPLES, filename)
    # Indented like json.dump(indent=2), but with one step per line so the files are easy to read and diff.
    # (Graphs: one node and one edge per line.)
    rows_of = ("steps", "nodes", "edges")
    text = json.dumps({k: v for k, v in doc.items() if k not in rows_of}, indent=2)
    for key in rows_of:
        if key in doc:
            rows = ",\n".join("    " + json.dumps(row, separators=(", ", ": ")) for row in doc[key])
            text = text[:-2] + f',\n  "{key}": [\n' + rows + "\n  ]\n}"
    with open(path, "w") as f:
        f.write(text + "\n")
    print(f"wrote {os.path.relpath(path, ROOT)}")


def chain_doc(name, comment, steps):
    return {"format": "ckpt-chain", "version": 1, "name": name, "comment": comment,
            "steps": [{"forward": f, "backward": b, "state_bytes": s, "tape_bytes": t} for f, b, s, t in steps]}


def seconds(flops, rate):
    # 9 significant digits keep the files readable; the rounding is far below the model's accuracy.
    return float(f"{flops / rate:.9g}")


def lstm():
    B, H, I, n, rate = 32, 512, 512, 1000, 10e12
    bh = B * H * FP32
    state = 2 * bh
    tape = B * I * FP32 + 8 * bh
    matmul = 2 * B * (I + H) * 4 * H
    elementwise = 10 * B * H
    flops = matmul + elementwise
    fwd = seconds(flops, rate)
    bwd = seconds(2 * flops, rate)
    comment = (
        f"Uniform chain of {n} LSTM steps, batch B={B}, hidden H={H}, input I={I}, fp32 (4 bytes). "
        f"state_bytes = h_t and c_t = 2*B*H*4 = {state} (128 KiB). "
        f"tape_bytes = what one step's backward needs: x_t (B*I*4 = {B * I * FP32}) + h_(t-1), c_(t-1), the four "
        f"gate activations i,f,g,o, c_t and tanh(c_t) (8*B*H*4 = {8 * bh}) = {tape} (576 KiB). "
        f"FLOPs: gate matmul [x_t,h_(t-1)] times W (B*(I+H)*4H multiply-adds, 2 FLOPs each) = {matmul}, plus "
        f"elementwise ~10*B*H = {elementwise}, total {flops}. forward = FLOPs / 10 TFLOP/s effective "
        f"= {fwd} s ({fwd * 1e6:.3f} us); backward = 2x forward = {bwd} s. Generated by scripts/gen-examples.py.")
    return {"format": "ckpt-chain", "version": 1, "name": f"LSTM H={H} B={B} fp32, {n} steps", "comment": comment,
            "uniform": {"length": n, "forward": fwd, "backward": bwd, "state_bytes": state, "tape_bytes": tape}}


def small_hetero():
    # (forward ms, backward ms, state MiB, tape MiB), hand-picked.
    rows = [
        (0.5, 1.0, 8, 16),
        (0.8, 1.7, 8, 14),
        (1.2, 2.3, 4, 10),
        (3.0, 6.2, 4, 8),
        (2.5, 4.8, 2, 6),
        (0.6, 1.3, 2, 4),
        (1.8, 3.5, 6, 12),
        (2.2, 4.5, 3, 7),
        (0.9, 1.9, 1, 3),
        (2.8, 5.5, 1, 2),
        (1.5, 3.1, 5, 9),
        (0.7, 1.4, 2, 5),
    ]
    steps = [(f / 1e3, b / 1e3, s * MiB, t * MiB) for f, b, s, t in rows]
    comment = (
        "12 hand-picked heterogeneous steps, a small test problem: forward 0.5-3 ms, backward about 2x forward "
        "(1.8-2.2x), states 1-8 MiB, tapes 2-16 MiB (a tape holds at least the step's input). The early steps have "
        "large activations but are cheap, the costly steps (4, 5, 10) have small states, so uniform schedulers "
        "(Revolve) and cost-aware ones (the rotor dynamic program) choose different checkpoints. "
        "Generated by scripts/gen-examples.py.")
    return chain_doc("Small heterogeneous chain, 12 steps", comment, steps)


V100_FP32 = 15.7e12


def vgg16():
    B = 32
    # (name, Cin, Cout, spatial size of input = output (pad 1), pooled after)
    cfg = [("conv1_1", 3, 64, 224, False), ("conv1_2", 64, 64, 224, True),
           ("conv2_1", 64, 128, 112, False), ("conv2_2", 128, 128, 112, True),
           ("conv3_1", 128, 256, 56, False), ("conv3_2", 256, 256, 56, False), ("conv3_3", 256, 256, 56, True),
           ("conv4_1", 256, 512, 28, False), ("conv4_2", 512, 512, 28, False), ("conv4_3", 512, 512, 28, True),
           ("conv5_1", 512, 512, 14, False), ("conv5_2", 512, 512, 14, False), ("conv5_3", 512, 512, 14, True)]
    steps, names = [], []
    for name, cin, cout, hw, pool in cfg:
        inp = B * cin * hw * hw * FP32
        relu_out = B * cout * hw * hw * FP32
        flops = 2 * B * hw * hw * cout * cin * 9
        steps.append((seconds(flops, V100_FP32), seconds(2 * flops, V100_FP32), inp, inp + relu_out))
        names.append(name + ("+pool" if pool else ""))
    for name, fin, fout, relu in [("fc6", 512 * 7 * 7, 4096, True), ("fc7", 4096, 4096, True),
                                  ("fc8", 4096, 1000, False)]:
        inp = B * fin * FP32
        flops = 2 * B * fin * fout
        steps.append((seconds(flops, V100_FP32), seconds(2 * flops, V100_FP32), inp,
                      inp + (B * fout * FP32 if relu else 0)))
        names.append(name + ("+relu" if relu else ""))
    total = sum(s[0] for s in steps) * V100_FP32
    comment = (
        "VGG-16 (configuration D), batch 32, 224x224x3 input, fp32, as a chain of 16 steps: "
        + ", ".join(names) + " (each conv step is conv3x3 pad 1 + ReLU; the five 2x2 max-pools are folded into the "
        "conv step before them; dropout left out; fc8 ends at the logits, the loss gradient seeds the backward). "
        "state_bytes = the step's input activation (B*C*H*W*4). tape_bytes = input activation + ReLU output "
        "(before pooling): the conv weight gradient needs the input, the ReLU backward needs its output as the mask, "
        "and the max-pool backward re-derives its argmax from its input (the ReLU output); fc8 has no ReLU, "
        "so its tape is its input. forward = FLOPs / 15.7e12 (NVIDIA V100 SXM2 fp32 peak, so the times are ideal "
        "compute-bound lower bounds), FLOPs = 2*B*Hout*Wout*Cout*Cin*9 per conv and 2*B*in*out per fc (bias, ReLU, "
        f"pooling add < 0.1%, left out); total {total / 1e9:.1f} GFLOP per batch. backward = 2x forward. "
        "Generated by scripts/gen-examples.py.")
    return chain_doc("VGG-16, batch 32, 224x224 fp32", comment, steps)


def resnet18():
    B = 32

    def act(c, hw):
        return B * c * hw * hw * FP32

    def conv_flops(cin, cout, k, hout):
        return 2 * B * hout * hout * cout * cin * k * k

    steps, names = [], []
    # stem: conv7x7/2 3->64 (224 -> 112), BN, ReLU, maxpool 3x3/2 (112 -> 56)
    flops = conv_flops(3, 64, 7, 112)
    inp = act(3, 224)
    steps.append((seconds(flops, V100_FP32), seconds(2 * flops, V100_FP32), inp, inp + 2 * act(64, 112)))
    names.append("stem")
    # (cin, cout, output spatial size, stride)
    blocks = [(64, 64, 56, 1), (64, 64, 56, 1), (64, 128, 28, 2), (128, 128, 28, 1),
              (128, 256, 14, 2), (256, 256, 14, 1), (256, 512, 7, 2), (512, 512, 7, 1)]
    for k, (cin, cout, hw, stride) in enumerate(blocks):
        inp = act(cin, hw * stride)
        out = act(cout, hw)
        flops = conv_flops(cin, cout, 3, hw) + conv_flops(cout, cout, 3, hw)
        tape = inp + 4 * out
        if stride != 1 or cin != cout:
            flops += conv_flops(cin, cout, 1, hw)
            tape += out
        steps.append((seconds(flops, V100_FP32), seconds(2 * flops, V100_FP32), inp, tape))
        names.append(f"layer{k // 2 + 1}.{k % 2}" + (" (downsample)" if stride != 1 else ""))
    # head: global average pool 7x7 -> 1, fc 512 -> 1000
    inp = act(512, 7)
    flops = 2 * B * 512 * 1000
    steps.append((seconds(flops, V100_FP32), seconds(2 * flops, V100_FP32), inp, B * 512 * FP32))
    names.append("avgpool+fc")
    total = sum(s[0] for s in steps) * V100_FP32
    comment = (
        "ResNet-18, batch 32, 224x224x3 input, fp32, as a chain of 10 steps: " + ", ".join(names) + ". "
        "The skip connection stays inside its block, so the chain is exact. state_bytes = the step's input "
        "activation. tape_bytes: stem (conv7x7/2 + BN + ReLU + maxpool3x3/2) = input + conv output (BN input) + "
        "ReLU output (pool input; the pool argmax is re-derived from it); basic block = block input (input of conv1 "
        "and of the downsample conv) + conv1 output (BN1 input) + ReLU1 output (conv2 input and mask) + conv2 output "
        "(BN2 input) + final ReLU output (mask), plus the 1x1 downsample conv output (its BN input) on the first "
        "block of stages 2-4; BN statistics (a few KiB) left out; avgpool+fc = the pooled 512-vector (fc input). "
        "forward = FLOPs / 15.7e12 (NVIDIA V100 SXM2 fp32 peak: ideal compute-bound lower bounds), counting "
        "2*B*Hout*Wout*Cout*Cin*k*k per conv and 2*B*in*out for the fc (BN, ReLU, add, pooling left out); total "
        f"{total / 1e9:.1f} GFLOP per batch. backward = 2x forward. Generated by scripts/gen-examples.py.")
    return chain_doc("ResNet-18, batch 32, 224x224 fp32", comment, steps)


# ---------------------------------------------------------------------------------------------------------------
# Graph examples (ckpt-graph). The conventions are in the docstring, section "Graph examples".


def precise_seconds(flops, rate):
    # 12 significant digits: sums over many nodes stay within 1e-11 of the closed forms the tests check.
    return float(f"{flops / rate:.12g}")


class GraphBuilder:
    """Nodes and edges of one network, with the shape (per image) of every node's output."""

    def __init__(self, batch, rate):
        self.B, self.rate = batch, rate
        self.nodes, self.edges, self.shape = [], [], {}

    def op(self, node_id, inputs, flops, shape, needs_inputs, needs_output, in_place=False):
        assert node_id not in self.shape, node_id
        elements = self.B
        for d in shape:
            elements *= d
        forward = precise_seconds(flops, self.rate)
        self.nodes.append({"id": node_id, "forward": forward, "backward": 2 * forward,
                           "output_bytes": elements * FP32, "workspace_bytes": 0, "needs_inputs": needs_inputs,
                           "needs_output": needs_output, "reversible": False, "in_place": in_place})
        self.edges.extend([u, node_id] for u in inputs)
        self.shape[node_id] = tuple(shape)
        return node_id

    def elements(self, node_id):
        n = self.B
        for d in self.shape[node_id]:
            n *= d
        return n

    # Image layers; shapes are (C, H, W).
    def input(self, shape):
        return self.op("input", [], 0, shape, False, False)

    def conv(self, node_id, x, cout, k, stride=1):
        cin, h, w = self.shape[x]
        ho, wo = (h - 1) // stride + 1, (w - 1) // stride + 1  # padding k // 2, odd k
        return self.op(node_id, [x], 2 * self.B * ho * wo * cout * cin * k * k, (cout, ho, wo), True, False)

    def up(self, node_id, x, cout):  # transposed conv 2x2, stride 2
        cin, h, w = self.shape[x]
        return self.op(node_id, [x], 2 * self.B * 2 * h * 2 * w * cout * cin, (cout, 2 * h, 2 * w), True, False)

    def bn(self, node_id, x):
        return self.op(node_id, [x], 8 * self.elements(x), self.shape[x], True, False)

    def relu(self, node_id, x):
        return self.op(node_id, [x], self.elements(x), self.shape[x], False, True, True)

    def add(self, node_id, a, b):
        assert self.shape[a] == self.shape[b], (a, b)
        return self.op(node_id, [a, b], self.elements(a), self.shape[a], False, False)

    def concat(self, node_id, a, b):  # along channels
        (ca, h, w), (cb, hb, wb) = self.shape[a], self.shape[b]
        assert (h, w) == (hb, wb), (a, b)
        return self.op(node_id, [a, b], self.B * (ca + cb) * h * w, (ca + cb, h, w), False, False)

    def maxpool(self, node_id, x, k, stride, pad):
        c, h, w = self.shape[x]
        ho, wo = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
        return self.op(node_id, [x], self.B * c * ho * wo * (k * k - 1), (c, ho, wo), True, True)

    def avgpool(self, node_id, x):  # global
        return self.op(node_id, [x], self.elements(x), (self.shape[x][0],), False, False)

    def fc(self, node_id, x, fout):
        fin = self.elements(x) // self.B
        return self.op(node_id, [x], 2 * self.B * fin * fout, (fout,), True, False)

    # Token layers; shapes are (S, d) or (heads, S, S).
    def matmul(self, node_id, inputs, flops, shape):
        return self.op(node_id, inputs, flops, shape, True, False)

    def layernorm(self, node_id, x):
        return self.op(node_id, [x], 8 * self.elements(x), self.shape[x], True, False)

    def gelu(self, node_id, x):
        return self.op(node_id, [x], 9 * self.elements(x), self.shape[x], True, False)

    def softmax(self, node_id, x):
        return self.op(node_id, [x], 6 * self.elements(x), self.shape[x], False, True)

    def doc(self, name, comment):
        return {"format": "ckpt-graph", "version": 1, "name": name, "comment": comment, "nodes": self.nodes,
                "edges": self.edges}


def total_flops(g, kinds):
    return sum(n["forward"] for n in g.nodes if kind_of(n["id"]) in kinds) * g.rate


def kind_of(node_id):
    # "layer1.0.conv2" -> "conv", "relu1_2" -> "relu", "downsample.bn" -> "bn"
    return node_id.rsplit(".", 1)[-1].rstrip("0123456789_")


def graph_comment(g, text):
    return (f"{text} {len(g.nodes)} nodes, {len(g.edges)} edges. Every node: output_bytes = its "
            "output tensor (B*C*H*W*4 or B*S*d*4), forward = FLOPs / rate, backward = 2x forward, workspace 0; "
            "needs_inputs / needs_output by op type: conv, fc and matmul need their inputs (weight gradient), relu and "
            "softmax their output only, BN, layernorm and gelu their input, max-pool its input and output (the argmax "
            "is re-derived), add, concat and global average pool nothing; relu runs in place (in_place: its output may "
            "take over its input's buffer, as nn.ReLU(inplace=True) does). The source 'input' holds the batch "
            "(forward 0). Elementwise ops are counted at the same FLOP rate (relu, add, concat 1 per element, BN and "
            "layernorm 8, gelu 9, softmax 6, max-pool k*k-1), so their times are optimistic: on a GPU they are "
            "memory-bound. The derivation is in scripts/gen-examples.py, which generated this file.")


def vgg16_graph():
    g = GraphBuilder(32, V100_FP32)
    x = g.input((3, 224, 224))
    stages = [(64, 2), (128, 2), (256, 3), (512, 3), (512, 3)]
    for s, (c, convs) in enumerate(stages, start=1):
        for k in range(1, convs + 1):
            x = g.relu(f"relu{s}_{k}", g.conv(f"conv{s}_{k}", x, c, 3))
        x = g.maxpool(f"pool{s}", x, 2, 2, 0)
    x = g.relu("relu6", g.fc("fc6", x, 4096))
    x = g.relu("relu7", g.fc("fc7", x, 4096))
    g.fc("fc8", x, 1000)
    gmac = total_flops(g, ("conv", "fc")) / 2 / g.B / 1e9
    comment = graph_comment(g, (
        "VGG-16 (configuration D), batch 32, 224x224x3 input, fp32, one node per layer: input, 13 conv3x3 (pad 1) "
        "each followed by its relu, a 2x2/2 max-pool closing each of the 5 stages, fc6, relu6, fc7, relu7, fc8 "
        "(the logits, the sink; dropout left out). A linear graph. forward = FLOPs / 15.7e12 (NVIDIA V100 SXM2 fp32 "
        f"peak); convs and fcs make {gmac:.2f} GMAC per image."))
    return g.doc("VGG-16 graph, batch 32, 224x224 fp32", comment)


def resnet_graph(depth):
    g = GraphBuilder(32, V100_FP32)
    x = g.input((3, 224, 224))
    x = g.maxpool("maxpool", g.relu("relu", g.bn("bn1", g.conv("conv1", x, 64, 7, 2))), 3, 2, 1)
    bottleneck = depth == 50
    blocks = [3, 4, 6, 3] if bottleneck else [2, 2, 2, 2]
    for s, count in enumerate(blocks, start=1):
        width = 64 << (s - 1)
        for b in range(count):
            p = f"layer{s}.{b}."
            stride = 2 if s > 1 and b == 0 else 1
            cout = 4 * width if bottleneck else width
            if bottleneck:
                y = g.relu(p + "relu1", g.bn(p + "bn1", g.conv(p + "conv1", x, width, 1)))
                y = g.relu(p + "relu2", g.bn(p + "bn2", g.conv(p + "conv2", y, width, 3, stride)))
                y = g.bn(p + "bn3", g.conv(p + "conv3", y, cout, 1))
                last = "3"
            else:
                y = g.relu(p + "relu1", g.bn(p + "bn1", g.conv(p + "conv1", x, width, 3, stride)))
                y = g.bn(p + "bn2", g.conv(p + "conv2", y, width, 3))
                last = "2"
            shortcut = x
            if stride != 1 or g.shape[x][0] != cout:
                shortcut = g.bn(p + "downsample.bn", g.conv(p + "downsample.conv", x, cout, 1, stride))
            x = g.relu(p + "relu" + last, g.add(p + "add", y, shortcut))
    g.fc("fc", g.avgpool("avgpool", x), 1000)
    gmac = total_flops(g, ("conv",)) / 2 / g.B / 1e9
    kind = ("bottleneck blocks (1x1, 3x3 with the stride, 1x1 to 4x the width; torchvision's 'v1.5')" if bottleneck
            else "basic blocks (two 3x3 convs)")
    comment = graph_comment(g, (
        f"ResNet-{depth} (He et al. 2016, torchvision's layer names), batch 32, 224x224x3 input, fp32, one node per "
        f"layer: input, conv1 (7x7/2), bn1, relu, maxpool (3x3/2), {sum(blocks)} {kind}, each conv followed by BN, "
        "and by relu except the block's last, then add (the skip edge from the block input, or from a 1x1 downsample "
        "conv + BN on the first block of a stage that changes the shape) and relu; then avgpool (global) and fc (the "
        "logits, the sink). forward = FLOPs / 15.7e12 (NVIDIA V100 SXM2 fp32 peak); the convs make "
        f"{gmac:.3f} GMAC per image."))
    return g.doc(f"ResNet-{depth} graph, batch 32, 224x224 fp32", comment)


def unet_graph():
    g = GraphBuilder(8, V100_FP32)
    depth, base, classes = 3, 32, 2

    def double_conv(prefix, x, c):
        x = g.relu(prefix + "relu1", g.bn(prefix + "bn1", g.conv(prefix + "conv1", x, c, 3)))
        return g.relu(prefix + "relu2", g.bn(prefix + "bn2", g.conv(prefix + "conv2", x, c, 3)))

    x = g.input((3, 128, 128))
    skips = []
    for i in range(1, depth + 1):
        x = double_conv(f"enc{i}.", x, base << (i - 1))
        skips.append(x)
        x = g.maxpool(f"pool{i}", x, 2, 2, 0)
    x = double_conv("bottleneck.", x, base << depth)
    for i in range(depth, 0, -1):
        c = base << (i - 1)
        up = g.up(f"dec{i}.up", x, c)
        x = double_conv(f"dec{i}.", g.concat(f"dec{i}.concat", skips[i - 1], up), c)
    g.conv("head.conv", x, classes, 1)
    gmac = total_flops(g, ("conv", "up")) / 2 / g.B / 1e9
    comment = graph_comment(g, (
        "A small U-Net (Ronneberger et al. 2015, with BN and same-padding), depth 3, 32 base channels, batch 8, "
        "128x128x3 input, 2 classes, fp32: input; encoder stages enc1-enc3 (32, 64, 128 channels at 128, 64, 32 px), "
        "each two conv3x3+bn+relu followed by a 2x2/2 max-pool; a bottleneck double conv (256 channels, 16 px); "
        "decoder stages dec3-dec1, each a 2x2/2 transposed conv (up) halving the channels, a concat of the encoder "
        "stage's last relu (the long skip edge) with it, and a double conv; head.conv (1x1, to the 2 class "
        f"logits, the sink). forward = FLOPs / 15.7e12 (NVIDIA V100 SXM2 fp32 peak); the convolutions make "
        f"{gmac:.3f} GMAC per image."))
    return g.doc("U-Net (small, depth 3), batch 8, 128x128 fp32", comment)


def transformer_graph():
    B, S, d, heads, ffn, layers = 8, 512, 512, 8, 2048, 4
    g = GraphBuilder(B, V100_FP32)
    x = g.op("input", [], 0, (S, d), False, False)
    for b in range(layers):
        p = f"block{b}."
        qkv = g.matmul(p + "qkv", [g.layernorm(p + "ln1", x)], 2 * B * S * d * 3 * d, (S, 3 * d))
        scores = g.matmul(p + "scores", [qkv], 2 * B * S * S * d, (heads, S, S))
        probs = g.softmax(p + "softmax", scores)
        context = g.matmul(p + "context", [probs, qkv], 2 * B * S * S * d, (S, d))
        proj = g.matmul(p + "proj", [context], 2 * B * S * d * d, (S, d))
        x = g.add(p + "add1", proj, x)
        h = g.gelu(p + "gelu", g.matmul(p + "ffn1", [g.layernorm(p + "ln2", x)], 2 * B * S * d * ffn, (S, ffn)))
        x = g.add(p + "add2", g.matmul(p + "ffn2", [h], 2 * B * S * ffn * d, (S, d)), x)
    g.layernorm("ln_f", x)
    # What the framework policies read (engine/schedulers/policies.h): each node's operator and its block.
    kinds = {"ln1": "LayerNorm", "ln2": "LayerNorm", "ln_f": "LayerNorm", "qkv": "MatMul", "scores": "BatchMatMul",
             "softmax": "Softmax", "context": "BatchMatMul", "proj": "MatMul", "add1": "Add", "add2": "Add",
             "ffn1": "MatMul", "gelu": "Gelu", "ffn2": "MatMul", "input": "Input"}
    for node in g.nodes:
        block, _, name = node["id"].rpartition(".")
        node["op"] = kinds[name]
        if block:
            node["block"] = block
    gflop = total_flops(g, ("qkv", "scores", "context", "proj", "ffn")) / 1e9
    comment = graph_comment(g, (
        f"A stack of {layers} pre-LN transformer encoder blocks, d={d}, {heads} heads of {d // heads}, sequence {S}, "
        f"batch {B}, ffn {ffn}, fp32: input (the embedded tokens); per block ln1, qkv (one d->3d projection), scores "
        "(Q K^T per head, B*heads*S*S), softmax (with the 1/sqrt(d_head) scale), context (softmax output times V; "
        "inputs softmax and qkv), proj (d->d), add1 (residual: proj + block input), ln2, ffn1, gelu, ffn2, add2 "
        "(residual); then ln_f, the sink. Dropout and masks left out; Q, K, V are views of qkv. forward = FLOPs / "
        "15.7e12 (the V100 fp32 peak, as for the CNNs: fp32 matmuls without tensor cores); the matmuls make "
        f"24*B*S*d^2 + 4*B*S^2*d = {gflop:.3f} GFLOP for the 4 blocks."))
    return g.doc(f"Transformer encoder, {layers} pre-LN blocks, d={d}, seq {S}, batch {B}, fp32", comment)


def convnet_algorithms_graph():
    # A small VGG-style network (batch 32, 64x64x3) whose 3x3 convolutions offer three algorithms, as cuDNN does:
    # the node's own is implicit GEMM (no workspace); "winograd" runs forward in 0.55x and backward in 0.7x its time
    # with a workspace of 2x the conv's output; "fft" in 0.45x and 0.6x with 4x. The ratios are illustrative (they
    # depend on the GPU, the cuDNN version and the shapes), chosen so that the fast algorithms pay in memory.
    g = GraphBuilder(32, V100_FP32)
    x = g.input((3, 64, 64))
    for s, (c, convs) in enumerate([(64, 2), (128, 2), (256, 2)], start=1):
        for k in range(1, convs + 1):
            conv = g.conv(f"conv{s}_{k}", x, c, 3)
            node = g.nodes[-1]
            out = node["output_bytes"]
            node["implementations"] = [
                {"name": "winograd", "forward": precise_seconds(node["forward"] * 0.55 * g.rate, g.rate),
                 "backward": precise_seconds(node["backward"] * 0.7 * g.rate, g.rate), "workspace_bytes": 2 * out},
                {"name": "fft", "forward": precise_seconds(node["forward"] * 0.45 * g.rate, g.rate),
                 "backward": precise_seconds(node["backward"] * 0.6 * g.rate, g.rate), "workspace_bytes": 4 * out}]
            x = g.relu(f"relu{s}_{k}", conv)
        x = g.maxpool(f"pool{s}", x, 2, 2, 0)
    g.fc("fc", x, 10)
    comment = graph_comment(g, (
        "A small VGG-style network, batch 32, 64x64x3 input, fp32: three stages of two conv3x3 + relu and a 2x2/2 "
        "max-pool (64, 128, 256 channels), then fc to 10 classes. Every conv offers two other algorithms besides its "
        "own (implicit GEMM, no workspace): winograd (forward 0.55x, backward 0.7x, workspace 2x its output) and fft "
        "(0.45x, 0.6x, 4x); illustrative ratios, chosen so that the fast algorithms pay in memory, for monet."))
    return g.doc("Conv algorithms, batch 32, 64x64 fp32", comment)


def cross_modal_graph():
    # A join network (Beaumont, Herrmann, Pallez, Shilova 2020): two encoders that merge into one node, then a short
    # trunk. An image tower (batch 32, 3x64x64) and a spectrogram tower (1x128x128), each convs + relu + 2x2 max-pools,
    # a global average pool and fc to 512 features; the two feature vectors are concatenated and classified.
    g = GraphBuilder(32, V100_FP32)
    ends = []
    for name, shape, stages in [("img", (3, 64, 64), [(64, 2), (128, 2), (256, 2)]),
                                ("aud", (1, 128, 128), [(32, 1), (64, 1), (128, 1), (256, 1)])]:
        x = g.op(f"{name}_input", [], 0, shape, False, False)
        for s, (c, convs) in enumerate(stages, start=1):
            for k in range(1, convs + 1):
                x = g.relu(f"{name}_relu{s}_{k}", g.conv(f"{name}_conv{s}_{k}", x, c, 3))
            x = g.maxpool(f"{name}_pool{s}", x, 2, 2, 0)
        ends.append(g.fc(f"{name}_fc", g.avgpool(f"{name}_gap", x), 512))
    joined = g.op("concat", ends, g.B * 1024, (1024,), False, False)
    g.fc("fc_out", g.relu("relu_cls", g.fc("fc_cls", joined, 512)), 10)
    comment = graph_comment(g, (
        "A cross-modal join network, batch 32, fp32: an image tower (3x64x64; conv3x3 + relu pairs at 64, 128 and "
        "256 channels, each stage ending in a 2x2/2 max-pool) and a spectrogram tower (1x128x128; one conv3x3 + relu "
        "and a max-pool at 32, 64, 128 and 256 channels), each closed by a global average pool and fc to 512 features; "
        "the two vectors are concatenated, then fc 512, relu and fc to 10 classes. Two chains merging into one node, "
        "then a chain: the shape join-dp plans."))
    return g.doc("Cross-modal join, batch 32, fp32", comment)


def linear_graph():
    # engine/io/graph_io.cpp linearGraph(n): Graph::fromChain of the uniform chain Step{1 ms, 2 ms, state 1 MiB,
    # tape 3 MiB}: node s<i> outputs the state x_i and holds the tape as workspace during its forward.
    n = 32
    nodes = [{"id": f"s{i}", "forward": 1e-3, "backward": 2e-3, "output_bytes": MiB, "workspace_bytes": 3 * MiB,
              "needs_inputs": True, "needs_output": False, "reversible": False} for i in range(1, n + 1)]
    edges = [[f"s{i}", f"s{i + 1}"] for i in range(1, n)]
    comment = (
        f"The linear graph of {n} equal nodes, as `ckpt generate --kind linear --nodes {n}` makes it: node s<i> is "
        "step i of a uniform chain (forward 1 ms, backward 2 ms, state 1 MiB, tape 3 MiB), its output the 1 MiB state "
        "x_i, the 3 MiB tape as workspace (the graph model has no tape). Generated by scripts/gen-examples.py.")
    return {"format": "ckpt-graph", "version": 1, "name": f"linear-{n}", "comment": comment, "nodes": nodes,
            "edges": edges}


def main():
    os.makedirs(EXAMPLES, exist_ok=True)
    write("lstm-h512-b32-fp32-1000.ckpt-chain.json", lstm())
    write("small-hetero-12.ckpt-chain.json", small_hetero())
    write("vgg16-b32-224.ckpt-chain.json", vgg16())
    write("resnet18-b32-224.ckpt-chain.json", resnet18())
    write("vgg16-b32-224.ckpt-graph.json", vgg16_graph())
    write("resnet18-b32-224.ckpt-graph.json", resnet_graph(18))
    write("resnet50-b32-224.ckpt-graph.json", resnet_graph(50))
    write("unet-small-b8-128.ckpt-graph.json", unet_graph())
    write("transformer-4x-b8-s512.ckpt-graph.json", transformer_graph())
    write("linear-32.ckpt-graph.json", linear_graph())
    write("convnet-algorithms-b32-64.ckpt-graph.json", convnet_algorithms_graph())
    write("cross-modal-b32.ckpt-graph.json", cross_modal_graph())


if __name__ == "__main__":
    main()
