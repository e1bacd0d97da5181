// checkmate (Jain et al., MLSys 2020) against two oracles. The first is written here from the definition of
// Checkmate's schedule space, independently of the MILP: Dijkstra over (stage, position, outputs held), where stage
// t < n computes position t of the topological order for the first time after recomputing any earlier positions
// (in position order), stage t >= n runs the backward of position 2n-1-t after recomputing any unreversed positions,
// and outputs may be freed at any point; each computation's peak (held outputs + its output + workspace + the live
// gradients) and each backward's must fit. The second is exhaustiveGraphOptimum over all schedules: a lower bound.
// Also: store-all's budget costs nothing extra; infeasible budgets (the footprint test, the solver's proof); the time
// limit returns a plan marked not proven optimal; a fast plan in another order where the space is empty says so; an
// oversized model is refused with its size; a cancelled solve says so.
#include "graph/checkmate_space.h"
#include "graph/graph_exhaustive.h"
#include "io/graph_io.h"
#include "run/runner.h"
#include "schedulers/checkmate_milp.h"
#include "schedulers/graph_registry.h"
#include "sim/graph_simulator.h"
#include "util/units.h"

#include <QtTest>
#include <cmath>
#include <map>

using namespace ckpt;
using ckpt::test::smallRandomGraph;
using ckpt::test::SpaceOracle;

namespace {

Result<GraphPlan> checkmateAt(const Graph& g, std::int64_t budget, const std::string& mode = "milp",
                              const std::atomic<bool>* cancel = nullptr) {
    SolveRequest req;
    req.budget_bytes = budget;
    req.params["mode"] = mode;
    req.cancel = cancel;
    return solveGraph("checkmate", g, Hardware::unbounded(), req);
}

// Simulates the plan: it validates within the budget and its prediction is the simulated makespan.
bool checkPlan(const Graph& g, const GraphPlan& plan, std::int64_t budget, std::string& why) {
    auto tl = simulateGraph(g, plan.actions, SimOptions{budget, false});
    if (!tl) return why = tl.error(), false;
    if (budget > 0 && tl->totals.peak_bytes[0] > budget) return why = "peak over the budget", false;
    double sim = tl->totals.makespan_s;
    if (std::abs(sim - plan.predicted_makespan_s) > 1e-9 * std::max(1.0, sim))
        return why = "predicted " + std::to_string(plan.predicted_makespan_s) + " simulated " + std::to_string(sim),
               false;
    return true;
}

} // namespace

