// One Problem for chains and graphs: the scheduler lookup rule, the budget range, plan exports of both kinds, and
// node fates, checked on small cases where the answer is known by hand or by every registry scheduler.
#include "graph/graph_exhaustive.h"
#include "io/graph_plan_io.h"
#include "io/json_io.h"
#include "run/budget.h"
#include "run/node_fates.h"
#include "run/plan_files.h"
#include "run/runner.h"
#include "run/scheduler_lookup.h"
#include "schedulers/fit.h"
#include "test_util.h"
#include "util/files.h"

#include <QTemporaryDir>
#include <QtTest>
#include <set>

using namespace ckpt;

namespace {

Hardware twoLevels() {
    return *Hardware::make("two", {MemoryLevel{"fast"}, MemoryLevel{"slow", 1LL << 40, 1e9, 1e9, 0}});
}

// a -> b -> c -> d, listed out of order (c, a, d, b) so that node indices and chain steps differ.
Graph shuffledChainGraph() {
    auto node = [](const char* id, std::int64_t out) { return GraphNode{id, 1, 2, out, 0, true, false, false}; };
    return *Graph::make("shuffled", {node("c", 30), node("a", 10), node("d", 40), node("b", 20)},
                        {{"a", "b"}, {"b", "c"}, {"c", "d"}});
}

// v0 -> v1 -> v2 -> v3 with unit costs; `inputs2`: whether v2's backward needs its input (v1's output).
Graph linearGraph(bool inputs2 = true) {
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    for (int v = 0; v < 4; ++v) {
        nodes.push_back(GraphNode{"v" + std::to_string(v), 1, 2, 100, 0, v != 2 || inputs2, false, false});
        if (v) edges.push_back({"v" + std::to_string(v - 1), "v" + std::to_string(v)});
    }
    return *Graph::make("linear", nodes, edges);
}

// Actions that take time (a free takes none and has no interval, so no CSV row and no trace event).
std::size_t timedActions(const Run& run) {
    std::size_t n = 0;
    if (const Plan* p = run.chainPlan())
        for (const Action& a : p->actions)
            n += a.kind != ActionKind::Free;
    if (const GraphPlan* p = run.graphPlan())
        for (const GraphAction& a : p->actions)
            n += a.kind != GraphActionKind::Free;
    return n;
}

} // namespace

