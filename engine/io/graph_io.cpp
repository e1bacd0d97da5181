#include "io/graph_io.h"

#include "io/json_io.h"
#include "io/json_reader.h"
#include "util/files.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace ckpt {

using io::FieldReader;
using io::JsonPath;

namespace {

Result<Graph> readGraph(const nlohmann::json& doc, const std::string& source) {
    if (auto e = io::checkHeader(doc, "ckpt-graph", source)) return *e;
    const JsonPath root;
    std::string name = io::nameFromSource(source);
    FieldReader top(doc, root, source);
    top.string("name", name, false);
    if (!top.ok()) return top.error();
    const JsonPath nodesPath = root.member("nodes"), edgesPath = root.member("edges");
    if (!doc.contains("nodes")) return io::pathError(source, root, "missing \"nodes\"");
    const auto& jn = doc["nodes"];
    if (!jn.is_array()) return io::expected(source, nodesPath, "an array of nodes", jn);
    std::vector<GraphNode> nodes;
    nodes.reserve(jn.size());
    for (std::size_t k = 0; k < jn.size(); ++k) {
        const JsonPath at = nodesPath.element(k);
        FieldReader r(jn[k], at, source);
        GraphNode n;
        n.backward = -1;
        r.string("id", n.id, true);
        r.seconds("forward", n.forward);
        r.seconds("backward", n.backward, false);
        r.bytes("output_bytes", n.output_bytes);
        r.bytes("workspace_bytes", n.workspace_bytes, false);
        r.string("op", n.op, false);
        r.string("block", n.block, false);
        if (const auto* f = r.find("flops", false)) {
            if (!f->is_number() || !(f->get<double>() >= 0) || !std::isfinite(f->get<double>()))
                r.setError(io::expected(source, at.member("flops"), "a number of operations >= 0", *f));
            else
                n.flops = f->get<double>();
        }
        for (auto [key, flag] : {std::pair{"needs_inputs", &n.needs_inputs},
                                 {"needs_output", &n.needs_output},
                                 {"reversible", &n.reversible},
                                 {"in_place", &n.in_place}}) {
            if (const auto* v = r.find(key, false)) {
                if (!v->is_boolean())
                    r.setError(io::expected(source, at.member(key), "true or false", *v));
                else
                    *flag = v->get<bool>();
            }
        }
        if (!r.ok()) return r.error();
        if (n.backward < 0) n.backward = 2 * n.forward;
        if (const auto* impls = r.find("implementations", false)) {
            const JsonPath ip = at.member("implementations");
            if (!impls->is_array()) return io::expected(source, ip, "an array of implementations", *impls);
            for (std::size_t c = 0; c < impls->size(); ++c) {
                const auto& ji = (*impls)[c];
                if (!ji.is_object())
                    return io::expected(source, ip.element(c),
                                        "{\"name\", \"forward\", \"backward\", "
                                        "\"workspace_bytes\"}",
                                        ji);
                const JsonPath implAt = ip.element(c); // FieldReader keeps a reference: it must outlive it
                FieldReader ir(ji, implAt, source);
                NodeImplementation impl;
                impl.backward = -1;
                ir.string("name", impl.name, true);
                ir.seconds("forward", impl.forward);
                ir.seconds("backward", impl.backward, false);
                ir.bytes("workspace_bytes", impl.workspace_bytes, false);
                if (!ir.ok()) return ir.error();
                if (impl.backward < 0) impl.backward = 2 * impl.forward;
                n.alternatives.push_back(std::move(impl));
            }
        }
        nodes.push_back(std::move(n));
    }
    std::vector<GraphEdge> edges;
    if (doc.contains("edges")) {
        const auto& je = doc["edges"];
        if (!je.is_array()) return io::expected(source, edgesPath, "an array of edges", je);
        for (std::size_t k = 0; k < je.size(); ++k) {
            const auto& e = je[k];
            if (e.is_array() && e.size() == 2 && e[0].is_string() && e[1].is_string()) {
                edges.push_back(GraphEdge{e[0].get<std::string>(), e[1].get<std::string>()});
            } else if (e.is_object() && e.contains("from") && e.contains("to") && e["from"].is_string() &&
                       e["to"].is_string()) {
                edges.push_back(GraphEdge{e["from"].get<std::string>(), e["to"].get<std::string>()});
            } else {
                return io::expected(source, edgesPath.element(k), "[\"from-id\", \"to-id\"]", e);
            }
        }
    }
    auto g = Graph::make(name, std::move(nodes), std::move(edges));
    if (!g) return fail(source + ": " + g.error());
    return g;
}

} // namespace

Result<Graph> graphFromJson(const nlohmann::json& doc, const std::string& source) {
    try {
        return readGraph(doc, source);
    } catch (const std::exception& e) {
        return fail(source + ": " + e.what());
    }
}

