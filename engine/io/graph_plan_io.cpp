// Graph plan files (graph_plan_io.h): the actions of a GraphPlan by node id, so that a plan reads as what it does
// ("forward conv1, free conv1, ...") and survives a graph whose nodes were reordered.
#include "io/graph_plan_io.h"

#include "io/json_io.h"
#include "io/json_reader.h"

#include <unordered_map>

namespace ckpt {

namespace {

using io::JsonPath;
using nlohmann::json;

constexpr const char* kFormat = "ckpt-graph-plan";
constexpr const char* kAnyAction = "an action such as [\"forward\"|\"backward\"|\"free\"|\"invert\", node id] or "
                                   "[\"write\"|\"read\"|\"free\", node id, level]";

bool kindOf(const std::string& name, GraphActionKind& kind) {
    for (auto k : {GraphActionKind::Forward, GraphActionKind::Backward, GraphActionKind::Free, GraphActionKind::Invert,
                   GraphActionKind::Write, GraphActionKind::Read})
        if (name == graphActionName(k)) {
            kind = k;
            return true;
        }
    return false;
}

} // namespace

const char* graphActionName(GraphActionKind kind) {
    switch (kind) {
    case GraphActionKind::Forward:
        return "forward";
    case GraphActionKind::Backward:
        return "backward";
    case GraphActionKind::Free:
        return "free";
    case GraphActionKind::Invert:
        return "invert";
    case GraphActionKind::Write:
        return "write";
    case GraphActionKind::Read:
        return "read";
    }
    return "?";
}

json graphPlanToJson(const GraphPlan& plan, const Graph& graph) {
    json j;
    j["format"] = kFormat;
    j["version"] = 1;
    j["scheduler"] = plan.scheduler;
    j["params"] = plan.params;
    j["budget_bytes"] = plan.budget_bytes;
    j["predicted_makespan_s"] = plan.predicted_makespan_s;
    j["graph"] = {{"name", graph.name()}, {"nodes", graph.size()}};
    json actions = json::array();
    for (const GraphAction& a : plan.actions) {
        const bool known = a.node >= 0 && a.node < graph.size();
        json one = json::array({graphActionName(a.kind), known ? graph.node(a.node).id : std::to_string(a.node)});
        if (a.level != 0 || a.kind == GraphActionKind::Write || a.kind == GraphActionKind::Read) one.push_back(a.level);
        actions.push_back(std::move(one));
    }
    j["actions"] = std::move(actions);
    if (!plan.implementation.empty()) {
        json chosen = json::object();
        for (int v = 0; v < graph.size() && v < int(plan.implementation.size()); ++v)
            if (plan.implementation[std::size_t(v)] > 0 &&
                plan.implementation[std::size_t(v)] < graph.implementationCount(v))
                chosen[graph.node(v).id] = graph.implementationName(v, plan.implementation[std::size_t(v)]);
        j["implementations"] = std::move(chosen);
    }
    return j;
}

namespace {

Result<GraphPlan> readGraphPlan(const json& doc, const Graph& graph, const std::string& source) {
    if (auto bad = io::checkHeader(doc, kFormat, source)) return *bad;
    JsonPath root;
    io::FieldReader r(doc, root, source);
    GraphPlan plan;
    r.string("scheduler", plan.scheduler, false);
    r.bytes("budget_bytes", plan.budget_bytes, false);
    io::optionalSeconds(r, "predicted_makespan_s", plan.predicted_makespan_s);
    const json* params = r.find("params", false);
    const json* actions = r.find("actions", true);
    if (!r.ok()) return r.error();
    JsonPath paramsPath = root.member("params");
    if (params) {
        if (!params->is_object()) return io::expected(source, paramsPath, "an object of parameter texts", *params);
        for (const auto& [k, v] : params->items()) {
            JsonPath at = paramsPath.member(k.c_str());
            if (!v.is_string()) return io::expected(source, at, "a text", v);
            plan.params[k] = v.get<std::string>();
        }
    }
    JsonPath actionsPath = root.member("actions");
    if (!actions->is_array()) return io::expected(source, actionsPath, "an array of actions", *actions);
    std::unordered_map<std::string, int> index;
    for (int v = 0; v < graph.size(); ++v)
        index.emplace(graph.node(v).id, v);
    plan.actions.reserve(actions->size());
    for (std::size_t k = 0; k < actions->size(); ++k) {
        const json& a = (*actions)[k];
        JsonPath at = actionsPath.element(k);
        GraphActionKind kind{};
        if (!a.is_array() || a.size() < 2 || a.size() > 3 || !a[0].is_string() || !a[1].is_string() ||
            !kindOf(a[0].get<std::string>(), kind))
            return io::expected(source, at, kAnyAction, a);
        const bool levelled =
            kind == GraphActionKind::Write || kind == GraphActionKind::Read || kind == GraphActionKind::Free;
        if (a.size() == 3 &&
            (!levelled || !a[2].is_number_integer() || a[2].get<long long>() < 0 || a[2].get<long long>() > 1000))
            return io::expected(source, at.element(2), levelled ? "a memory level (0, 1, ...)" : "no third entry",
                                a[2]);
        if (a.size() == 2 && kind != GraphActionKind::Free && levelled)
            return io::expected(source, at, "[\"" + std::string(graphActionName(kind)) + "\", node id, level]", a);
        auto it = index.find(a[1].get<std::string>());
        if (it == index.end()) {
            JsonPath node = at.element(1);
            return io::expected(source, node, "a node id of graph '" + graph.name() + "'", a[1]);
        }
        plan.actions.push_back(GraphAction{kind, it->second, std::int16_t(a.size() == 3 ? a[2].get<int>() : 0)});
    }
    if (doc.contains("implementations")) {
        const JsonPath ip = root.member("implementations");
        const json& chosen = doc["implementations"];
        if (!chosen.is_object()) return io::expected(source, ip, "an object {node id: implementation name}", chosen);
        plan.implementation.assign(std::size_t(graph.size()), 0);
        for (const auto& [id, name] : chosen.items()) {
            const JsonPath at = ip.member(id.c_str());
            auto it = index.find(id);
            if (it == index.end()) return io::expected(source, at, "a node id of graph '" + graph.name() + "'", id);
            if (!name.is_string()) return io::expected(source, at, "an implementation's name", name);
            const int v = it->second;
            int c = 0;
            while (c < graph.implementationCount(v) && graph.implementationName(v, c) != name.get<std::string>())
                ++c;
            if (c == graph.implementationCount(v))
                return io::expected(source, at, "an implementation of node '" + id + "'", name);
            plan.implementation[std::size_t(v)] = c;
        }
    }
    return plan;
}

} // namespace

Result<GraphPlan> graphPlanFromJson(const json& doc, const Graph& graph, const std::string& source) {
    try {
        return readGraphPlan(doc, graph, source);
    } catch (const std::exception& e) {
        return fail(source + ": " + e.what());
    }
}

Result<GraphPlan> loadGraphPlan(const std::string& path, const Graph& graph) {
    auto doc = loadJson(path);
    if (!doc) return doc.errorValue();
    return graphPlanFromJson(*doc, graph, path);
}

Result<bool> saveGraphPlan(const std::string& path, const GraphPlan& plan, const Graph& graph) {
    return saveJson(path, graphPlanToJson(plan, graph));
}

} // namespace ckpt
