# SPDX-License-Identifier: GPL-3.0-or-later
# Part of Checkpoint Explorer. The PyTorch networks that scripts/gen-onnx-examples exports into examples/onnx/ and
# that scripts/check-against-pytorch measures, defined once here so that both see the same models:
#   vit-b16          torchvision vit_b_16 (weights=None)                 input  [batch, 3, 224, 224]
#   gpt2-small       GPT2Small below (12 x pre-LN decoder, d 768, 12 heads, MLP 3072, vocab 50257, 1024 positions)
#                                                                         ids    [batch, seq] int64
#   efficientnet-b0  torchvision efficientnet_b0 (weights=None)          input  [batch, 3, 224, 224]
#   densenet121      torchvision densenet121 (weights=None)              input  [batch, 3, 224, 224]
#   mobilenet-v2     torchvision mobilenet_v2 (weights=None)             input  [batch, 3, 224, 224]
#   lstm2            LSTM2 below: nn.LSTM(256, 512, num_layers=2) over 50 steps + Linear(512, 10) on every step
#                                                                         input  [50, batch, 256] (seq-first)
#   resnet18, resnet50  torchvision (not exported into examples/: the C++ generator writes those files)
# Needs /usr/bin/python3 with Debian's python3-torch, python3-torchvision and python3-onnx (scripts/setup-torch).
# Used as a module (import torch_nets) and as a command: /usr/bin/python3 scripts/torch_nets.py export DIR [NAME...]
# exports NAMEs (default: the six example networks) into DIR as shape-only ONNX files (scripts/gen-onnx-examples
# tells how) and prints, for each, its size, node count, op histogram, BatchNormalization/Dropout attributes, the ops
# of its shape computations and of its weight-only subgraphs, and what onnx.shape_inference finds (as written, at a
# concrete batch, and after folding the shape computations: fold_shapes). `describe DIR [NAME...]` prints the same for
# files already there.
import collections
import math
import os
import sys
import time
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

EXAMPLES = ["vit-b16", "gpt2-small", "efficientnet-b0", "densenet121", "mobilenet-v2", "lstm2"]
ALL = EXAMPLES + ["resnet18", "resnet50"]

TORCHVISION = {
    "vit-b16": "vit_b_16",
    "efficientnet-b0": "efficientnet_b0",
    "densenet121": "densenet121",
    "mobilenet-v2": "mobilenet_v2",
    "resnet18": "resnet18",
    "resnet50": "resnet50",
}

# GPT-2 small's hyper-parameters (Radford et al. 2019, the 124M model).
GPT2 = dict(layers=12, d_model=768, heads=12, mlp=3072, vocab=50257, positions=1024, dropout=0.1)
# The LSTM example: 50 steps of 256 features, two layers of 512, a 10-way head on every step.
LSTM = dict(steps=50, input_size=256, hidden=512, layers=2, classes=10)


class CausalSelfAttention(nn.Module):
    """GPT-2's attention: one Linear to q, k, v; (q k^T) / sqrt(d_head), causal masked_fill, Softmax, dropout, x v."""

    def __init__(self, d_model, heads, dropout):
        super().__init__()
        self.heads = heads
        self.c_attn = nn.Linear(d_model, 3 * d_model)
        self.c_proj = nn.Linear(d_model, d_model)
        self.attn_dropout = nn.Dropout(dropout)
        self.resid_dropout = nn.Dropout(dropout)

    def forward(self, x, causal):
        B, T, C = x.shape
        hd = C // self.heads
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.heads, hd).transpose(1, 2)  # [B, H, T, hd]
        k = k.view(B, T, self.heads, hd).transpose(1, 2)
        v = v.view(B, T, self.heads, hd).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        att = att.masked_fill(causal[:, :, :T, :T] == 0, float("-inf"))  # the mask sliced to the sequence
        att = self.attn_dropout(F.softmax(att, dim=-1))
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class MLP(nn.Module):
    def __init__(self, d_model, hidden, dropout):
        super().__init__()
        self.c_fc = nn.Linear(d_model, hidden)
        self.c_proj = nn.Linear(hidden, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.dropout(self.c_proj(F.gelu(self.c_fc(x))))  # exact (erf) GELU


class Block(nn.Module):
    """Pre-LayerNorm decoder block: x + attn(ln_1(x)), then x + mlp(ln_2(x))."""

    def __init__(self, d_model, heads, hidden, dropout):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d_model)
        self.attn = CausalSelfAttention(d_model, heads, dropout)
        self.ln_2 = nn.LayerNorm(d_model)
        self.mlp = MLP(d_model, hidden, dropout)

    def forward(self, x, causal):
        x = x + self.attn(self.ln_1(x), causal)
        return x + self.mlp(self.ln_2(x))


