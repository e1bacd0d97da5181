// join-dp (Beaumont, Herrmann, Pallez, Shilova 2020) against exhaustive search over every schedule
// (graph/graph_exhaustive.h) on small join graphs, its plans through the simulator, and the shapes it refuses.
#include "graph/graph_exhaustive.h"
#include "io/graph_io.h"
#include "plan/branch_order.h"
#include "schedulers/graph_fit.h"
#include "schedulers/graph_registry.h"
#include "schedulers/join_dp.h"
#include "sim/graph_simulator.h"

#include <QtTest>
#include <cmath>

using namespace ckpt;
using ckpt::test::exhaustiveGraphOptimum;

namespace {

struct JoinSpec {
    std::vector<int> branchLengths;
    int trunk = 0;
};

// A join graph: branches b<i>_<j>, the join "join", the trunk t<j>. Sizes and times small integers; `uniform` gives
// every node the same costs (the paper's homogeneous setting).
Graph randomJoin(const JoinSpec& spec, unsigned seed, bool uniform) {
    std::uint64_t state = seed * 6364136223846793005ull + 1442695040888963407ull;
    auto next = [&](int lo, int hi) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return lo + int((state >> 33) % std::uint64_t(hi - lo + 1));
    };
    const bool needsOut = next(0, 3) == 0;
    auto make = [&](const std::string& id) {
        if (uniform) return GraphNode{id, 1.0, 1.0, 2, 0, true, needsOut, false};
        return GraphNode{id,
                         double(next(1, 4)),
                         double(next(1, 6)),
                         next(1, 6),
                         next(0, 1) ? next(0, 3) : 0,
                         next(0, 4) != 0,
                         next(0, 3) == 0,
                         false};
    };
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    std::vector<std::string> ends;
    for (std::size_t i = 0; i < spec.branchLengths.size(); ++i) {
        for (int j = 0; j < spec.branchLengths[i]; ++j) {
            nodes.push_back(make("b" + std::to_string(i) + "_" + std::to_string(j)));
            if (j > 0) edges.push_back({nodes[nodes.size() - 2].id, nodes.back().id});
        }
        ends.push_back(nodes.back().id);
    }
    nodes.push_back(make("join"));
    for (const std::string& e : ends)
        edges.push_back({e, "join"});
    for (int j = 0; j < spec.trunk; ++j) {
        nodes.push_back(make("t" + std::to_string(j)));
        edges.push_back({nodes[nodes.size() - 2].id, nodes.back().id});
    }
    return *Graph::make("join-" + std::to_string(seed), std::move(nodes), std::move(edges));
}

JoinSpec randomSpec(unsigned seed, int maxNodes) {
    std::uint64_t state = seed * 2862933555777941757ull + 3037000493ull;
    auto next = [&](int lo, int hi) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return lo + int((state >> 33) % std::uint64_t(hi - lo + 1));
    };
    for (;;) {
        JoinSpec s;
        const int k = next(1, 3);
        int total = 1;
        for (int i = 0; i < k; ++i)
            s.branchLengths.push_back(next(1, 4)), total += s.branchLengths.back();
        s.trunk = next(0, 3);
        total += s.trunk;
        if (total <= maxNodes) return s;
    }
}

Result<GraphPlan> solve(const std::string& name, const Graph& g, std::int64_t budget,
                        std::map<std::string, std::string> params = {}) {
    SolveRequest req;
    req.budget_bytes = budget;
    req.params = std::move(params);
    return solveGraph(name, g, Hardware::unbounded(), req);
}

double simulated(const Graph& g, const GraphPlan& plan, std::int64_t budget) {
    auto tl = simulateGraph(g, plan.actions, SimOptions{budget, false});
    if (!tl || (budget > 0 && tl->totals.peak_bytes[0] > budget)) return -1;
    return tl->totals.makespan_s;
}

} // namespace

