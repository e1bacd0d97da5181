// The graph oracle checked against the simulator, the plan of a segmentation, Chen's cuts, the reversible scheduler,
// and every graph scheduler of the registry on small random graphs: valid plans, predicted = simulated, within the
// budget, never faster than the exhaustive optimum.
#include "graph_exhaustive.h"
#include "io/graph_io.h"
#include "model/graph_shape.h"
#include "run/runner.h"
#include "schedulers/chen.h"
#include "schedulers/graph_fit.h"
#include "schedulers/graph_registry.h"
#include "sim/graph_simulator.h"

#include <QtTest>
#include <random>

using namespace ckpt;

namespace {

Timeline simulated(const Graph& g, const GraphSchedule& s, std::int64_t budget = 0) {
    SimOptions opt;
    opt.budget_bytes = budget;
    auto tl = simulateGraph(g, s, opt);
    if (!tl) qFatal("schedule rejected on %s: %s", g.name().c_str(), tl.error().c_str());
    return std::move(*tl);
}

double storeAllTime(const Graph& g) {
    return g.totalForward() + g.totalBackward();
}

// A random segmentation: each node's segment is at least its inputs' (so prefixes are lower sets).
std::vector<int> randomSegments(const Graph& g, std::mt19937& rng) {
    std::vector<int> seg(std::size_t(g.size()), 0);
    for (int v : g.topologicalOrder()) {
        int lo = 0;
        for (int u : g.inputs(v))
            lo = std::max(lo, seg[std::size_t(u)]);
        seg[std::size_t(v)] = lo + int(rng() % 2);
    }
    return seg;
}

Graph reversibleChain(int n) {
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    for (int i = 0; i < n; ++i) {
        nodes.push_back(GraphNode{"r" + std::to_string(i), 1.0, 2.0, 100, 0, true, false, i > 0});
        if (i) edges.push_back({nodes[std::size_t(i - 1)].id, nodes.back().id});
    }
    return *Graph::make("rev", std::move(nodes), std::move(edges));
}

} // namespace

class TestGraphSchedulers : public QObject {
    Q_OBJECT
private slots:
    void oracleAgreesWithTheSimulator() {
        for (unsigned seed = 1; seed <= 12; ++seed) {
            Graph g = test::smallRandomGraph(3 + int(seed % 6), seed);
            auto free = test::exhaustiveGraphOptimum(g, 0);
            QVERIFY(free.feasible);
            QCOMPARE(free.time, storeAllTime(g)); // nothing to recompute without a budget
            const std::int64_t full = graphStoreAllPeak(g);
            double last = free.time;
            // Down from store-all's peak: the optimum replays to its own time within the budget, and never gets faster.
            for (std::int64_t budget = full; budget > 0; budget = budget * 3 / 4) {
                auto opt = test::exhaustiveGraphOptimum(g, budget);
                if (!opt.feasible) break;
                Timeline tl = simulated(g, opt.schedule, budget);
                QCOMPARE(tl.totals.makespan_s, opt.time);
                QVERIFY(tl.totals.peak_bytes[0] <= budget);
                QVERIFY(opt.time >= last);
                last = opt.time;
            }
        }
    }

    void segmentPlansValidateAndPredictTheirTime() {
        std::mt19937 rng(7);
        for (unsigned seed = 1; seed <= 40; ++seed) {
            Graph g = test::smallRandomGraph(2 + int(seed % 7), seed);
            std::vector<int> seg = randomSegments(g, rng);
            SegmentPlan p = segmentPlan(g, seg);
            Timeline tl = simulated(g, p.actions);
            QCOMPARE(tl.totals.makespan_s, p.makespan_s);
            // Every node forward once, plus at most once more in its segment's rebuild.
            std::vector<int> runs(std::size_t(g.size()), 0);
            for (const GraphAction& a : p.actions)
                if (a.kind == GraphActionKind::Forward) ++runs[std::size_t(a.node)];
            for (int r : runs)
                QVERIFY(r == 1 || r == 2);
            auto opt = test::exhaustiveGraphOptimum(g, tl.totals.peak_bytes[0]);
            QVERIFY(opt.feasible);
            QVERIFY(opt.time <= p.makespan_s);
            // One segment is store-all's time.
            SegmentPlan one = segmentPlan(g, std::vector<int>(std::size_t(g.size()), 0));
            QCOMPARE(one.makespan_s, storeAllTime(g));
        }
    }