nlohmann::json graphToJson(const Graph& g) {
    nlohmann::json j;
    j["format"] = "ckpt-graph";
    j["version"] = 1;
    j["name"] = g.name();
    j["nodes"] = nlohmann::json::array();
    for (const GraphNode& n : g.nodes()) {
        nlohmann::json o = {
            {"id", n.id}, {"forward", n.forward}, {"backward", n.backward}, {"output_bytes", n.output_bytes}};
        if (n.workspace_bytes) o["workspace_bytes"] = n.workspace_bytes;
        if (!n.needs_inputs) o["needs_inputs"] = false;
        if (n.needs_output) o["needs_output"] = true;
        if (n.reversible) o["reversible"] = true;
        if (n.in_place) o["in_place"] = true;
        if (!n.op.empty()) o["op"] = n.op;
        if (!n.block.empty()) o["block"] = n.block;
        if (n.flops > 0) o["flops"] = n.flops;
        if (!n.alternatives.empty()) {
            nlohmann::json impls = nlohmann::json::array();
            for (const NodeImplementation& alt : n.alternatives) {
                nlohmann::json a = {{"name", alt.name}, {"forward", alt.forward}, {"backward", alt.backward}};
                if (alt.workspace_bytes) a["workspace_bytes"] = alt.workspace_bytes;
                impls.push_back(std::move(a));
            }
            o["implementations"] = std::move(impls);
        }
        j["nodes"].push_back(o);
    }
    j["edges"] = nlohmann::json::array();
    for (const GraphEdge& e : g.edges())
        j["edges"].push_back({e.from, e.to});
    return j;
}

Result<Graph> loadGraph(const std::string& path) {
    auto doc = loadJson(path);
    if (!doc) return doc.errorValue();
    return graphFromJson(*doc, path);
}

Result<bool> saveGraph(const std::string& path, const Graph& graph) {
    return saveJson(path, graphToJson(graph));
}

Graph randomLayeredGraph(int count, std::uint64_t seed, int width) {
    std::mt19937_64 rng(seed);
    auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    std::vector<std::vector<int>> layers;
    count = std::max(1, count);
    while (int(nodes.size()) < count) {
        int here = std::min(uniform(1, std::max(1, width)), count - int(nodes.size()));
        std::vector<int> layer;
        for (int k = 0; k < here; ++k) {
            int id = int(nodes.size());
            double f = 1e-4 * uniform(5, 40);
            nodes.push_back(GraphNode{"n" + std::to_string(id), f, 2 * f, std::int64_t(uniform(1, 32)) << 20,
                                      std::int64_t(uniform(0, 8)) << 20, true, uniform(0, 3) == 0, false});
            // Inputs from the previous two layers, at least one from the one just before (so the DAG is connected).
            if (!layers.empty()) {
                const auto& prev = layers.back();
                edges.push_back(GraphEdge{"n" + std::to_string(prev[std::size_t(uniform(0, int(prev.size()) - 1))]),
                                          nodes.back().id});
                // A duplicate can only repeat one of this node's own edges: search those, not every edge so far.
                const auto own = std::ptrdiff_t(edges.size()) - 1;
                int extra = uniform(0, 2);
                for (int e = 0; e < extra; ++e) {
                    const auto& from = layers.size() >= 2 && uniform(0, 1) ? layers[layers.size() - 2] : prev;
                    GraphEdge edge{"n" + std::to_string(from[std::size_t(uniform(0, int(from.size()) - 1))]),
                                   nodes.back().id};
                    if (std::find(edges.begin() + own, edges.end(), edge) == edges.end()) edges.push_back(edge);
                }
            }
            layer.push_back(id);
        }
        layers.push_back(layer);
    }
    return *Graph::make("random-dag-" + std::to_string(count) + "-seed-" + std::to_string(seed), std::move(nodes),
                        std::move(edges));
}

Graph randomJoinGraph(int count, std::uint64_t seed, int branches) {
    std::mt19937_64 rng(seed);
    auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    branches = std::max(1, branches);
    count = std::max(count, branches + 1);
    const int trunk = std::min(count / 8, count - branches - 1);
    const int perBranch = (count - 1 - trunk) / branches, extra = (count - 1 - trunk) % branches;
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    auto add = [&](const std::string& id, const std::string& from) {
        const double f = 1e-4 * uniform(5, 40);
        nodes.push_back(GraphNode{id, f, 2 * f, std::int64_t(uniform(1, 32)) << 20, std::int64_t(uniform(0, 8)) << 20,
                                  true, uniform(0, 3) == 0, false});
        if (!from.empty()) edges.push_back(GraphEdge{from, id});
    };
    std::vector<std::string> ends;
    for (int b = 0; b < branches; ++b) {
        std::string prev;
        for (int k = 0; k < perBranch + (b < extra ? 1 : 0); ++k) {
            add("b" + std::to_string(b) + "_" + std::to_string(k), prev);
            prev = nodes.back().id;
        }
        ends.push_back(prev);
    }
    add("join", "");
    nodes.back().needs_inputs = nodes.back().needs_output = false;
    for (const std::string& e : ends)
        edges.push_back(GraphEdge{e, "join"});
    std::string prev = "join";
    for (int k = 0; k < trunk; ++k) {
        add("t" + std::to_string(k), prev);
        prev = nodes.back().id;
    }
    return *Graph::make("random-join-" + std::to_string(count) + "-seed-" + std::to_string(seed), std::move(nodes),
                        std::move(edges));
}

Graph linearGraph(int count) {
    return Graph::fromChain(*Chain::uniform("linear-" + std::to_string(count), std::max(1, count),
                                            Step{1e-3, 2e-3, 1 << 20, 3 << 20, 0, 0}));
}

} // namespace ckpt