class TestJoinDp : public QObject {
    Q_OBJECT
private slots:
    void equalsExhaustiveSearchOnSmallJoins() {
        // 150 random joins (one to three branches of one to four nodes, a trunk of up to three, at most 10 nodes),
        // every third with uniform nodes (the paper's homogeneous setting), at five budgets from store-all's peak
        // down. Every plan validates within its budget at its predicted time and never beats the oracle; where the
        // oracle finds nothing, join-dp says infeasible. On the uniform joins join-dp is the optimum; on the others
        // its class misses what only non-persistent or interleaved plans reach (join_dp.h), rarely, and the guard
        // (checkmate's MILP) reaches the optimum in every one of those cases.
        int feasible = 0, equal = 0, uniformCases = 0, guardedEqual = 0;
        for (unsigned seed = 1; seed <= 150; ++seed) {
            const bool uniform = seed % 3 == 0;
            Graph g = randomJoin(randomSpec(seed, 10), seed, uniform);
            const std::int64_t peakAll = graphPlanPeak(g, graphStoreAll(g));
            for (double frac : {1.0, 0.8, 0.65, 0.5, 0.4}) {
                const std::int64_t budget = std::max<std::int64_t>(1, std::int64_t(std::floor(peakAll * frac)));
                const std::string where = "seed " + std::to_string(seed) + ", budget " + std::to_string(budget);
                auto oracle = exhaustiveGraphOptimum(g, budget);
                auto plan = joinDp(g, budget, 100);
                if (!oracle.feasible) {
                    QVERIFY2(!plan && plan.errorValue().infeasible, where.c_str());
                    continue;
                }
                ++feasible;
                if (uniform) {
                    ++uniformCases;
                    QVERIFY2(plan, (where + ": " + (plan ? "" : plan.error())).c_str());
                }
                if (!plan) {
                    QVERIFY2(plan.errorValue().infeasible, (where + ": " + plan.error()).c_str());
                } else {
                    const double t = simulated(g, *plan, budget);
                    QVERIFY2(t >= 0, (where + ": the plan does not validate within the budget").c_str());
                    QVERIFY2(std::abs(t - plan->predicted_makespan_s) < 1e-9, where.c_str());
                    QVERIFY2(t >= oracle.time - 1e-9, where.c_str());
                    if (uniform)
                        QVERIFY2(
                            std::abs(t - oracle.time) < 1e-9,
                            (where + ": " + std::to_string(t) + " against " + std::to_string(oracle.time)).c_str());
                    if (std::abs(t - oracle.time) < 1e-9) {
                        ++equal;
                        continue;
                    }
                }
                // As the registry runs it (guard=auto on graphs this small: checkmate's MILP too, its plan taken where
                // faster): the optimum.
                auto guarded = solve("join-dp", g, budget);
                QVERIFY2(guarded, where.c_str());
                const double tg = simulated(g, *guarded, budget);
                QVERIFY2(std::abs(tg - oracle.time) < 1e-9,
                         (where + ": " + std::to_string(tg) + " against " + std::to_string(oracle.time) + "; " +
                          guarded->params.at("guard"))
                             .c_str());
                ++guardedEqual;
            }
        }
        qInfo("join-dp's class equals exhaustive search on %d of %d feasible cases (%d uniform, all equal); with the "
              "guard, the %d others too",
              equal, feasible, uniformCases, guardedEqual);
        QVERIFY(uniformCases >= 100);
        QVERIFY2(equal * 100 >= 95 * feasible, "join-dp's class misses the optimum more often than it did (358/370)");
    }

    void guardedItIsNeverSlowerThanCheckmate() {
        // With guard=checkmate, join-dp returns checkmate's plan where the MILP (optimal in its order; these graphs
        // solve to proven optimality) is faster than join-dp's class, so it is never slower than checkmate; on the
        // cases below that happens at least once, and join-dp's own plan stands elsewhere.
        int tookMilp = 0, keptOwn = 0;
        for (unsigned seed : {2u, 16u, 20u, 88u, 3u, 9u}) {
            Graph g = randomJoin(randomSpec(seed, 10), seed, seed % 3 == 0);
            const std::int64_t peakAll = graphPlanPeak(g, graphStoreAll(g));
            for (double frac : {0.65, 0.5}) {
                const std::int64_t budget = std::int64_t(std::floor(peakAll * frac));
                const std::string where = "seed " + std::to_string(seed) + ", budget " + std::to_string(budget);
                auto milp = solve("checkmate", g, budget);
                auto guarded = solve("join-dp", g, budget, {{"guard", "checkmate"}});
                if (!milp) {
                    QVERIFY(milp.errorValue().infeasible);
                    continue;
                }
                QCOMPARE(milp->params.at("optimal"), std::string("yes"));
                QVERIFY2(guarded, (where + ": " + (guarded ? "" : guarded.error())).c_str());
                const double tm = simulated(g, *milp, budget), tg = simulated(g, *guarded, budget);
                QVERIFY2(tm >= 0 && tg >= 0, where.c_str());
                QVERIFY2(tg <= tm + 1e-9, (where + ": " + std::to_string(tg) + " > " + std::to_string(tm)).c_str());
                const std::string said = guarded->params.at("guard");
                if (said.rfind("checkmate's plan", 0) == 0) {
                    ++tookMilp;
                } else {
                    ++keptOwn;
                    QVERIFY2(said.rfind("checkmate is not faster", 0) == 0, said.c_str());
                }
            }
        }
        QVERIFY(tookMilp >= 1);
        QVERIFY(keptOwn >= 1);
    }

