// The checks of a model before libonnx's shape inference (io/onnx_checks.h).
#ifdef CKPT_HAVE_ONNX
#include "io/onnx_checks.h"

#include "io/onnx_costs.h"
#include "io/onnx_reader.h"
#include "util/utf8.h"

#include <onnx/defs/schema.h>

#include <exception>
#include <unordered_map>
#include <unordered_set>

namespace ckpt::onnxio {

std::string nodeLabel(const onnx::GraphProto& g, const onnx::NodeProto& n, const std::string& op) {
    std::string name = n.name();
    if (name.empty() && n.output_size() > 0) name = n.output(0);
    if (name.empty())
        for (int k = 0; k < g.node_size(); ++k)
            if (&g.node(k) == &n) return "#" + std::to_string(k + 1) + " (" + validUtf8(op) + ")";
    return "'" + validUtf8(name) + "' (" + validUtf8(op) + ")";
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
