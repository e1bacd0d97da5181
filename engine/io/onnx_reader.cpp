// Reading ONNX files with libonnx (Debian's libonnx-dev): the protobuf model and its shape inference.
#ifdef CKPT_HAVE_ONNX
#include "io/onnx_reader.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <cctype>
#include <exception>
#include <unordered_set>

namespace ckpt::onnxio {

namespace {

// Protobuf's wire format: a varint tag (field number << 3 | wire type), then a varint, 8 bytes, a varint length and
// that many bytes, or 4 bytes. Only ModelProto's own top level is walked: enough to tell another kind of file from a
// model, and a model cut short from a damaged one, before libprotobuf says only "does not parse".
bool varint(const std::string& b, std::size_t& pos, std::uint64_t& out) {
    out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= b.size()) return false;
        const auto byte = static_cast<unsigned char>(b[pos++]);
        out |= std::uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80)) return true;
    }
    return false;
}

std::string fieldName(std::uint64_t field) {
    switch (field) {
    case 1:
        return "ir_version";
    case 7:
        return "graph";
    case 8:
        return "opset_import";
    default:
        return "field " + std::to_string(field);
    }
}

// What the first bytes look like, for a file that is not a model.
std::string looksLike(const std::string& b) {
    std::size_t k = 0;
    while (k < b.size() && std::isspace(static_cast<unsigned char>(b[k])))
        ++k;
    if (k < b.size() && (b[k] == '{' || b[k] == '[')) return " (it looks like JSON)";
    const std::size_t n = std::min<std::size_t>(b.size(), 64);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(b[i]);
        if (c < 9 || (c > 13 && c < 32) || c > 126) return "";
    }
    return " (it looks like text)";
}

std::optional<Error> scanTopLevel(const std::string& b, const std::string& source) {
    if (b.empty()) return fail(source + ": not an ONNX model: the file is empty");
    bool model = false; // saw ir_version or graph with their wire types
    auto notModel = [&](const std::string& what) {
        return fail(source + ": not an ONNX model: " + what + looksLike(b));
    };
    std::size_t pos = 0;
    while (pos < b.size()) {
        const std::size_t start = pos;
        std::uint64_t tag = 0, value = 0;
        const std::string at = " at byte " + std::to_string(start);
        if (!varint(b, pos, tag))
            return model ? fail(source + ": truncated: the file ends inside a field tag" + at) : notModel("no model");
        const std::uint64_t field = tag >> 3, wire = tag & 7;
        if (field == 0 || wire == 3 || wire == 4 || wire > 5 || (field == 1 && wire != 0) ||
            ((field == 7 || field == 8) && wire != 2)) {
            if (!model) return notModel("byte " + std::to_string(start) + " does not start an ONNX model field");
            return fail(source + ": damaged: byte " + std::to_string(start) + " does not start a protobuf field");
        }
        bool ended = false;
        if (wire == 0)
            ended = !varint(b, pos, value);
        else if (wire == 1 || wire == 5)
            ended = b.size() - pos < (wire == 1 ? 8u : 4u), pos += wire == 1 ? 8 : 4;
        else if (!varint(b, pos, value))
            ended = true;
        else if (value > b.size() - pos) {
            return fail(source + ": truncated: " + fieldName(field) + at + " holds " + std::to_string(value) +
                        " bytes, but the file ends " + std::to_string(b.size() - pos) + " bytes later");
        } else {
            pos += std::size_t(value);
        }
        if (ended) return fail(source + ": truncated: the file ends inside " + fieldName(field) + at);
        model = model || field == 1 || field == 7;
    }
    if (!model) return notModel("it has neither an ir_version nor a graph");
    return std::nullopt;
}

} // namespace

bool isDefaultDomain(const std::string& domain) {
    return domain.empty() || domain == "ai.onnx";
}

int newestOpset() {
    const auto& map = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    auto it = map.find(onnx::ONNX_DOMAIN);
    return it == map.end() ? 0 : it->second.second;
}

