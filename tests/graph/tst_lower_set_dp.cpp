// lower-set-dp (Kusumoto et al. 2019) against a brute force written here. The DP's memory model is an upper bound of
// the simulator's peak, not the peak itself (checkpoints of earlier segments are counted until their own segment's
// backward; the forward phase is bounded), so the brute force cannot use simulated peaks for feasibility. Instead
// this file defines the model again, independently of the DP's transitions: it replays the actions of every
// segmentation's plan (segmentPlan) with the simulator's rules, but while segment s is rebuilt and reversed it counts
// the outputs of earlier segments as C_s (the bytes of every checkpoint of segments < s) instead of those actually
// held; the forward phase is C_all + max over topological positions p of [the last segment's outputs that a backward
// needs, computed up to p + the outputs computed before p with a consumer at p or later, except those known kept
// (checkpoints feeding the last segment, and the last segment's needed ones) + p's own output unless known kept + p's
// workspace]. Over every segmentation of random graphs of <= 8 nodes the brute force checks that this model is >= the
// simulated peak, and that the exact DP finds the fastest segmentation within the model, and names the leanest.
// (The forward term seldom binds: a backward phase holds gradients mirroring the forward's live outputs, plus more.)
#include "engine/test_util.h"
#include "graph/graph_exhaustive.h"
#include "io/graph_io.h"
#include "run/runner.h"
#include "schedulers/graph_fit.h"
#include "schedulers/graph_registry.h"
#include "schedulers/lower_set_dp.h"
#include "sim/graph_simulator.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <set>

using namespace ckpt;

