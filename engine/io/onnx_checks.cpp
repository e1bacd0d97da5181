// The checks of a model before libonnx's shape inference (io/onnx_checks.h).
#ifdef CKPT_HAVE_ONNX
#include "io/onnx_checks.h"

#include "io/onnx_costs.h"
#include "io/onnx_reader.h"
#include "util/utf8.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <exception>
#include <limits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ckpt::onnxio {

std::string nodeLabel(const onnx::GraphProto& g, const onnx::NodeProto& n, const std::string& op) {
    std::string name = n.name();
    if (name.empty() && n.output_size() > 0) name = n.output(0);
    if (name.empty())
        for (int k = 0; k < g.node_size(); ++k)
            if (&g.node(k) == &n) return "#" + std::to_string(k + 1) + " (" + validUtf8(op) + ")";
    return "'" + validUtf8(name) + "' (" + validUtf8(op) + ")";
}

namespace {

// libonnx's key of a model-local function, and of the operator a node calls: "domain:name" ("" for ai.onnx).
std::string functionKey(const std::string& domain, const std::string& name) {
    return (isDefaultDomain(domain) ? std::string() : domain) + ":" + name;
}

std::string functionLabel(const onnx::FunctionProto& f) {
    return "'" + validUtf8(isDefaultDomain(f.domain()) ? f.name() : f.domain() + "." + f.name()) + "'";
}

// Calls `visit` on every node of `nodes` and of the graphs their attributes hold, at any depth (protobuf's parser
// bounds it), without recursion.
template <class Visit>
void forEachNode(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes, const Visit& visit) {
    std::vector<const onnx::NodeProto*> todo;
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it)
        todo.push_back(&*it);
    while (!todo.empty()) {
        const onnx::NodeProto& n = *todo.back();
        todo.pop_back();
        visit(n);
        for (const auto& a : n.attribute()) {
            for (auto it = a.g().node().rbegin(); it != a.g().node().rend(); ++it)
                todo.push_back(&*it);
            for (const auto& g : a.graphs())
                for (auto it = g.node().rbegin(); it != g.node().rend(); ++it)
                    todo.push_back(&*it);
        }
    }
}

std::int64_t saturatingAdd(std::int64_t a, std::int64_t b) {
    std::int64_t s = 0;
    return __builtin_add_overflow(a, b, &s) ? std::numeric_limits<std::int64_t>::max() : s;
}

} // namespace

namespace {

// The model-local functions and their calls: per function, the calls its nodes make to other model-local functions
// and its nodes (with every call expanded, once walkCalls is done); its depth (the most functions on a chain of calls
// from it) and the call on that chain.
struct Functions {
    struct Call {
        int callee;
        const onnx::NodeProto* node;
    };
    const onnx::ModelProto& model;
    std::unordered_map<std::string, int> index;
    std::vector<std::vector<Call>> calls;
    std::vector<std::int64_t> nodes;
    std::vector<int> depth, deepest;

