#include "io/onnx_import.h"

#include "io/graph_io.h"
#include "io/json_reader.h"
#include "io/onnx_costs.h"
#include "util/bounds.h"
#include "util/files.h"
#include "util/units.h"
#include "util/utf8.h"

#ifdef CKPT_HAVE_ONNX
#include "io/onnx_checks.h"
#include "io/onnx_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#endif

namespace ckpt {

double OnnxImport::totalFlops() const {
    double sum = 0;
    for (double f : flops)
        sum += f;
    return sum;
}

nlohmann::json onnxImportToJson(const OnnxImport& imported, const std::string& comment) {
    nlohmann::json doc = graphToJson(imported.graph);
    doc["comment"] = comment;
    auto& nodes = doc["nodes"];
    for (std::size_t k = 0; k < nodes.size() && k < imported.ops.size(); ++k) {
        nodes[k]["op"] = imported.ops[k];
        nodes[k]["flops"] = imported.flops[k];
        if (k < imported.kept_bytes.size() && imported.kept_bytes[k] > 0)
            nodes[k]["kept_bytes"] = imported.kept_bytes[k];
    }
    return doc;
}

#ifndef CKPT_HAVE_ONNX

bool onnxImportAvailable() {
    return false;
}

namespace {
Error unavailable(const std::string& source) {
    return fail(source + ": this build cannot import ONNX models: libonnx-dev was not installed when it was configured "
                         "(install it, e.g. with scripts/setup-debian, and configure again)");
}
} // namespace

Result<OnnxImport> importOnnxFile(const std::string& path, const OnnxImportOptions&) {
    return unavailable(path);
}
Result<OnnxImport> importOnnxBytes(const std::string&, const std::string& source, const OnnxImportOptions&) {
    return unavailable(source);
}
Result<std::vector<OnnxInput>> onnxInputs(const std::string& path) {
    return unavailable(path);
}

#else

bool onnxImportAvailable() {
    return true;
}

namespace {

using onnxio::nodeLabel;

int elementBytes(int type, int floatBytes) {
    using T = onnx::TensorProto;
    switch (type) {
    case T::FLOAT:
        return floatBytes ? floatBytes : 4;
    case T::DOUBLE:
        return floatBytes ? floatBytes : 8;
    case T::FLOAT16:
    case T::BFLOAT16:
        return floatBytes ? floatBytes : 2;
    case T::UINT8:
    case T::INT8:
    case T::BOOL:
        return 1;
    case T::UINT16:
    case T::INT16:
        return 2;
    case T::INT32:
    case T::UINT32:
        return 4;
    case T::INT64:
    case T::UINT64:
    case T::COMPLEX64:
        return 8;
    case T::COMPLEX128:
        return 16;
    default:
        return 0; // strings and undefined: no size
    }
}

// The product of sizes >= 0, or nullopt when one is negative or it does not fit in 64 bits.
std::optional<std::int64_t> checkedProduct(std::initializer_list<std::int64_t> sizes) {
    std::int64_t p = 1;
    for (std::int64_t x : sizes)
        if (x < 0 || __builtin_mul_overflow(p, x, &p)) return std::nullopt;
    return p;
}

// "4x3x3x3".
std::string dimsText(const std::vector<std::int64_t>& dims) {
    std::string out;
    for (std::int64_t d : dims)
        out += (out.empty() ? "" : "x") + std::to_string(d);
    return out.empty() ? "a scalar" : out;
}

// A tensor's dims and bytes; `known` false when a dimension is not a number >= 0 or the bytes do not fit.
struct Sized {
    std::vector<std::int64_t> dims;
    std::int64_t bytes = 0;
    bool known = false;
    int element = 0;       // bytes per element
    bool overflow = false; // every dimension >= 0, but the bytes do not fit in 64 bits
};

Sized sized(std::vector<std::int64_t> dims, int elementSize) {
    Sized s{std::move(dims), 0, elementSize > 0, elementSize};
    std::int64_t n = elementSize;
    bool negative = false;
    for (std::int64_t d : s.dims) {
        negative = negative || d < 0;
        if (d < 0 || __builtin_mul_overflow(n, d, &n)) s.known = false;
    }
    if (s.known) s.bytes = n;
    s.overflow = !s.known && !negative && elementSize > 0;
    return s;
}

Sized sizedType(const onnx::TypeProto& type, int floatBytes) {
    if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return {};
    std::vector<std::int64_t> dims;
    for (const auto& d : type.tensor_type().shape().dim()) {
        if (!d.has_dim_value()) return {};
        dims.push_back(d.dim_value());
    }
    return sized(std::move(dims), elementBytes(type.tensor_type().elem_type(), floatBytes));
}

// "1.2e+20".
std::string approximately(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

// What is wrong with the attributes the cost reads (onnxOpProblem), and LayerNormalization's axis, which the
// importer reads to count its statistics; "" when nothing is.
std::string attributeProblem(const OnnxOp& op) {
    if (op.type == "LayerNormalization" && !op.inputs.empty() && op.inputs[0].present) {
        const auto rank = std::int64_t(op.inputs[0].dims.size());
        auto it = op.ints.find("axis");
        const std::int64_t axis = it == op.ints.end() || it->second.empty() ? -1 : it->second.front();
        if (axis < -rank || axis >= rank)
            return "attribute axis is " + std::to_string(axis) + "; for its input of " + std::to_string(rank) +
                   " dimensions it must be from " + std::to_string(-rank) + " to " + std::to_string(rank - 1);
    }
    return onnxOpProblem(op);
}

// A value of the network: a constant (weights, constants and what is computed from them alone) or an activation, the
// output of graph node `producer` (directly, or through views).
struct Value {
    bool activation = false;
    int producer = -1;
    Sized size;
};

struct Builder {
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    std::vector<std::string> ops;
    std::vector<double> flops, bytes;
    std::vector<std::int64_t> keptWith; // per node: statistics kept with its output (OnnxImport::kept_bytes)
    // An unrolled recurrent layer whose stack of hidden states Y is a node (the key: that node), so that a layer above
    // it can join its time steps.
    struct Layer {
        std::vector<int> cells, gates; // per time step
        std::int64_t steps = 0, batch = 0, hidden = 0, element = 0;
        std::string y; // the value of its Y
    };
    std::unordered_map<int, Layer> layers;
    std::unordered_set<int> dropped; // nodes left out of the graph (a stack of hidden states no one reads)
    std::unordered_set<std::string> ids;
    std::map<std::string, std::vector<std::string>> unknownOps; // operator -> its nodes
    std::vector<std::string> unsized;                           // nodes with an output shape inference left unsized
    std::map<std::string, int> unnamed;                         // operator -> how many unnamed nodes so far

    // ONNX names are any bytes and may repeat or be empty; graph ids are unique UTF-8.
    std::string uniqueId(const std::string& name, const std::string& op) {
        std::string base = validUtf8(name);
        if (base.empty()) base = op + "_" + std::to_string(unnamed[op]++);
        std::string id = base;
        for (int k = 2; ids.count(id); ++k)
            id = base + "_" + std::to_string(k);
        ids.insert(id);
        return id;
    }

    int addNode(GraphNode node, const std::string& op, double f, double b) {
        nodes.push_back(std::move(node));
        keptWith.push_back(0);
        ops.push_back(op);
        flops.push_back(f);
        bytes.push_back(b);
        return int(nodes.size()) - 1;
    }
};

std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t k = 0; k < names.size() && k < 5; ++k)
        out += (k ? ", " : "") + names[k];
    return names.size() > 5 ? out + " and " + std::to_string(names.size() - 5) + " more" : out;
}

// A constant's value as a number, when the graph holds it (an initializer with data, or a Constant node).
struct Constants {
    std::unordered_map<std::string, const onnx::TensorProto*> tensors;
    explicit Constants(const onnx::GraphProto& g) {
        for (const auto& t : g.initializer())
            tensors[t.name()] = &t;
        for (const auto& n : g.node())
            if (n.op_type() == "Constant" && onnxio::isDefaultDomain(n.domain()) && n.output_size() == 1)
                for (const auto& a : n.attribute())
                    if (a.name() == "value" && a.type() == onnx::AttributeProto::TENSOR) tensors[n.output(0)] = &a.t();
    }
    std::optional<double> scalar(const std::string& name) const {
        auto it = tensors.find(name);
        return it == tensors.end() ? std::nullopt : onnxio::tensorScalar(*it->second);
    }
};

// What the import counts that a node's output does not show: per kind, how many nodes and the bytes they keep.
struct Kept {
    int count = 0;
    std::int64_t bytes = 0;
};

// Dropout in a training export: opset 12 and later say so with the training_mode input (constant true); earlier
// opsets run Dropout as an identity in inference. Returns the ratio when it drops, nullopt when it is an identity.
std::optional<double> trainingDropout(const onnx::NodeProto& n, const Constants& c) {
    if (n.input_size() < 3 || n.input(2).empty()) return std::nullopt;
    const auto training = c.scalar(n.input(2));
    if (!training || *training == 0) return std::nullopt;
    const auto ratio = n.input(1).empty() ? std::optional(0.5) : c.scalar(n.input(1));
    return ratio.value_or(0.5);
}

// The most time steps (times directions) one recurrent operator may unroll into: two nodes each.
constexpr std::int64_t kMaxUnrolledSteps = 100000;

// A recurrent layer (LSTM, GRU or RNN) as the import unrolls it: its dimensions, and what each time step costs and
// keeps.
struct Recurrent {
    const Value* x = nullptr;       // its input X
    const Value* initial = nullptr; // an initial state computed by the network (not a constant)
    std::int64_t gates = 1, hidden = 0, steps = 0, batch = 0, inputs = 0, directions = 1;
    std::int64_t gateRows = 0; // gates x hidden: W's and R's rows per direction
    std::int64_t element = 1, stateBytes = 0, keptBytes = 0;
    double stepFlops = 0, stepMoved = 0, forward = 0;
    std::string yName; // its output Y, the stack of every step's hidden state
};

// A node as the import treats it: its operator (a fusion's kernel, or a domain's operator) and its kind.
struct NodeKind {
    const onnxio::Fusion* fusion = nullptr;
    bool standard = false;
    std::string type, op; // op: the type as valid UTF-8
    OnnxOpKind kind = OnnxOpKind::Unknown;
    std::optional<double> dropRatio; // a training Dropout's ratio, when it drops
};

// A tensor the backward keeps besides inputs and outputs; bytes -1 when there is none.
struct KeptTensor {
    std::int64_t bytes = -1;
    std::string name;
    bool byItself = false; // kept by its own node's backward (Dropout's mask)
};

// One import: what it learns of the model before it makes nodes (every value's inferred type, the initializers, who
// reads what, the fusions), the graph it builds, and what it counts for the summary.
struct Importer {
    const onnx::GraphProto& g;
    const std::string& source;
    const OnnxImportOptions& options;
    const Constants constants;
    std::unordered_map<std::string, Sized> typed; // every value's inferred type
    std::unordered_map<std::string, Value> values;
    std::int64_t weightBytes = 0;
    std::unordered_set<std::string> used;         // read by an operator or a graph output
    std::unordered_map<std::string, int> readers; // how many operators and graph outputs read it
    std::vector<onnxio::Fusion> fusions;
    std::unordered_map<int, const onnxio::Fusion*> fusedAt;
    std::unordered_set<int> fusedAway;
    Builder b;
    int folded = 0;
    std::map<std::string, Kept> kept;   // by kind, for the summary
    std::map<std::string, int> fusedBy; // kernel -> how many fused
    int convolutions = 0, identities = 0, zeroRatio = 0, normalizations = 0, averagePools = 0;