namespace {

struct Brute {
    double time = 0;
    std::int64_t model = 0;
    std::int64_t simulated = 0;
};

bool neededByABackward(const Graph& g, int v) {
    bool n = g.node(v).needs_output;
    for (int c : g.consumers(v))
        n = n || g.node(c).needs_inputs;
    return n;
}

std::int64_t modelPeak(const Graph& g, const std::vector<int>& seg, const GraphSchedule& actions) {
    const int n = g.size(), last = *std::max_element(seg.begin(), seg.end());
    auto out = [&](int v) { return g.node(v).output_bytes; };
    auto checkpoint = [&](int v) {
        for (int c : g.consumers(v))
            if (seg[std::size_t(c)] != seg[std::size_t(v)]) return true;
        return false;
    };
    std::vector<std::int64_t> below(std::size_t(last) + 2, 0); // C_s
    for (int s = 0; s <= last + 1; ++s)
        for (int v = 0; v < n; ++v)
            if (seg[std::size_t(v)] < s && checkpoint(v)) below[std::size_t(s)] += out(v);
    // Forward phase.
    const auto& order = g.topologicalOrder();
    std::vector<int> pos(static_cast<std::size_t>(n));
    for (int p = 0; p < n; ++p)
        pos[std::size_t(order[std::size_t(p)])] = p;
    auto lastSegNeeded = [&](int v) { return seg[std::size_t(v)] == last && neededByABackward(g, v); };
    auto knownKept = [&](int v) {
        if (lastSegNeeded(v)) return true;
        for (int c : g.consumers(v))
            if (seg[std::size_t(v)] < last && seg[std::size_t(c)] == last) return true;
        return false;
    };
    std::int64_t model = 0;
    for (int p = 0; p < n; ++p) {
        const int v = order[std::size_t(p)];
        std::int64_t m = below[std::size_t(last)] + g.node(v).workspace_bytes + (knownKept(v) ? 0 : out(v));
        for (int u = 0; u < n; ++u) {
            if (lastSegNeeded(u) && pos[std::size_t(u)] <= p) m += out(u);
            bool laterUse = false;
            for (int c : g.consumers(u))
                laterUse = laterUse || pos[std::size_t(c)] >= p;
            if (!knownKept(u) && pos[std::size_t(u)] < p && laterUse) m += out(u);
        }
        model = std::max(model, m);
    }
    // Backward phases: the simulator's rules, earlier segments' outputs replaced by C_s.
    std::vector<char> held(std::size_t(n), 0), grad(held), done(held);
    std::int64_t grads = 0;
    int phase = -1;
    auto measure = [&](std::int64_t transient) {
        if (phase < 0) return;
        std::int64_t m = below[std::size_t(phase)] + grads + transient;
        for (int v = 0; v < n; ++v)
            if (held[std::size_t(v)] && seg[std::size_t(v)] >= phase) m += out(v);
        model = std::max(model, m);
    };
    auto dead = [&](int v) {
        for (int c : g.consumers(v))
            if (!done[std::size_t(c)]) return false;
        return done[std::size_t(v)] || !g.node(v).needs_output;
    };
    for (const GraphAction& a : actions) {
        const int v = a.node;
        if (a.kind == GraphActionKind::Backward) phase = seg[std::size_t(v)];
        if (a.kind == GraphActionKind::Forward && phase >= 0) phase = seg[std::size_t(v)];
        if (a.kind == GraphActionKind::Free) held[std::size_t(v)] = 0;
        if (a.kind == GraphActionKind::Forward) {
            held[std::size_t(v)] = 1;
            measure(g.node(v).workspace_bytes);
            if (dead(v)) held[std::size_t(v)] = 0;
        }
        if (a.kind == GraphActionKind::Backward) {
            if (g.consumers(v).empty()) grads += out(v);
            for (int u : g.inputs(v))
                if (!grad[std::size_t(u)]) grad[std::size_t(u)] = 1, grads += out(u);
            measure(g.node(v).workspace_bytes);
            grads -= out(v), done[std::size_t(v)] = 1;
            if (dead(v)) held[std::size_t(v)] = 0;
            for (int u : g.inputs(v))
                if (dead(u)) held[std::size_t(u)] = 0;
        }
    }
    return model;
}

// Every chain of lower sets ∅ ⊂ L_1 ⊂ ... ⊂ V of a graph of at most 8 nodes, with its simulated time and peak and
// the model above.
std::vector<Brute> allSegmentations(const Graph& g) {
    const int n = g.size();
    const unsigned all = (1u << n) - 1;
    std::vector<unsigned> lower;
    for (unsigned m = 0; m <= all; ++m) {
        bool closed = true;
        for (int v = 0; v < n; ++v)
            if (m >> v & 1)
                for (int u : g.inputs(v))
                    closed = closed && (m >> u & 1);
        if (closed) lower.push_back(m);
    }
    std::vector<Brute> result;
    std::vector<int> seg(static_cast<std::size_t>(n), 0);
    std::function<void(unsigned, int)> extend = [&](unsigned done, int k) {
        if (done == all) {
            SegmentPlan plan = segmentPlan(g, seg);
            auto tl = simulateGraph(g, plan.actions);
            QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
            result.push_back({tl->totals.makespan_s, modelPeak(g, seg, plan.actions), tl->totals.peak_bytes[0]});
            return;
        }
        for (unsigned next : lower)
            if ((next & done) == done && next != done) {
                for (int v = 0; v < n; ++v)
                    if ((next & ~done) >> v & 1) seg[std::size_t(v)] = k;
                extend(next, k + 1);
            }
    };
    extend(0, 0);
    return result;
}

Result<GraphPlan> solve(const Graph& g, std::int64_t budget, const char* variant) {
    SolveRequest req;
    req.budget_bytes = budget;
    req.params["variant"] = variant;
    return solveGraph("lower-set-dp", g, Hardware::unbounded(), req);
}

// Simulates a plan: valid, within the budget, its time predicted exactly and its peak bounded by the prediction.
double checked(const Graph& g, const GraphPlan& plan, std::int64_t budget) {
    auto tl = simulateGraph(g, plan.actions);
    if (!tl.ok()) qFatal("%s: %s", g.name().c_str(), tl.error().c_str());
    const double t = tl->totals.makespan_s;
    if (std::abs(t - plan.predicted_makespan_s) > 1e-9 * std::max(1.0, t))
        qFatal("%s: predicted %.17g, simulated %.17g", g.name().c_str(), plan.predicted_makespan_s, t);
    if (tl->totals.peak_bytes[0] > plan.predicted_peak_bytes)
        qFatal("%s: simulated peak %lld over the predicted %lld", g.name().c_str(), (long long)tl->totals.peak_bytes[0],
               (long long)plan.predicted_peak_bytes);
    if (budget > 0 && plan.predicted_peak_bytes > budget) qFatal("%s: predicted peak over budget", g.name().c_str());
    return t;
}

// "... needs at least 1.2 KiB (1234 B) ...": the budget an infeasible answer names.
std::int64_t namedBudget(const std::string& message) {
    auto end = message.find(" B)"), open = message.rfind('(', end);
    if (open == std::string::npos || end == std::string::npos) qFatal("no budget named in: %s", message.c_str());
    return std::stoll(message.substr(open + 1, end - open - 1));
}

// Most backwards need nothing and workspaces are large: the forward phase, not a backward one, sets the peak.
Graph forwardHeavy(const Graph& g) {
    std::vector<GraphNode> nodes = g.nodes();
    for (std::size_t v = 0; v < nodes.size(); ++v)
        nodes[v].needs_inputs = v % 3 == 0, nodes[v].workspace_bytes = 3 * nodes[v].workspace_bytes + 2;
    return *Graph::make(g.name() + "-forward-heavy", std::move(nodes), g.edges());
}

bool close(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

} // namespace

class TestLowerSetDp : public QObject {
    Q_OBJECT
private slots:
    void exactEqualsBruteForce() {
        int cases = 0, infeasibleCases = 0;
        for (unsigned seed = 1; seed <= 40; ++seed) {
            Graph g = test::smallRandomGraph(5 + int(seed % 4), seed * 7919, seed % 2 ? 0.35 : 0.6);
            if (seed % 3 == 0) g = forwardHeavy(g);
            std::vector<Brute> segs = allSegmentations(g);
            std::set<std::int64_t> models;
            for (const Brute& b : segs) {
                QVERIFY2(b.model >= b.simulated, g.name().c_str()); // the model is an upper bound
                models.insert(b.model);
            }
            std::vector<std::int64_t> budgets(models.begin(), models.end());
            std::vector<std::int64_t> tried = {*models.begin() - 1, graphStoreAllPeak(g)};
            for (std::size_t i = 0; i < budgets.size(); i += std::max<std::size_t>(1, budgets.size() / 5))
                tried.push_back(budgets[i]);
            tried.push_back(budgets.back());
            for (std::int64_t budget : tried) {
                double best = -1;
                for (const Brute& b : segs)
                    if (b.model <= budget && (best < 0 || b.time < best)) best = b.time;
                auto exact = solve(g, budget, "exact");
                auto approx = solve(g, budget, "approximate");
                ++cases;
                if (best < 0) {
                    ++infeasibleCases;
                    QVERIFY2(!exact.ok() && exact.errorValue().infeasible, g.name().c_str());
                    QVERIFY(!approx.ok() && approx.errorValue().infeasible);
                    // The exact DP names the leanest model peak of all segmentations; the approximate one no less.
                    QCOMPARE(namedBudget(exact.error()), *models.begin());
                    const std::int64_t works = namedBudget(approx.error());
                    QVERIFY(works >= *models.begin());
                    auto retry = solve(g, works, "approximate");
                    QVERIFY2(retry.ok(), retry.ok() ? "" : retry.error().c_str());
                    checked(g, *retry, works);
                    continue;
                }
                QVERIFY2(exact.ok(), exact.ok() ? "" : exact.error().c_str());
                const double te = checked(g, *exact, budget);
                QVERIFY2(close(te, best), qPrintable(QString("%1 at %2: dp %3, brute force %4")
                                                         .arg(g.name().c_str())
                                                         .arg(budget)
                                                         .arg(te)
                                                         .arg(best)));
                if (approx.ok()) QVERIFY(te <= checked(g, *approx, budget) + 1e-9);
                auto opt = test::exhaustiveGraphOptimum(g, budget);
                QVERIFY(opt.feasible);
                QVERIFY(opt.time <= te + 1e-9);
            }
        }
        QVERIFY(infeasibleCases > 0 && cases > infeasibleCases);
    }