class TestProblem : public QObject {
    Q_OBJECT
private slots:
    void lookupRule() {
        const Problem chain(test::randomChain(6, 1));
        QVERIFY(findSchedulerFor("revolve", chain)->chain);
        QVERIFY(findSchedulerFor("store-all", chain)->chain);
        QVERIFY(!findSchedulerFor("dtr", chain));
        // A graph scheduler on a chain says so (a lesson's scene said "unknown scheduler").
        QVERIFY2(findSchedulerFor("dtr", chain).error().find("'dtr' is a graph scheduler and") != std::string::npos,
                 findSchedulerFor("dtr", chain).error().c_str());
        QVERIFY(findSchedulerFor("nope", chain).error().find("unknown scheduler 'nope'") != std::string::npos);
        QCOMPARE(schedulerNames(chain).size(), schedulers().size());

        const Problem graph(test::smallRandomGraph(7, 3, 0.6));
        QVERIFY(!graph.chain());
        QVERIFY(findSchedulerFor("dtr", graph)->graph);
        QVERIFY(findSchedulerFor("store-all", graph)->graph);
        QVERIFY(!findSchedulerFor("nonsense", graph));
        if (!graph.schedulingChain()) { // no articulation point: no chain of segments either
            auto revolve = findSchedulerFor("revolve", graph);
            QVERIFY(!revolve && revolve.error().find("not a chain") != std::string::npos);
            QCOMPARE(schedulerNames(graph).size(), graphSchedulers().size());
        }
        // A graph split by articulation points: every chain scheduler runs on its segments by name, and the lists
        // add rotor alone to the graph schedulers.
        auto node = [](const char* id) { return GraphNode{id, 1, 2, 100, 0, true, false, false}; };
        const Problem residual(*Graph::make("residual", {node("a"), node("b"), node("c"), node("d"), node("e")},
                                            {{"a", "b"}, {"b", "c"}, {"a", "c"}, {"c", "d"}, {"d", "e"}}));
        QVERIFY(!residual.chain());
        QVERIFY(residual.chainIsSegments() && residual.schedulingChain());
        QCOMPARE(residual.schedulingChain()->length(), 4); // a, b-c, d, e
        QVERIFY(findSchedulerFor("revolve", residual)->chain);
        QVERIFY(findSchedulerFor("dtr", residual)->graph);
        QCOMPARE(schedulerNames(residual).size(), graphSchedulers().size() + 1);
        QCOMPARE(schedulerNames(residual).back(), std::string("rotor"));
        const Run onSegments = runScheduler("rotor", residual, Hardware::unbounded(), {});
        QVERIFY2(onSegments.feasible, onSegments.message.c_str());
        // The chain plan's steps name the segments' last nodes: a, c, d and e.
        QCOMPARE(nodeOfIndex(*residual.graph(), onSegments, 2), residual.graph()->indexOf("c"));
        QCOMPARE(nodeOfIndex(*residual.graph(), onSegments, 4), residual.graph()->indexOf("e"));
        QCOMPARE(indexOfNode(*residual.graph(), onSegments, residual.graph()->indexOf("b")), -1);

        // A graph that is a chain: a graph scheduler first (store-all is in both lists), else a chain scheduler.
        const Problem chainGraph(shuffledChainGraph());
        QVERIFY(chainGraph.chain() && chainGraph.isGraph());
        QVERIFY(findSchedulerFor("store-all", chainGraph)->graph);
        QVERIFY(findSchedulerFor("revolve", chainGraph)->chain);
        const auto names = schedulerNames(chainGraph);
        QCOMPARE(std::set<std::string>(names.begin(), names.end()).size(), names.size()); // no name twice
        for (const auto& name : names)
            QVERIFY(findSchedulerFor(name, chainGraph));
        Run run = runScheduler("revolve", chainGraph, twoLevels(), {});
        QVERIFY2(run.feasible, run.message.c_str());
        QVERIFY(run.chainPlan() && !run.graphPlan());
        Run onGraph = runScheduler("revolve", graph, twoLevels(), {});
        // On a graph that no articulation point splits, a chain scheduler is bad input; on one that splits, it runs.
        QVERIFY(graph.schedulingChain() ? onGraph.feasible : !onGraph.feasible && onGraph.bad_input);
    }

    // Chains: no registry scheduler peaks below the floor at any budget (rotor does go below leanestPeak on seed 2),
    // a plan exists at leanestPeak (Revolve with one slot), and the ceiling is store-all's peak.
    void chainBudgetRange() {
        const Hardware hw = twoLevels();
        for (unsigned seed = 1; seed <= 3; ++seed) {
            const Problem p(test::randomChain(5 + int(seed), seed));
            const BudgetRange r = budgetRange(p, hw);
            QVERIFY(0 < r.floor && r.floor <= r.ceiling);
            // A plan exists at leanestPeak (Revolve with one slot), at or above the floor.
            const std::int64_t lean = leanestPeak(*p.chain());
            QVERIFY(r.floor <= lean);
            Run revolve1 = runScheduler("revolve", p, hw, {{{"slots", "1"}}, lean});
            QVERIFY2(revolve1.feasible, revolve1.message.c_str());
            QCOMPARE(revolve1.timeline->totals.peak_bytes[0], lean);
            if (seed == 2) { // found by this test: a plan below leanestPeak, so leanestPeak cannot be the floor
                Run rotor = runScheduler("rotor", p, hw, {{}, lean});
                QVERIFY(rotor.feasible && rotor.timeline->totals.peak_bytes[0] < lean);
            }
            Run all = runScheduler("store-all", p, hw, {});
            QCOMPARE(all.timeline->totals.peak_bytes[0], r.ceiling);
            for (const auto& name : schedulerNames(p))
                for (std::int64_t budget :
                     {std::int64_t(0), r.floor, (r.floor + lean) / 2, lean, (lean + r.ceiling) / 2}) {
                    Run run = runScheduler(name, p, hw, {{}, budget});
                    if (!run.feasible) continue;
                    QVERIFY2(run.timeline->totals.peak_bytes[0] >= r.floor,
                             qPrintable(QString::fromStdString(name) + " peaks below the floor: " +
                                        QString::number(run.timeline->totals.peak_bytes[0]) + " < " +
                                        QString::number(r.floor) + " seed " + QString::number(seed) + " budget " +
                                        QString::number(budget)));
                }
        }
    }