class GPT2Small(nn.Module):
    """A GPT-2-small-like decoder: token embedding + learned positions (sliced to the sequence), embedding dropout,
    12 pre-LN blocks, final LayerNorm, LM head tied to the token embedding (as GPT-2's). ids [B, T] int64 -> logits
    [B, T, vocab]. The causal mask is one float buffer of 1 x 1 x 1024 x 1024 (lower triangle of ones), shared by the
    blocks; each slices it to T x T."""

    def __init__(self, layers=12, d_model=768, heads=12, mlp=3072, vocab=50257, positions=1024, dropout=0.1):
        super().__init__()
        self.wte = nn.Embedding(vocab, d_model)
        self.wpe = nn.Parameter(torch.randn(positions, d_model) * 0.01)
        self.drop = nn.Dropout(dropout)
        self.h = nn.ModuleList([Block(d_model, heads, mlp, dropout) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d_model)
        self.register_buffer("causal", torch.tril(torch.ones(positions, positions)).view(1, 1, positions, positions))

    def forward(self, ids):
        T = ids.shape[1]
        x = self.drop(self.wte(ids) + self.wpe[:T])
        for block in self.h:
            x = block(x, self.causal)
        return F.linear(self.ln_f(x), self.wte.weight)  # tied LM head, no bias


class LSTM2(nn.Module):
    """nn.LSTM(256, 512, num_layers=2), seq-first [50, B, 256], then Linear(512, 10) on the top layer's last hidden
    state (a sequence classifier: the unrolled network is a chain of its 50 time steps)."""

    def __init__(self, input_size=256, hidden=512, layers=2, classes=10):
        super().__init__()
        self.lstm = nn.LSTM(input_size=input_size, hidden_size=hidden, num_layers=layers)
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        _, (h, _) = self.lstm(x)
        return self.head(h[-1])


class ExportableStochasticDepth(nn.Module):
    """torchvision.ops.StochasticDepth (EfficientNet's drop-path) in a form torch.onnx.export 1.13 can write: the
    original draws its noise with Tensor.bernoulli_(p), whose symbolic fails ("out parameter is not supported for
    bernoulli"). Same computation: noise = (U[0,1) < survival) / survival of shape [N, 1, 1, 1] ("row") or
    [1, 1, 1, 1] ("batch"), then input * noise. Exported as Slice, RandomUniformLike, Less, Cast, Div, Mul."""

    def __init__(self, original):
        super().__init__()
        self.p = original.p
        self.mode = original.mode

    def forward(self, input):
        if not self.training or self.p == 0.0:
            return input
        survival = 1.0 - self.p
        ref = input[:, :1, :1, :1] if self.mode == "row" else input[:1, :1, :1, :1]
        noise = (torch.rand_like(ref) < survival).to(input.dtype) / survival
        return input * noise


def build(name):
    """The network NAME (see ALL) with freshly initialised weights, in train() mode."""
    torch.manual_seed(0)
    if name in TORCHVISION:
        model = getattr(torchvision.models, TORCHVISION[name])(weights=None)
    elif name == "gpt2-small":
        model = GPT2Small(**GPT2)
    elif name == "lstm2":
        model = LSTM2(LSTM["input_size"], LSTM["hidden"], LSTM["layers"], LSTM["classes"])
    else:
        raise ValueError(f"unknown network {name!r}; expected one of {', '.join(ALL)}")
    return model.train()


def example_input(name, batch, seq=None):
    """The input tensor of NAME for a batch (gpt2: seq tokens, default 256; lstm: its fixed 50 steps)."""
    g = torch.Generator().manual_seed(1)
    if name == "gpt2-small":
        return torch.randint(0, GPT2["vocab"], (batch, seq or 256), dtype=torch.int64, generator=g)
    if name == "lstm2":
        return torch.randn(LSTM["steps"], batch, LSTM["input_size"], generator=g)
    return torch.randn(batch, 3, 224, 224, generator=g)


def input_name(name):
    return "ids" if name == "gpt2-small" else "input"


def dynamic_axes(name):
    if name == "gpt2-small":
        return {"ids": {0: "batch", 1: "seq"}, "output": {0: "batch", 1: "seq"}}
    if name == "lstm2":
        return {"input": {1: "batch"}, "output": {0: "batch"}}
    return {"input": {0: "batch"}, "output": {0: "batch"}}


def exportable(model):
    """MODEL with the modules torch.onnx.export 1.13 cannot write replaced by equivalents (stochastic depth)."""
    from torchvision.ops import StochasticDepth

    for parent in list(model.modules()):
        for child_name, child in list(parent.named_children()):
            if isinstance(child, StochasticDepth):
                setattr(parent, child_name, ExportableStochasticDepth(child))
    return model




def strip_floating_weights(model_proto):
    """Shape-only: every floating-point initializer keeps its name, dims and data_type but loses its data; integer
    and bool initializers and Constant nodes keep their values. Returns (stripped count, bytes of data dropped)."""
    import onnx

    floating = {
        onnx.TensorProto.FLOAT,
        onnx.TensorProto.DOUBLE,
        onnx.TensorProto.FLOAT16,
        onnx.TensorProto.BFLOAT16,
        onnx.TensorProto.COMPLEX64,
        onnx.TensorProto.COMPLEX128,
    }
    count, dropped = 0, 0
    for t in model_proto.graph.initializer:
        if t.data_type not in floating:
            continue
        dropped += len(t.raw_data) + 4 * len(t.float_data) + 8 * len(t.double_data) + 4 * len(t.int32_data)
        for field in ("raw_data", "float_data", "double_data", "int32_data", "uint64_data", "int64_data"):
            t.ClearField(field)
        count += 1
    return count, dropped


def export(name, path, batch=2, opset=17):
    """Exports NAME to PATH in training mode (the flags in scripts/gen-onnx-examples' header), then strips its
    floating-point weights in place. Returns the seconds the export took."""
    import onnx

    model = exportable(build(name))
    example = example_input(name, batch, seq=16 if name == "gpt2-small" else None)
    start = time.time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the exporter's per-BN "Removing mutation ... num_batches_tracked" notes
        torch.onnx.export(
            model,
            (example,),
            path,
            training=torch.onnx.TrainingMode.TRAINING,
            do_constant_folding=False,
            opset_version=opset,
            input_names=[input_name(name)],
            output_names=["output"],
            dynamic_axes=dynamic_axes(name),
        )
    seconds = time.time() - start
    proto = onnx.load(path)
    strip_floating_weights(proto)
    onnx.save(proto, path)
    return seconds


def shape_subgraph_ops(proto):
    """Op histogram of the nodes that compute shapes: walking backwards from every shape-typed operand (a Reshape's
    shape, an Expand's shape, a Slice's starts/ends/axes/steps, ConstantOfShape's input, Range's inputs, Split's
    sizes, Unsqueeze/Squeeze axes, Tile's repeats, Resize's scales/sizes) through the nodes producing it, stopping at
    Shape nodes (the tensor a Shape reads is not part of the computation), Constants, initializers and graph
    inputs."""
    shape_inputs = {
        "Reshape": [1], "Expand": [1], "Slice": [1, 2, 3, 4], "ConstantOfShape": [0], "Range": [0, 1, 2],
        "Split": [1], "Unsqueeze": [1], "Squeeze": [1], "Tile": [1], "Resize": [1, 2, 3],
    }
    producer = {}
    for n in proto.graph.node:
        for o in n.output:
            producer[o] = n
    seen = set()
    stack = []
    for n in proto.graph.node:
        for i in shape_inputs.get(n.op_type, []):
            if i < len(n.input) and n.input[i]:
                stack.append(n.input[i])
    while stack:
        t = stack.pop()
        p = producer.get(t)
        if p is None or id(p) in seen:
            continue
        seen.add(id(p))
        if p.op_type == "Shape":
            continue  # the data tensor a Shape reads is not part of the shape computation
        stack.extend(i for i in p.input if i)
    ops = collections.Counter(n.op_type for n in proto.graph.node if id(n) in seen)
    return ops


def weight_only_ops(proto):
    """Op histogram of the nodes (Constants aside) that depend on no graph input, not even through a Shape: they
    compute on weights and constants only (a Linear's weight Transpose, the LSTM's gate reordering Slices/Concats),
    so they are not activations."""
    live = {i.name for i in proto.graph.input}
    ops = collections.Counter()
    for n in proto.graph.node:  # torch writes nodes in topological order
        if any(i in live for i in n.input if i):
            live.update(o for o in n.output if o)
        elif n.op_type != "Constant":
            ops[n.op_type] += 1
    return ops


def concrete_inputs(name, batch=8, seq=256):
    """NAME's input dims at a concrete batch (and sequence), as `ckpt import --batch 8 [--input ids=8x256]` binds."""
    if name == "gpt2-small":
        return {"ids": [batch, seq]}
    if name == "lstm2":
        return {"input": [LSTM["steps"], batch, LSTM["input_size"]]}
    return {"input": [batch, 3, 224, 224]}


def fold_shapes(proto, dims, rounds=50):
    """Reference for an importer: onnx 1.12's shape inference, even with data_prop and concrete input dims, gives up
    at the first Reshape/Slice whose shape operand is computed (Shape -> Gather -> Unsqueeze -> Concat ...), and
    every tensor after it has no shape. This binds the inputs to DIMS, then repeatedly infers shapes and evaluates
    (numpy) every node whose operands are all known small integer/bool values (Shape of a tensor with a known shape,
    Gather, Unsqueeze, Squeeze, Concat, Cast, Div, Mul, Add, Sub, Equal, Less, Where, ConstantOfShape, Range,
    Reshape, Expand, Slice), replacing it by a Constant, until nothing changes. Returns (folded op histogram, op
    histogram of node outputs whose shape is still not fully known, rounds)."""
    import numpy as np
    import onnx
    from onnx import helper
    from onnx import numpy_helper as nh

    m = onnx.ModelProto()
    m.CopyFrom(proto)
    for i in m.graph.input:
        if i.name in dims:
            for d, v in zip(i.type.tensor_type.shape.dim, dims[i.name]):
                d.ClearField("dim_param")
                d.dim_value = v
    folded = collections.Counter()
    r = 0
    for r in range(1, rounds + 1):
        inf = onnx.shape_inference.infer_shapes(m, strict_mode=False, data_prop=True)
        shapes = {}
        for v in list(inf.graph.value_info) + list(inf.graph.input) + list(inf.graph.output):
            t = v.type.tensor_type
            if t.HasField("shape") and all(d.HasField("dim_value") for d in t.shape.dim):
                shapes[v.name] = [d.dim_value for d in t.shape.dim]
        vals = {t.name: nh.to_array(t) for t in m.graph.initializer
                if t.data_type in (onnx.TensorProto.INT64, onnx.TensorProto.INT32, onnx.TensorProto.BOOL)}
        for n in m.graph.node:
            if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value":
                vals[n.output[0]] = nh.to_array(n.attribute[0].t)
        changed = False
        nodes = []
        for n in m.graph.node:
            out = None
            A = {a.name: helper.get_attribute_value(a) for a in n.attribute}
            ins = [vals.get(i) if i else None for i in n.input]
            have = all(x is not None for x, i in zip(ins, n.input) if i)
            op = n.op_type
            try:
                if op == "Shape" and n.input[0] in shapes:
                    sh = shapes[n.input[0]]
                    out = np.array(sh[A.get("start", 0):A.get("end", len(sh))], dtype=np.int64)
                elif op != "Constant" and have and n.input:
                    if op == "Gather":
                        out = np.take(ins[0], ins[1], axis=A.get("axis", 0))
                    elif op == "Unsqueeze":
                        out = np.expand_dims(ins[0], tuple(int(a) for a in ins[1]))
                    elif op == "Squeeze":
                        out = np.squeeze(ins[0], tuple(int(a) for a in ins[1])) if len(ins) > 1 else np.squeeze(ins[0])
                    elif op == "Concat":
                        out = np.concatenate(ins, axis=A["axis"])
                    elif op == "Cast":
                        out = ins[0].astype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[A["to"]])
                    elif op == "Div":
                        out = (np.trunc(ins[0] / ins[1]).astype(ins[0].dtype) if ins[0].dtype.kind in "iu"
                               else ins[0] / ins[1])
                    elif op in ("Mul", "Add", "Sub", "Equal", "Less"):
                        f = {"Mul": np.multiply, "Add": np.add, "Sub": np.subtract, "Equal": np.equal,
                             "Less": np.less}[op]
                        out = f(ins[0], ins[1])
                    elif op == "Where":
                        out = np.where(ins[0], ins[1], ins[2])
                    elif op == "ConstantOfShape":
                        v = nh.to_array(A["value"]) if "value" in A else np.zeros(1, np.float32)
                        out = np.full(tuple(int(d) for d in ins[0]), v.reshape(-1)[0], dtype=v.dtype)
                    elif op == "Range":
                        out = np.arange(ins[0], ins[1], ins[2])
                    elif op == "Reshape":
                        out = ins[0].reshape([d if d != 0 else ins[0].shape[k] for k, d in enumerate(ins[1])])
                    elif op == "Expand":
                        out = ins[0] * np.ones(tuple(int(d) for d in ins[1]), dtype=ins[0].dtype)
                    elif op == "Slice":
                        d, st, en = ins[0], ins[1], ins[2]
                        axes = ins[3] if len(ins) > 3 and ins[3] is not None else range(len(st))
                        steps = ins[4] if len(ins) > 4 and ins[4] is not None else [1] * len(st)
                        sl = [slice(None)] * d.ndim
                        for a, b, c, k in zip(axes, st, en, steps):
                            sl[int(a)] = slice(int(b), int(c), int(k))
                        out = d[tuple(sl)]
            except Exception:  # noqa: BLE001 - an operand this little evaluator does not handle: leave the node
                out = None
            if out is not None and np.asarray(out).size <= 4096:
                folded[op] += 1
                nodes.append(helper.make_node("Constant", [], [n.output[0]], name=n.name,
                                              value=nh.from_array(np.asarray(out), n.output[0])))
                changed = True
            else:
                nodes.append(n)
        del m.graph.node[:]
        m.graph.node.extend(nodes)
        if not changed:
            break
    inf = onnx.shape_inference.infer_shapes(m, strict_mode=False, data_prop=True)
    known = {v.name: v for v in list(inf.graph.value_info) + list(inf.graph.output)}
    missing = collections.Counter()
    for n in m.graph.node:
        if n.op_type == "Constant":
            continue
        for o in n.output:
            v = known.get(o) if o else None
            if o and (v is None or not v.type.tensor_type.HasField("shape") or
                      not all(d.HasField("dim_value") for d in v.type.tensor_type.shape.dim)):
                missing[n.op_type] += 1
    return folded, missing, r