    void exactEqualsApproximateOnChains() {
        std::vector<Graph> chains = {linearGraph(12), linearGraph(30)};
        for (unsigned seed = 1; seed <= 4; ++seed)
            chains.push_back(Graph::fromChain(test::randomChain(8 + 5 * int(seed), seed)));
        for (const Graph& g : chains) {
            const std::int64_t full = graphStoreAllPeak(g);
            for (double fraction : {0.15, 0.25, 0.4, 0.6, 0.8, 1.0}) {
                const auto budget = std::int64_t(double(full) * fraction);
                auto exact = solve(g, budget, "exact");
                auto approx = solve(g, budget, "approximate");
                QCOMPARE(exact.ok(), approx.ok());
                if (!exact.ok()) {
                    QCOMPARE(namedBudget(exact.error()), namedBudget(approx.error()));
                    continue;
                }
                QVERIFY(close(checked(g, *exact, budget), checked(g, *approx, budget)));
            }
        }
    }

    void unlimitedIsStoreAll() {
        std::vector<Graph> graphs = {test::smallRandomGraph(8, 3), randomLayeredGraph(40, 2), linearGraph(10)};
        for (const Graph& g : graphs)
            for (const char* variant : {"exact", "approximate"}) {
                auto plan = solve(g, 0, variant);
                QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
                QVERIFY(close(checked(g, *plan, 0), g.totalForward() + g.totalBackward()));
            }
    }