    // Graphs (and a graph that is a chain, with the chain schedulers too): no plan peaks below the floor.
    void graphBudgetRange() {
        const Hardware hw = twoLevels();
        std::vector<Graph> graphs = {test::smallRandomGraph(6, 1), test::smallRandomGraph(7, 2, 0.5),
                                     shuffledChainGraph(), Graph::fromChain(test::randomChain(6, 4))};
        for (const Graph& g : graphs) {
            const Problem p(g);
            const BudgetRange r = budgetRange(p, hw);
            QVERIFY(0 < r.floor && r.floor <= r.ceiling);
            QCOMPARE(r.ceiling, graphStoreAllPeak(g));
            int feasible = 0;
            for (const auto& name : schedulerNames(p))
                for (std::int64_t budget : {std::int64_t(0), r.floor, (r.floor + r.ceiling) / 2}) {
                    if (name == "checkmate" && budget != 0) continue; // a MILP: the other schedulers suffice here
                    Run run = runScheduler(name, p, hw, {{}, budget});
                    if (!run.feasible) continue;
                    ++feasible;
                    QVERIFY2(run.timeline->totals.peak_bytes[0] >= r.floor,
                             qPrintable(QString::fromStdString(name + " on " + g.name()) + " peaks below the floor"));
                }
            QVERIFY(feasible > 0);
        }
    }

    void planFormats() {
        QCOMPARE(*planFormatOf("", "p.csv"), PlanFormat::Csv);
        QCOMPARE(*planFormatOf("", "p.trace.json"), PlanFormat::Trace);
        QCOMPARE(*planFormatOf("", "p.json"), PlanFormat::Json);
        QCOMPARE(*planFormatOf("csv", "p.json"), PlanFormat::Csv);
        QVERIFY(!planFormatOf("yaml"));
        Run none;
        QVERIFY(!planText(none, Problem(test::randomChain(3, 1)), PlanFormat::Json));
    }