    Importer(const onnx::GraphProto& graph, const std::string& from, const OnnxImportOptions& opts)
        : g(graph), source(from), options(opts), constants(graph) {}

    std::string nodeWhat(const onnx::NodeProto& n, const std::string& op) const {
        return source + ": node " + nodeLabel(g, n, op);
    }

    // The values' types, the initializers (weights) and how many read each value.
    std::optional<Error> readValues() {
        const int floatBytes = options.element_bytes;
        for (const auto* list : {&g.input(), &g.value_info(), &g.output()})
            for (const auto& v : *list)
                typed[v.name()] = sizedType(v.type(), floatBytes);
        for (const auto& t : g.initializer()) {
            for (auto d : t.dims())
                if (d < 0)
                    return fail(source + ": initializer '" + validUtf8(t.name()) + "' has a negative dimension (" +
                                std::to_string(d) + ")");
            Sized s = sized({t.dims().begin(), t.dims().end()}, elementBytes(t.data_type(), floatBytes));
            if (s.overflow)
                return fail(source + ": initializer '" + validUtf8(t.name()) + "' (" + dimsText(s.dims) + ", " +
                            std::to_string(s.element) +
                            " bytes each) is larger than 2^63 bytes: its size does not fit in 64 bits");
            if (!checkedAdd(weightBytes, s.bytes, weightBytes))
                return fail(source + ": the initializers add up to more than 2^63 bytes (by '" + validUtf8(t.name()) +
                            "'): their size does not fit in 64 bits");
            values[t.name()] = Value{false, -1, std::move(s)};
        }
        for (const auto& n : g.node()) {
            std::unordered_set<std::string> once;
            for (const auto& in : n.input())
                if (used.insert(in), once.insert(in).second) ++readers[in];
        }
        for (const auto& out : g.output())
            used.insert(out.name()), ++readers[out.name()];
        return std::nullopt;
    }