    void largerGraphsWithinBudget() {
        for (std::uint64_t seed : {1u, 2u}) {
            Graph g = randomLayeredGraph(40, seed);
            const std::int64_t full = graphStoreAllPeak(g);
            double previous = -1;
            for (double fraction : {0.9, 0.6, 0.4}) {
                const auto budget = std::int64_t(double(full) * fraction);
                auto plan = solve(g, budget, "approximate");
                if (!plan.ok()) {
                    QVERIFY(plan.errorValue().infeasible);
                    break;
                }
                const double t = checked(g, *plan, budget);
                QVERIFY(t >= previous - 1e-12); // less memory never makes it faster
                previous = t;
            }
            QVERIFY(previous > 0);
        }
    }

    void exactRefusesTooManyLowerSets() {
        Graph g = randomLayeredGraph(120, 5, 8);
        auto plan = solve(g, graphStoreAllPeak(g) / 2, "exact");
        QVERIFY(!plan.ok() && !plan.errorValue().infeasible);
        QVERIFY2(plan.error().find("approximate") != std::string::npos, plan.error().c_str());
    }

    // The exact variant refuses at once, with the count: k sources joined by one sink have 2^k + 1 lower sets (any
    // set of sources, and all of them with the sink); past kCountedLowerSets it says "more than".
    void exactCountsTheLowerSetsItRefuses() {
        auto fan = [](int k) {
            std::vector<GraphNode> nodes;
            std::vector<GraphEdge> edges;
            for (int i = 0; i < k; ++i) {
                nodes.push_back(GraphNode{"s" + std::to_string(i), 1, 2, 1000 + i, 0, true, false, false});
                edges.push_back({"s" + std::to_string(i), "sink"});
            }
            nodes.push_back(GraphNode{"sink", 1, 2, 10, 0, true, false, false});
            return *Graph::make("fan", nodes, edges);
        };
        const Graph fifteen = fan(15);
        auto plan = solve(fifteen, graphStoreAllPeak(fifteen) / 2, "exact");
        QVERIFY(!plan.ok() && !plan.errorValue().infeasible);
        QVERIFY2(plan.error().find("has 32769 lower sets, over the exact variant's limit of 20000") !=
                     std::string::npos,
                 plan.error().c_str());
        const Graph wide = fan(22);
        plan = solve(wide, graphStoreAllPeak(wide) / 2, "exact");
        QVERIFY(!plan.ok());
        QVERIFY2(plan.error().find("has more than 2000000 lower sets") != std::string::npos, plan.error().c_str());
        // Without a budget, or with one that a single segment fits, no lower set is needed.
        QVERIFY(solve(wide, 0, "exact").ok());
        QVERIFY(solve(wide, graphStoreAllPeak(wide) * 2, "exact").ok());
    }