    // Both kinds export to json (reads back to the same plan), CSV (one row per timed action) and Chrome trace (one
    // thread id per lane, each event on its interval's lane).
    void exportsOfBothKinds() {
        const Hardware hw = twoLevels();
        const Problem chain(test::randomChain(9, 5));
        const Problem graph(test::smallRandomGraph(14, 6, 0.2));
        const Problem chainGraph(shuffledChainGraph());
        struct Case {
            const Problem* problem;
            std::string scheduler;
            int budgetFifths = 4; // of store-all's peak; 0: none
        };
        QTemporaryDir dir;
        for (const Case& c : {Case{&chain, "revolve"}, Case{&chain, "multistage"}, Case{&graph, "lower-set-dp", 0},
                              Case{&graph, "dtr"}, Case{&chainGraph, "revolve", 0}}) {
            const Problem& p = *c.problem;
            const BudgetRange r = budgetRange(p, hw);
            Run run = runScheduler(c.scheduler, p, hw, {{}, r.ceiling * c.budgetFifths / 5});
            QVERIFY2(run.feasible, run.message.c_str());
            const QString what = QString::fromStdString(c.scheduler + " on " + p.name());

            auto json = planText(run, p, PlanFormat::Json);
            QVERIFY2(json, json ? "" : json.error().c_str());
            auto doc = nlohmann::json::parse(*json);
            if (const Plan* plan = run.chainPlan()) {
                QCOMPARE(doc["format"].get<std::string>(), std::string("ckpt-plan"));
                auto back = planFromJson(doc, "exported");
                QVERIFY2(back, back ? "" : back.error().c_str());
                QVERIFY(back->actions == plan->actions);
                QCOMPARE(back->scheduler, plan->scheduler);
                QCOMPARE(back->params, plan->params);
                QCOMPARE(back->budget_bytes, plan->budget_bytes);
            } else {
                QCOMPARE(doc["format"].get<std::string>(), std::string("ckpt-graph-plan"));
                auto back = graphPlanFromJson(doc, *p.graph(), "exported");
                QVERIFY2(back, back ? "" : back.error().c_str());
                QVERIFY(back->actions == run.graphPlan()->actions);
                QCOMPARE(back->params, run.graphPlan()->params);
            }

            auto csv = planText(run, p, PlanFormat::Csv);
            QVERIFY(csv);
            const auto rows = std::size_t(std::count(csv->begin(), csv->end(), '\n')) - 1;
            QVERIFY2(rows == timedActions(run), qPrintable(what));
            QCOMPARE(rows, run.timeline->intervals.size());
            const std::string firstRow = csv->substr(csv->find('\n') + 1, 16);
            QVERIFY2(firstRow.rfind(run.graphPlan() ? "0,F:" : "0,F", 0) == 0, qPrintable(what));

            auto trace = planText(run, p, PlanFormat::Trace);
            QVERIFY(trace);
            auto events = nlohmann::json::parse(*trace)["traceEvents"];
            std::set<int> threads;
            std::size_t k = 0;
            for (const auto& e : events) {
                if (e["name"] == "thread_name") {
                    QVERIFY(threads.insert(e["tid"].get<int>()).second); // one name per thread id
                } else if (e["ph"] == "X") {
                    QVERIFY(k < run.timeline->intervals.size());
                    QCOMPARE(e["tid"].get<int>(), int(run.timeline->intervals[k++].lane));
                }
            }
            QCOMPARE(k, run.timeline->intervals.size());
            QCOMPARE(threads.size(), run.timeline->lanes.size());
            QCOMPARE(*threads.rbegin(), int(run.timeline->lanes.size()) - 1);

            // The file is the text.
            const std::string path = dir.filePath("plan").toStdString();
            QVERIFY(writePlanFile(path, run, p, PlanFormat::Csv));
            QCOMPARE(*readTextFile(path), *csv);
        }
    }

    // Fates worked by hand on v0 -> v1 -> v2 -> v3.
    void nodeFatesByHand() {
        using A = GraphAction;
        const Graph g = linearGraph();
        GraphPlan rebuilt; // v1 freed after v3 ran, rebuilt for v2's backward (which needs its input)
        rebuilt.actions = {A::forward(0),  A::forward(1), A::forward(2),  A::forward(3),  A::free(1),
                           A::backward(3), A::forward(1), A::backward(2), A::backward(1), A::backward(0)};
        Run r = runPlan(rebuilt, g, Hardware::unbounded());
        QVERIFY2(r.feasible, r.message.c_str());
        QVERIFY(nodeFates(g, r) ==
                std::vector<NodeFate>({NodeFate::Kept, NodeFate::Recomputed, NodeFate::Kept, NodeFate::Kept}));

        const Graph g2 = linearGraph(false); // v2's backward needs nothing of v1: v1 can go for good
        GraphPlan freed;
        freed.actions = {A::forward(0),  A::forward(1),  A::forward(2),  A::free(1),    A::forward(3),
                         A::backward(3), A::backward(2), A::backward(1), A::backward(0)};
        Run f = runPlan(freed, g2, Hardware::unbounded());
        QVERIFY2(f.feasible, f.message.c_str());
        QVERIFY(nodeFates(g2, f) ==
                std::vector<NodeFate>({NodeFate::Kept, NodeFate::Freed, NodeFate::Kept, NodeFate::Kept}));

        GraphPlan off; // v0 to the slow level and back for v1's backward
        off.actions = {A::forward(0),  A::write(0, 1), A::forward(1), A::free(0),     A::forward(2), A::forward(3),
                       A::backward(3), A::backward(2), A::read(0, 1), A::backward(1), A::backward(0)};
        Run o = runPlan(off, g, twoLevels());
        QVERIFY2(o.feasible, o.message.c_str());
        QVERIFY(nodeFates(g, o) ==
                std::vector<NodeFate>({NodeFate::Offloaded, NodeFate::Kept, NodeFate::Kept, NodeFate::Kept}));

        Run none;
        QVERIFY(nodeFates(g, none) == std::vector<NodeFate>(4, NodeFate::Neutral));
    }