    // Which values are activations (computed from a data input), and the fusions among them.
    void findFusions() {
        std::unordered_set<std::string> active;
        for (const auto* in : onnxio::dataInputs(g))
            active.insert(in->name());
        for (const auto& n : g.node()) {
            const bool standard = onnxio::isDefaultDomain(n.domain());
            if (standard && onnxOpKind(n.op_type()) == OnnxOpKind::ShapeOnly) continue;
            bool any = false;
            for (const auto& in : n.input())
                any = any || active.count(in);
            if (any)
                for (const auto& out : n.output())
                    active.insert(out);
        }
        fusions = onnxio::findFusions(g, [&](const std::string& v) { return active.count(v) > 0; });
        for (const auto& f : fusions) {
            fusedAt[f.exit] = &f;
            for (int k : f.nodes)
                if (k != f.exit) fusedAway.insert(k);
        }
    }

    // A node per data input.
    std::optional<Error> addInputs() {
        for (const auto* in : onnxio::dataInputs(g)) {
            Sized s = typed[in->name()];
            if (!s.known)
                return fail(source + ": input '" + validUtf8(in->name()) +
                            (s.element == 0 ? "': its elements have no fixed size (strings, or no element type)"
                                            : "': its size in bytes does not fit in 64 bits"));
            GraphNode node{b.uniqueId(in->name(), "input"), 0, 0, s.bytes, 0, false, false, false};
            values[in->name()] = Value{true, b.addNode(std::move(node), "input", 0, 0), s};
        }
        return std::nullopt;
    }

    int readBy(const std::string& v) const {
        auto it = readers.find(v);
        return it == readers.end() ? 0 : it->second;
    }

    // LSTM, GRU and RNN unrolled into one node per time step (and direction), as autograd runs them: each step reads
    // the layer's input X (its input projection keeps X for the weights' gradient) and the state of the step before,
    // and keeps for its backward that state and its gate activations (LSTM: the four gates and tanh(c), 5H per batch
    // row; GRU: the three gates and the hidden projection, 4H; RNN: its output, which is its state). The gates are a
    // node beside the step, as BatchNorm's statistics are. Y, the stack of every step's hidden state, is a node of its
    // own when the network reads it; Y_h and Y_c are the last step's state. Returns an error, or nullopt once the
    // values are set.
    std::optional<Error> unrollRecurrent(const onnx::NodeProto& n, const std::vector<const Value*>& ins) {
        Recurrent rnn;
        if (auto e = recurrentShape(n, ins, rnn)) return e;
        if (auto e = recurrentSizes(n, rnn)) return e;
        // An initial state computed by the network (not a constant) starts the first step.
        rnn.initial = ins.size() > 5 && ins[5] && ins[5]->activation ? ins[5] : nullptr;
        rnn.yName = n.output_size() > 0 ? n.output(0) : "";
        // A layer stacked on another (nn.LSTM(num_layers=2) exports one operator per layer, the upper reading the
        // lower's Y through a Squeeze): its time step t joins the lower layer's, so that the network stays a chain of
        // time steps, as BPTT treats a stacked RNN (the state of a step: every layer's). The step then keeps, besides
        // both cells' tensors, the lower layer's output at t, which the upper layer's input projection keeps
        // (PyTorch's stacked Y).
        if (auto below = b.layers.find(rnn.x->producer);
            below != b.layers.end() && rnn.directions == 1 && !rnn.initial && rnn.gates > 1 &&
            below->second.steps == rnn.steps && below->second.batch == rnn.batch && readBy(below->second.y) == 1 &&
            (n.input(0) == below->second.y || readBy(n.input(0)) == 1)) {
            joinLowerLayer(n, rnn, below);
            return std::nullopt;
        }
        unrollSteps(n, rnn);
        return std::nullopt;
    }

    // A recurrent layer's dimensions, from its input X, its weights W and R and its attributes, checked against its
    // optional inputs.
    std::optional<Error> recurrentShape(const onnx::NodeProto& n, const std::vector<const Value*>& ins,
                                        Recurrent& rnn) const {
        const std::string& op = n.op_type();
        const std::string what = nodeWhat(n, op);
        const Value* x = ins.size() > 0 ? ins[0] : nullptr;
        const Value* w = ins.size() > 1 ? ins[1] : nullptr;
        const Value* r = ins.size() > 2 ? ins[2] : nullptr;
        if (!x || !x->activation || !x->size.known || x->size.dims.size() != 3)
            return fail(what + ": its input X must be an activation of 3 dimensions with a known size");
        if (!w || !r || w->size.dims.size() != 3 || r->size.dims.size() != 3)
            return fail(what + ": its weights W and R must be stored with 3 dimensions each (directions, gates x "
                               "hidden, inputs)");
        const std::int64_t gates = op == "LSTM" ? 4 : op == "GRU" ? 3 : 1;
        std::int64_t layout = 0, hidden = r->size.dims[2];
        std::string direction = "forward";
        for (const auto& a : n.attribute()) {
            if (a.name() == "layout") layout = a.i();
            if (a.name() == "hidden_size") hidden = a.i();
            if (a.name() == "direction") direction = a.s();
        }
        if (layout != 0 && layout != 1)
            return fail(what + ": attribute layout is " + std::to_string(layout) + "; it must be 0 or 1");
        const auto& xd = x->size.dims;
        const std::int64_t steps = layout ? xd[1] : xd[0], batch = layout ? xd[0] : xd[1], inputs = xd[2];
        const std::int64_t directions = w->size.dims[0];
        std::int64_t gateRows = 0; // gates x hidden: W's and R's rows per direction
        const bool rows = !__builtin_mul_overflow(gates, hidden, &gateRows);
        if (hidden < 1 || hidden != r->size.dims[2] || !rows || w->size.dims[1] != gateRows ||
            r->size.dims[1] != gateRows || w->size.dims[2] != inputs || r->size.dims[0] != directions ||
            directions < 1 || directions > 2)
            return fail(what + ": hidden_size " + std::to_string(hidden) + " disagrees with its weights (W " +
                        dimsText(w->size.dims) + ", R " + dimsText(r->size.dims) + "; expected " +
                        std::to_string(gates) + " gates of the hidden size, over " + std::to_string(inputs) +
                        " inputs, in 1 or 2 directions)");
        if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
            return fail(what + ": attribute direction is '" + validUtf8(direction.substr(0, 40)) +
                        "'; it must be forward, reverse or bidirectional");
        if ((direction == "bidirectional") != (directions == 2))
            return fail(what + ": attribute direction is " + direction + ", but its weights W " +
                        dimsText(w->size.dims) + " hold " + std::to_string(directions) + " direction" +
                        (directions == 1 ? "" : "s"));
        // The optional inputs' shapes follow: B (bias), sequence_lens, initial_h, initial_c, P (peepholes).
        auto state = [&](std::int64_t d) {
            return layout ? std::vector<std::int64_t>{batch, d, hidden} : std::vector<std::int64_t>{d, batch, hidden};
        };
        const std::vector<std::pair<const char*, std::vector<std::int64_t>>> optional = {
            {"B (bias)", {directions, 2 * gateRows}},
            {"sequence_lens", {batch}},
            {"initial_h", state(directions)},
            {"initial_c", state(directions)},
            {"P (peepholes)", {directions, 3 * hidden}}};
        for (std::size_t k = 3; k < ins.size() && k < 3 + optional.size(); ++k) {
            const auto& [name, dims] = optional[k - 3];
            if (ins[k] && ins[k]->size.known && ins[k]->size.dims != dims)
                return fail(what + ": its input " + name + " is " + dimsText(ins[k]->size.dims) + "; hidden_size " +
                            std::to_string(hidden) + " over " + std::to_string(batch) + " batch rows in " +
                            std::to_string(directions) + " direction" + (directions == 1 ? "" : "s") + " needs " +
                            dimsText(dims));
        }
        rnn.x = x;
        rnn.gates = gates, rnn.hidden = hidden, rnn.steps = steps, rnn.batch = batch, rnn.inputs = inputs;
        rnn.directions = directions, rnn.gateRows = gateRows;
        return std::nullopt;
    }

