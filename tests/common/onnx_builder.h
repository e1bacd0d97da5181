#pragma once
// Small ONNX models built with libonnx's protobuf classes: the importer's tests and the generator of examples/onnx/.
// Weights are shape-only by default (dims and type, no data), as the importer reads only their dims.
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ckpt::test {

class OnnxBuilder {
public:
    explicit OnnxBuilder(const std::string& name, int opset = 17) {
        m_model.set_ir_version(8);
        m_model.set_producer_name("checkpoint-explorer tests");
        auto* op = m_model.add_opset_import();
        op->set_domain("");
        op->set_version(opset);
        m_model.mutable_graph()->set_name(name);
    }

    // A data input; a negative dimension is symbolic, named `symbols[k]` (or "d<k>").
    void input(const std::string& name, const std::vector<std::int64_t>& dims,
               const std::vector<std::string>& symbols = {}, int type = onnx::TensorProto::FLOAT) {
        auto* in = graph()->add_input();
        in->set_name(name);
        auto* tt = in->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(type);
        for (std::size_t k = 0; k < dims.size(); ++k) {
            auto* d = tt->mutable_shape()->add_dim();
            if (dims[k] >= 0)
                d->set_dim_value(dims[k]);
            else
                d->set_dim_param(k < symbols.size() ? symbols[k] : "d" + std::to_string(k));
        }
    }

    // A float weight: its dims only, or with `values`.
    void weight(const std::string& name, const std::vector<std::int64_t>& dims, const std::vector<float>& values = {}) {
        auto* t = graph()->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::FLOAT);
        for (auto d : dims)
            t->add_dims(d);
        for (float v : values)
            t->add_float_data(v);
    }

    // An int64 constant with its values (shapes, axes, split sizes: shape inference reads them).
    void ints(const std::string& name, const std::vector<std::int64_t>& values, bool scalar = false) {
        auto* t = graph()->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::INT64);
        if (!scalar) t->add_dims(std::int64_t(values.size()));
        for (auto v : values)
            t->add_int64_data(v);
    }

    onnx::NodeProto* node(const std::string& op, const std::string& name, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs) {
        auto* n = graph()->add_node();
        n->set_op_type(op);
        n->set_name(name);
        for (const auto& in : inputs)
            n->add_input(in);
        for (const auto& out : outputs)
            n->add_output(out);
        return n;
    }
    // One output named after the node: "<name>:0".
    std::string op(const std::string& op, const std::string& name, const std::vector<std::string>& inputs) {
        node(op, name, inputs, {name + ":0"});
        return name + ":0";
    }

    static void attr(onnx::NodeProto* n, const std::string& name, std::int64_t v) {
        auto* a = n->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(v);
    }
    static void attr(onnx::NodeProto* n, const std::string& name, const std::vector<std::int64_t>& v) {
        auto* a = n->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (auto x : v)
            a->add_ints(x);
    }
    static void attr(onnx::NodeProto* n, const std::string& name, float v) {
        auto* a = n->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::FLOAT);
        a->set_f(v);
    }
    // The last node added.
    onnx::NodeProto* last() { return graph()->mutable_node(graph()->node_size() - 1); }

    void output(const std::string& name) {
        auto* o = graph()->add_output();
        o->set_name(name);
        o->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    }

    std::string bytes() const { return m_model.SerializeAsString(); }
    onnx::ModelProto& model() { return m_model; }
    onnx::GraphProto* graph() { return m_model.mutable_graph(); }

private:
    onnx::ModelProto m_model;
};

} // namespace ckpt::test