    explicit Functions(const onnx::ModelProto& m) : model(m) {}
    int count() const { return model.functions_size(); }
    int callee(const onnx::NodeProto& n) const {
        auto it = index.find(functionKey(n.domain(), n.op_type()));
        return it == index.end() ? -1 : it->second;
    }
    std::string named(int k) const { return functionLabel(model.functions(k)); }
};

// The functions' keys, calls and own nodes; an error when a function is defined twice.
std::optional<Error> findCalls(Functions& fs, const std::string& source) {
    const int count = fs.count();
    for (int k = 0; k < count; ++k) {
        const auto& f = fs.model.functions(k);
        if (!fs.index.emplace(functionKey(f.domain(), f.name()), k).second)
            return fail(source + ": model-local function " + functionLabel(f) + " is defined twice");
    }
    fs.calls.assign(std::size_t(count), std::vector<Functions::Call>{});
    fs.nodes.assign(std::size_t(count), 0);
    for (int k = 0; k < count; ++k)
        forEachNode(fs.model.functions(k).node(), [&](const onnx::NodeProto& n) {
            ++fs.nodes[std::size_t(k)];
            if (const int c = fs.callee(n); c >= 0) fs.calls[std::size_t(k)].push_back(Functions::Call{c, &n});
        });
    return std::nullopt;
}

// Depth-first through the calls, with a stack of its own (5,000 nested calls must not overflow this one either): a
// call to a function still on the stack closes a cycle. Once a function's calls are done, its depth and its nodes with
// every call expanded are known.
std::optional<Error> walkCalls(Functions& fs, const std::string& source) {
    const int count = fs.count();
    enum State : char { Unseen, Open, Done };
    std::vector<State> state(std::size_t(count), Unseen);
    fs.depth.assign(std::size_t(count), 0);
    fs.deepest.assign(std::size_t(count), -1);
    std::vector<std::pair<int, std::size_t>> stack; // function, next call
    for (int root = 0; root < count; ++root) {
        if (state[std::size_t(root)] != Unseen) continue;
        stack.emplace_back(root, 0);
        state[std::size_t(root)] = Open;
        while (!stack.empty()) {
            auto& [k, next] = stack.back();
            const auto& out = fs.calls[std::size_t(k)];
            if (next < out.size()) {
                const Functions::Call& call = out[next++];
                const int c = call.callee;
                if (state[std::size_t(c)] == Open) {
                    if (c == k)
                        return fail(
                            source + ": model-local function " + fs.named(k) + " calls itself" +
                            (call.node->name().empty() ? "" : " (its node '" + validUtf8(call.node->name()) + "')") +
                            ": the calls between functions must form no cycle; libonnx's shape inference "
                            "would recurse until the stack overflows");
                    std::string cycle;
                    bool in = false;
                    for (const auto& [f, unused] : stack) {
                        in = in || f == c;
                        if (in) cycle += fs.named(f) + " -> ";
                    }
                    return fail(source + ": model-local functions call each other in a cycle: " + cycle + fs.named(c) +
                                "; the calls between functions must form no cycle; libonnx's shape inference would "
                                "recurse until the stack overflows");
                }
                if (state[std::size_t(c)] == Unseen) {
                    state[std::size_t(c)] = Open;
                    stack.emplace_back(c, 0); // invalidates k and next
                }
                continue;
            }
            std::int64_t expanded = fs.nodes[std::size_t(k)];
            int most = 0;
            for (const Functions::Call& call : out) {
                expanded = saturatingAdd(expanded, fs.nodes[std::size_t(call.callee)]);
                if (fs.depth[std::size_t(call.callee)] > most)
                    most = fs.depth[std::size_t(call.callee)], fs.deepest[std::size_t(k)] = call.callee;
            }
            fs.nodes[std::size_t(k)] = expanded;
            fs.depth[std::size_t(k)] = most + 1;
            state[std::size_t(k)] = Done;
            stack.pop_back();
        }
    }
    return std::nullopt;
}

std::optional<Error> checkDepth(const Functions& fs, const std::string& source) {
    const auto top = std::max_element(fs.depth.begin(), fs.depth.end()) - fs.depth.begin();
    if (fs.depth[std::size_t(top)] <= kMaxFunctionDepth) return std::nullopt;
    std::string chain;
    int shown = 0;
    for (int k = int(top); k >= 0; k = fs.deepest[std::size_t(k)], ++shown) {
        if (shown < 3 || fs.deepest[std::size_t(k)] < 0)
            chain += (shown ? " -> " : "") + fs.named(k);
        else if (shown == 3)
            chain += " -> ...";
    }
    return fail(source + ": model-local functions nest their calls " + std::to_string(fs.depth[std::size_t(top)]) +
                " deep (" + chain + "); this importer follows at most " + std::to_string(kMaxFunctionDepth) +
                " nested calls");
}

std::optional<Error> checkExpandedNodes(const Functions& fs, const std::string& source) {
    std::int64_t total = 0; // the nodes the main graph's calls expand into
    forEachNode(fs.model.graph().node(), [&](const onnx::NodeProto& n) {
        if (const int c = fs.callee(n); c >= 0) total = saturatingAdd(total, fs.nodes[std::size_t(c)]);
    });
    const auto heaviest = std::max_element(fs.nodes.begin(), fs.nodes.end()) - fs.nodes.begin();
    const std::int64_t most = fs.nodes[std::size_t(heaviest)];
    if (std::max(total, most) <= kMaxFunctionNodes) return std::nullopt;
    auto amount = [](std::int64_t n) {
        return n == std::numeric_limits<std::int64_t>::max() ? "more than 2^63" : std::to_string(n);
    };
    const std::string why = "; libonnx's shape inference runs a function's body at every call, and this importer "
                            "takes at most " +
                            std::to_string(kMaxFunctionNodes) + " nodes in functions";
    if (most > kMaxFunctionNodes)
        return fail(source + ": model-local function " + fs.named(int(heaviest)) + " expands into " + amount(most) +
                    " nodes once the calls it makes are expanded" + why);
    return fail(source + ": the model's calls to its model-local functions expand into " + amount(total) +
                " nodes (the largest function, " + fs.named(int(heaviest)) + ", into " + amount(most) + ")" + why);
}

} // namespace

std::optional<Error> checkFunctions(const onnx::ModelProto& model, const std::string& source) {
    if (model.functions_size() == 0) return std::nullopt;
    Functions fs(model);
    if (auto e = findCalls(fs, source)) return e;
    if (auto e = walkCalls(fs, source)) return e;
    if (auto e = checkDepth(fs, source)) return e;
    return checkExpandedNodes(fs, source);
}