    // What each time step of the layer keeps and costs, once its dimensions are known; an error when that does not
    // fit in 64 bits.
    std::optional<Error> recurrentSizes(const onnx::NodeProto& n, Recurrent& rnn) const {
        const std::string& op = n.op_type();
        const std::int64_t steps = rnn.steps, batch = rnn.batch, hidden = rnn.hidden, directions = rnn.directions;
        if (steps > kMaxUnrolledSteps / directions)
            return fail(nodeWhat(n, op) + ": " + std::to_string(steps) + " time steps in " +
                        std::to_string(directions) + " directions would unroll into more than " +
                        std::to_string(kMaxUnrolledSteps) + " steps");
        const std::int64_t element = std::max(1, rnn.x->size.element);
        const std::int64_t keptRow = op == "LSTM" ? 5 * hidden : op == "GRU" ? 4 * hidden : 0;
        // Every tensor the unrolled layer makes (each step's state and kept gates, the stack Y) fits in 64 bits, and
        // so does every sum of them below.
        const auto stateBytesOr = checkedProduct({op == "LSTM" ? 2 : 1, batch, hidden, element});
        const auto keptBytesOr = checkedProduct({batch, keptRow, element});
        const auto outputBytes = checkedProduct({batch, hidden, element});
        std::int64_t perStep = 0;
        if (!stateBytesOr || !keptBytesOr || !outputBytes || !checkedAdd(*stateBytesOr, *keptBytesOr, perStep) ||
            !checkedAdd(perStep, *outputBytes, perStep) || !checkedProduct({steps, directions, perStep}))
            return fail(nodeWhat(n, op) + ": the tensors its " + std::to_string(steps) +
                        " time steps keep (hidden_size " + std::to_string(hidden) + ", " + std::to_string(batch) +
                        " batch rows, " + std::to_string(element) + "-byte elements) do not fit in 64 bits");
        const std::int64_t stateBytes = *stateBytesOr, keptBytes = *keptBytesOr;
        // A multiply-add per weight and batch row, plus the gates' element-wise work (about 8 per state element).
        const std::int64_t gateRows = rnn.gateRows, inputs = rnn.inputs;
        const double stepFlops =
            2.0 * double(batch) * double(gateRows) * double(inputs + hidden) + 8.0 * double(batch) * double(gateRows);
        const double stepMoved = double(batch) * (double(inputs) + double(gateRows)) * double(element) +
                                 2.0 * double(stateBytes) + double(keptBytes);
        rnn.element = element, rnn.stateBytes = stateBytes, rnn.keptBytes = keptBytes;
        rnn.stepFlops = stepFlops, rnn.stepMoved = stepMoved;
        rnn.forward = rooflineSeconds(stepFlops, stepMoved, options.hardware);
        return std::nullopt;
    }

    // The layer's time step t joins the lower layer's (see unrollRecurrent).
    void joinLowerLayer(const onnx::NodeProto& n, const Recurrent& rnn,
                        std::unordered_map<int, Builder::Layer>::iterator below) {
        const std::string& op = n.op_type();
        const std::int64_t steps = rnn.steps, batch = rnn.batch, hidden = rnn.hidden, element = rnn.element;
        const std::int64_t stateBytes = rnn.stateBytes, keptBytes = rnn.keptBytes;
        const double forward = rnn.forward;
        const std::string& yName = rnn.yName;
        Builder::Layer layer = below->second;
        const int stack = below->first;
        b.layers.erase(below);
        const std::int64_t lowerRow = batch * layer.hidden * layer.element; // its output at t: its own sizes fit
        for (std::int64_t t = 0; t < steps; ++t) {
            GraphNode& cell = b.nodes[std::size_t(layer.cells[std::size_t(t)])];
            cell.output_bytes = saturatingSum({cell.output_bytes, stateBytes});
            cell.forward += forward;
            cell.backward += 2 * forward;
            b.flops[std::size_t(layer.cells[std::size_t(t)])] += rnn.stepFlops;
            b.bytes[std::size_t(layer.cells[std::size_t(t)])] += rnn.stepMoved;
            GraphNode& keptNode = b.nodes[std::size_t(layer.gates[std::size_t(t)])];
            keptNode.output_bytes =
                saturatingSum({keptNode.output_bytes, keptBytes, lowerRow, t == 0 ? stateBytes : 0});
        }
        Kept& k = kept[op];
        ++k.count;
        k.bytes = saturatingSum({k.bytes, keptBytes * steps, lowerRow * steps, stateBytes});
        layer.hidden = hidden;
        layer.y = yName;
        if (!yName.empty() && readBy(yName) > 0) {
            GraphNode& y = b.nodes[std::size_t(stack)];
            y.output_bytes = steps * batch * hidden * element;
            y.forward = rooflineSeconds(double(y.output_bytes) / double(element), 2.0 * double(y.output_bytes),
                                        options.hardware);
            values[yName] =
                Value{true, stack, typed[yName].known ? typed[yName] : sized({steps, 1, batch, hidden}, int(element))};
            b.layers[stack] = layer;
        } else {
            b.dropped.insert(stack); // read by this layer alone, which no longer reads it
            if (!yName.empty()) values[yName] = Value{false, -1, typed[yName]};
        }
        for (int o = 1; o < n.output_size() && o < 3; ++o)
            if (!n.output(o).empty()) values[n.output(o)] = Value{true, layer.cells.back(), typed[n.output(o)]};
    }

