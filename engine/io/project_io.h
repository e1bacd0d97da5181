#pragma once
// A project: the problem, the machine and the scheduler settings, in one JSON file the explorer opens and saves.
// {"format":"ckpt-project","version":1,"chain":{chain document},"hardware":{hardware document},
//  or "graph":{graph document} instead of "chain" (a project of a graph; older files have no "graph"),
//  "settings":{"scheduler":"revolve","schedulers":["revolve",...],"params":{"revolve":{"slots":"10"}},
//              "budget_bytes":0,"budgets":"none,5%,20%"}}
#include "model/chain.h"
#include "model/graph.h"
#include "model/hardware.h"
#include "model/problem.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

struct ProjectSettings {
    std::string scheduler = "revolve";   // the one shown in the timeline
    std::vector<std::string> schedulers; // selected for runs; empty = all
    std::map<std::string, std::map<std::string, std::string>> params;
    std::int64_t budget_bytes = 0;
    std::string budgets = "none,5%,10%,20%,35%,50%,75%";
    bool operator==(const ProjectSettings&) const = default;
};

struct Project {
    Chain chain; // the problem, unless `graph` is set (then a one-step placeholder when the file has no "chain")
    Hardware hardware;
    ProjectSettings settings;
    std::optional<Graph> graph = std::nullopt; // set: the problem is this graph
};

// What a JSON document holds, judged by its "format" (Unknown for anything else, a non-string format included).
enum class DocumentKind { Project, Chain, Hardware, Plan, Graph, GraphPlan, Unknown };
DocumentKind documentKindOf(const nlohmann::json& doc);
// The same for a file; it reads and parses the whole file, so a caller that goes on to load it should parse it once
// (loadJson), then use documentKindOf and the ...FromJson readers.
DocumentKind documentKind(const std::string& path);

// A chain or graph file (a graph by its "format", a chain otherwise), read and parsed once. A chain's steps are read
// while the file is parsed, not kept as a tree: a chain of a million steps (135 MB) loads in some 2 s and 300 MB,
// where the tree took 6 s and 860 MB.
Result<Problem> loadChainOrGraph(const std::string& path);
Result<Problem> problemFromText(const std::string& text, const std::string& source); // the same from a file's text

Result<Project> projectFromJson(const nlohmann::json& doc, const std::string& source);
Result<Project> loadProject(const std::string& path);
Result<bool> saveProject(const std::string& path, const Project& project);
std::string projectToText(const Project& project);
nlohmann::json projectToJson(const Project& project); // what projectToText writes; a caller may add members

} // namespace ckpt
