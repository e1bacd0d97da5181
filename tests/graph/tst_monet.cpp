// monet (MONeT, Shah et al. 2021) against its oracle: every assignment of implementations to the nodes of small
// graphs, each searched exhaustively over checkmate's schedule space (graph/checkmate_space.h); the best of them is
// monet's optimum. Also: never slower than checkmate on every node's fastest implementation, plans judged on the
// graph their choice makes, the choice through the plan file, and the graph file's implementations.
#include "graph/checkmate_space.h"
#include "graph/graph_exhaustive.h"
#include "io/graph_io.h"
#include "io/graph_plan_io.h"
#include "io/json_io.h"
#include "run/budget.h"
#include "run/runner.h"
#include "schedulers/graph_registry.h"
#include "sim/graph_simulator.h"

#include <QtTest>
#include <cmath>
#include <functional>

using namespace ckpt;
using ckpt::test::smallRandomGraph;
using ckpt::test::SpaceOracle;

namespace {

// A small random graph whose nodes get zero to two other implementations: faster with more workspace (as Winograd or
// FFT convolutions against implicit GEMM), or slower with less.
Graph withAlternatives(const Graph& base, unsigned seed) {
    std::uint64_t state = seed * 2862933555777941757ull + 3037000493ull;
    auto next = [&](int lo, int hi) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return lo + int((state >> 33) % std::uint64_t(hi - lo + 1));
    };
    std::vector<GraphNode> nodes = base.nodes();
    for (GraphNode& n : nodes) {
        const int k = next(0, 2);
        for (int c = 0; c < k; ++c) {
            NodeImplementation alt;
            alt.name = "alg" + std::to_string(c + 1);
            const bool faster = next(0, 2) != 0;
            alt.forward = faster ? std::max(0.5, n.forward - next(1, 3)) : n.forward + next(1, 2);
            alt.backward = faster ? std::max(0.5, n.backward - next(0, 3)) : n.backward + next(0, 2);
            alt.workspace_bytes =
                faster ? n.workspace_bytes + next(2, 8) : std::max<std::int64_t>(0, n.workspace_bytes - 2);
            n.alternatives.push_back(alt);
        }
    }
    return *Graph::make(base.name() + "-alt", nodes, base.edges());
}

// Calls visit on every assignment of implementations.
void everyChoice(const Graph& g, const std::function<void(const std::vector<int>&)>& visit) {
    std::vector<int> c(std::size_t(g.size()), 0);
    std::function<void(int)> rec = [&](int v) {
        if (v == g.size()) return visit(c);
        for (int k = 0; k < g.implementationCount(v); ++k) {
            c[std::size_t(v)] = k;
            rec(v + 1);
        }
    };
    rec(0);
}

bool changedSome(const GraphPlan& p) {
    for (int c : p.implementation)
        if (c != 0) return true;
    return false;
}

Result<GraphPlan> solve(const std::string& name, const Graph& g, std::int64_t budget) {
    SolveRequest req;
    req.budget_bytes = budget;
    return solveGraph(name, g, Hardware::unbounded(), req);
}

} // namespace

class TestMonet : public QObject {
    Q_OBJECT
private slots:
    void equalsTheBestImplementationsInTheSpace() {
        int compared = 0, infeasibleCompared = 0, mixed = 0, beatsFastest = 0, outOfOrder = 0;
        for (unsigned seed = 1; seed <= 14; ++seed) {
            const Graph g = withAlternatives(smallRandomGraph(4 + int(seed % 3), seed), seed);
            long long assignments = 1;
            for (int v = 0; v < g.size(); ++v)
                assignments *= g.implementationCount(v);
            if (assignments < 2 || assignments > 200) continue;
            const std::int64_t peak = graphStoreAllPeak(g);
            for (double f : {1.3, 1.0, 0.8, 0.65, 0.5, 0.35}) {
                const std::int64_t budget = std::max<std::int64_t>(1, std::int64_t(double(peak) * f));
                const std::string where = g.name() + " at " + std::to_string(budget) + " B";
                double best = -1;
                std::vector<int> bestChoice;
                everyChoice(g, [&](const std::vector<int>& c) {
                    const Graph applied = *g.withImplementations(c);
                    const double t = SpaceOracle(applied).optimum(budget);
                    if (t >= 0 && (best < 0 || t < best - 1e-12)) best = t, bestChoice = c;
                });
                auto plan = solve("monet", g, budget);
                if (best < 0) {
                    QVERIFY2(!plan && plan.errorValue().infeasible, (where + ": monet found a plan").c_str());
                    ++infeasibleCompared;
                    continue;
                }
                QVERIFY2(plan, (where + ": " + (plan ? "" : plan.error())).c_str());
                QCOMPARE(int(plan->implementation.size()), g.size());
                auto tl = simulateGraphPlan(g, Hardware::unbounded(), *plan, SimOptions{budget, false});
                QVERIFY2(tl, (where + ": " + (tl ? "" : tl.error())).c_str());
                QVERIFY(tl->totals.peak_bytes[0] <= budget);
                QVERIFY2(std::abs(tl->totals.makespan_s - plan->predicted_makespan_s) < 1e-9,
                         (where + ": predicted " + std::to_string(plan->predicted_makespan_s) + ", simulated " +
                          std::to_string(tl->totals.makespan_s))
                             .c_str());
                // The MILP's plan is the best assignment's optimum; checkmate's on the fastest implementations may
                // only beat it by leaving the order (a fast scheduler's plan, which checkmate returns as it is).
                const bool fromMilp = plan->params.at("optimal").rfind("yes", 0) == 0;
                QVERIFY2(fromMilp ? std::abs(plan->predicted_makespan_s - best) < 1e-9
                                  : plan->predicted_makespan_s < best - 1e-9,
                         (where + ": monet " + std::to_string(plan->predicted_makespan_s) + " (" +
                          plan->params.at("optimal") + "), best assignment " + std::to_string(best))
                             .c_str());
                outOfOrder += !fromMilp;
                // The space's optimum is never below the optimum over every schedule of the chosen graph.
                const Graph chosen = *g.withImplementations(plan->implementation);
                auto global = test::exhaustiveGraphOptimum(chosen, budget);
                QVERIFY2(global.feasible && global.time <= plan->predicted_makespan_s + 1e-9, where.c_str());
                // Never slower than checkmate on every node's fastest implementation.
                std::vector<int> fastest(std::size_t(g.size()), 0);
                for (int v = 0; v < g.size(); ++v)
                    for (int c = 1; c < g.implementationCount(v); ++c) {
                        const auto& a = g.node(v).alternatives[std::size_t(c - 1)];
                        const int k = fastest[std::size_t(v)];
                        const double now = k == 0 ? g.node(v).forward + g.node(v).backward
                                                  : g.node(v).alternatives[std::size_t(k - 1)].forward +
                                                        g.node(v).alternatives[std::size_t(k - 1)].backward;
                        if (a.forward + a.backward < now) fastest[std::size_t(v)] = c;
                    }
                auto other = solve("checkmate", *g.withImplementations(fastest), budget);
                if (other) {
                    QVERIFY2(plan->predicted_makespan_s <= other->predicted_makespan_s + 1e-9, where.c_str());
                    beatsFastest += plan->predicted_makespan_s < other->predicted_makespan_s - 1e-9;
                } else {
                    ++beatsFastest; // the fastest implementations do not fit at all
                }
                mixed += plan->implementation != fastest;
                ++compared;
            }
        }
        QVERIFY2(compared >= 30, qPrintable(QString::number(compared)));
        QVERIFY(infeasibleCompared >= 3);
        QVERIFY2(mixed >= 5, qPrintable(QString::number(mixed)));               // the choice depends on the budget
        QVERIFY2(beatsFastest >= 3, qPrintable(QString::number(beatsFastest))); // and it pays
        QVERIFY(outOfOrder < compared / 4);                                     // the MILP's own plan, mostly
    }