    // The layer's nodes: per direction and time step, the cell and the gates it keeps; Y, when something reads it.
    void unrollSteps(const onnx::NodeProto& n, const Recurrent& rnn) {
        const std::string& op = n.op_type();
        const std::int64_t steps = rnn.steps, batch = rnn.batch, hidden = rnn.hidden, element = rnn.element;
        const std::int64_t directions = rnn.directions, stateBytes = rnn.stateBytes, keptBytes = rnn.keptBytes;
        const double forward = rnn.forward;
        const Value* x = rnn.x;
        const Value* initial = rnn.initial;
        const std::string& yName = rnn.yName;
        const double stepFlops = rnn.stepFlops, stepMoved = rnn.stepMoved;
        const std::string id = b.uniqueId(n.name(), op);
        std::vector<int> firstGates;
        std::vector<int> last(std::size_t(directions), -1);
        std::vector<int> allSteps;
        for (std::int64_t d = 0; d < directions; ++d) {
            int previous = initial ? initial->producer : -1;
            for (std::int64_t k = 0; k < steps; ++k) {
                const std::int64_t t = d == 1 ? steps - 1 - k : k;
                const std::string step =
                    id + (directions > 1 ? (d ? ".reverse" : ".forward") : "") + ".t" + std::to_string(t + 1);
                int aux = -1;
                // Without a state from the network the first step starts from zeros, which its backward keeps too.
                const std::int64_t stepKept = keptBytes + (k == 0 && previous < 0 ? stateBytes : 0);
                if (stepKept > 0) {
                    aux = b.addNode(GraphNode{b.uniqueId(step + ".gates", op), 0, 0, stepKept, 0, false, false, false},
                                    op + " gates", 0, double(stepKept));
                    b.edges.push_back(GraphEdge{b.nodes[std::size_t(x->producer)].id, b.nodes[std::size_t(aux)].id});
                    if (previous >= 0)
                        b.edges.push_back(GraphEdge{b.nodes[std::size_t(previous)].id, b.nodes[std::size_t(aux)].id});
                }
                const int cell = b.addNode(
                    GraphNode{b.uniqueId(step, op), forward, 2 * forward, stateBytes, 0, true, op == "RNN", false}, op,
                    stepFlops, stepMoved);
                const std::string& cellId = b.nodes[std::size_t(cell)].id;
                b.edges.push_back(GraphEdge{b.nodes[std::size_t(x->producer)].id, cellId});
                if (previous >= 0) b.edges.push_back(GraphEdge{b.nodes[std::size_t(previous)].id, cellId});
                if (aux >= 0) b.edges.push_back(GraphEdge{b.nodes[std::size_t(aux)].id, cellId});
                previous = cell;
                allSteps.push_back(cell);
                if (d == 0) firstGates.push_back(aux);
            }
            last[std::size_t(d)] = previous;
        }
        Kept& k = kept[op];
        ++k.count;
        k.bytes = saturatingSum({k.bytes, keptBytes * steps * directions, (initial ? 0 : stateBytes) * directions});
        // Y: the stack of every hidden state, when something reads it.
        if (!yName.empty() && readBy(yName) > 0) {
            const Sized& y = typed[yName];
            const std::int64_t yBytes = steps * directions * batch * hidden * element;
            const int stack =
                b.addNode(GraphNode{b.uniqueId(id + ".Y", op),
                                    rooflineSeconds(double(yBytes) / element, 2.0 * double(yBytes), options.hardware),
                                    0, yBytes, 0, false, false, false},
                          op + " output", double(yBytes) / double(element), 2.0 * double(yBytes));
            for (int c : allSteps)
                b.edges.push_back(GraphEdge{b.nodes[std::size_t(c)].id, b.nodes[std::size_t(stack)].id});
            Sized ys = y.known ? y : sized({steps, directions, batch, hidden}, int(element));
            values[yName] = Value{true, stack, ys};
            bool everyStepKeeps = directions == 1 && !initial;
            for (int a : firstGates)
                everyStepKeeps = everyStepKeeps && a >= 0;
            if (everyStepKeeps)
                b.layers[stack] = Builder::Layer{allSteps, firstGates, steps, batch, hidden, element, yName};
        } else if (!yName.empty()) {
            values[yName] = Value{false, -1, typed[yName]};
        }
        for (int o = 1; o < n.output_size() && o < 3; ++o)
            if (!n.output(o).empty()) values[n.output(o)] = Value{true, last.back(), typed[n.output(o)]};
    }

    // Node `at`'s operator and kind; counts its dropouts and normalizations.
    std::optional<Error> classify(int at, NodeKind& k) {
        const auto& n = g.node(at);
        k.fusion = fusedAt.count(at) ? fusedAt.at(at) : nullptr;
        k.standard = onnxio::isDefaultDomain(n.domain());
        k.type = k.fusion ? k.fusion->kernel : k.standard ? n.op_type() : n.domain() + "." + n.op_type();
        k.op = validUtf8(k.type);
        k.kind = k.fusion ? OnnxOpKind::Compute : k.standard ? onnxOpKind(n.op_type()) : OnnxOpKind::Unknown;
        if (k.standard && n.op_type() == "Dropout") {
            k.dropRatio = trainingDropout(n, constants);
            if (k.dropRatio && !(*k.dropRatio >= 0 && *k.dropRatio <= 1))
                return fail(nodeWhat(n, k.op) + ": its ratio is " + approximately(*k.dropRatio) +
                            "; a dropout ratio is from 0 to 1");
            if (k.dropRatio && *k.dropRatio > 0)
                k.kind = OnnxOpKind::Compute;
            else if (k.dropRatio)
                ++zeroRatio, k.dropRatio.reset();
            else
                ++identities;
        }
        if (k.standard && (k.type == "BatchNormalization" || k.type == "LayerNormalization" ||
                           k.type == "InstanceNormalization" || k.type == "GroupNormalization"))
            ++normalizations;
        return std::nullopt;
    }

    // The values node `n` reads (nullptr for an optional input left out); checks that its outputs are new.
    std::optional<Error> readInputs(const onnx::NodeProto& n, const NodeKind& k, std::vector<const Value*>& ins,
                                    bool& anyActivation) const {
        std::vector<std::string> inputNames;
        if (k.fusion)
            inputNames = {k.fusion->input};
        else
            inputNames.assign(n.input().begin(), n.input().end());
        for (const auto& name : inputNames) {
            if (name.empty()) { // an optional input left out
                ins.push_back(nullptr);
                continue;
            }
            auto it = values.find(name);
            if (it == values.end())
                return fail(nodeWhat(n, k.op) + " reads '" + validUtf8(name) +
                            "', which no graph input, initializer or earlier node produces (ONNX lists nodes in "
                            "topological order)");
            ins.push_back(&it->second);
            anyActivation = anyActivation || it->second.activation;
        }
        for (const auto& out : n.output())
            if (!out.empty() && values.count(out))
                return fail(nodeWhat(n, k.op) + ": value '" + validUtf8(out) + "' is produced twice");
        return std::nullopt;
    }

