#include "io/onnx_import.h"

#include "io/files.h"
#include "io/graph_io.h"
#include "io/json_reader.h"
#include "io/onnx_costs.h"
#include "util/bounds.h"
#include "util/utf8.h"

#ifdef CKPT_HAVE_ONNX
#include "io/onnx_reader.h"

#include <onnx/defs/schema.h>

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

constexpr const char* kOnnxLimit = "2 GiB: protobuf's limit for one message; larger models keep their weights in "
                                   "external files";

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

// A tensor's dims and bytes; `known` false when a dimension is not a number >= 0 or the bytes do not fit.
struct Sized {
    std::vector<std::int64_t> dims;
    std::int64_t bytes = 0;
    bool known = false;
    int element = 0; // bytes per element
};

Sized sized(std::vector<std::int64_t> dims, int elementSize) {
    Sized s{std::move(dims), 0, elementSize > 0, elementSize};
    std::int64_t n = elementSize;
    for (std::int64_t d : s.dims)
        if (d < 0 || __builtin_mul_overflow(n, d, &n)) s.known = false;
    if (s.known) s.bytes = n;
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
        ops.push_back(op);
        flops.push_back(f);
        bytes.push_back(b);
        return int(nodes.size()) - 1;
    }
};

// The node's name, or its first output's when it has none, or else its place in the graph ("#3": the third node).
std::string nodeLabel(const onnx::GraphProto& g, const onnx::NodeProto& n, const std::string& op) {
    std::string name = n.name();
    if (name.empty() && n.output_size() > 0) name = n.output(0);
    if (name.empty())
        for (int k = 0; k < g.node_size(); ++k)
            if (&g.node(k) == &n) return "#" + std::to_string(k + 1) + " (" + validUtf8(op) + ")";
    return "'" + validUtf8(name) + "' (" + validUtf8(op) + ")";
}

std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t k = 0; k < names.size() && k < 5; ++k)
        out += (k ? ", " : "") + names[k];
    return names.size() > 5 ? out + " and " + std::to_string(names.size() - 5) + " more" : out;
}

// Before shape inference, which would walk the body graphs.
std::optional<Error> refuseControlFlow(const onnx::GraphProto& g, const std::string& source) {
    for (const auto& n : g.node()) {
        const bool standard = onnxio::isDefaultDomain(n.domain());
        bool body = standard && onnxOpKind(n.op_type()) == OnnxOpKind::ControlFlow;
        for (const auto& a : n.attribute())
            body = body || a.type() == onnx::AttributeProto::GRAPH || a.type() == onnx::AttributeProto::GRAPHS;
        if (body)
            return fail(source + ": node " + nodeLabel(g, n, standard ? n.op_type() : n.domain() + "." + n.op_type()) +
                        ": control flow (Loop, If, Scan: a body graph run a data-dependent number of times) cannot "
                        "be imported; export the model with the loop unrolled or the branch taken");
    }
    return std::nullopt;
}

// What libonnx's shape inference takes for granted, checked first (on a node that reads an undefined value, or a
// Split with no outputs, libonnx 1.12 dereferences nothing or divides by zero): every value a node reads is a graph
// input, an initializer or an earlier node's output, and a node of an operator libonnx knows has the inputs, outputs
// and attributes its schema allows (libonnx's own check, and message).
std::optional<Error> checkNodes(const onnx::ModelProto& model, const std::string& source) {
    const onnx::GraphProto& g = model.graph();
    int opset = 0;
    for (const auto& o : model.opset_import())
        if (onnxio::isDefaultDomain(o.domain())) opset = int(o.version());
    std::unordered_set<std::string> defined;
    for (const auto& in : g.input())
        defined.insert(in.name());
    for (const auto& t : g.initializer())
        defined.insert(t.name());
    for (const auto& n : g.node()) {
        const bool standard = onnxio::isDefaultDomain(n.domain());
        const std::string op = standard ? n.op_type() : n.domain() + "." + n.op_type();
        for (const auto& name : n.input())
            if (!name.empty() && !defined.count(name))
                return fail(source + ": node " + nodeLabel(g, n, op) + " reads '" + validUtf8(name) +
                            "', which no graph input, initializer or earlier node produces (ONNX lists nodes in "
                            "topological order)");
        if (const auto* schema = standard ? onnx::OpSchemaRegistry::Schema(n.op_type(), opset, "") : nullptr) {
            try {
                schema->Verify(n);
            } catch (const std::exception& e) {
                return fail(source + ": node " + nodeLabel(g, n, op) + ": " + validUtf8(e.what()));
            }
        }
        for (const auto& out : n.output())
            defined.insert(out);
    }
    return std::nullopt;
}