    // The search's work is estimated before it starts, and past kMaxSearchSteps refused with the estimate: one step per
    // pair of lower sets, a pass over the nodes and edges per nested pair. Closed forms: a chain of n nodes has n + 1
    // lower sets, all nested (approximate: the closures are its prefixes); two chains of m nodes joined by a sink have
    // (m + 1)^2 + 1, of which C(m + 2, 2)^2 pairs are nested. Within the limit, a 10^4-node graph ran for minutes.
    void refusesASearchOverItsLimit() {
        auto refusal = [](const Graph& g, const char* variant) {
            auto plan = solve(g, graphStoreAllPeak(g) / 2, variant);
            if (plan.ok() || plan.errorValue().infeasible) qFatal("%s: not refused", g.name().c_str());
            return plan.error();
        };
        auto says = [](const std::string& message, const std::string& what) {
            if (message.find(what) == std::string::npos)
                qFatal("expected \"%s\" in: %s", what.c_str(), message.c_str());
        };
        // 1101 * 1100 / 2 * (1 + 1100 + 1099) = 1.332e9
        says(refusal(linearGraph(1100), "approximate"),
             "would take 1.33 × 10⁹ steps of its search over 1101 lower sets, over the limit of 10⁹");
        // 2001 * 2000 / 2 * (1 + 2000 + 1999) = 8.004e9, refused before the lower sets are enumerated
        says(refusal(linearGraph(2000), "exact"),
             "would take 8 × 10⁹ steps of its search over at least 2001 lower sets, over the limit of 10⁹");
        says(refusal(linearGraph(kMaxClosureNodes + 1), "approximate"),
             "the graph has " + std::to_string(kMaxClosureNodes + 1) + " nodes, over its limit of " +
                 std::to_string(kMaxClosureNodes));
        auto twoChains = [](int m) {
            std::vector<GraphNode> nodes;
            std::vector<GraphEdge> edges;
            for (char c : {'a', 'b'})
                for (int i = 0; i < m; ++i) {
                    const std::string id = c + std::to_string(i);
                    nodes.push_back(GraphNode{id, 1, 2, 1000 + i, 0, true, false, false});
                    edges.push_back({id, i + 1 < m ? c + std::to_string(i + 1) : "sink"});
                }
            nodes.push_back(GraphNode{"sink", 1, 2, 10, 0, true, false, false});
            return *Graph::make("two-chains", nodes, edges);
        };
        // 4226 * 4225 / 2 + 2145^2 * (129 + 128) = 1.191e9; at m = 60, 8.6e8 is within the limit.
        says(refusal(twoChains(64), "exact"),
             "would take 1.19 × 10⁹ steps of its search over 4226 lower sets, over the limit of 10⁹");
    }

    // From the single segment's modelled peak on, the plan is that segment (store-all's time), found without the
    // family's search; one byte less, the search runs. So a larger budget never takes longer (DenseNet-121 once
    // took 3.5 s at 25 % and 93 s at 90 %).
    void oneSegmentOnceItFits() {
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            Graph g = randomLayeredGraph(40, seed);
            auto whole = solve(g, 0, "approximate");
            QVERIFY2(whole.ok(), whole.ok() ? "" : whole.error().c_str());
            const std::int64_t fits = whole->predicted_peak_bytes;
            QVERIFY(fits > 0);
            for (const char* variant : {"approximate", "exact"}) {
                auto at = solve(g, fits, variant);
                QVERIFY2(at.ok(), at.ok() ? "" : at.error().c_str());
                QCOMPARE(at->params.at("lower_sets"), std::string("2"));
                QCOMPARE(at->params.at("segments"), std::string("1"));
                QVERIFY(close(checked(g, *at, fits), g.totalForward() + g.totalBackward()));
            }
            auto under = solve(g, fits - 1, "approximate");
            if (under.ok()) {
                QVERIFY(std::stoi(under->params.at("lower_sets")) > 2);
                QVERIFY(checked(g, *under, fits - 1) >= g.totalForward() + g.totalBackward() - 1e-12);
            }
        }
    }

    void cancels() {
        Graph g = randomLayeredGraph(60, 1);
        std::atomic<bool> stop{true};
        SolveRequest req;
        req.budget_bytes = graphStoreAllPeak(g) / 2;
        req.cancel = &stop;
        auto plan = solveGraph("lower-set-dp", g, Hardware::unbounded(), req);
        QVERIFY(!plan.ok());
        QVERIFY2(plan.error().find("cancelled") != std::string::npos, plan.error().c_str());
    }
};

QTEST_APPLESS_MAIN(TestLowerSetDp)
#include "tst_lower_set_dp.moc"