    // A node that makes no node of the graph: its outputs are constants, or views of its input's activation.
    void foldAway(const onnx::NodeProto& n, const NodeKind& k, const std::vector<const Value*>& ins,
                  bool anyActivation) {
        const int alias = k.kind == OnnxOpKind::ShapeOnly || !anyActivation ? -1 : ins.front()->producer;
        for (const auto& out : n.output())
            if (!out.empty()) values[out] = Value{alias >= 0, alias, typed[out]};
        // A view of unknown size (a Reshape to a shape computed from data) makes every reader unsized: name it.
        if (alias >= 0 && n.output_size() > 0 && !typed[n.output(0)].known)
            b.unsized.push_back(validUtf8(n.name().empty() ? n.output(0) : n.name()) + " (" + k.op + ")");
        ++folded;
    }

    // The operator as the cost model reads it: its inputs, outputs and attributes; the bytes of its outputs that hold
    // activations, and whether one of them has an unknown size.
    std::optional<Error> describe(const onnx::NodeProto& n, const NodeKind& k, const std::vector<const Value*>& ins,
                                  OnnxOp& desc, std::int64_t& outputBytes, bool& unsized) {
        desc.type = k.type;
        for (const Value* v : ins)
            desc.inputs.push_back(v ? OnnxTensor{v->size.dims, v->size.known, v->activation, v->size.bytes}
                                    : OnnxTensor{});
        // The outputs that hold activations: a training export's BatchNormalization also returns its running
        // statistics (parameters' updates, not activations), LayerNormalization its mean and inverse deviation (kept
        // below), Dropout its mask (kept below).
        const bool firstOnly = k.type == "BatchNormalization" || k.type == "LayerNormalization" || k.type == "Dropout";
        for (int o = 0; o < n.output_size(); ++o) {
            const std::string& out = n.output(o);
            const bool counted = !out.empty() && (o == 0 || (!firstOnly && used.count(out)));
            const Sized& s = typed[out];
            if (counted && std::any_of(s.dims.begin(), s.dims.end(), [](std::int64_t d) { return d < 0; }))
                return fail(nodeWhat(n, k.op) + ": its output '" + validUtf8(out) + "' has a negative dimension (" +
                            dimsText(s.dims) +
                            " by libonnx's shape inference): its attributes or weights do not fit its input (a "
                            "kernel larger than the padded input?)");
            if (counted && s.overflow)
                return fail(nodeWhat(n, k.op) + ": its output '" + validUtf8(out) + "' (" + dimsText(s.dims) + ", " +
                            std::to_string(s.element) +
                            " bytes each) is larger than 2^63 bytes: its size does not fit in 64 bits");
            unsized = unsized || (counted && !s.known);
            const bool present = counted && s.known;
            desc.outputs.push_back(OnnxTensor{s.dims, present, true, present ? s.bytes : 0});
            if (present && !checkedAdd(outputBytes, s.bytes, outputBytes))
                return fail(nodeWhat(n, k.op) +
                            ": its outputs add up to more than 2^63 bytes: their size does not fit in 64 bits");
        }
        if (n.output_size() > 0 && typed[n.output(0)].element > 0) desc.element_bytes = typed[n.output(0)].element;
        for (const auto& a : n.attribute()) {
            if (k.fusion) break;
            if (a.type() == onnx::AttributeProto::INT) desc.ints[a.name()] = {a.i()};
            if (a.type() == onnx::AttributeProto::INTS) desc.ints[a.name()] = {a.ints().begin(), a.ints().end()};
            if (a.type() == onnx::AttributeProto::STRING && a.name() == "equation") desc.equation = a.s();
        }
        if (std::string problem = k.fusion ? "" : attributeProblem(desc); !problem.empty())
            return fail(nodeWhat(n, k.op) + ": " + problem);
        return std::nullopt;
    }

    // A tensor the backward keeps besides inputs and outputs. BatchNorm's and LayerNorm's statistics (a few bytes per
    // channel or row) live exactly as long as the normalised input, which the same backward keeps: their bytes are
    // added to that input's node (a node of their own, tiny, multiplies the labels of the lower-set DP). MaxPool's
    // indices become a node of their own beside the operator: computed from its data input and read by it, so held as
    // long as the operator's backward needs its inputs; Dropout's mask too, but kept by its own node's backward
    // (Dropout's backward needs nothing else).
    std::optional<Error> keptTensor(const onnx::NodeProto& n, const NodeKind& k, const OnnxOp& desc, const Value* x,
                                    KeptTensor& out) {
        const Sized& y = n.output_size() > 0 ? typed[n.output(0)] : Sized{};
        auto tooLarge = [&](const char* what) {
            return fail(nodeWhat(n, k.op) + ": the " + what +
                        " its backward keeps are larger than 2^63 bytes: their size does not fit in 64 bits");
        };
        if (x && x->size.known && (k.type == "BatchNormalization" || k.type == "LayerNormalization")) {
            // Per channel (BatchNorm) or per normalised row (LayerNorm): mean and inverse deviation, in fp32.
            std::int64_t rows = 1;
            const auto& d = x->size.dims;
            if (k.type == "BatchNormalization") {
                rows = d.size() > 1 ? d[1] : 1;
            } else {
                std::int64_t axis = k.fusion ? -1 : desc.ints.count("axis") ? desc.ints.at("axis").front() : -1;
                if (axis < 0) axis += std::int64_t(d.size());
                for (std::int64_t j = 0; j < axis && j < std::int64_t(d.size()); ++j)
                    rows *= d[std::size_t(j)];
            }
            const auto statistics = checkedProduct({2, rows, 4});
            if (!statistics) return tooLarge("statistics");
            out.bytes = *statistics, out.name = "statistics";
        } else if (x && k.type == "MaxPool" && y.known) {
            const auto indices = checkedProduct({y.bytes / std::max(1, y.element), 8});
            if (!indices) return tooLarge("indices");
            out.bytes = *indices, out.name = "indices";
        } else if (x && k.dropRatio && x->size.known) {
            out.bytes = x->size.bytes / std::max(1, x->size.element), out.name = "mask", out.byItself = true;
        }
        return std::nullopt;
    }