    void withoutABudgetEveryNodeRunsItsFastest() {
        const Graph g = withAlternatives(smallRandomGraph(6, 3), 3);
        auto plan = solve("monet", g, 0);
        QVERIFY(plan);
        const Graph chosen = *g.withImplementations(plan->implementation);
        double fastest = 0;
        for (int v = 0; v < g.size(); ++v) {
            double t = g.node(v).forward + g.node(v).backward;
            for (const auto& a : g.node(v).alternatives)
                t = std::min(t, a.forward + a.backward);
            fastest += t;
        }
        QCOMPARE(plan->predicted_makespan_s, fastest);
        QCOMPARE(chosen.totalForward() + chosen.totalBackward(), fastest);
        // Through the runner: the run's timeline is the chosen graph's.
        Run run = runScheduler("monet", Problem(g), Hardware::unbounded(), SolveRequest{});
        QVERIFY2(run.feasible, run.message.c_str());
        QCOMPARE(run.timeline->totals.makespan_s, fastest);
    }

    void theChoiceTravelsInFiles() {
        const Graph g = withAlternatives(smallRandomGraph(6, 5), 5);
        QVERIFY(g.hasAlternatives());
        // The graph file keeps the implementations.
        auto back = graphFromJson(graphToJson(g), "g");
        QVERIFY2(back, back ? "" : back.error().c_str());
        QVERIFY(back->nodes() == g.nodes());
        // The plan file keeps the choice, by name.
        Result<GraphPlan> plan = fail("none");
        for (int tenths = 9; tenths >= 5 && (!plan || !changedSome(*plan)); --tenths)
            plan = solve("monet", g, graphStoreAllPeak(g) * tenths / 10);
        QVERIFY2(plan, plan ? "" : plan.error().c_str());
        auto again = graphPlanFromJson(graphPlanToJson(*plan, g), g, "p");
        QVERIFY2(again, again ? "" : again.error().c_str());
        QVERIFY(again->implementation == plan->implementation);
        // Bad implementations are refused with the place.
        auto doc = parseJson(R"({"format":"ckpt-graph","version":1,"nodes":[{"id":"a","forward":1,"output_bytes":8,
            "implementations":[{"name":"fft","forward":-1}]}]})",
                             "g.json");
        auto bad = graphFromJson(*doc, "g.json");
        QVERIFY(!bad);
        QVERIFY2(bad.error().find("nodes[0].implementations[0].forward") != std::string::npos, bad.error().c_str());
        auto twice = parseJson(R"({"format":"ckpt-graph","version":1,"nodes":[{"id":"a","forward":1,"output_bytes":8,
            "implementations":[{"name":"fft","forward":1},{"name":"fft","forward":2}]}]})",
                               "g.json");
        auto dup = graphFromJson(*twice, "g.json");
        QVERIFY(!dup);
        QVERIFY2(dup.error().find("used twice") != std::string::npos, dup.error().c_str());
        nlohmann::json pj = graphPlanToJson(*plan, g);
        pj["implementations"] = {{g.node(0).id, "no-such"}};
        auto wrong = graphPlanFromJson(pj, g, "p.json");
        QVERIFY(!wrong);
        QVERIFY2(wrong.error().find("implementations") != std::string::npos, wrong.error().c_str());
    }
};

QTEST_APPLESS_MAIN(TestMonet)
#include "tst_monet.moc"
