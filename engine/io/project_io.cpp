#include "io/project_io.h"

#include "io/graph_io.h"
#include "io/json_io.h"
#include "io/json_reader.h"
#include "util/files.h"

namespace ckpt {

DocumentKind documentKindOf(const nlohmann::json& doc) {
    if (!doc.is_object()) return DocumentKind::Unknown;
    auto it = doc.find("format");
    if (it == doc.end() || !it->is_string()) return DocumentKind::Unknown;
    const std::string& f = it->get_ref<const std::string&>();
    if (f == "ckpt-project") return DocumentKind::Project;
    if (f == "ckpt-chain") return DocumentKind::Chain;
    if (f == "ckpt-hardware") return DocumentKind::Hardware;
    if (f == "ckpt-plan") return DocumentKind::Plan;
    if (f == "ckpt-graph") return DocumentKind::Graph;
    if (f == "ckpt-graph-plan") return DocumentKind::GraphPlan;
    return DocumentKind::Unknown;
}

DocumentKind documentKind(const std::string& path) {
    auto doc = loadJson(path);
    return doc ? documentKindOf(*doc) : DocumentKind::Unknown;
}

namespace {

using io::JsonPath;
using nlohmann::json;

// A list of texts ("schedulers") into `out`.
std::optional<Error> readTexts(const json& v, const JsonPath& path, const std::string& source,
                               std::vector<std::string>& out) {
    if (!v.is_array()) return io::expected(source, path, "an array of scheduler names", v);
    for (std::size_t k = 0; k < v.size(); ++k) {
        JsonPath at = path.element(k);
        if (!v[k].is_string()) return io::expected(source, at, "a scheduler name", v[k]);
        out.push_back(v[k].get<std::string>());
    }
    return std::nullopt;
}

// {"scheduler": {"name": "text"}} into `out`.
std::optional<Error> readParams(const json& v, const JsonPath& path, const std::string& source,
                                std::map<std::string, std::map<std::string, std::string>>& out) {
    if (!v.is_object()) return io::expected(source, path, "an object of {scheduler: {parameter: text}}", v);
    for (const auto& [scheduler, params] : v.items()) {
        JsonPath at = path.member(scheduler.c_str());
        if (!params.is_object()) return io::expected(source, at, "an object of {parameter: text}", params);
        auto& into = out[scheduler];
        for (const auto& [name, value] : params.items()) {
            JsonPath p = at.member(name.c_str());
            if (!value.is_string()) return io::expected(source, p, "a text such as \"10\"", value);
            into[name] = value.get<std::string>();
        }
    }
    return std::nullopt;
}

Result<ProjectSettings> readSettings(const json& st, const JsonPath& path, const std::string& source) {
    io::FieldReader r(st, path, source);
    ProjectSettings s;
    r.string("scheduler", s.scheduler, false);
    r.bytes("budget_bytes", s.budget_bytes, false);
    r.string("budgets", s.budgets, false);
    const json* list = r.find("schedulers", false);
    const json* params = r.find("params", false);
    if (!r.ok()) return r.error();
    if (list) {
        JsonPath at = path.member("schedulers");
        if (auto e = readTexts(*list, at, source, s.schedulers)) return *e;
    }
    if (params) {
        JsonPath at = path.member("params");
        if (auto e = readParams(*params, at, source, s.params)) return *e;
    }
    return s;
}

Result<Project> readProject(const json& j, const std::string& path) {
    if (auto e = io::checkHeader(j, "ckpt-project", path)) return *e;
    const JsonPath root;
    auto chainDoc = j.find("chain"), graphDoc = j.find("graph");
    if (chainDoc == j.end() && graphDoc == j.end()) return fail(path + ": missing \"chain\" (or \"graph\")");
    std::optional<Graph> graph;
    if (graphDoc != j.end()) {
        auto g = graphFromJson(*graphDoc, path + ": graph");
        if (!g) return g.errorValue();
        graph = std::move(*g);
    }
    // A graph project needs no chain; the placeholder keeps Project's chain valid for code that reads it anyway.
    auto chain = chainDoc != j.end() ? chainFromJson(*chainDoc, path + ": chain")
                                     : Chain::make("chain", {Step{1e-3, 2e-3, 1 << 20, 1 << 20, 0, 0}});
    if (!chain) return chain.errorValue();
    Hardware hw = Hardware::unbounded();
    if (auto h = j.find("hardware"); h != j.end()) {
        auto read = hardwareFromJson(*h, path + ": hardware");
        if (!read) return read.errorValue();
        hw = *read;
    }
    ProjectSettings s;
    if (auto st = j.find("settings"); st != j.end()) {
        JsonPath at = root.member("settings");
        auto read = readSettings(*st, at, path);
        if (!read) return read.errorValue();
        s = std::move(*read);
    }
    return Project{std::move(*chain), std::move(hw), std::move(s), std::move(graph)};
}

} // namespace

Result<Project> projectFromJson(const nlohmann::json& doc, const std::string& source) {
    try {
        return readProject(doc, source);
    } catch (const std::exception& e) {
        return fail(source + ": " + e.what());
    }
}

Result<Project> loadProject(const std::string& path) {
    auto doc = loadJson(path);
    if (!doc) return doc.errorValue();
    return projectFromJson(*doc, path);
}

nlohmann::json projectToJson(const Project& p) {
    nlohmann::json j;
    j["format"] = "ckpt-project";
    j["version"] = 1;
    if (p.graph)
        j["graph"] = graphToJson(*p.graph);
    else
        j["chain"] = chainToJson(p.chain);
    j["hardware"] = hardwareToJson(p.hardware);
    nlohmann::json s;
    s["scheduler"] = p.settings.scheduler;
    s["schedulers"] = p.settings.schedulers;
    s["params"] = p.settings.params;
    s["budget_bytes"] = p.settings.budget_bytes;
    s["budgets"] = p.settings.budgets;
    j["settings"] = s;
    return j;
}

std::string projectToText(const Project& project) {
    return jsonToText(projectToJson(project));
}

Result<bool> saveProject(const std::string& path, const Project& project) {
    return writeTextFileAtomic(path, projectToText(project));
}

} // namespace ckpt