// Checks the convolutions and poolings before libonnx's shape inference, which in Debian's libonnx 1.12 reads past its
// vectors or divides by zero on some malformed ones (onnx/onnx#6180, #8036): a kernel taken from weights of another
// rank than the input, a stride of 0. Refuses a stride, dilation or kernel size below 1 or a negative pad, naming the
// node; gives a convolution without a kernel_shape attribute the one its stored weights hold (what ONNX defines it to
// be), and refuses one whose weights the model does not store, or store with fewer than 3 dimensions.
std::optional<Error> guardShapeInference(onnx::GraphProto& graph, const std::string& source) {
    std::unordered_map<std::string, const onnx::TensorProto*> stored;
    for (const auto& t : graph.initializer())
        stored[t.name()] = &t;
    for (auto& n : *graph.mutable_node()) {
        if (!onnxio::isDefaultDomain(n.domain())) continue;
        const std::string& op = n.op_type();
        // The weights' input of a convolution (QLinearConv: after x's scale and zero point), or -1.
        const int weights = op == "Conv" || op == "ConvInteger" || op == "ConvTranspose" ? 1
                            : op == "QLinearConv"                                        ? 3
                                                                                         : -1;
        const bool pooling = op == "MaxPool" || op == "AveragePool" || op == "LpPool" || op == "MaxUnpool";
        if (weights < 0 && !pooling) continue;
        const std::string what = source + ": node " + nodeLabel(graph, n, op);
        bool kernel = false;
        for (const auto& a : n.attribute()) {
            const bool positive = a.name() == "strides" || a.name() == "dilations" || a.name() == "kernel_shape";
            kernel = kernel || a.name() == "kernel_shape";
            if (!positive && a.name() != "pads") continue;
            for (std::int64_t v : a.ints())
                if (positive ? v < 1 : v < 0)
                    return fail(what + ": attribute " + a.name() + " holds " + std::to_string(v) + "; each of its " +
                                (positive ? "sizes must be >= 1" : "pads must be >= 0"));
        }
        // ConvTranspose reads its output channels from the weights' second dimension, whatever the attributes.
        if (weights < 0 || (kernel && op != "ConvTranspose")) continue;
        const onnx::TensorProto* w = nullptr;
        if (n.input_size() > weights) {
            auto it = stored.find(n.input(weights));
            if (it != stored.end()) w = it->second;
        }
        if (!w)
            return fail(what + ": its weights are not stored in the model (no initializer" +
                        (n.input_size() > weights ? " '" + validUtf8(n.input(weights)) + "'" : std::string()) +
                        "), and " +
                        (op == "ConvTranspose" ? "ConvTranspose needs their shape; store them"
                                               : "without a kernel_shape attribute it needs their shape; store them, "
                                                 "or give kernel_shape"));
        if (w->dims_size() < 3)
            return fail(what + ": its weights '" + validUtf8(w->name()) + "' have " + std::to_string(w->dims_size()) +
                        " dimension" + (w->dims_size() == 1 ? "" : "s") +
                        "; a convolution's weights have at least 3 (filters, channels, then the kernel's sizes)");
        if (kernel) continue;
        auto* a = n.add_attribute();
        a->set_name("kernel_shape");
        a->set_type(onnx::AttributeProto::INTS);
        for (int k = 2; k < w->dims_size(); ++k) {
            if (w->dims(k) < 1)
                return fail(what + ": its weights '" + validUtf8(w->name()) + "' have size " +
                            std::to_string(w->dims(k)) + " in dimension " + std::to_string(k) +
                            ", a kernel size; it must be >= 1");
            a->add_ints(w->dims(k));
        }
    }
    return std::nullopt;
}