def describe(path, dims=None):
    """Size, node count, op histogram and the facts the importer needs about one ONNX file, as a dict."""
    import onnx

    proto = onnx.load(path)
    g = proto.graph
    ops = collections.Counter(n.op_type for n in g.node)
    info = {
        "file": path,
        "bytes": os.path.getsize(path),
        "nodes": len(g.node),
        "initializers": len(g.initializer),
        "opset": [(o.domain or "ai.onnx", o.version) for o in proto.opset_import],
        "ops": dict(ops.most_common()),
        "inputs": [(i.name, i.type.tensor_type.elem_type,
                    [d.dim_param or d.dim_value for d in i.type.tensor_type.shape.dim]) for i in g.input],
        "outputs": [(o.name, [d.dim_param or d.dim_value for d in o.type.tensor_type.shape.dim]) for o in g.output],
    }
    bn = [n for n in g.node if n.op_type == "BatchNormalization"]
    if bn:
        modes = collections.Counter(
            next((a.i for a in n.attribute if a.name == "training_mode"), 0) for n in bn)
        info["batchnorm_training_mode"] = dict(modes)
        info["batchnorm_outputs"] = dict(collections.Counter(len([o for o in n.output if o]) for n in bn))
    consts = {n.output[0]: n for n in g.node if n.op_type == "Constant"}
    drop = [n for n in g.node if n.op_type == "Dropout"]
    if drop:
        import onnx.numpy_helper as nh

        ratios = collections.Counter()
        for n in drop:
            r = "default 0.5"
            if len(n.input) > 1 and n.input[1] in consts:
                r = float(nh.to_array(consts[n.input[1]].attribute[0].t))
            ratios[(r, len([o for o in n.output if o]))] += 1
        info["dropout_ratio_outputs"] = {f"ratio {r} outputs {k}": c for (r, k), c in ratios.items()}
    info["shape_subgraph_ops"] = dict(shape_subgraph_ops(proto).most_common())
    info["weight_only_ops"] = dict(weight_only_ops(proto).most_common())
    info["checker"] = check(proto)
    # What Debian's libonnx (the importer's shape inference) can tell from the shape-only file: how many node
    # outputs get a full shape, a shape with symbolic dims only, or none.
    try:
        inferred = onnx.shape_inference.infer_shapes(proto, strict_mode=True)
        known = {v.name: v for v in list(inferred.graph.value_info) + list(inferred.graph.output)}
        tally = collections.Counter()
        for n in g.node:
            if n.op_type == "Constant":
                continue
            for o in n.output:
                if not o:
                    continue
                v = known.get(o)
                if v is None or not v.type.tensor_type.HasField("shape"):
                    tally["no shape"] += 1
                elif all(d.HasField("dim_value") for d in v.type.tensor_type.shape.dim):
                    tally["static"] += 1
                elif all(d.HasField("dim_value") or d.HasField("dim_param") for d in v.type.tensor_type.shape.dim):
                    tally["symbolic"] += 1
                else:
                    tally["unknown dims"] += 1
        info["inferred_shapes"] = dict(tally)
    except Exception as e:  # noqa: BLE001 - the message is the result
        info["inferred_shapes"] = "fails: " + str(e).splitlines()[0][:300]
    if dims:
        _, missing, _ = fold_shapes(proto, dims, rounds=0)
        info["concrete_inference_unknown"] = dict(missing.most_common())
        folded, missing, rounds = fold_shapes(proto, dims)
        info["after_folding"] = {"dims": dims, "folded": dict(folded.most_common()), "rounds": rounds,
                                 "still_unknown": dict(missing.most_common())}
    return info