    void separatorsAreTheArticulationPoints() {
        // a -> b -> c -> d with a skip a -> c: b is jumped over; a and c are separators (d ends the graph).
        Graph g = *Graph::make(
            "skip",
            {GraphNode{"a", 1, 2, 10, 0, true, false, false}, GraphNode{"b", 1, 2, 10, 0, true, false, false},
             GraphNode{"c", 1, 2, 10, 0, true, false, false}, GraphNode{"d", 1, 2, 10, 0, true, false, false}},
            {{"a", "b"}, {"b", "c"}, {"a", "c"}, {"c", "d"}});
        QCOMPARE(graphSeparators(g), (std::vector<int>{0, 2}));
        Graph chain = linearGraph(6);
        QCOMPARE(int(graphSeparators(chain).size()), 5);
    }

    void chenOnAChainIsPeriodicRecomputation() {
        // On a uniform chain of 16, chen-sqrt makes 4 segments of 4: every node of the first three segments but its
        // checkpoint (the last) is rebuilt once: 3 * 3 recomputations.
        Graph g = linearGraph(16);
        auto plan = solveGraph("chen-sqrt", g, Hardware::unbounded(), {});
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
        Timeline tl = simulated(g, plan->actions);
        QCOMPARE(tl.totals.recomputed_steps, 9LL);
        QCOMPARE(tl.totals.makespan_s, plan->predicted_makespan_s);
        QVERIFY(tl.totals.peak_bytes[0] < graphStoreAllPeak(g));
    }

    void reversibleKeepsConstantMemory() {
        std::int64_t peak = -1;
        for (int n : {6, 12, 24}) {
            Graph g = reversibleChain(n);
            auto plan = solveGraph("reversible", g, Hardware::unbounded(), {});
            QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
            Timeline tl = simulated(g, plan->actions);
            // r1..r(n-2) dropped (r(n-1) feeds the sink, whose output goes at once): each rebuilt by one inversion.
            QCOMPARE(tl.totals.recomputed_steps, (long long)(n - 2));
            QCOMPARE(tl.totals.makespan_s, storeAllTime(g) + (n - 2) * 1.0);
            QCOMPARE(tl.totals.makespan_s, plan->predicted_makespan_s);
            if (peak >= 0) QCOMPARE(tl.totals.peak_bytes[0], peak); // independent of n
            peak = tl.totals.peak_bytes[0];
            QVERIFY(peak < graphStoreAllPeak(g));
        }
    }