    // Counts the kept tensor: with its input's node (statistics), or as a node of its own, which it returns (else -1).
    int addKept(const KeptTensor& t, const NodeKind& k, const Value* x, const std::string& id) {
        int aux = -1;
        if (t.name == "statistics") {
            GraphNode& input = b.nodes[std::size_t(x->producer)];
            input.output_bytes = saturatingSum({input.output_bytes, t.bytes});
            b.keptWith[std::size_t(x->producer)] = saturatingSum({b.keptWith[std::size_t(x->producer)], t.bytes});
            Kept& c = kept[k.type];
            ++c.count;
            c.bytes = saturatingSum({c.bytes, t.bytes});
        } else if (t.bytes >= 0) {
            const double f = double(t.bytes);
            aux = b.addNode(GraphNode{b.uniqueId(id + "." + t.name, k.op), rooflineSeconds(f / 4, f, options.hardware),
                                      0, t.bytes, 0, false, t.byItself, false},
                            k.op + " " + t.name, 0, f);
            b.edges.push_back(GraphEdge{b.nodes[std::size_t(x->producer)].id, b.nodes[std::size_t(aux)].id});
            Kept& c = kept[k.type];
            ++c.count;
            c.bytes = saturatingSum({c.bytes, t.bytes});
        } else if (k.type == "Softmax" || k.type == "Gelu" || k.type == "Silu" || k.type == "LayerNormalization") {
            ++kept[k.type].count;
        }
        return aux;
    }

    // An operator that computes: its node, with its cost, and the tensor its backward keeps.
    std::optional<Error> addOperator(const onnx::NodeProto& n, const NodeKind& k,
                                     const std::vector<const Value*>& ins) {
        OnnxOp desc;
        std::int64_t outputBytes = 0;
        bool unsized = false;
        if (auto e = describe(n, k, ins, desc, outputBytes, unsized)) return e;
        const OnnxOpCost cost = onnxOpCost(desc); // a training Dropout needs nothing: its mask node keeps the mask
        if (!(cost.flops <= 0x1p63) || !(cost.bytes_moved <= 0x1p63))
            return fail(nodeWhat(n, k.op) + ": its cost does not fit in 64 bits (" + approximately(cost.flops) +
                        " FLOPs, " + approximately(cost.bytes_moved) + " bytes moved)");
        const double forward = rooflineSeconds(cost.flops, cost.bytes_moved, options.hardware);
        const std::string id = b.uniqueId(k.fusion ? g.node(k.fusion->exit).name() : n.name(), k.op);
        if (k.kind == OnnxOpKind::Unknown) b.unknownOps[k.op].push_back(id);
        if (unsized) b.unsized.push_back(id + " (" + k.op + ")");
        if (k.type == "Conv") ++convolutions;
        if (k.type == "AveragePool" || k.type == "GlobalAveragePool") ++averagePools;
        if (k.fusion) ++fusedBy[k.type];

        const Value* x = !ins.empty() && ins.front() && ins.front()->activation ? ins.front() : nullptr;
        KeptTensor t;
        if (auto e = keptTensor(n, k, desc, x, t)) return e;
        const int aux = addKept(t, k, x, id);
        const int index = b.addNode(GraphNode{id, forward, 2 * forward, outputBytes, cost.workspace_bytes,
                                              cost.needs_inputs || (aux >= 0 && !t.byItself), cost.needs_output, false},
                                    k.op, cost.flops, cost.bytes_moved);
        std::unordered_set<int> from;
        for (const Value* v : ins)
            if (v && v->activation && from.insert(v->producer).second)
                b.edges.push_back(GraphEdge{b.nodes[std::size_t(v->producer)].id, id});
        if (aux >= 0) b.edges.push_back(GraphEdge{b.nodes[std::size_t(aux)].id, id});
        // Frameworks run ReLU in place (nn.ReLU(inplace=True)): the output may take over its one input's buffer.
        // (ReLU6, a Clip, is in place too, but PyTorch 1.13's hardtanh_ keeps a copy of its input: not in place.)
        b.nodes[std::size_t(index)].in_place = k.op == "Relu" && from.size() == 1;
        for (const auto& out : n.output())
            if (!out.empty()) values[out] = Value{true, index, typed[out]};
        return std::nullopt;
    }

    // Node `at`: left out (fused into a later one), unrolled (a recurrent layer), folded away, or an operator.
    std::optional<Error> importNode(int at) {
        const auto& n = g.node(at);
        if (fusedAway.count(at)) return std::nullopt;
        NodeKind k;
        if (auto e = classify(at, k)) return e;
        std::vector<const Value*> ins;
        bool anyActivation = false;
        if (auto e = readInputs(n, k, ins, anyActivation)) return e;
        if (k.standard && (k.type == "LSTM" || k.type == "GRU" || k.type == "RNN") && anyActivation)
            return unrollRecurrent(n, ins);
        if (k.kind == OnnxOpKind::ShapeOnly || !anyActivation ||
            (k.kind == OnnxOpKind::View && !ins.empty() && ins.front() && ins.front()->activation)) {
            foldAway(n, k, ins, anyActivation);
            return std::nullopt;
        }
        return addOperator(n, k, ins);
    }

    // The summary's warnings: unknown operators and unsized nodes (errors when the options say so), dropouts of an
    // inference export.
    Result<std::vector<std::string>> warnings(const std::string& inferenceError) const {
        std::vector<std::string> out;
        if (!b.unknownOps.empty()) {
            std::string list;
            for (const auto& [op, ids] : b.unknownOps)
                list += (list.empty() ? "" : "; ") + op + " x" + std::to_string(ids.size()) + " (" + listed(ids) + ")";
            const std::string what = "operators this importer does not know, imported at zero cost: " + list;
            if (options.strict) return fail(source + ": " + what + " (--strict)");
            out.push_back(what);
        }
        if (!b.unsized.empty()) {
            std::string list;
            for (std::size_t k = 0; k < b.unsized.size() && k < 10; ++k)
                list += (k ? ", " : "") + b.unsized[k];
            if (b.unsized.size() > 10) list += " and " + std::to_string(b.unsized.size() - 10) + " more";
            const std::string what = std::to_string(b.unsized.size()) + " node" + (b.unsized.size() == 1 ? "" : "s") +
                                     " with an output of unknown size: " + list;
            const std::string why = inferenceError.empty() ? "" : " (libonnx: " + validUtf8(inferenceError) + ")";
            if (!options.allow_unsized)
                return fail(source + ": " + what + why +
                            ". Their size depends on something other than the input dimensions (data, or an operator "
                            "whose shape this importer cannot compute); a graph with them would be wrong. "
                            "--allow-unsized imports them as 0 bytes");
            out.push_back(what + ", counted as 0 bytes (--allow-unsized)" + why);
        }
        // What an inference export lost: a warning for its dropouts, whose masks a training step keeps.
        if (identities > 0)
            out.push_back("Dropout x" + std::to_string(identities) +
                          " in inference mode: an identity, nothing kept (a training export, "
                          "training=torch.onnx.TrainingMode.TRAINING, keeps their masks)");
        return out;
    }