def check(proto):
    """onnx.checker.check_model on a shape-only model. The checker rejects an initializer without data ("should
    contain one and only one value field"), so it runs on a copy whose data-less floating-point initializers hold
    zeros of their dims (rebuilt in memory only); everything else (graph, opset, attributes, integer constants) is
    checked as written. Returns "ok (...)" or "fails: MESSAGE"."""
    import numpy as np
    import onnx
    import onnx.numpy_helper as nh

    copy = onnx.ModelProto()
    copy.CopyFrom(proto)
    filled = 0
    for t in copy.graph.initializer:
        if not (t.raw_data or t.float_data or t.double_data or t.int32_data or t.int64_data or t.uint64_data
                or t.string_data or t.data_location == onnx.TensorProto.EXTERNAL):
            dtype = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[t.data_type]
            t.CopyFrom(nh.from_array(np.zeros(tuple(t.dims), dtype=dtype), t.name))
            filled += 1
    try:
        onnx.checker.check_model(copy)
        return f"ok ({filled} data-less initializers zero-filled for the check)"
    except Exception as e:  # noqa: BLE001 - the message is the result
        return "fails: " + str(e).splitlines()[0][:300]


def report(name, path, seconds=None):
    info = describe(path, concrete_inputs(name))
    took = f", exported in {seconds:.1f} s" if seconds is not None else ""
    print(f"{path}: {info['bytes']} bytes, {info['nodes']} nodes{took}, checker {info['checker']}")
    print("  ops: " + ", ".join(f"{k} {v}" for k, v in info["ops"].items()))
    for key in ("batchnorm_training_mode", "batchnorm_outputs", "dropout_ratio_outputs"):
        if key in info:
            print(f"  {key}: {info[key]}")
    print("  weight-only ops (no graph input upstream): " + (
        ", ".join(f"{k} {v}" for k, v in info["weight_only_ops"].items()) or "none"))
    print("  shape subgraph ops: " + (", ".join(f"{k} {v}" for k, v in info["shape_subgraph_ops"].items())
                                      or "none"))
    print(f"  onnx.shape_inference of the file as written: {info['inferred_shapes']}")
    u = info["concrete_inference_unknown"]
    a = info["after_folding"]
    print(f"  onnx.shape_inference (data_prop) at {a['dims']}: "
          + (f"{sum(u.values())} node outputs without a full shape ({', '.join(f'{k} {v}' for k, v in u.items())})"
             if u else "every node output has a full shape"))
    if u:
        print(f"  after folding the shape computations ({', '.join(f'{k} {v}' for k, v in a['folded'].items())}; "
              f"{a['rounds']} rounds): " + (f"{sum(a['still_unknown'].values())} still without a full shape"
                                            if a["still_unknown"] else "every node output has a full shape"))
    print(f"  inputs {info['inputs']} outputs {info['outputs']}", flush=True)
    return info