Result<OnnxImport> build(const onnx::ModelProto& model, const std::string& source, const OnnxImportOptions& options,
                         const std::string& inferenceError) {
    const onnx::GraphProto& g = model.graph();
    const int floatBytes = options.element_bytes;
    std::unordered_map<std::string, Sized> typed; // every value's inferred type
    for (const auto* list : {&g.input(), &g.value_info(), &g.output()})
        for (const auto& v : *list)
            typed[v.name()] = sizedType(v.type(), floatBytes);
    std::unordered_map<std::string, Value> values;
    std::int64_t weightBytes = 0;
    for (const auto& t : g.initializer()) {
        for (auto d : t.dims())
            if (d < 0)
                return fail(source + ": initializer '" + validUtf8(t.name()) + "' has a negative dimension (" +
                            std::to_string(d) + ")");
        Sized s = sized({t.dims().begin(), t.dims().end()}, elementBytes(t.data_type(), floatBytes));
        weightBytes = saturatingSum({weightBytes, s.bytes});
        values[t.name()] = Value{false, -1, std::move(s)};
    }
    std::unordered_set<std::string> used; // read by an operator or a graph output
    for (const auto& n : g.node())
        for (const auto& in : n.input())
            used.insert(in);
    for (const auto& out : g.output())
        used.insert(out.name());

    Builder b;
    for (const auto* in : onnxio::dataInputs(g)) {
        Sized s = typed[in->name()];
        if (!s.known)
            return fail(source + ": input '" + validUtf8(in->name()) +
                        (s.element == 0 ? "': its elements have no fixed size (strings, or no element type)"
                                        : "': its size in bytes does not fit in 64 bits"));
        GraphNode node{b.uniqueId(in->name(), "input"), 0, 0, s.bytes, 0, false, false, false};
        values[in->name()] = Value{true, b.addNode(std::move(node), "input", 0, 0), s};
    }
    int folded = 0;
    for (const auto& n : g.node()) {
        const bool standard = onnxio::isDefaultDomain(n.domain());
        const std::string op = validUtf8(standard ? n.op_type() : n.domain() + "." + n.op_type());
        const OnnxOpKind kind = standard ? onnxOpKind(n.op_type()) : OnnxOpKind::Unknown;
        std::vector<const Value*> ins;
        bool anyActivation = false;
        for (const auto& name : n.input()) {
            if (name.empty()) { // an optional input left out
                ins.push_back(nullptr);
                continue;
            }
            auto it = values.find(name);
            if (it == values.end())
                return fail(source + ": node " + nodeLabel(g, n, op) + " reads '" + validUtf8(name) +
                            "', which no graph input, initializer or earlier node produces (ONNX lists nodes in "
                            "topological order)");
            ins.push_back(&it->second);
            anyActivation = anyActivation || it->second.activation;
        }
        for (const auto& out : n.output())
            if (!out.empty() && values.count(out))
                return fail(source + ": node " + nodeLabel(g, n, op) + ": value '" + validUtf8(out) +
                            "' is produced twice");
        if (kind == OnnxOpKind::ShapeOnly || !anyActivation ||
            (kind == OnnxOpKind::View && !ins.empty() && ins.front() && ins.front()->activation)) {
            const int alias = kind == OnnxOpKind::ShapeOnly || !anyActivation ? -1 : ins.front()->producer;
            for (const auto& out : n.output())
                if (!out.empty()) values[out] = Value{alias >= 0, alias, typed[out]};
            ++folded;
            continue;
        }
        OnnxOp desc;
        desc.type = n.op_type();
        for (const Value* v : ins)
            desc.inputs.push_back(v ? OnnxTensor{v->size.dims, v->size.known, v->activation, v->size.bytes}
                                    : OnnxTensor{});
        std::int64_t outputBytes = 0;
        bool unsized = false;
        for (int k = 0; k < n.output_size(); ++k) {
            const std::string& out = n.output(k);
            const bool counted = !out.empty() && (k == 0 || used.count(out));
            const Sized& s = typed[out];
            unsized = unsized || (counted && !s.known);
            const bool present = counted && s.known;
            desc.outputs.push_back(OnnxTensor{s.dims, present, true, present ? s.bytes : 0});
            if (present) outputBytes = saturatingSum({outputBytes, s.bytes});
        }
        if (n.output_size() > 0 && typed[n.output(0)].element > 0) desc.element_bytes = typed[n.output(0)].element;
        for (const auto& a : n.attribute()) {
            if (a.type() == onnx::AttributeProto::INT) desc.ints[a.name()] = {a.i()};
            if (a.type() == onnx::AttributeProto::INTS) desc.ints[a.name()] = {a.ints().begin(), a.ints().end()};
            if (a.type() == onnx::AttributeProto::STRING && a.name() == "equation") desc.equation = a.s();
        }
        const OnnxOpCost cost = onnxOpCost(desc);
        const double forward = rooflineSeconds(cost.flops, cost.bytes_moved, options.hardware);
        const std::string id = b.uniqueId(n.name(), validUtf8(n.op_type()));
        if (kind == OnnxOpKind::Unknown) b.unknownOps[op].push_back(id);
        if (unsized) b.unsized.push_back(id + " (" + op + ")");
        const int index = b.addNode(GraphNode{id, forward, 2 * forward, outputBytes, cost.workspace_bytes,
                                              cost.needs_inputs, cost.needs_output, false},
                                    op, cost.flops, cost.bytes_moved);
        std::unordered_set<int> from;
        for (const Value* v : ins)
            if (v && v->activation && from.insert(v->producer).second)
                b.edges.push_back(GraphEdge{b.nodes[std::size_t(v->producer)].id, id});
        // Frameworks run ReLU in place (nn.ReLU(inplace=True)): its output may take over its one input's buffer.
        b.nodes[std::size_t(index)].in_place = op == "Relu" && from.size() == 1;
        for (const auto& out : n.output())
            if (!out.empty()) values[out] = Value{true, index, typed[out]};
    }

    std::vector<std::string> warnings;
    if (!b.unknownOps.empty()) {
        std::string list;
        for (const auto& [op, ids] : b.unknownOps)
            list += (list.empty() ? "" : "; ") + op + " x" + std::to_string(ids.size()) + " (" + listed(ids) + ")";
        const std::string what = "operators this importer does not know, imported at zero cost: " + list;
        if (options.strict) return fail(source + ": " + what + " (--strict)");
        warnings.push_back(what);
    }
    if (!b.unsized.empty()) {
        const std::string what = "shape inference could not size the output of " + listed(b.unsized) +
                                 ", counted as 0 bytes" +
                                 (inferenceError.empty() ? "" : " (libonnx: " + validUtf8(inferenceError) + ")");
        if (options.strict) return fail(source + ": " + what + " (--strict)");
        warnings.push_back(what);
    }
    // A data input that only shape computations read (a mask whose size alone is used) is no activation: no node.
    std::unordered_set<std::string> fed;
    for (const GraphEdge& e : b.edges)
        fed.insert(e.from);
    std::vector<GraphNode> nodes;
    std::vector<std::string> ops;
    std::vector<double> flops, moved;
    for (std::size_t k = 0; k < b.nodes.size(); ++k) {
        if (b.ops[k] == "input" && !fed.count(b.nodes[k].id) && b.nodes.size() > 1) continue;
        nodes.push_back(std::move(b.nodes[k]));
        ops.push_back(b.ops[k]);
        flops.push_back(b.flops[k]);
        moved.push_back(b.bytes[k]);
    }
    const std::string name = g.name().empty() ? io::nameFromSource(source) : validUtf8(g.name());
    auto graph = Graph::make(name, std::move(nodes), std::move(b.edges));
    if (!graph) return fail(source + ": " + graph.error());
    return OnnxImport{std::move(*graph), std::move(ops), std::move(flops), std::move(moved),
                      g.node_size(),     folded,         weightBytes,      std::move(warnings)};
}

} // namespace