    // What the backward keeps that no output shows, and what a folded export lost: the summary's lines.
    std::vector<std::string> notes() const {
        std::vector<std::string> out;
        static const std::map<std::string, std::string> keeps = {
            {"BatchNormalization",
             "keeps its input and per-channel mean and inverse deviation, counted with its input"},
            {"LayerNormalization", "keeps its input and per-row mean and inverse deviation, counted with its input"},
            {"MaxPool", "keeps its input and the int64 indices of its maxima"},
            {"Dropout", "keeps a one-byte mask per element (training mode)"},
            {"Softmax", "keeps its output"},
            {"Gelu", "keeps its input"},
            {"Silu", "keeps its input"},
            {"LSTM", "unrolled into one node per time step, each keeping its input, the state before it and its gates"},
            {"GRU", "unrolled into one node per time step, each keeping its input, the state before it and its gates"},
            {"RNN", "unrolled into one node per time step, each keeping its input, the state before it and its gates"},
        };
        for (const auto& [op, k] : kept) {
            auto what = keeps.find(op);
            if (what == keeps.end()) continue;
            auto fused = fusedBy.find(op);
            out.push_back(op + " x" + std::to_string(k.count) +
                          (fused == fusedBy.end()
                               ? std::string()
                               : " (" + std::to_string(fused->second) + " written as primitive operators, fused)") +
                          ": " + what->second +
                          (k.bytes > 0 ? " (" + formatBytes(double(k.bytes)) + " in all besides the outputs)" : ""));
        }
        // A note where convolutions come without any normalization (VGG has none; a ResNet exported for inference had
        // its BatchNorms folded into its convolutions).
        if (averagePools > 0)
            out.push_back("average pooling x" + std::to_string(averagePools) +
                          ": keeps its input (as PyTorch's adaptive and average pooling do)");
        if (zeroRatio > 0)
            out.push_back("Dropout x" + std::to_string(zeroRatio) + " with ratio 0: nothing kept (an identity)");
        if (convolutions >= 2 && normalizations == 0)
            out.push_back("no BatchNormalization among " + std::to_string(convolutions) +
                          " convolutions: if the network has some, this is an inference export that folded them into "
                          "the convolutions, and a training step keeps their inputs and statistics; export with "
                          "training=torch.onnx.TrainingMode.TRAINING to count them");
        return out;
    }

    // The graph of the nodes built, less the dropped ones and the data inputs no node reads.
    Result<OnnxImport> finish(std::vector<std::string> warned, std::vector<std::string> noted) {
        // A data input that only shape computations read (a mask whose size alone is used) is no activation: no node.
        std::unordered_set<std::string> droppedIds;
        for (int v : b.dropped)
            droppedIds.insert(b.nodes[std::size_t(v)].id);
        std::erase_if(b.edges, [&](const GraphEdge& e) { return droppedIds.count(e.from) || droppedIds.count(e.to); });
        std::unordered_set<std::string> fed;
        for (const GraphEdge& e : b.edges)
            fed.insert(e.from);
        std::vector<GraphNode> nodes;
        std::vector<std::string> ops;
        std::vector<double> flops, moved;
        std::vector<std::int64_t> keptBytes;
        for (std::size_t k = 0; k < b.nodes.size(); ++k) {
            if (b.ops[k] == "input" && !fed.count(b.nodes[k].id) && b.nodes.size() > 1) continue;
            if (b.dropped.count(int(k))) continue;
            keptBytes.push_back(b.keptWith[k]);
            nodes.push_back(std::move(b.nodes[k]));
            nodes.back().op = b.ops[k];
            nodes.back().flops = std::isfinite(b.flops[k]) && b.flops[k] > 0 ? b.flops[k] : 0;
            ops.push_back(b.ops[k]);
            flops.push_back(b.flops[k]);
            moved.push_back(b.bytes[k]);
        }
        const std::string name = g.name().empty() ? io::nameFromSource(source) : validUtf8(g.name());
        auto graph = Graph::make(name, std::move(nodes), std::move(b.edges));
        if (!graph) return fail(source + ": " + graph.error());
        OnnxImport out{std::move(*graph), std::move(ops), std::move(flops), std::move(moved)};
        out.operators = g.node_size();
        out.folded = folded;
        out.weight_bytes = weightBytes;
        out.fused = int(fusedAway.size());
        out.warnings = std::move(warned);
        out.notes = std::move(noted);
        out.kept_bytes = std::move(keptBytes);
        return out;
    }
};

Result<OnnxImport> build(const onnx::ModelProto& model, const std::string& source, const OnnxImportOptions& options,
                         const std::string& inferenceError) {
    Importer im(model.graph(), source, options);
    if (auto e = im.readValues()) return *e;
    im.findFusions();
    if (auto e = im.addInputs()) return *e;
    for (int at = 0; at < im.g.node_size(); ++at)
        if (auto e = im.importNode(at)) return *e;
    auto warnings = im.warnings(inferenceError);
    if (!warnings) return warnings.errorValue();
    return im.finish(std::move(*warnings), im.notes());
}

} // namespace

Result<OnnxImport> importOnnxBytes(const std::string& bytes, const std::string& source,
                                   const OnnxImportOptions& options) {
    try {
        auto model = onnxio::parseModel(bytes, source);
        if (!model) return model.errorValue();
        if (auto e = onnxio::checkFunctions(*model, source)) return *e;
        if (auto e = onnxio::refuseControlFlow(model->graph(), source)) return *e;
        if (auto e = onnxio::checkNodes(*model, source)) return *e;
        if (auto e = onnxio::checkInputRanks(model->graph(), options, source)) return *e;
        if (auto e = onnxio::fixInputs(*model->mutable_graph(), options, source)) return *e;
        if (auto e = onnxio::guardShapeInference(*model->mutable_graph(), source)) return *e;
        int shapeNodes = 0;
        const std::string inferenceError = onnxio::inferAndFold(*model, shapeNodes);
        return build(*model, source, options, inferenceError);
    } catch (const std::bad_alloc&) {
        throw; // as everywhere: the CLI and the window say "out of memory"
    } catch (const std::exception& e) {
        return fail(source + ": " + validUtf8(e.what()));
    }
}

Result<OnnxImport> importOnnxFile(const std::string& path, const OnnxImportOptions& options) {
    auto bytes = onnxio::readModelBytes(path, path); // mapped: the weights' values are never read
    if (!bytes) return bytes.errorValue();
    return importOnnxBytes(*bytes, path, options);
}

Result<std::vector<OnnxInput>> onnxInputs(const std::string& path) {
    auto model = onnxio::readModel(path, path);
    if (!model) return model.errorValue();
    std::vector<OnnxInput> out;
    for (const auto* in : onnxio::dataInputs(model->graph())) {
        OnnxInput info{validUtf8(in->name()), {}, {}};
        if (in->type().has_tensor_type() && in->type().tensor_type().has_shape())
            for (const auto& d : in->type().tensor_type().shape().dim()) {
                info.dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
                info.symbols.push_back(d.has_dim_param() ? validUtf8(d.dim_param()) : std::string());
            }
        out.push_back(std::move(info));
    }
    return out;
}

#endif

} // namespace ckpt