def main(argv):
    if len(argv) < 2 or argv[0] not in ("export", "describe"):
        print("usage: torch_nets.py export|describe DIR [NAME...]   (NAME from: " + ", ".join(ALL) + ")\n"
              "  export: writes DIR/NAME.onnx (shape-only) and describes it; describe: only describes DIR/NAME.onnx",
              file=sys.stderr)
        return 2
    out = argv[1]
    names = argv[2:] or EXAMPLES
    bad = [n for n in names if n not in ALL]
    if bad:
        print(f"unknown network(s): {', '.join(bad)}", file=sys.stderr)
        return 2
    import onnx

    versions = (torch.__version__, torchvision.__version__, onnx.__version__)
    print(f"torch {versions[0]}, torchvision {versions[1]}, onnx {versions[2]}")
    if not (versions[0].startswith("1.13.") and versions[1].startswith("0.14.") and versions[2].startswith("1.12.")):
        print("warning: the files in the repository were made with torch 1.13, torchvision 0.14 and onnx 1.12 "
              "(see scripts/gen-onnx-examples); other versions may write other operators", file=sys.stderr)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    os.makedirs(out, exist_ok=True)
    for name in names:
        path = os.path.join(out, name + ".onnx")
        seconds = export(name, path) if argv[0] == "export" else None
        report(name, path, seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