Result<OnnxImport> importOnnxBytes(const std::string& bytes, const std::string& source,
                                   const OnnxImportOptions& options) {
    try {
        auto model = onnxio::parseModel(bytes, source);
        if (!model) return model.errorValue();
        if (auto e = refuseControlFlow(model->graph(), source)) return *e;
        if (auto e = checkNodes(*model, source)) return *e;
        if (auto e = onnxio::fixInputs(*model->mutable_graph(), options, source)) return *e;
        if (auto e = guardShapeInference(*model->mutable_graph(), source)) return *e;
        const std::string inferenceError = onnxio::inferShapes(*model);
        return build(*model, source, options, inferenceError);
    } catch (const std::bad_alloc&) {
        throw; // as everywhere: the CLI and the window say "out of memory"
    } catch (const std::exception& e) {
        return fail(source + ": " + validUtf8(e.what()));
    }
}

Result<OnnxImport> importOnnxFile(const std::string& path, const OnnxImportOptions& options) {
    auto bytes = readFileBytes(path, kMaxOnnxBytes, kOnnxLimit);
    if (!bytes) return bytes.errorValue();
    return importOnnxBytes(*bytes, path, options);
}

Result<std::vector<OnnxInput>> onnxInputs(const std::string& path) {
    auto bytes = readFileBytes(path, kMaxOnnxBytes, kOnnxLimit);
    if (!bytes) return bytes.errorValue();
    auto model = onnxio::parseModel(*bytes, path);
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