namespace {

// The rank a node of the default domain takes for its input `k`, when its operator fixes it; else -1.
int expectedRank(const onnx::NodeProto& n, int k,
                 const std::unordered_map<std::string, const onnx::TensorProto*>& stored) {
    const std::string& op = n.op_type();
    auto kernel = [&]() -> int {
        for (const auto& a : n.attribute())
            if (a.name() == "kernel_shape") return a.ints_size() + 2;
        return -1;
    };
    if (op == "Conv" || op == "ConvInteger" || op == "ConvTranspose" || op == "QLinearConv") {
        const int weights = op == "QLinearConv" ? 3 : 1;
        if (k != 0) return -1;
        if (n.input_size() > weights)
            if (auto it = stored.find(n.input(weights)); it != stored.end()) return it->second->dims_size();
        return kernel();
    }
    if (op == "MaxPool" || op == "AveragePool" || op == "LpPool") return k == 0 ? kernel() : -1;
    if (op == "Gemm") return k < 2 ? 2 : -1;
    if (op == "LSTM" || op == "GRU" || op == "RNN") return k == 0 ? 3 : -1;
    return -1;
}

// Operators whose first output has the shape of their first input: a rank a reader of their output takes is the one
// of their input.
bool keepsShape(const std::string& op) {
    static const std::unordered_set<std::string> ops = {"Relu",
                                                        "LeakyRelu",
                                                        "PRelu",
                                                        "Sigmoid",
                                                        "HardSigmoid",
                                                        "Tanh",
                                                        "Elu",
                                                        "Selu",
                                                        "Celu",
                                                        "Gelu",
                                                        "Mish",
                                                        "Softplus",
                                                        "Softsign",
                                                        "HardSwish",
                                                        "Clip",
                                                        "Abs",
                                                        "Neg",
                                                        "Exp",
                                                        "Log",
                                                        "Sqrt",
                                                        "Reciprocal",
                                                        "Erf",
                                                        "Floor",
                                                        "Ceil",
                                                        "Round",
                                                        "Sign",
                                                        "Not",
                                                        "Identity",
                                                        "Cast",
                                                        "Dropout",
                                                        "Softmax",
                                                        "LogSoftmax",
                                                        "BatchNormalization",
                                                        "InstanceNormalization",
                                                        "LpNormalization"};
    return ops.count(op) > 0;
}

} // namespace

std::optional<Error> checkInputRanks(const onnx::GraphProto& graph, const OnnxImportOptions& options,
                                     const std::string& source) {
    std::unordered_map<std::string, const onnx::TensorProto*> stored;
    for (const auto& t : graph.initializer())
        stored[t.name()] = &t;
    for (const auto& [name, dims] : options.inputs) {
        bool shapeless = false;
        for (const auto* in : dataInputs(graph))
            shapeless = shapeless ||
                        (in->name() == name && in->type().has_tensor_type() && !in->type().tensor_type().has_shape());
        if (!shapeless) continue; // fixInputs compares the rank with the file's
        // The values of the input's shape: it, and what nodes that keep shapes make of it (nodes are in topological
        // order), each with the first node on the way.
        std::unordered_map<std::string, const onnx::NodeProto*> same = {{name, nullptr}};
        for (const auto& n : graph.node()) {
            if (!isDefaultDomain(n.domain())) continue;
            for (int k = 0; k < n.input_size(); ++k) {
                auto it = same.find(n.input(k));
                if (it == same.end()) continue;
                const onnx::NodeProto* via = it->second;
                if (k == 0 && keepsShape(n.op_type()) && n.output_size() > 0 && !same.count(n.output(0)))
                    same.emplace(n.output(0), via ? via : &n);
                const int rank = expectedRank(n, k, stored);
                if (rank < 0 || rank == int(dims.size())) continue;
                std::string given;
                for (std::int64_t d : dims)
                    given += (given.empty() ? "" : "x") + std::to_string(d);
                return fail(source + ": input '" + validUtf8(name) + "': --input " + validUtf8(name) + "=" + given +
                            " gives " + std::to_string(dims.size()) + " dimension" + (dims.size() == 1 ? "" : "s") +
                            ", but node " + nodeLabel(graph, n, n.op_type()) + ", which reads it" +
                            (via ? " through node " + nodeLabel(graph, *via, via->op_type()) : std::string()) +
                            ", takes " + std::to_string(rank));
            }
        }
    }
    return std::nullopt;
}

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
            if (a.name() == "group" && a.i() < 1)
                return fail(what + ": attribute group is " + std::to_string(a.i()) + "; it must be >= 1");
            if (a.name() == "auto_pad" && a.s() != "NOTSET" && a.s() != "SAME_UPPER" && a.s() != "SAME_LOWER" &&
                a.s() != "VALID")
                return fail(what + ": attribute auto_pad is '" + validUtf8(a.s().substr(0, 40)) +
                            "'; it must be NOTSET, SAME_UPPER, SAME_LOWER or VALID");
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

} // namespace ckpt::onnxio
#endif