Result<onnx::ModelProto> parseModel(const std::string& bytes, const std::string& source) {
    if (bytes.size() > kMaxOnnxBytes)
        return fail(source + ": " + std::to_string(bytes.size()) + " bytes; an ONNX file holds at most 2 GiB");
    if (auto e = scanTopLevel(bytes, source)) return *e;
    onnx::ModelProto model;
    if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        return fail(source + ": damaged: the ONNX model does not parse (a field inside it is malformed)");
    if (model.ir_version() < 3)
        return fail(source + ": not an ONNX model this program reads: ir_version " +
                    std::to_string(model.ir_version()) + " (opset imports, which name the operators' versions, came " +
                    "with IR version 3)");
    if (!model.has_graph()) return fail(source + ": the model has no graph");
    if (model.graph().node_size() == 0) return fail(source + ": the model's graph has no operators");
    const onnx::OperatorSetIdProto* opset = nullptr;
    for (const auto& o : model.opset_import())
        if (isDefaultDomain(o.domain())) opset = &o;
    const int newest = newestOpset();
    if (!opset) return fail(source + ": wrong opset: the model imports no opset of the default ONNX domain");
    if (opset->version() < 1 || opset->version() > newest)
        return fail(source + ": wrong opset: the model uses opset " + std::to_string(opset->version()) +
                    " of the default ONNX domain; this program's libonnx (Debian's libonnx-dev) knows opsets 1 to " +
                    std::to_string(newest) + " (re-export with opset_version=" + std::to_string(newest) + ")");
    return model;
}

std::vector<const onnx::ValueInfoProto*> dataInputs(const onnx::GraphProto& graph) {
    std::unordered_set<std::string> weights;
    for (const auto& t : graph.initializer())
        weights.insert(t.name());
    std::vector<const onnx::ValueInfoProto*> out;
    for (const auto& in : graph.input())
        if (!weights.count(in.name())) out.push_back(&in);
    return out;
}

std::optional<Error> fixInputs(onnx::GraphProto& graph, const OnnxImportOptions& options, const std::string& source) {
    std::string names;
    for (const auto* in : dataInputs(graph))
        names += (names.empty() ? "'" : ", '") + in->name() + "'";
    for (const auto& [name, dims] : options.inputs) {
        bool found = false;
        for (const auto* in : dataInputs(graph))
            found = found || in->name() == name;
        if (!found)
            return fail(source + ": --input " + name + ": the model has no data input of that name (its inputs: " +
                        (names.empty() ? "none" : names) + ")");
    }
    std::unordered_set<std::string> weights;
    for (const auto& t : graph.initializer())
        weights.insert(t.name());
    for (auto& in : *graph.mutable_input()) {
        if (weights.count(in.name())) continue;
        const std::string what = source + ": input '" + in.name() + "'";
        if (!in.type().has_tensor_type())
            return fail(what + " is not a tensor (a sequence, map or optional): only tensor inputs are imported");
        auto* type = in.mutable_type()->mutable_tensor_type();
        for (const auto& [name, dims] : options.inputs) {
            if (name != in.name()) continue;
            type->clear_shape();
            for (std::int64_t d : dims)
                type->mutable_shape()->add_dim()->set_dim_value(d);
        }
        if (!type->has_shape())
            return fail(what + " has no shape: give its dimensions with --input " + in.name() +
                        "=DIMS (e.g. 1x3x224x224)");
        if (options.batch > 0 && type->shape().dim_size() > 0)
            type->mutable_shape()->mutable_dim(0)->set_dim_value(options.batch);
        for (int k = 0; k < type->shape().dim_size(); ++k) {
            const auto& d = type->shape().dim(k);
            if (d.has_dim_value() && d.dim_value() >= 0) continue;
            const std::string symbol = d.has_dim_param() && !d.dim_param().empty() ? " ('" + d.dim_param() + "')" : "";
            if (d.has_dim_value())
                return fail(what + " dimension " + std::to_string(k) + " is " + std::to_string(d.dim_value()) +
                            "; a size must be >= 0");
            return fail(what + " dimension " + std::to_string(k) + symbol + " is not fixed: give " +
                        (k == 0 ? "--batch N or " : "") + "--input " + in.name() + "=DIMS (all of its dimensions, " +
                        "e.g. 1x3x224x224)");
        }
    }
    graph.clear_value_info();
    for (auto& out : *graph.mutable_output())
        if (out.type().has_tensor_type()) out.mutable_type()->mutable_tensor_type()->clear_shape();
    return std::nullopt;
}

std::string inferShapes(onnx::ModelProto& model) {
    // Strict first, for libonnx's message; if some operator fails, again leniently to size everything else.
    try {
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(),
                                           onnx::ShapeInferenceOptions(false, 1, true));
        return {};
    } catch (const std::exception& e) {
        std::string message = e.what();
        model.mutable_graph()->clear_value_info();
        try {
            onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(),
                                               onnx::ShapeInferenceOptions(false, 0, true));
        } catch (const std::exception& again) {
            message = again.what();
        }
        if (message.size() > 400) message = message.substr(0, 400) + "...";
        return message.empty() ? "shape inference failed" : message;
    }
}

} // namespace ckpt::onnxio
#endif
