// Reading ONNX files with libonnx (Debian's libonnx-dev): the protobuf model and its shape inference.
#ifdef CKPT_HAVE_ONNX
#include "io/onnx_reader.h"

#include "util/files.h"
#include "util/utf8.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <exception>
#include <unordered_set>
#include <vector>

namespace ckpt::onnxio {

namespace {

// Protobuf's wire format: a varint tag (field number << 3 | wire type), then a varint, 8 bytes, a varint length and
// that many bytes, or 4 bytes. Every reader below is given the bytes up to the end of the message it walks (positions
// stay the file's), and checks every length against that end.
bool varint(std::string_view b, std::size_t& pos, std::uint64_t& out) {
    out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= b.size()) return false;
        const auto byte = static_cast<unsigned char>(b[pos++]);
        out |= std::uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80)) return true;
    }
    return false;
}

std::size_t varintSize(std::uint64_t v) {
    std::size_t n = 1;
    while (v >= 0x80)
        v >>= 7, ++n;
    return n;
}

void putVarint(std::string& out, std::size_t at, std::uint64_t v) {
    while (v >= 0x80) {
        out[at++] = static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    out[at] = static_cast<char>(v);
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
std::string looksLike(std::string_view b) {
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

// Only ModelProto's own top level is walked: enough to tell another kind of file from a model, and a model cut short
// from a damaged one, before libprotobuf says only "does not parse". No field's value is read (a page of weights that
// is never looked at is never read from the file).
std::optional<Error> scanTopLevel(std::string_view b, const std::string& source) {
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

// One field of a message: where its tag, its value and its end are.
struct Field {
    std::size_t start = 0;   // the tag's first byte
    std::size_t tagEnd = 0;  // one past the tag (a length-delimited field's length follows)
    std::size_t payload = 0; // the value's first byte (past the length)
    std::size_t end = 0;     // one past the field
    std::uint64_t number = 0;
    std::uint64_t value = 0; // a varint's value, or a length
    int wire = 0;
};

// The messages whose fields are walked, to name them in a refusal.
struct Message {
    const char* what; // "the model", "the graph", "the initializer"
    std::size_t start;
    std::string name() const { return std::string(what) + " at byte " + std::to_string(start); }
};

// Reads the field at `pos` of a message that ends at b.size(); a field that is not one, or runs past the message's
// end, is refused naming the byte and the message that holds it.
std::optional<Error> readField(std::string_view b, std::size_t pos, Field& f, const Message& in,
                               const std::string& source) {
    f = Field{};
    f.start = pos;
    auto damaged = [&](const std::string& what, const std::string& how) {
        return fail(source + ": damaged: " + what + " at byte " + std::to_string(f.start) + ", inside " + in.name() +
                    ", " + how);
    };
    std::uint64_t tag = 0;
    if (!varint(b, pos, tag)) return damaged("the field tag", std::string("runs past the end of ") + in.what);
    f.number = tag >> 3;
    f.wire = int(tag & 7);
    f.tagEnd = pos;
    if (f.number == 0 || f.wire == 3 || f.wire == 4 || f.wire > 5) // groups (3, 4) are not in ONNX
        return fail(source + ": damaged: byte " + std::to_string(f.start) + ", inside " + in.name() +
                    ", does not start a protobuf field");
    bool cut = false;
    if (f.wire == 0) {
        cut = !varint(b, pos, f.value);
    } else if (f.wire == 1 || f.wire == 5) {
        const std::size_t n = f.wire == 1 ? 8 : 4;
        cut = b.size() - pos < n;
        pos += cut ? 0 : n;
    } else if (!varint(b, pos, f.value)) {
        cut = true;
    } else if (f.value > b.size() - pos) {
        return damaged("field " + std::to_string(f.number), "holds " + std::to_string(f.value) + " bytes, but " +
                                                                in.what + " ends " + std::to_string(b.size() - pos) +
                                                                " bytes later");
    } else {
        f.payload = pos;
        pos += std::size_t(f.value);
    }
    if (cut) return damaged("field " + std::to_string(f.number), std::string("runs past the end of ") + in.what);
    if (f.wire != 2) f.payload = f.tagEnd;
    f.end = pos;
    return std::nullopt;
}

bool isFloatingType(std::uint64_t type) {
    using T = onnx::TensorProto;
    return type == T::FLOAT || type == T::FLOAT16 || type == T::DOUBLE || type == T::COMPLEX64 ||
           type == T::COMPLEX128 || type == T::BFLOAT16;
}

// TensorProto's fields that hold a floating-point tensor's values: float_data, int32_data (FLOAT16 and BFLOAT16 are
// stored there), raw_data, double_data.
bool isDataField(std::uint64_t number) {
    return number == 4 || number == 5 || number == 9 || number == 10;
}

// The copy of the model without its floating-point weights' values: every byte is copied but those of an initializer's
// data fields, and the lengths of the graphs and initializers that lose bytes are written anew. The data is skipped,
// never read. A floating-point tensor of at most kKeptFloatBytes keeps its values: Resize's and Upsample's scales, and
// the like, which shape inference reads.
class Stripper {
public:
    static constexpr std::size_t kKeptFloatBytes = 256;

    // `file`, when the bytes are its map: the pages walked past are released as the walk goes.
    Stripper(std::string_view bytes, const std::string& source, MappedFile* file)
        : m_b(bytes), m_source(source), m_file(file) {
        m_out.reserve(std::min<std::size_t>(bytes.size(), std::size_t(1) << 20));
    }

    Result<std::string> run() {
        const Message model{"the model", 0};
        for (std::size_t pos = 0; pos < m_b.size();) {
            Field f;
            if (auto e = readField(m_b, pos, f, model, m_source)) return *e;
            if (f.number == 7 && f.wire == 2) {
                if (auto e = graph(f)) return *e;
            } else {
                copy(f.start, f.end);
            }
            walked(pos = f.end);
        }
        return std::move(m_out);
    }

private:
    std::string_view m_b;
    const std::string& m_source;
    MappedFile* m_file;
    std::string m_out;

    // Done with the bytes before `pos`: released a MiB at a time, whatever size of page the system maps at once.
    void walked(std::size_t pos) {
        constexpr std::size_t kStep = std::size_t(1) << 20;
        if (m_file && pos >= m_releasedTo + kStep) m_file->release(m_releasedTo = pos);
    }
    std::size_t m_releasedTo = 0;

    void copy(std::size_t from, std::size_t to) { m_out.append(m_b.data() + from, to - from); }

    // Copies a length-delimited field's tag, and leaves room for its length (at most the old one's size): returns
    // where the length goes, for close().
    std::size_t open(const Field& f) {
        copy(f.start, f.tagEnd);
        const std::size_t at = m_out.size();
        m_out.append(varintSize(f.value), '\0');
        return at;
    }
    // Writes the length of what was copied since open(), and closes the room it left.
    void close(std::size_t at, const Field& f) {
        const std::size_t room = varintSize(f.value), length = m_out.size() - at - room, size = varintSize(length);
        putVarint(m_out, at, length);
        if (size < room) m_out.erase(at + size, room - size);
    }

    std::optional<Error> graph(const Field& g) {
        const std::string_view b = m_b.substr(0, g.end);
        const Message graph{"the graph", g.start};
        const std::size_t at = open(g);
        for (std::size_t pos = g.payload; pos < g.end;) {
            Field f;
            if (auto e = readField(b, pos, f, graph, m_source)) return *e;
            if (f.number == 5) {
                if (f.wire != 2)
                    return fail(m_source + ": damaged: the initializer at byte " + std::to_string(f.start) +
                                ", inside " + graph.name() + ", is not a tensor (protobuf wire type " +
                                std::to_string(f.wire) + ", not 2)");
                if (auto e = tensor(f)) return *e;
            } else {
                copy(f.start, f.end); // sparse_initializer (15) as well: left as it is
            }
            walked(pos = f.end);
        }
        close(at, g);
        return std::nullopt;
    }

    std::optional<Error> tensor(const Field& t) {
        const std::string_view b = m_b.substr(0, t.end);
        const Message tensor{"the initializer", t.start};
        // The type may come after the data: first the whole tensor, then its copy.
        std::uint64_t type = 0, dataBytes = 0;
        for (std::size_t pos = t.payload; pos < t.end;) {
            Field f;
            if (auto e = readField(b, pos, f, tensor, m_source)) return *e;
            if (f.number == 2 && f.wire == 0) type = f.value; // the last one counts, as for libprotobuf
            if (isDataField(f.number)) dataBytes += f.end - f.start;
            walked(pos = f.end); // an unpacked float_data is a field a value
        }
        if (!isFloatingType(type) || dataBytes <= kKeptFloatBytes) {
            copy(t.start, t.end);
            return std::nullopt;
        }
        const std::size_t at = open(t);
        for (std::size_t pos = t.payload; pos < t.end;) {
            Field f;
            if (auto e = readField(b, pos, f, tensor, m_source)) return *e;
            if (!isDataField(f.number)) copy(f.start, f.end);
            walked(pos = f.end);
        }
        close(at, t);
        return std::nullopt;
    }
};

// Protobuf's limit, in readFileBytes' message.
constexpr const char* kOnnxLimit = "2 GiB: protobuf's limit for one message; larger models keep their weights in "
                                   "external files";

} // namespace

bool isDefaultDomain(const std::string& domain) {
    return domain.empty() || domain == "ai.onnx";
}

int newestOpset() {
    const auto& map = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    auto it = map.find(onnx::ONNX_DOMAIN);
    return it == map.end() ? 0 : it->second.second;
}

namespace {

// A model that does not parse may only nest its messages deeper than protobuf's recursion limit (an If in an If, ...,
// 33 deep): then that is the reason to give, not damage. Walks the wire format with the messages' descriptors, with a
// stack of its own, down to the first message past the limit, and describes where it is; "" when no message is past
// it (or a field is malformed before one is found).
std::string nestedTooDeep(std::string_view b) {
    using google::protobuf::Descriptor;
    using google::protobuf::FieldDescriptor;
    const int limit = google::protobuf::io::CodedInputStream::GetDefaultRecursionLimit();
    struct Frame {
        const Descriptor* type;
        std::size_t payload, end, pos;
        std::string field; // the field of the message around it that holds it
    };
    std::vector<Frame> stack{{onnx::ModelProto::descriptor(), 0, b.size(), 0, ""}};
    const Message any{"a message", 0};
    const std::string quiet;
    // A message's string field `name` (the last one, as for libprotobuf), or "".
    auto text = [&](const Frame& m, const char* name) {
        const FieldDescriptor* field = m.type->FindFieldByName(name);
        std::string out;
        Field f;
        for (std::size_t pos = m.payload; field && pos < m.end; pos = f.end) {
            if (readField(b.substr(0, m.end), pos, f, any, quiet)) break;
            if (f.wire == 2 && f.number == std::uint64_t(field->number()))
                out = validUtf8(std::string(b.substr(f.payload, std::min<std::size_t>(f.end - f.payload, 200))));
        }
        return out;
    };
    auto describe = [&](const Frame& m) {
        const std::string name = text(m, "name");
        if (m.type == onnx::NodeProto::descriptor())
            return (name.empty() ? "an unnamed node" : "node '" + name + "'") + " (" + text(m, "op_type") + ")";
        return m.field + (name.empty() ? "" : " '" + name + "'");
    };
    while (!stack.empty()) {
        Frame& top = stack.back();
        if (top.pos >= top.end) {
            stack.pop_back();
            continue;
        }
        Field f;
        if (readField(b.substr(0, top.end), top.pos, f, any, quiet)) return "";
        top.pos = f.end;
        const FieldDescriptor* field = top.type->FindFieldByNumber(int(f.number));
        if (f.wire != 2 || !field || field->type() != FieldDescriptor::TYPE_MESSAGE) continue;
        Frame inner{field->message_type(), f.payload, f.end, f.payload, field->name()};
        if (int(stack.size()) <= limit) {
            stack.push_back(std::move(inner));
            continue;
        }
        stack.push_back(std::move(inner));
        // Where it is: the graphs in graphs (If, Loop and Scan bodies) between the model's graph and it, and the nodes
        // that hold the outermost and the innermost of them; else the first steps of the path.
        std::vector<const Frame*> nodes;
        int subgraphs = 0;
        std::size_t innermost = 0; // the deepest graph's place in the stack
        for (std::size_t k = 1; k < stack.size(); ++k) {
            if (stack[k].type == onnx::NodeProto::descriptor()) nodes.push_back(&stack[k]);
            if (stack[k].type == onnx::GraphProto::descriptor() && k > 1) ++subgraphs, innermost = k;
        }
        const std::string past = "past the limit of this reader: protobuf parses at most " + std::to_string(limit) +
                                 " levels of nested messages";
        // A graph nested k deep sits 1 + 3k messages deep (model > graph > node > attribute > graph ...), its nodes
        // one deeper.
        const int allowed = (limit - 2) / 3;
        if (subgraphs > allowed && stack.size() - innermost <= 3 && nodes.size() >= std::size_t(subgraphs))
            return "subgraphs nested too deep: " + describe(*nodes.front()) +
                   " holds bodies of If, Loop or Scan nested more than " + std::to_string(allowed) + " deep (level " +
                   std::to_string(subgraphs) + " in " + describe(*nodes[std::size_t(subgraphs - 1)]) + "), " + past +
                   ", which allows " + std::to_string(allowed) + " nested subgraphs";
        std::string path;
        for (std::size_t k = 1; k < stack.size() && k <= 6; ++k)
            path += (k > 1 ? " > " : "") + describe(stack[k]);
        return "nested too deep: the model nests messages " + std::to_string(stack.size() - 1) + " deep (" + path +
               " > ...), " + past;
    }
    return "";
}

// The model in bytes that stripFloatData gave, checked.
Result<onnx::ModelProto> parseStripped(const std::string& stripped, const std::string& source) {
    onnx::ModelProto model;
    if (!model.ParseFromArray(stripped.data(), static_cast<int>(stripped.size()))) {
        if (const std::string deep = nestedTooDeep(stripped); !deep.empty()) return fail(source + ": " + deep);
        return fail(source + ": damaged: the ONNX model does not parse (a field inside it is malformed)");
    }
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

// stripFloatData, releasing the pages of `file` (when the bytes are its map) as the walk goes past them.
Result<std::string> strip(std::string_view bytes, const std::string& source, MappedFile* file) {
    if (bytes.size() > kMaxOnnxBytes)
        return fail(source + ": " + std::to_string(bytes.size()) + " bytes; an ONNX file holds at most 2 GiB");
    if (auto e = scanTopLevel(bytes, source)) return *e;
    return Stripper(bytes, source, file).run();
}

} // namespace

Result<std::string> stripFloatData(std::string_view bytes, const std::string& source) {
    return strip(bytes, source, nullptr);
}

Result<std::string> readModelBytes(const std::string& path, const std::string& source) {
    auto file = MappedFile::open(path, kMaxOnnxBytes, kOnnxLimit);
    if (!file) return file.errorValue();
    return strip(file->bytes(), source, &*file);
}

Result<onnx::ModelProto> readModel(const std::string& path, const std::string& source) {
    auto stripped = readModelBytes(path, source); // the map is gone before the model is parsed
    if (!stripped) return stripped.errorValue();
    return parseStripped(*stripped, source);
}

Result<onnx::ModelProto> parseModel(std::string_view bytes, const std::string& source) {
    auto stripped = stripFloatData(bytes, source);
    if (!stripped) return stripped.errorValue();
    return parseStripped(*stripped, source);
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

int batchDimension(const onnx::TypeProto_Tensor& type) {
    if (!type.has_shape() || type.shape().dim_size() == 0) return -1;
    for (int k = 0; k < type.shape().dim_size(); ++k) {
        std::string symbol = type.shape().dim(k).dim_param();
        for (char& c : symbol)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        if (symbol.find("batch") != std::string::npos || symbol == "n" || symbol == "b") return k;
    }
    return 0;
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
    // A dimension the file fixes was baked into its other shapes (Reshape targets, split sizes) when it was exported:
    // --batch and --input fill only the dimensions it leaves open, and a different value for a fixed one is refused.
    auto conflict = [&](const onnx::ValueInfoProto& in, int k, std::int64_t fixed, const std::string& option) {
        return fail(source + ": input '" + in.name() + "' dimension " + std::to_string(k) + " is fixed at " +
                    std::to_string(fixed) + " in the file; " + option +
                    " cannot change it: the file's Reshape targets and other shapes were computed for " +
                    std::to_string(fixed) + " when it was exported. Re-export with that dimension dynamic " +
                    "(torch.onnx.export(..., dynamic_axes={'" + in.name() + "': {" + std::to_string(k) +
                    ": 'batch'}})), or leave " + option.substr(0, option.find(' ')) + " out");
    };
    for (auto& in : *graph.mutable_input()) {
        if (weights.count(in.name())) continue;
        const std::string what = source + ": input '" + in.name() + "'";
        if (!in.type().has_tensor_type())
            return fail(what + " is not a tensor (a sequence, map or optional): only tensor inputs are imported");
        auto* type = in.mutable_type()->mutable_tensor_type();
        for (const auto& [name, dims] : options.inputs) {
            if (name != in.name()) continue;
            std::string given;
            for (std::int64_t d : dims)
                given += (given.empty() ? "" : "x") + std::to_string(d);
            if (!type->has_shape()) {
                for (std::int64_t d : dims)
                    type->mutable_shape()->add_dim()->set_dim_value(d);
                continue;
            }
            if (type->shape().dim_size() != int(dims.size()))
                return fail(what + " has " + std::to_string(type->shape().dim_size()) + " dimensions in the file; " +
                            "--input " + name + "=" + given + " gives " + std::to_string(dims.size()));
            for (int k = 0; k < int(dims.size()); ++k) {
                auto* d = type->mutable_shape()->mutable_dim(k);
                if (d->has_dim_value() && d->dim_value() >= 0) {
                    if (d->dim_value() != dims[std::size_t(k)])
                        return conflict(in, k, d->dim_value(), "--input " + name + "=" + given);
                    continue;
                }
                d->set_dim_value(dims[std::size_t(k)]);
            }
        }
        if (!type->has_shape())
            return fail(what + " has no shape: give its dimensions with --input " + in.name() +
                        "=DIMS (e.g. 1x3x224x224)");
        const int batchDim = batchDimension(*type);
        if (options.batch > 0 && batchDim >= 0) {
            auto* d = type->mutable_shape()->mutable_dim(batchDim);
            if (d->has_dim_value() && d->dim_value() >= 0 && d->dim_value() != options.batch)
                return conflict(in, batchDim, d->dim_value(), "--batch " + std::to_string(options.batch));
            d->set_dim_value(options.batch);
        }
        for (int k = 0; k < type->shape().dim_size(); ++k) {
            const auto& d = type->shape().dim(k);
            if (d.has_dim_value() && d.dim_value() >= 0) continue;
            const std::string symbol = d.has_dim_param() && !d.dim_param().empty() ? " ('" + d.dim_param() + "')" : "";
            if (d.has_dim_value())
                return fail(what + " dimension " + std::to_string(k) + " is " + std::to_string(d.dim_value()) +
                            "; a size must be >= 0");
            return fail(what + " dimension " + std::to_string(k) + symbol + " is not fixed: give " +
                        (k == batchDim ? "--batch N or " : "") + "--input " + in.name() +
                        "=DIMS (all of its dimensions, " + "e.g. 1x3x224x224)");
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
