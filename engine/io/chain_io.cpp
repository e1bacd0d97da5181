// Chain files ("ckpt-chain"): a list of steps, or one step repeated ("uniform").
#include "io/graph_io.h"
#include "io/json_io.h"
#include "io/json_reader.h"
#include "io/project_io.h"
#include "util/files.h"

#include <optional>

namespace ckpt {

namespace {

using io::FieldReader;
using io::JsonPath;
using nlohmann::json;

constexpr const char* kFormat = "ckpt-chain";

Step readStep(FieldReader& r) {
    Step s;
    r.seconds("forward", s.forward);
    r.seconds("backward", s.backward);
    r.bytes("state_bytes", s.state_bytes);
    r.bytes("tape_bytes", s.tape_bytes);
    r.bytes("forward_tmp_bytes", s.forward_tmp_bytes, false);
    r.bytes("backward_tmp_bytes", s.backward_tmp_bytes, false);
    return s;
}

void writeStep(const Step& s, json& out) {
    out["forward"] = s.forward;
    out["backward"] = s.backward;
    out["state_bytes"] = s.state_bytes;
    out["tape_bytes"] = s.tape_bytes;
    if (s.forward_tmp_bytes != 0) out["forward_tmp_bytes"] = s.forward_tmp_bytes;
    if (s.backward_tmp_bytes != 0) out["backward_tmp_bytes"] = s.backward_tmp_bytes;
}

// Step k of the array at `path` onto `out`; the error naming it when it is not a step.
std::optional<Error> readStepAt(const json& element, const JsonPath& path, std::size_t k, const std::string& source,
                                std::vector<Step>& out) {
    JsonPath at = path.element(k);
    FieldReader r(element, at, source);
    Step step = readStep(r);
    if (!r.ok()) return r.error();
    out.push_back(step);
    return std::nullopt;
}

// The steps of a chain file, read while it is parsed (JsonArraySink): up to the first bad one, whose error is kept.
struct StreamedSteps {
    std::vector<Step> steps;
    std::optional<Error> error;
};

JsonArraySink stepSink(StreamedSteps& out, const std::string& source) {
    return JsonArraySink{kFormat, "steps", [&out, &source](std::size_t k, const json& element) {
                             if (k == 0) out = StreamedSteps{};
                             if (out.error) return;
                             JsonPath root;
                             JsonPath path = root.member("steps");
                             if (auto e = readStepAt(element, path, k, source, out.steps)) out.error = std::move(*e);
                         }};
}

// `streamed`: the steps as stepSink read them, when it did (the array in `doc` then holds nulls).
Result<Chain> readChain(const json& doc, const std::string& source, StreamedSteps* streamed = nullptr) {
    if (auto e = io::checkHeader(doc, kFormat, source)) return *e;
    JsonPath root;
    FieldReader top(doc, root, source);
    std::string name = io::nameFromSource(source);
    top.string("name", name, false);
    const json* steps = top.find("steps", false);
    const json* uniform = top.find("uniform", false);
    std::string modelName = "standard";
    top.string("memory_model", modelName, false);
    std::int64_t finalBytes = -1;
    top.bytes("final_state_bytes", finalBytes, false);
    if (!top.ok()) return top.error();
    MemoryModel model = MemoryModel::Standard;
    if (modelName == "rotor-paper")
        model = MemoryModel::RotorPaper;
    else if (modelName != "standard")
        return fail(source + ": " + root.member("memory_model").str() +
                    ": expected \"standard\" or \"rotor-paper\", got \"" + modelName + "\"");
    auto finish = [&](Result<Chain> chain) -> Result<Chain> {
        if (!chain) return fail(source + ": " + chain.error());
        if (model == MemoryModel::Standard && finalBytes < 0) return chain;
        auto c = chain->withModel(model, finalBytes);
        if (!c) return fail(source + ": " + c.error());
        return c;
    };
    if (steps && uniform) return fail(source + ": give either \"steps\" or \"uniform\", not both");
    if (!steps && !uniform) return fail(source + ": missing \"steps\" (or \"uniform\" for a chain of equal steps)");

    if (uniform) {
        JsonPath path = root.member("uniform");
        FieldReader r(*uniform, path, source);
        long long length = 0;
        r.integer("length", length, 1, 50'000'000);
        Step step = readStep(r);
        if (!r.ok()) return r.error();
        return finish(Chain::uniform(std::move(name), static_cast<int>(length), step));
    }

    JsonPath path = root.member("steps");
    if (!steps->is_array()) return io::expected(source, path, "an array of steps", *steps);
    if (streamed) {
        if (streamed->error) return *streamed->error;
        return finish(Chain::make(std::move(name), std::move(streamed->steps)));
    }
    std::vector<Step> list;
    list.reserve(steps->size());
    for (std::size_t k = 0; k < steps->size(); ++k)
        if (auto e = readStepAt((*steps)[k], path, k, source, list)) return *e;
    return finish(Chain::make(std::move(name), std::move(list)));
}

} // namespace

Result<Chain> chainFromJson(const nlohmann::json& doc, const std::string& source) {
    try {
        return readChain(doc, source);
    } catch (const std::exception& e) {
        return fail(source + ": " + e.what());
    }
}

nlohmann::json chainToJson(const Chain& chain) {
    json doc = {{"format", kFormat}, {"version", 1}, {"name", chain.name()}};
    if (chain.memoryModel() != MemoryModel::Standard) doc["memory_model"] = memoryModelName(chain.memoryModel());
    if (chain.finalStateBytes() >= 0) doc["final_state_bytes"] = chain.finalStateBytes();
    if (chain.length() > 1 && chain.isUniform()) {
        json u = {{"length", chain.length()}};
        writeStep(chain.step(1), u);
        doc["uniform"] = std::move(u);
    } else {
        json steps = json::array();
        for (const Step& s : chain.steps()) {
            json j = json::object();
            writeStep(s, j);
            steps.push_back(std::move(j));
        }
        doc["steps"] = std::move(steps);
    }
    return doc;
}

namespace {

// Parses `text` with the steps of a chain read as they come; `read(doc, steps)` then reads the document, `steps` null
// when they were not streamed (another format, "format" after "steps", or no array of steps).
template <typename T, typename F> Result<T> streamedRead(const std::string& text, const std::string& source, F&& read) {
    StreamedSteps steps;
    JsonArraySink sink = stepSink(steps, source);
    auto doc = parseJson(text, source, kMaxJsonTreeBytes, &sink);
    if (!doc) return doc.errorValue();
    try {
        return read(*doc, sink.streamed ? &steps : nullptr);
    } catch (const std::exception& e) {
        return fail(source + ": " + e.what());
    }
}

} // namespace

Result<Chain> chainFromText(const std::string& text, const std::string& source) {
    return streamedRead<Chain>(text, source,
                               [&](const json& doc, StreamedSteps* steps) { return readChain(doc, source, steps); });
}

Result<Chain> loadChain(const std::string& path) {
    auto text = readTextFile(path);
    if (!text) return text.errorValue();
    return chainFromText(*text, path);
}

Result<Problem> problemFromText(const std::string& text, const std::string& source) {
    return streamedRead<Problem>(text, source, [&](const json& doc, StreamedSteps* steps) -> Result<Problem> {
        if (documentKindOf(doc) == DocumentKind::Graph) {
            auto g = graphFromJson(doc, source);
            if (!g) return g.errorValue();
            return Problem(std::move(*g));
        }
        auto c = readChain(doc, source, steps);
        if (!c) return c.errorValue();
        return Problem(std::move(*c));
    });
}

Result<Problem> loadChainOrGraph(const std::string& path) {
    auto text = readTextFile(path);
    if (!text) return text.errorValue();
    return problemFromText(*text, path);
}

Result<bool> saveChain(const std::string& path, const Chain& chain) {
    try {
        return writeTextFileAtomic(path, jsonToText(chainToJson(chain)));
    } catch (const std::exception& e) {
        return fail(path + ": " + e.what());
    }
}

} // namespace ckpt