    // Each node at a moment of the plan, worked by hand on v0 -> v1 -> v2 -> v3 with v0 offloaded and read back.
    void nodesAtTheCursorByHand() {
        using A = GraphAction;
        using N = NodeAt;
        const Graph g = linearGraph();
        GraphPlan off;
        off.actions = {A::forward(0),  A::write(0, 1), A::forward(1), A::free(0),     A::forward(2), A::forward(3),
                       A::backward(3), A::backward(2), A::read(0, 1), A::backward(1), A::backward(0)};
        Run o = runPlan(off, g, twoLevels());
        QVERIFY2(o.feasible, o.message.c_str());
        QVERIFY(nodesAt(g, o, 0) == std::vector<N>({N::Held, N::NotYet, N::NotYet, N::NotYet}));
        QVERIFY(nodesAt(g, o, 1) == std::vector<N>({N::Held, N::NotYet, N::NotYet, N::NotYet})); // copied, still held
        QVERIFY(nodesAt(g, o, 3) == std::vector<N>({N::Offloaded, N::Held, N::NotYet, N::NotYet}));
        QVERIFY(nodesAt(g, o, 6) == std::vector<N>({N::Offloaded, N::Held, N::Held, N::Done}));
        QVERIFY(nodesAt(g, o, 8) == std::vector<N>({N::Held, N::Held, N::Done, N::Done})); // read back
        QVERIFY(nodesAt(g, o, 10) == std::vector<N>(4, N::Done));
        QVERIFY(nodesAt(g, o, 11).empty() && nodesAt(g, o, -1).empty());
        GraphPlan freed; // v1 freed for good: held nowhere, computed
        const Graph g2 = linearGraph(false);
        freed.actions = {A::forward(0),  A::forward(1),  A::forward(2),  A::free(1),    A::forward(3),
                         A::backward(3), A::backward(2), A::backward(1), A::backward(0)};
        Run f = runPlan(freed, g2, Hardware::unbounded());
        QVERIFY2(f.feasible, f.message.c_str());
        QVERIFY(nodesAt(g2, f, 3) == std::vector<N>({N::Held, N::Freed, N::Held, N::NotYet}));
        QVERIFY(nodesAt(g2, Run{}, 0).empty());
    }

    // A chain plan on a graph that is a chain names steps: step i is the i-th node in topological order.
    void nodeFatesOfAChainRun() {
        const Graph g = shuffledChainGraph(); // c, a, d, b; order a, b, c, d
        Run r = runScheduler("revolve", g, Hardware::unbounded(), {{{"slots", "1"}}, 0});
        QVERIFY2(r.feasible && r.chainPlan(), r.message.c_str());
        QCOMPARE(nodeOfIndex(g, r, 1), 1);  // a
        QCOMPARE(nodeOfIndex(g, r, 4), 2);  // d
        QCOMPARE(nodeOfIndex(g, r, 0), -1); // x_0, the input
        for (int v = 0; v < g.size(); ++v)
            QCOMPARE(nodeOfIndex(g, r, indexOfNode(g, r, v)), v);
        // Revolve with one slot: steps 1..3 are rebuilt from x_0 for each backward; step 4 runs once, taped.
        QVERIFY(nodeFates(g, r) == std::vector<NodeFate>({NodeFate::Recomputed, NodeFate::Recomputed, NodeFate::Kept,
                                                          NodeFate::Recomputed}));
    }
};

QTEST_GUILESS_MAIN(TestProblem)
#include "tst_problem.moc"
