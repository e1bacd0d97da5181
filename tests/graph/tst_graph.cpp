// Graphs: validation that names the node, the file format with its messages, chains as graphs, the generator.
#include "io/graph_io.h"
#include "io/json_io.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace ckpt;

namespace {
GraphNode node(const std::string& id, std::int64_t out = 100) {
    return GraphNode{id, 1.0, 2.0, out, 0, true, false, false};
}

std::string problemWith(const std::string& text) {
    auto doc = parseJson(text, "g.json");
    if (!doc) return doc.error();
    auto g = graphFromJson(*doc, "g.json");
    return g ? std::string() : g.error();
}
} // namespace

class TestGraph : public QObject {
    Q_OBJECT
private slots:
    void validGraphHasATopologicalOrder() {
        // A residual block: a -> b -> c, a -> c.
        auto g = Graph::make("res", {node("c"), node("a"), node("b")}, {{"a", "b"}, {"b", "c"}, {"a", "c"}});
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().c_str());
        std::vector<std::string> order;
        for (int i : g->topologicalOrder())
            order.push_back(g->node(i).id);
        QCOMPARE(order, (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE(g->inputs(g->indexOf("c")).size(), std::size_t(2));
        QVERIFY(!g->isChain());
    }

    void errorsNameTheNode() {
        auto cycle = Graph::make("x", {node("a"), node("b"), node("c"), node("d")},
                                 {{"a", "b"}, {"b", "c"}, {"c", "b"}, {"c", "d"}});
        QVERIFY(!cycle.ok());
        QVERIFY2(cycle.error().find("cycle") != std::string::npos &&
                     (cycle.error().find("'b'") != std::string::npos || cycle.error().find("'c'") != std::string::npos),
                 cycle.error().c_str());
        auto dangling = Graph::make("x", {node("a")}, {{"a", "zz"}});
        QVERIFY(!dangling.ok());
        QVERIFY2(dangling.error().find("no node 'zz'") != std::string::npos, dangling.error().c_str());
        auto twice = Graph::make("x", {node("a"), node("a")}, {});
        QVERIFY(!twice.ok());
        QVERIFY2(twice.error().find("node 'a'") != std::string::npos, twice.error().c_str());
        auto negative = Graph::make("x", {node("a"), node("big", -4)}, {});
        QVERIFY(!negative.ok());
        QVERIFY2(negative.error().find("node 'big'") != std::string::npos &&
                     negative.error().find("output_bytes") != std::string::npos,
                 negative.error().c_str());
        QVERIFY(!Graph::make("x", {node("a")}, {{"a", "a"}}).ok());
        QVERIFY(!Graph::make("x", {}, {}).ok());
        GraphNode join = node("j");
        join.in_place = true;
        auto twoInputs = Graph::make("x", {node("a"), node("b"), join}, {{"a", "j"}, {"b", "j"}});
        QVERIFY(!twoInputs.ok());
        QVERIFY2(twoInputs.error().find("node 'j'") != std::string::npos &&
                     twoInputs.error().find("in_place needs exactly one input") != std::string::npos,
                 twoInputs.error().c_str());
        GraphNode source = node("a");
        source.in_place = true;
        QVERIFY(!Graph::make("x", {source}, {}).ok());
    }

    void fileMessagesNameThePlace() {
        QVERIFY(
            problemWith(
                R"({"format":"ckpt-graph","version":1,"nodes":[{"id":"a","forward":1,"output_bytes":8}],"edges":[]})")
                .empty());
        std::string e =
            problemWith(R"({"format":"ckpt-graph","version":1,"nodes":[{"id":"a","forward":1,"output_bytes":8},
                                        {"id":"b","forward":-1,"output_bytes":8}]})");
        QVERIFY2(e.find("g.json") != std::string::npos && e.find("nodes[1].forward") != std::string::npos, e.c_str());
        e = problemWith(
            R"({"format":"ckpt-graph","version":1,"nodes":[{"id":"a","forward":1,"output_bytes":8}],"edges":[["a"]]})");
        QVERIFY2(e.find("edges[0]") != std::string::npos, e.c_str());
        e = problemWith(
            R"({"format":"ckpt-graph","version":1,"nodes":[{"id":"a","forward":1,"output_bytes":8},{"id":"b","forward":1,"output_bytes":8}],
                            "edges":[["a","b"],["b","a"]]})");
        QVERIFY2(e.find("g.json") != std::string::npos && e.find("cycle") != std::string::npos, e.c_str());
        e = problemWith("{\"format\":\"ckpt-graph\",\n\"version\":1,\n\"nodes\": [,]}");
        QVERIFY2(e.find("g.json:3:") != std::string::npos, e.c_str());
    }

    void roundTripAndDefaults() {
        QTemporaryDir dir;
        Graph g = randomLayeredGraph(50, 7);
        const std::string path = dir.filePath("g.json").toStdString();
        QVERIFY(saveGraph(path, g).ok());
        auto back = loadGraph(path);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QVERIFY(back->nodes() == g.nodes());
        QVERIFY(back->edges() == g.edges());
        auto doc = parseJson(
            R"({"format":"ckpt-graph","version":1,"nodes":[{"id":"a","forward":0.5,"output_bytes":"1 KiB"}]})", "d");
        auto d = graphFromJson(*doc, "d");
        QVERIFY(d.ok());
        QCOMPARE(d->node(0).backward, 1.0); // 2x forward
        QCOMPARE(d->node(0).output_bytes, std::int64_t(1024));
        QVERIFY(d->node(0).needs_inputs && !d->node(0).needs_output && !d->node(0).reversible && !d->node(0).in_place);
        // in_place is written only where it is set, and read back.
        GraphNode relu = node("relu");
        relu.in_place = true, relu.needs_inputs = false, relu.needs_output = true;
        Graph small = *Graph::make("s", {node("conv"), relu}, {{"conv", "relu"}});
        const nlohmann::json j = graphToJson(small);
        QVERIFY(!j["nodes"][0].contains("in_place"));
        QCOMPARE(j["nodes"][1]["in_place"], nlohmann::json(true));
        auto again = graphFromJson(j, "s");
        QVERIFY(again.ok() && again->nodes() == small.nodes());
        // What the framework policies read: op, block and flops, written where set and read back.
        GraphNode mm = node("mm");
        mm.op = "MatMul", mm.block = "l0", mm.flops = 2.5e9;
        Graph tagged = *Graph::make("t", {mm, node("relu")}, {{"mm", "relu"}});
        const nlohmann::json jt = graphToJson(tagged);
        QCOMPARE(jt["nodes"][0]["op"], nlohmann::json("MatMul"));
        QCOMPARE(jt["nodes"][0]["flops"], nlohmann::json(2.5e9));
        QVERIFY(!jt["nodes"][1].contains("op") && !jt["nodes"][1].contains("block") &&
                !jt["nodes"][1].contains("flops"));
        auto tagBack = graphFromJson(jt, "t");
        QVERIFY(tagBack.ok() && tagBack->nodes() == tagged.nodes());
        const std::string e = problemWith(R"({"format":"ckpt-graph","version":1,"nodes":[{"id":"a","forward":1,
                                 "output_bytes":8,"in_place":"yes"}]})");
        QVERIFY2(e.find("nodes[0].in_place") != std::string::npos && e.find("true or false") != std::string::npos,
                 e.c_str());
    }

    void generatorIsSeededAndConnected() {
        Graph a = randomLayeredGraph(50, 3), b = randomLayeredGraph(50, 3), c = randomLayeredGraph(50, 4);
        QVERIFY(a.nodes() == b.nodes() && a.edges() == b.edges());
        QVERIFY(!(a.edges() == c.edges()));
        QCOMPARE(a.size(), 50);
        int sources = 0;
        for (int i = 0; i < a.size(); ++i)
            sources += a.inputs(i).empty();
        QVERIFY(sources >= 1 && sources <= 4); // only the first layer has no inputs
    }

    void chainsAreLinearGraphs() {
        Chain c = *Chain::make("c", {Step{1, 2, 10, 30, 0, 0}, Step{3, 6, 20, 40, 5, 0}, Step{2, 4, 30, 50, 0, 0}});
        Graph g = Graph::fromChain(c);
        QCOMPARE(g.size(), 3);
        QVERIFY(g.isChain());
        QCOMPARE(g.node(1).output_bytes, c.stateBytes(2));
        QCOMPARE(g.node(1).workspace_bytes, std::int64_t(45));
        QCOMPARE(g.totalForward(), c.totalForward());
        QVERIFY(linearGraph(7).isChain());
    }
};

QTEST_APPLESS_MAIN(TestGraph)
#include "tst_graph.moc"