    void refusesOtherShapesNamingTheNode() {
        auto node = [](const std::string& id) { return GraphNode{id, 1, 1, 4, 0, true, false, false}; };
        // a feeds two nodes.
        Graph fan = *Graph::make("fan", {node("a"), node("b"), node("c"), node("d")},
                                 {{"a", "b"}, {"a", "c"}, {"b", "d"}, {"c", "d"}});
        auto r = joinDp(fan, 0);
        QVERIFY(!r && !r.errorValue().infeasible);
        QVERIFY2(QString::fromStdString(r.error()).contains("'a' feeds 2 nodes"), r.error().c_str());
        // Two merges.
        Graph two = *Graph::make("two", {node("a"), node("b"), node("c"), node("m1"), node("m2")},
                                 {{"a", "m1"}, {"b", "m1"}, {"m1", "m2"}, {"c", "m2"}});
        r = joinDp(two, 0);
        QVERIFY2(!r && QString::fromStdString(r.error()).contains("'m1' and 'm2' both merge"), r.error().c_str());
        // Two losses.
        Graph apart = *Graph::make("apart", {node("a"), node("b")}, {});
        r = joinDp(apart, 0);
        QVERIFY2(!r && QString::fromStdString(r.error()).contains("both losses"), r.error().c_str());
        // The registry says the same, and the guard does not hide it.
        auto viaRegistry = solve("join-dp", fan, 0, {{"guard", "checkmate"}});
        QVERIFY(!viaRegistry && QString::fromStdString(viaRegistry.error()).contains("feeds 2 nodes"));
    }

    void tooSmallABudgetNamesOneThatFits() {
        Graph g = randomJoin({{3, 2}, 2}, 7, false);
        auto r = joinDp(g, 3);
        QVERIFY(!r && r.errorValue().infeasible);
        const QString msg = QString::fromStdString(r.error());
        QVERIFY2(msg.contains("needs about"), r.error().c_str());
        // The named budget works: bisection to a byte on a budget this small.
        const std::int64_t named = msg.section("needs about ", 1).section(' ', 0, 0).toLongLong();
        QVERIFY2(named > 3, r.error().c_str());
        QVERIFY(joinDp(g, named));
        QVERIFY(!joinDp(g, named - 1));
    }

    void theBranchOrderIsThePlans() {
        // On the cross-modal example (two towers, 37 nodes) at 65 % of store-all's peak: the plan validates at its
        // predicted time, names its branch order, and that order is the one its actions reverse the branches in.
        const QString file = QStringLiteral(CKPT_SOURCE_DIR) + "/examples/cross-modal-b32.ckpt-graph.json";
        auto g = loadGraph(file.toStdString());
        QVERIFY2(g, g ? "" : g.error().c_str());
        const std::int64_t budget = std::int64_t(0.65 * double(graphPlanPeak(*g, graphStoreAll(*g))));
        auto plan = solve("join-dp", *g, budget);
        QVERIFY2(plan, plan ? "" : plan.error().c_str());
        QCOMPARE(plan->params.at("guard"), std::string("auto")); // 37 nodes: auto runs no MILP, says nothing more
        const double t = simulated(*g, *plan, budget);
        QVERIFY(t >= 0);
        QVERIFY(std::abs(t - plan->predicted_makespan_s) < 1e-12);
        auto shape = joinShape(*g);
        QVERIFY(shape);
        QCOMPARE(int(shape->branches.size()), 2);
        QCOMPARE(int(shape->trunk.size()), 3);
        const std::vector<int> rank = branchReversalRank(*g, *shape, plan->actions);
        const QStringList order = QString::fromStdString(plan->params.at("branch_order")).split(',');
        QCOMPARE(order.size(), 2);
        for (std::size_t i = 0; i < 2; ++i)
            QCOMPARE(order[rank[i] - 1].toStdString(), g->node(shape->branches[i].back()).id);
        // Faster than the fast graph schedulers at this budget (measured: 1.002x store-all's time against
        // lower-set-dp's 1.18x and dtr's 1.25x).
        for (const char* other : {"chen-greedy", "lower-set-dp", "dtr"}) {
            auto o = solve(other, *g, budget);
            if (o) QVERIFY2(t <= simulated(*g, *o, budget) + 1e-12, other);
        }
    }

    void cancels() {
        std::atomic<bool> stop{true};
        Graph g = randomJoin({{4, 4, 4}, 3}, 11, false);
        auto r = joinDp(g, 0, 100, &stop);
        QVERIFY2(!r && QString::fromStdString(r.error()).contains("cancelled"), r ? "" : r.error().c_str());
    }
};

QTEST_APPLESS_MAIN(TestJoinDp)
#include "tst_join_dp.moc"
