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
    text = json.dumps({k: v for k, v in doc.items() if k != "steps"}, indent=2)
    if "steps" in doc:
        rows = ",\n".join("    " + json.dumps(step, separators=(", ", ": ")) for step in doc["steps"])
        text = text[:-2] + ',\n  "steps": [\n' + rows + "\n  ]\n}"
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


def main():
    os.makedirs(EXAMPLES, exist_ok=True)
    write("lstm-h512-b32-fp32-1000.ckpt-chain.json", lstm())
    write("small-hetero-12.ckpt-chain.json", small_hetero())
    write("vgg16-b32-224.ckpt-chain.json", vgg16())
    write("resnet18-b32-224.ckpt-chain.json", resnet18())


if __name__ == "__main__":
    main()