    void everySchedulerOnSmallGraphs() {
        for (const GraphSchedulerInfo& s : graphSchedulers()) {
            if (s.min_levels > 1) { // offloads: on one level it is "n/a", saying why (tst_policies runs it on two)
                QVERIFY(!machineLacks(s, Hardware::unbounded()).empty());
                continue;
            }
            // The frameworks' per-block checkpointing recomputes whatever the budget, as the frameworks do.
            const bool alwaysRecomputes = s.name == "full-ac" || s.name == "jax-policy";
            int feasibleRuns = 0;
            for (unsigned seed = 1; seed <= 8; ++seed) {
                Graph g = test::smallRandomGraph(4 + int(seed % 4), seed * 31);
                const std::int64_t full = graphStoreAllPeak(g);
                for (double fraction : {1.0, 0.8, 0.6, 0.45}) {
                    SolveRequest req;
                    req.budget_bytes = std::max<std::int64_t>(1, std::int64_t(double(full) * fraction));
                    auto plan = solveGraph(s.name, g, Hardware::unbounded(), req);
                    if (s.lacks && !s.lacks(g).empty()) { // not a graph it plans (join-dp): refused, saying why
                        QVERIFY2(!plan && !plan.errorValue().infeasible, s.name.c_str());
                        QCOMPARE(plan.error(), s.lacks(g));
                        continue;
                    }
                    if (!plan) {
                        QVERIFY2(plan.errorValue().infeasible, (s.name + ": " + plan.error()).c_str());
                        continue;
                    }
                    Timeline tl = simulated(g, plan->actions, req.budget_bytes);
                    QVERIFY2(std::abs(tl.totals.makespan_s - plan->predicted_makespan_s) <= 1e-9 * tl.totals.makespan_s,
                             s.name.c_str());
                    QVERIFY(tl.totals.peak_bytes[0] <= req.budget_bytes);
                    auto opt = test::exhaustiveGraphOptimum(g, req.budget_bytes);
                    QVERIFY(opt.feasible);
                    QVERIFY2(opt.time <= tl.totals.makespan_s + 1e-9, s.name.c_str());
                    if (fraction == 1.0 && s.name != "reversible" && s.name != "chen-sqrt" && !alwaysRecomputes)
                        QVERIFY2(tl.totals.makespan_s == storeAllTime(g),
                                 s.name.c_str()); // enough memory: nothing recomputed
                    ++feasibleRuns;
                }
            }
            QVERIFY2(feasibleRuns > 0 || s.name == "join-dp" || s.name == "selective-ac",
                     s.name.c_str()); // no joins (tst_join_dp), no attention (tst_policies)
        }
    }

    void infeasibleBudgetsNameOneThatWorks() {
        Graph g = randomLayeredGraph(30, 3);
        for (const char* name : {"store-all", "chen-sqrt", "chen-greedy"}) {
            SolveRequest req;
            req.budget_bytes = 1024;
            auto plan = solveGraph(name, g, Hardware::unbounded(), req);
            QVERIFY(!plan.ok());
            QVERIFY(plan.errorValue().infeasible);
            // "... needs at least 12 MiB (12582912 B) ...": that budget works.
            const std::string& m = plan.error();
            auto open = m.find('('), space = m.find(" B)");
            QVERIFY2(open != std::string::npos && space != std::string::npos, m.c_str());
            req.budget_bytes = std::stoll(m.substr(open + 1, space - open - 1));
            auto retry = solveGraph(name, g, Hardware::unbounded(), req);
            QVERIFY2(retry.ok(), retry.ok() ? "" : retry.error().c_str());
        }
    }

    // chen-greedy on a generated 1e4-node graph (its grid once simulated each plan; now the fastest are simulated
    // first): a plan within the budget that the simulator accepts, no faster than store-all, and the fastest
    // segmentation that fits among the candidates chen-sqrt also considers (the separators it cuts at).
    void chenGreedyOnALargeGraph() {
        Graph g = randomLayeredGraph(10000, 1);
        const std::int64_t budget = graphStoreAllPeak(g) / 2;
        SolveRequest req;
        req.budget_bytes = budget;
        auto p = solveGraph("chen-greedy", g, Hardware::unbounded(), req);
        QVERIFY2(p, p ? "" : p.error().c_str());
        Timeline tl = simulated(g, p->actions, budget);
        QVERIFY(tl.totals.peak_bytes[0] <= budget);
        QCOMPARE(tl.totals.makespan_s, p->predicted_makespan_s);
        QVERIFY(tl.totals.makespan_s >= storeAllTime(g));
        const SegmentPlan every = segmentPlan(g, segmentsAt(g, graphSeparators(g)));
        if (simulated(g, every.actions).totals.peak_bytes[0] <= budget)
            QVERIFY(p->predicted_makespan_s <= every.makespan_s);
    }
};

QTEST_APPLESS_MAIN(TestGraphSchedulers)
#include "tst_graph_schedulers.moc"