class TestCheckmate : public QObject {
    Q_OBJECT
private slots:
    void equalsTheOptimumOfItsSpace() {
        int compared = 0, infeasibleCompared = 0, recomputing = 0, metTheBound = 0;
        for (unsigned seed = 1; seed <= 10; ++seed) {
            Graph g = smallRandomGraph(4 + int(seed % 5), seed);
            SpaceOracle oracle(g);
            const std::int64_t peak = graphStoreAllPeak(g);
            std::int64_t lo = 1, hi = peak; // the smallest budget the space fits in (monotone in the budget)
            while (lo < hi) {
                std::int64_t mid = (lo + hi) / 2;
                if (oracle.optimum(mid) >= 0)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            QVERIFY(lo >= oracle.footprint());
            for (std::int64_t budget : {lo - 1, lo, lo + (peak - lo) / 3, lo + 2 * (peak - lo) / 3, peak}) {
                const std::string where = g.name() + " at " + std::to_string(budget) + " B";
                const double expect = oracle.optimum(budget);
                auto milp = checkmateAt(g, budget);
                if (expect < 0) {
                    QVERIFY2(!milp && milp.errorValue().infeasible, where.c_str());
                    ++infeasibleCompared;
                    continue;
                }
                QVERIFY2(milp, (where + ": " + (milp ? "" : milp.error())).c_str());
                std::string why;
                QVERIFY2(checkPlan(g, *milp, budget, why), (where + ": " + why).c_str());
                QVERIFY2(std::abs(milp->predicted_makespan_s - expect) < 1e-9,
                         (where + ": milp " + std::to_string(milp->predicted_makespan_s) + ", space optimum " +
                          std::to_string(expect))
                             .c_str());
                QCOMPARE(milp->params.at("optimal"), std::string("yes"));
                if (milp->params.count("proof")) { // no CBC: a rounding or a fast plan met the LP bound
                    QCOMPARE(milp->params.at("proof"), std::string("its time meets the LP bound"));
                    QVERIFY2(milp->predicted_makespan_s <= std::stod(milp->params.at("lp_bound_s")) * (1 + 1e-9),
                             where.c_str());
                    ++metTheBound;
                }
                auto global = test::exhaustiveGraphOptimum(g, budget);
                QVERIFY2(global.feasible && global.time <= expect + 1e-9, where.c_str());

                auto lp = checkmateAt(g, budget, "lp-rounding");
                QVERIFY2(lp, (where + ": " + (lp ? "" : lp.error())).c_str());
                QVERIFY2(checkPlan(g, *lp, budget, why), (where + " (lp-rounding): " + why).c_str());
                const double bound = std::stod(lp->params.at("lp_bound_s"));
                QVERIFY2(bound <= expect + 1e-9, where.c_str());
                QVERIFY2(lp->predicted_makespan_s >= expect - 1e-9, where.c_str());
                ++compared;
                recomputing += expect > g.totalForward() + g.totalBackward() + 1e-9;
            }
        }
        QVERIFY(compared >= 30);
        QVERIFY(infeasibleCompared >= 5);
        QVERIFY(recomputing >= 5); // the budgets make the optimum recompute, not only store everything
        // A plan that meets the LP bound is optimal at once, without CBC's search (which may not prove it within a
        // time limit: LSTM imported at 50 % took 55 s and said "not proven" at a 0 % gap).
        QVERIFY2(metTheBound >= 5, std::to_string(metTheBound).c_str());
    }

    // The LP relaxation releases an output at most once, never more of it than is present: before, it released an
    // output at each of two consumers that it computed by halves, and counted the output negative. On U-Net at 30 %
    // its bound was 1.073x store-all's time; each release counted once, 1.123x. A weaker bound is still a bound, so
    // equalsTheOptimumOfItsSpace cannot see this. The bound stays under every plan that fits: the best known there is
    // 1.19x.
    void lpReleasesAnOutputOnce() {
        auto g = loadGraph(std::string(CKPT_SOURCE_DIR) + "/examples/unet-small-b8-128.ckpt-graph.json");
        QVERIFY2(g, g ? "" : g.error().c_str());
        const double storeAll = g->totalForward() + g->totalBackward();
        auto lp = checkmateAt(*g, graphStoreAllPeak(*g) * 30 / 100, "lp-rounding");
        QVERIFY2(lp, lp ? "" : lp.error().c_str());
        const double bound = std::stod(lp->params.at("lp_bound_s")) / storeAll;
        QVERIFY2(bound > 1.12, qPrintable(QString("the LP bound is %1x store-all's time").arg(bound)));
        QVERIFY(bound * storeAll <= lp->predicted_makespan_s + 1e-12);
    }

    void milpIsNoWorseThanAnyHeuristic() {
        // At every budget where both have a plan, the MILP's optimum is no slower than any other graph scheduler's
        // plan, and the LP bound is below both.
        int compared = 0;
        for (unsigned seed = 21; seed <= 32; ++seed) {
            Graph g = smallRandomGraph(5 + int(seed % 4), seed);
            const std::int64_t peak = graphStoreAllPeak(g);
            for (double f : {0.5, 0.65, 0.8, 1.0}) {
                const std::int64_t budget = std::int64_t(double(peak) * f);
                auto milp = checkmateAt(g, budget);
                if (!milp) continue;
                const double bound = std::stod(milp->params.at("lp_bound_s"));
                for (const GraphSchedulerInfo& s : graphSchedulers()) {
                    if (s.name == "checkmate") continue;
                    SolveRequest req;
                    req.budget_bytes = budget;
                    auto other = solveGraph(s.name, g, Hardware::unbounded(), req);
                    if (!other) continue;
                    const std::string where = g.name() + " at " + std::to_string(budget) + " B vs " + s.name;
                    QVERIFY2(milp->predicted_makespan_s <= other->predicted_makespan_s + 1e-9, where.c_str());
                    QVERIFY2(bound <= other->predicted_makespan_s + 1e-9, where.c_str());
                    ++compared;
                }
            }
        }
        QVERIFY(compared >= 60);
    }

    // Graphs too large for CBC to finish within one branch-and-bound node: the MILP starts from the fastest fast
    // scheduler's plan that runs in its order, so it never returns a plan slower than dtr's (which replays store-all's
    // order), and returns one whenever dtr does. Before the MIP start, linear-32 at 30 % gave 166 ms against dtr's 137.
    void neverSlowerThanItsMipStart() {
        int compared = 0, improved = 0, started = 0;
        std::vector<Graph> graphs;
        graphs.push_back(linearGraph(16));
        for (unsigned seed = 1; seed <= 6; ++seed)
            graphs.push_back(smallRandomGraph(12 + int(seed % 3), 900 + seed, 0.3));
        for (const Graph& g : graphs)
            for (double f : {0.6, 0.7, 0.8, 0.9}) {
                const std::int64_t budget = std::int64_t(double(graphStoreAllPeak(g)) * f);
                SolveRequest req;
                req.budget_bytes = budget;
                auto dtr = solveGraph("dtr", g, Hardware::unbounded(), req);
                if (!dtr) continue;
                req.params["node_limit"] = "1";
                auto plan = solveGraph("checkmate", g, Hardware::unbounded(), req);
                const std::string where = g.name() + " at " + std::to_string(budget) + " B";
                QVERIFY2(plan, (where + ": " + (plan ? "" : plan.error())).c_str());
                std::string why;
                QVERIFY2(checkPlan(g, *plan, budget, why), (where + ": " + why).c_str());
                started += int(plan->params.count("mip_start"));
                QVERIFY2(plan->predicted_makespan_s <= dtr->predicted_makespan_s + 1e-12, where.c_str());
                if (plan->predicted_makespan_s < dtr->predicted_makespan_s - 1e-12) ++improved;
                ++compared;
            }
        QVERIFY(compared >= 12);
        QVERIFY(improved >= 1);           // CBC does improve on the start somewhere: the check is not an identity
        QVERIFY(started >= compared - 2); // the conversion to stage sets rarely fails
    }

    void storeAllBudgetCostsNothingExtra() {
        for (unsigned seed = 1; seed <= 6; ++seed) {
            Graph g = smallRandomGraph(6 + 2 * int(seed), 100 + seed, 0.25);
            for (std::int64_t budget : {graphStoreAllPeak(g), std::int64_t(0)}) {
                auto plan = checkmateAt(g, budget);
                QVERIFY2(plan, plan ? "" : plan.error().c_str());
                std::string why;
                QVERIFY2(checkPlan(g, *plan, budget, why), why.c_str());
                QCOMPARE(plan->predicted_makespan_s, g.totalForward() + g.totalBackward());
            }
        }
    }

    // Budgets where every operation fits alone but no schedule of the space does: CBC's proof says so.
    void tooSmallThoughEveryOperationFits() {
        int found = 0;
        for (unsigned seed = 1; seed <= 400 && found < 3; ++seed) {
            Graph g = smallRandomGraph(5 + int(seed % 4), 500 + seed);
            SpaceOracle oracle(g);
            const std::int64_t f = oracle.footprint();
            if (oracle.optimum(f) >= 0) continue;
            ++found;
            auto plan = checkmateAt(g, f);
            QVERIFY(!plan && plan.errorValue().infeasible);
            QVERIFY2(plan.error().find("too small") != std::string::npos, plan.error().c_str());
        }
        QVERIFY(found >= 1);
    }

    // Budgets where no plan of checkmate's space fits but a fast scheduler's plan in another order does: checkmate
    // returns that plan, says why it is not its own (the space is empty, as CBC or the LP proved), and gives no gap
    // over its LP bound, which bounds no plan of another order. Before, a CBC proof was reported as "the time limit of
    // 60 s was reached" (after 0.3 s on a random 22-node graph at 40 %), with a gap.
    void anotherOrderWhereTheSpaceIsEmpty() {
        int provenByCbc = 0, provenByLp = 0;
        for (unsigned seed = 1; seed <= 300 && provenByCbc < 3; ++seed) {
            Graph g = smallRandomGraph(5 + int(seed % 4), 900 + seed);
            SpaceOracle oracle(g);
            for (double f : {0.4, 0.5, 0.6, 0.7}) {
                const std::int64_t budget = std::int64_t(double(graphStoreAllPeak(g)) * f);
                if (budget < oracle.footprint() || oracle.optimum(budget) >= 0) continue;
                auto plan = checkmateAt(g, budget);
                if (!plan) continue; // no fast plan either
                const std::string where = g.name() + " at " + std::to_string(budget) + " B: ";
                std::string why;
                QVERIFY2(checkPlan(g, *plan, budget, why), (where + why).c_str());
                QVERIFY2(plan->params.count("optimal"), (where + formatParams(plan->params)).c_str());
                const std::string optimal = plan->params.at("optimal");
                const bool byCbc = optimal.rfind("no: no plan in checkmate's order fits (CBC proved its MILP "
                                                 "infeasible); ",
                                                 0) == 0;
                const bool byLp =
                    optimal.rfind("no: no plan in checkmate's order fits (its LP relaxation is infeasible); ", 0) == 0;
                QVERIFY2(byCbc || byLp, (where + optimal).c_str());
                QVERIFY2(!plan->params.count("gap"), (where + formatParams(plan->params)).c_str());
                provenByCbc += byCbc, provenByLp += byLp;
            }
        }
        QVERIFY2(provenByCbc >= 1, qPrintable(QString("CBC %1, LP %2").arg(provenByCbc).arg(provenByLp)));
    }

    void belowTheLargestFootprintIsInfeasible() {
        for (unsigned seed = 1; seed <= 5; ++seed) {
            Graph g = smallRandomGraph(6, 200 + seed);
            const std::int64_t f = SpaceOracle(g).footprint();
            QVERIFY(SpaceOracle(g).optimum(f - 1) < 0);
            auto plan = checkmateAt(g, f - 1);
            QVERIFY(!plan && plan.errorValue().infeasible);
            QVERIFY2(plan.error().find("footprint") != std::string::npos, plan.error().c_str());
            QVERIFY2(plan.error().find(std::to_string(f) + " B") != std::string::npos, plan.error().c_str());
        }
    }

    // A 12-layer chain at 50% of store-all's peak: within one branch-and-bound node CBC does not prove optimality, so
    // the plan is the best incumbent (or the LP rounding), marked as not proven optimal, and it still validates. A
    // node limit, unlike a time limit, gives the same answer on a busy machine.
    void nodeLimitReturnsTheIncumbent() {
        const Result<Graph> g = linearGraph(12);
        const std::int64_t budget = std::int64_t(double(graphStoreAllPeak(*g)) * 0.5);
        SolveRequest req;
        req.budget_bytes = budget;
        req.params["node_limit"] = "1";
        auto plan = solveGraph("checkmate", *g, Hardware::unbounded(), req);
        QVERIFY2(plan, plan ? "" : plan.error().c_str());
        const std::string optimal = plan->params.at("optimal");
        QVERIFY2(optimal.rfind("no: the node limit of 1 branch-and-bound nodes was reached", 0) == 0, optimal.c_str());
        std::string why;
        QVERIFY2(checkPlan(*g, *plan, budget, why), why.c_str());
        QVERIFY(std::stod(plan->params.at("lp_bound_s")) <= plan->predicted_makespan_s + 1e-12);
        QVERIFY(plan->predicted_makespan_s > g->totalForward() + g->totalBackward());
    }

    // An LP stopped by its iteration limit has nothing to round: a clear message naming the limit, never a hang.
    void iterationLimitSaysSo() {
        auto g = loadGraph(std::string(CKPT_SOURCE_DIR) + "/examples/linear-32.ckpt-graph.json");
        QVERIFY2(g, g ? "" : g.error().c_str());
        SolveRequest req;
        req.budget_bytes = graphStoreAllPeak(*g) / 2;
        req.params["mode"] = "lp-rounding";
        req.params["iteration_limit"] = "1";
        auto plan = solveGraph("checkmate", *g, Hardware::unbounded(), req);
        QVERIFY(!plan && plan.errorValue().infeasible);
        QVERIFY2(plan.error().find("the iteration limit of 1 simplex iterations") != std::string::npos,
                 plan.error().c_str());
    }

    // The model grows as n^2 and more: a 2000-node chain is refused at once from its binaries (counted in O(n)), a
    // small graph with a tiny memory limit after the dry run counts it. Both messages give the size and the limit.
    // On a chain of n nodes, position p < n-1 can be computed in stages [p, 2n-p-1) and held in (p, 2n-p-1), the
    // last one only computed in its own stage: (n-1)(2n+1) + 1 binaries.
    void oversizedMilpRefusedWithItsSize() {
        Graph big = linearGraph(2000);
        auto plan = checkmateAt(big, graphStoreAllPeak(big) / 2, "lp-rounding");
        QVERIFY(!plan && !plan.errorValue().infeasible);
        QVERIFY2(plan.error().find("2000 nodes would have 7,998,000 binary") != std::string::npos,
                 plan.error().c_str());
        QVERIFY2(plan.error().find("binary variables: at least") != std::string::npos, plan.error().c_str());
        QVERIFY2(plan.error().find("max_memory_mb") != std::string::npos, plan.error().c_str());

        Graph g = smallRandomGraph(12, 3);
        SolveRequest req;
        req.budget_bytes = graphStoreAllPeak(g) / 2;
        req.budget_bytes = graphStoreAllPeak(g);
        auto fits = solveGraph("checkmate", g, Hardware::unbounded(), req);
        QVERIFY2(fits, fits ? "" : fits.error().c_str());
        const std::string size = fits->params.at("milp_size");
        req.params["max_memory_mb"] = "1";
        Graph wide = randomLayeredGraph(30, 2);
        req.budget_bytes = graphStoreAllPeak(wide) / 2;
        req.params["mode"] = "lp-rounding";
        auto refused = solveGraph("checkmate", wide, Hardware::unbounded(), req);
        QVERIFY(!refused);
        QVERIFY2(refused.error().find(" nonzeros: about ") != std::string::npos, refused.error().c_str());
        QVERIFY2(refused.error().find("over max_memory_mb (1 MiB)") != std::string::npos, refused.error().c_str());
        QVERIFY2(size.find(" binaries, ") != std::string::npos, size.c_str());
        // The MILP mode answers all the same, with the fastest fast scheduler's plan, not proven, saying why.
        req.params.erase("mode");
        auto answered = solveGraph("checkmate", wide, Hardware::unbounded(), req);
        QVERIFY2(answered, answered ? "" : answered.error().c_str());
        const std::string optimal = answered->params.at("optimal");
        QVERIFY2(optimal.rfind("no: the MILP for 30 nodes would have ", 0) == 0, optimal.c_str());
        QVERIFY2(optimal.find("over max_memory_mb (1 MiB); ") != std::string::npos, optimal.c_str());
        std::string why;
        QVERIFY2(checkPlan(wide, *answered, req.budget_bytes, why), why.c_str());
    }

    // The LP relaxation of one graph at another budget starts from the last one's basis (only the right-hand sides
    // differ): the same bound as a solve from scratch, in fewer simplex iterations. Iteration counts are the same on
    // any machine.
    void lpReusesTheBasisAcrossBudgets() {
        const Graph g = randomLayeredGraph(24, 11);
        const std::int64_t full = graphStoreAllPeak(g);
        auto lpAt = [&](double fraction) {
            SolveRequest req;
            req.budget_bytes = std::int64_t(double(full) * fraction);
            req.params["mode"] = "lp-rounding";
            auto plan = solveGraph("checkmate", g, Hardware::unbounded(), req);
            if (!plan) qWarning("%s", plan.error().c_str());
            return plan ? plan->params : std::map<std::string, std::string>{};
        };
        const auto first = lpAt(0.55);
        QVERIFY(first.count("lp_iterations") && first.count("lp_bound_s"));
        QVERIFY2(first.at("lp_iterations").find("another budget") == std::string::npos,
                 first.at("lp_iterations").c_str());
        const auto other = lpAt(0.8);
        QVERIFY2(other.count("lp_iterations") && other.at("lp_iterations").find("another budget") != std::string::npos,
                 other.count("lp_iterations") ? other.at("lp_iterations").c_str() : "no LP");
        const auto again = lpAt(0.55);
        QVERIFY(again.count("lp_iterations"));
        const long long cold = std::stoll(first.at("lp_iterations")), warm = std::stoll(again.at("lp_iterations"));
        QVERIFY2(warm < cold, qPrintable(QString("%1 iterations warm, %2 cold").arg(warm).arg(cold)));
        const double a = std::stod(first.at("lp_bound_s")), b = std::stod(again.at("lp_bound_s"));
        QVERIFY2(std::abs(a - b) <= 1e-7 * a, qPrintable(QString("bound %1 cold, %2 warm").arg(a).arg(b)));
    }

    // The LP relaxation starts from the basis of the fastest fast plan (its binaries fixed, then freed): the same
    // bound as from the slack basis in fewer dual simplex iterations (ResNet-50 at 30 %: 39,884 against 85,053).
    void lpStartsFromTheFastPlansBasis() {
        for (std::uint64_t seed : {12, 13}) {
            const Graph g = randomLayeredGraph(24, seed);
            const std::int64_t budget = graphStoreAllPeak(g) * 55 / 100;
            SolveRequest req;
            req.budget_bytes = budget;
            req.params["node_limit"] = "1";
            auto plan = solveGraph("checkmate", g, Hardware::unbounded(), req);
            QVERIFY2(plan, plan ? "" : plan.error().c_str());
            const std::string text = plan->params.at("lp_iterations");
            QVERIFY2(text.find("(from the basis of ") != std::string::npos, text.c_str());
            const checkmate::Stages st(g);
            checkmate::MilpOptions opt;
            opt.limit = budget, opt.relax = true, opt.basis_cache = false;
            const checkmate::MilpOutcome cold = checkmate::solveMilp(st, opt);
            QVERIFY(cold.status == checkmate::MilpOutcome::Status::Optimal);
            const long long started = std::stoll(text);
            QVERIFY2(started < cold.iterations, qPrintable(QString("%1 iterations from the plan's basis, %2 from the "
                                                                   "slack basis")
                                                               .arg(started)
                                                               .arg(cold.iterations)));
            const double bound = std::stod(plan->params.at("lp_bound_s"));
            const double coldBound = cold.objective_s + g.totalBackward();
            QVERIFY2(std::abs(bound - coldBound) <= 1e-7 * bound,
                     qPrintable(QString("bound %1 from the plan, %2 cold").arg(bound).arg(coldBound)));
        }
    }

    // When the time limit falls inside the LP relaxation, checkmate still answers whenever a fast scheduler has a plan:
    // the fastest of them, marked not proven (it once said "no schedule found" at 50 % of ResNet-50, where dtr,
    // chen-greedy and lower-set-dp all had plans). The LP is stopped by its iteration limit, the same on any machine;
    // a time limit stops it at the same place in the code. Checkmate's plan is never slower than theirs, and MONeT,
    // which solves the same MILP on a graph without alternatives, answers too when the MILP is too large to build.
    void limitInTheLpRelaxationStillAnswers() {
        for (const char* file : {"/examples/resnet50-b32-224.ckpt-graph.json", "/examples/linear-32.ckpt-graph.json"}) {
            auto g = loadGraph(std::string(CKPT_SOURCE_DIR) + file);
            QVERIFY2(g, g ? "" : g.error().c_str());
            for (int percent : {30, 50, 70}) {
                SolveRequest req;
                req.budget_bytes = graphStoreAllPeak(*g) * percent / 100;
                req.params["iteration_limit"] = "10";
                req.params["local_search"] = "off"; // localSearchImprovesTheFallback tests it; here it costs a minute
                const QString where = QString("%1 at %2 %").arg(file).arg(percent);
                auto plan = solveGraph("checkmate", *g, Hardware::unbounded(), req);
                QVERIFY2(plan, qPrintable(where + ": " + (plan ? "" : plan.error().c_str())));
                const std::string optimal = plan->params.at("optimal");
                QVERIFY2(optimal.rfind("no: the iteration limit of 10 simplex iterations was reached in the LP "
                                       "relaxation, before any bound; ",
                                       0) == 0,
                         qPrintable(where + ": " + optimal.c_str()));
                QVERIFY(!plan->params.count("gap")); // no bound, so no gap
                std::string why;
                QVERIFY2(checkPlan(*g, *plan, req.budget_bytes, why), qPrintable(where + ": " + why.c_str()));
                for (const char* other : {"dtr", "chen-greedy", "chen-sqrt", "lower-set-dp"}) {
                    SolveRequest plain;
                    plain.budget_bytes = req.budget_bytes;
                    auto theirs = solveGraph(other, *g, Hardware::unbounded(), plain);
                    if (theirs)
                        QVERIFY2(plan->predicted_makespan_s <= theirs->predicted_makespan_s,
                                 qPrintable(where + ": slower than " + other));
                }
                req.params.erase("iteration_limit");
                req.params.erase("local_search");
                req.params["max_memory_mb"] = "1"; // the MILP is not built: the fallback answers
                if (std::string(file).find("resnet50") != std::string::npos) {
                    auto monet = solveGraph("monet", *g, Hardware::unbounded(), req);
                    QVERIFY2(monet, qPrintable(where + ": monet: " + (monet ? "" : monet.error().c_str())));
                    QVERIFY2(monet->params.at("optimal").rfind("no: ", 0) == 0, monet->params.at("optimal").c_str());
                    QVERIFY2(checkPlan(*g, *monet, req.budget_bytes, why),
                             qPrintable(where + ": monet: " + why.c_str()));
                }
            }
        }
    }

    // The local search (polish in checkmate.cpp) keeps what a plan recomputes, or swaps a recomputation for faster
    // ones, while the plan still fits. With the LP stopped at once, the answer is the fastest fast plan improved: on
    // these graphs faster than every fast scheduler's plan and than the same solve without the search (before it,
    // ResNet-50 at 30 % answered dtr's 1.195x; with it 1.069x), and it validates. Iteration limits keep it the same on
    // any machine.
    void localSearchImprovesTheFallback() {
        int improved = 0;
        for (const auto& [file, percent] : {std::pair{"/examples/unet-small-b8-128.ckpt-graph.json", 30},
                                            std::pair{"/examples/unet-small-b8-128.ckpt-graph.json", 50},
                                            std::pair{"/examples/resnet18-b32-224.ckpt-graph.json", 50}}) {
            auto g = loadGraph(std::string(CKPT_SOURCE_DIR) + file);
            QVERIFY2(g, g ? "" : g.error().c_str());
            const QString where = QString("%1 at %2 %").arg(file).arg(percent);
            SolveRequest req;
            req.budget_bytes = graphStoreAllPeak(*g) * percent / 100;
            req.params["iteration_limit"] = "10";
            auto plan = solveGraph("checkmate", *g, Hardware::unbounded(), req);
            req.params["local_search"] = "off";
            auto plain = solveGraph("checkmate", *g, Hardware::unbounded(), req);
            QVERIFY2(plan && plain, qPrintable(where));
            std::string why;
            QVERIFY2(checkPlan(*g, *plan, req.budget_bytes, why), qPrintable(where + ": " + why.c_str()));
            const std::string optimal = plan->params.at("optimal");
            QVERIFY2(optimal.size() > 10 && optimal.substr(optimal.size() - 10) == ", polished",
                     qPrintable(where + ": " + optimal.c_str()));
            QVERIFY(std::stoll(plan->params.at("polish_tries")) > 0);
            QVERIFY2(plan->predicted_makespan_s < plain->predicted_makespan_s,
                     qPrintable(where + QString(": %1 s with the search, %2 s without")
                                            .arg(plan->predicted_makespan_s)
                                            .arg(plain->predicted_makespan_s)));
            for (const char* other : {"dtr", "chen-greedy", "chen-sqrt", "lower-set-dp"}) {
                SolveRequest theirs;
                theirs.budget_bytes = req.budget_bytes;
                auto p = solveGraph(other, *g, Hardware::unbounded(), theirs);
                if (p)
                    QVERIFY2(plan->predicted_makespan_s < p->predicted_makespan_s,
                             qPrintable(where + ": not faster than " + other));
            }
            ++improved;
        }
        QCOMPARE(improved, 3);
    }

    // A window of stages solved with the rest of the plan fixed (checkmate's search on models too large for CBC's whole
    // tree): started from the optimum at a smaller budget, which fits the larger one too, each window's solution keeps
    // the plan outside the window, fits, and is never slower than the start; the window of every stage finds the
    // whole MILP's optimum. Windows that improve the start exist among these (the search has something to do).
    void aWindowKeepsThePlanOutsideIt() {
        int windows = 0, improved = 0;
        for (unsigned seed = 41; seed <= 56; ++seed) {
            const Graph g = smallRandomGraph(7 + int(seed % 3), seed);
            const checkmate::Stages st(g);
            const std::int64_t peak = graphStoreAllPeak(g);
            checkmate::MilpOptions opt;
            opt.nodes = 100000;
            checkmate::MilpOutcome small; // the optimum at the least of these budgets that fits
            for (std::int64_t percent : {50, 60, 70, 80, 90}) {
                opt.limit = peak * percent / 100;
                small = checkmate::solveMilp(st, opt);
                if (small.status == checkmate::MilpOutcome::Status::Optimal) break;
            }
            if (small.status != checkmate::MilpOutcome::Status::Optimal) continue;
            opt.limit = (opt.limit + peak) / 2;
            const checkmate::MilpOutcome large = checkmate::solveMilp(st, opt);
            QVERIFY(large.status == checkmate::MilpOutcome::Status::Optimal);
            const double start = checkmate::buildPlan(st, small.compute, small.keep).makespan_s;
            const double best = checkmate::buildPlan(st, large.compute, large.keep).makespan_s;
            for (const auto& [first, last] : {std::pair{0, st.T / 2}, std::pair{st.T / 3, 2 * st.T / 3},
                                              std::pair{st.T / 2, st.T - 1}, std::pair{0, st.T - 1}}) {
                const QString where = QString("%1, stages %2 to %3").arg(g.name().c_str()).arg(first).arg(last);
                const checkmate::Window w{first, last, &small.compute, &small.keep};
                checkmate::MilpOptions o = opt;
                o.window = &w, o.start_compute = &small.compute, o.start_keep = &small.keep;
                const checkmate::MilpOutcome solved = checkmate::solveMilp(st, o);
                QVERIFY2(solved.status == checkmate::MilpOutcome::Status::Optimal, qPrintable(where));
                for (int t = 0; t <= st.T; ++t)
                    for (int p = 0; p < st.n; ++p) {
                        const auto T = std::size_t(t), P = std::size_t(p);
                        if ((t < first || t > last) && t < st.T)
                            QVERIFY2(solved.compute[T][P] == small.compute[T][P], qPrintable(where));
                        if (t <= first || t > last) QVERIFY2(solved.keep[T][P] == small.keep[T][P], qPrintable(where));
                    }
                const checkmate::StagePlan plan = checkmate::buildPlan(st, solved.compute, solved.keep);
                auto tl = simulateGraph(g, plan.actions, SimOptions{opt.limit, false});
                QVERIFY2(tl, qPrintable(where + ": " + (tl ? "" : tl.error().c_str())));
                QVERIFY2(std::abs(tl->totals.makespan_s - plan.makespan_s) <= 1e-9 * plan.makespan_s,
                         qPrintable(where));
                QVERIFY2(plan.makespan_s <= start * (1 + 1e-12), qPrintable(where));
                if (first == 0 && last == st.T - 1)
                    QVERIFY2(
                        std::abs(plan.makespan_s - best) <= 1e-9 * best,
                        qPrintable(where + QString(": %1 s, the MILP's optimum %2 s").arg(plan.makespan_s).arg(best)));
                ++windows, improved += plan.makespan_s < start * (1 - 1e-9);
            }
        }
        QVERIFY2(windows >= 20, qPrintable(QString("%1 windows, %2 improved").arg(windows).arg(improved)));
        QVERIFY2(improved >= 5, qPrintable(QString::number(improved)));
    }

    // Clp's simplex (Debian's build keeps its assertions) aborted the whole process on MILPs of linear graphs whose
    // times run from 1e-12 s to 1e-2 s and whose sizes run from bytes to terabytes, at 90 % of store-all's peak (found
    // by feeding `ckpt solve` random graphs). Tiny costs and coefficients are now rounded as checkmate_milp.cpp says,
    // and both graphs solve, for checkmate and monet alike.
    void extremeRangesDoNotAbortTheSolver() {
        struct Node {
            double forward, backward;
            std::int64_t output, workspace;
        };
        const std::vector<Node> first{{0.003100651960605674, 0.003200146373415034, 5843356, 5145033},
                                      {0.005427323115032272, 0.00323184233640953, 5998503779600, 0},
                                      {0.0059636755497064235, 0.004895880434967819, 7319388, 8231888},
                                      {0, 0.006234559238115671, 0, 0},
                                      {0.006042414100417939, 0.008741094513591396, 9684051, 0},
                                      {0.00995511575129793, 0.007759102538516447, 0, 0},
                                      {0.0035665758101778365, 0.006194562183425235, 1156350817714, 0},
                                      {0.0021172493333850026, 0.001047859130026604, 0, 2697033266819},
                                      {1e-12, 0.00819792675206925, 11419915, 9300925},
                                      {0.002164751143157699, 1e-12, 2581138875630, 4358145},
                                      {0.008511826188154171, 0.007352831107023465, 4599916, 7593557},
                                      {0.005019808073082693, 0.009233860805248382, 0, 0},
                                      {0.0015134222020916003, 0.0014649166969393326, 6747672158154, 6610578},
                                      {0.0021407635206198996, 0.00015007202068296875, 1414581, 2411796},
                                      {0.008152847783655326, 0.0011904845668653126, 3516421, 9198002004713},
                                      {0.004880809563427163, 0.004368631799351201, 12875048, 6910249},
                                      {1e-12, 1e-12, 8087808, 0},
                                      {0.006204831936685462, 0.0006364903301442472, 9276351422214, 9344392},
                                      {0.008611890380333075, 0.006640234398142559, 6016299810259, 0},
                                      {0, 0.006918512497125118, 2015470, 2193180120555},
                                      {0.0015725153004483435, 0, 9670898, 16209529},
                                      {0, 0.00980432133553378, 15763473, 0},
                                      {0.0013742571594787462, 0.007097243642421796, 13761410, 8402587528023},
                                      {0.003240542375556099, 1e-12, 12392104, 6573049},
                                      {1e-12, 0.0009663219022419691, 7867560, 2074559}};
        const std::vector<Node> second{{0, 0, 8545470, 6485906},
                                       {0.0043018433006076825, 0.006939507750920241, 11825570, 11171794},
                                       {0.009124406717944898, 0.0011952422765766561, 14024415, 0},
                                       {0.007216305751361628, 0.0020910027193542682, 5023765, 11194016},
                                       {0.0037147068266257517, 0.005101455816341423, 13983033, 0},
                                       {0.0022742447087770725, 0.005960390785054088, 1134821015847, 0},
                                       {1e-12, 1e-12, 12995295, 2507418},
                                       {0.009221498861304151, 0.004892841863888564, 1478892, 0},
                                       {0.0011059762254740113, 0.00624825975138841, 14272393, 12420248},
                                       {0, 0.006269868161853746, 1758770, 0},
                                       {0, 0.0032574823205127937, 12131666, 0},
                                       {0.0050830531989035305, 0.008399159798896423, 6338346, 0},
                                       {0.006314137508080997, 0.001999542913789571, 13685011, 7591337},
                                       {0.009343402646817657, 0.005171850570798875, 5497637, 0},
                                       {0.009202248360430975, 0.006369979757186231, 5361137, 533984},
                                       {0.006271933134227746, 0.0030243921181370703, 6952622, 4403410},
                                       {0.00449701048927374, 0.0026792658584465457, 5315897038287, 0},
                                       {0.0037012999529169, 0.006174979357968455, 10724083, 0},
                                       {0.00958429619487512, 0.00011215258984586503, 3930602, 0},
                                       {0.004077602986321263, 0.00955033844711112, 9335460816335, 0},
                                       {0, 0.005633136470600334, 5870521958369, 0},
                                       {0.007758442025822543, 0.009383064529539908, 9958745, 8639007826420},
                                       {0.00788174725723942, 0.00534644277315542, 16713353, 0},
                                       {0.0007148976940419268, 0.00880014584850582, 6658829, 0},
                                       {0.003946597881707558, 0.002702850208756777, 359590, 0}};
        const std::pair<const std::vector<Node>*, std::int64_t> cases[] = {{&first, 36947459741642},
                                                                           {&second, 32549750190971}};
        for (const auto& [nodes, budget] : cases) {
            nlohmann::json doc{{"format", "ckpt-graph"}, {"version", 1}, {"name", "extreme"}};
            doc["nodes"] = nlohmann::json::array();
            doc["edges"] = nlohmann::json::array();
            for (std::size_t i = 0; i < nodes->size(); ++i) {
                const Node& v = (*nodes)[i];
                doc["nodes"].push_back({{"id", "s" + std::to_string(i + 1)},
                                        {"forward", v.forward},
                                        {"backward", v.backward},
                                        {"output_bytes", v.output},
                                        {"workspace_bytes", v.workspace}});
                if (i > 0) doc["edges"].push_back({"s" + std::to_string(i), "s" + std::to_string(i + 1)});
            }
            auto g = graphFromJson(doc, "extreme");
            QVERIFY2(g.ok(), g.ok() ? "" : g.error().c_str());
            for (const char* scheduler : {"checkmate", "monet"}) {
                SolveRequest req;
                req.budget_bytes = budget;
                req.params["node_limit"] = "50";
                auto plan = solveGraph(scheduler, *g, Hardware::unbounded(), req);
                QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
                std::string why;
                QVERIFY2(checkPlan(*g, *plan, budget, why), why.c_str());
            }
        }
    }

    void cancelledBeforeSolving() {
        Graph g = smallRandomGraph(30, 7, 0.2);
        std::atomic<bool> cancel{true};
        auto plan = checkmateAt(g, graphStoreAllPeak(g) / 2, "milp", &cancel);
        QVERIFY(!plan);
        QVERIFY2(plan.error().find("cancelled") != std::string::npos, plan.error().c_str());
    }
};

QTEST_APPLESS_MAIN(TestCheckmate)
#include "tst_checkmate.moc"
