#include "io/project_io.h"

#include "io/files.h"
#include "io/graph_io.h"
#include "io/json_io.h"

namespace ckpt {

DocumentKind documentKind(const std::string& path) {
    auto doc = loadJson(path);
    if (!doc || !doc->is_object() || !doc->contains("format") || !(*doc)["format"].is_string())
        return DocumentKind::Unknown;
    const std::string f = (*doc)["format"].get<std::string>();
    if (f == "ckpt-project") return DocumentKind::Project;
    if (f == "ckpt-chain") return DocumentKind::Chain;
    if (f == "ckpt-hardware") return DocumentKind::Hardware;
    if (f == "ckpt-plan") return DocumentKind::Plan;
    if (f == "ckpt-graph") return DocumentKind::Graph;
    if (f == "ckpt-graph-plan") return DocumentKind::GraphPlan;
    return DocumentKind::Unknown;
}

Result<Project> loadProject(const std::string& path) {
    auto doc = loadJson(path);
    if (!doc) return doc.errorValue();
    const nlohmann::json& j = *doc;
    if (!j.is_object() || j.value("format", std::string()) != "ckpt-project")
        return fail(path + ": expected \"format\": \"ckpt-project\"");
    if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
        return fail(path + ": version: expected 1 (the only project version this program reads)");
    if (!j.contains("chain") && !j.contains("graph")) return fail(path + ": missing \"chain\" (or \"graph\")");
    std::optional<Graph> graph;
    if (j.contains("graph")) {
        auto g = graphFromJson(j["graph"], path + ": graph");
        if (!g) return g.errorValue();
        graph = std::move(*g);
    }
    // A graph project needs no chain; the placeholder keeps Project's chain valid for code that reads it anyway.
    auto chain = j.contains("chain") ? chainFromJson(j["chain"], path + ": chain")
                                     : Chain::make("chain", {Step{1e-3, 2e-3, 1 << 20, 1 << 20, 0, 0}});
    if (!chain) return chain.errorValue();
    Hardware hw = Hardware::unbounded();
    if (j.contains("hardware")) {
        auto h = hardwareFromJson(j["hardware"], path + ": hardware");
        if (!h) return h.errorValue();
        hw = *h;
    }
    ProjectSettings s;
    if (j.contains("settings")) {
        const nlohmann::json& st = j["settings"];
        if (!st.is_object()) return fail(path + ": settings: expected an object");
        try {
            if (st.contains("scheduler")) s.scheduler = st["scheduler"].get<std::string>();
            if (st.contains("schedulers")) s.schedulers = st["schedulers"].get<std::vector<std::string>>();
            if (st.contains("params"))
                s.params = st["params"].get<std::map<std::string, std::map<std::string, std::string>>>();
            if (st.contains("budget_bytes")) s.budget_bytes = st["budget_bytes"].get<std::int64_t>();
            if (st.contains("budgets")) s.budgets = st["budgets"].get<std::string>();
        } catch (const std::exception& e) {
            return fail(path + ": settings: " + e.what());
        }
        if (s.budget_bytes < 0) return fail(path + ": settings.budget_bytes: expected a size >= 0");
    }
    return Project{std::move(*chain), std::move(hw), std::move(s), std::move(graph)};
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
