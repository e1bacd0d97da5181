// Memory layout (sim/layout.h) against its oracles: exhaustive search over every integer address on tiny sets, the
// perfect packing of equal sizes, and the simulator's own peak on real plans.
#include "io/graph_io.h"
#include "run/budget.h"
#include "run/run_layout.h"
#include "schedulers/graph_registry.h"
#include "schedulers/revolve.h"
#include "schedulers/rotor.h"
#include "schedulers/store_all.h"
#include "sim/graph_simulator.h"
#include "sim/layout.h"
#include "sim/simulator.h"
#include "test_util.h"

#include <QtTest>
#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

using namespace ckpt;
using namespace ckpt::test;

namespace {

// No two tensors that live at the same time share an address.
bool valid(const MemoryLayout& l) {
    for (std::size_t a = 0; a < l.tensors.size(); ++a)
        for (std::size_t b = a + 1; b < l.tensors.size(); ++b) {
            const PlacedTensor &p = l.tensors[a], &q = l.tensors[b];
            const bool together = p.life.first < q.life.last && q.life.first < p.life.last;
            const bool overlap = p.offset < q.offset + q.life.bytes && q.offset < p.offset + p.life.bytes;
            if (together && overlap) return false;
        }
    return true;
}

std::vector<TensorLife> randomLives(std::mt19937& rng, int count, int maxBytes, int span = 12) {
    std::uniform_int_distribution<int> pos(1, span), len(1, 6), size(1, maxBytes);
    std::vector<TensorLife> out;
    for (int k = 0; k < count; ++k) {
        TensorLife t;
        t.first = pos(rng);
        t.last = t.first + len(rng);
        t.start = double(t.first), t.end = double(t.last);
        t.bytes = size(rng);
        t.index = k;
        out.push_back(t);
    }
    return out;
}

// The least packed peak over every assignment of integer addresses (tiny sets only).
std::int64_t exhaustivePacking(const std::vector<TensorLife>& lives) {
    const std::int64_t total = std::accumulate(lives.begin(), lives.end(), std::int64_t(0),
                                               [](std::int64_t s, const TensorLife& t) { return s + t.bytes; });
    std::int64_t best = total;
    std::vector<std::int64_t> at(lives.size(), 0);
    std::function<void(std::size_t, std::int64_t)> go = [&](std::size_t k, std::int64_t top) {
        if (top >= best) return;
        if (k == lives.size()) {
            best = top;
            return;
        }
        for (std::int64_t off = 0; off + lives[k].bytes <= total; ++off) {
            bool ok = true;
            for (std::size_t j = 0; j < k && ok; ++j) {
                const bool together = lives[j].first < lives[k].last && lives[k].first < lives[j].last;
                ok = !together || at[j] + lives[j].bytes <= off || off + lives[k].bytes <= at[j];
            }
            if (!ok) continue;
            at[k] = off;
            go(k + 1, std::max(top, off + lives[k].bytes));
        }
    };
    go(0, 0);
    return best;
}

} // namespace

class TestLayout : public QObject {
    Q_OBJECT
private slots:
    // On tiny sets, the least first fit over every order equals the least packing over every integer address, and
    // the greedy layout is valid and no lower than that optimum, itself no lower than the ideal peak.
    void firstFitOverAllOrdersIsOptimal() {
        std::mt19937 rng(11);
        int fragmented = 0, greedyOptimal = 0;
        for (int round = 0; round < 120; ++round) {
            const auto lives = randomLives(rng, 3 + round % 4, 4, 8); // 3..6 tensors of 1..4 bytes
            std::vector<std::size_t> order(lives.size());
            std::iota(order.begin(), order.end(), std::size_t(0));
            std::int64_t bestFirstFit = std::numeric_limits<std::int64_t>::max();
            do {
                const MemoryLayout l = firstFitLayout(lives, order);
                QVERIFY(valid(l));
                bestFirstFit = std::min(bestFirstFit, l.packed_peak);
            } while (std::next_permutation(order.begin(), order.end()));
            const std::int64_t optimum = exhaustivePacking(lives);
            QCOMPARE(bestFirstFit, optimum);
            auto greedy = packLayout(lives);
            QVERIFY(greedy.ok());
            QVERIFY(valid(*greedy));
            QVERIFY(greedy->packed_peak >= optimum);
            QVERIFY(optimum >= greedy->ideal_peak);
            fragmented += optimum > greedy->ideal_peak;
            greedyOptimal += greedy->packed_peak == optimum;
        }
        qInfo("greedy by size optimal on %d of 120 sets; no packing reaches the ideal peak on %d", greedyOptimal,
              fragmented);
    }

    // Tensors of one size pack perfectly (an interval graph is coloured with as many colours as its largest clique).
    void equalSizesPackToTheIdealPeak() {
        std::mt19937 rng(5);
        for (int round = 0; round < 50; ++round) {
            auto lives = randomLives(rng, 30, 1);
            for (TensorLife& t : lives)
                t.bytes = 64;
            auto l = packLayout(lives);
            QVERIFY(l.ok());
            QVERIFY(valid(*l));
            QCOMPARE(l->packed_peak, l->ideal_peak);
        }
    }

    // A real plan: the tensors the simulator records make up its peak exactly, and their layout is valid.
    void plansLayOutValidly() {
        for (unsigned seed = 1; seed <= 6; ++seed) {
            const Chain c = randomChain(15 + int(seed) * 5, seed);
            for (const Schedule& plan : {storeAllPlan(c).actions, revolvePlan(c, 4).actions}) {
                std::vector<TensorLife> lives;
                SimOptions opt;
                opt.tensors = &lives;
                auto tl = simulate(c, Hardware::unbounded(), plan, opt);
                QVERIFY2(tl, tl ? "" : tl.error().c_str());
                QVERIFY(!lives.empty());
                QCOMPARE(idealPeak(lives), tl->totals.peak_bytes[0]);
                auto l = packLayout(lives);
                QVERIFY(l.ok());
                QVERIFY(valid(*l));
                QCOMPARE(l->ideal_peak, tl->totals.peak_bytes[0]);
                QVERIFY(l->packed_peak >= l->ideal_peak);
                QVERIFY(l->fragmentation() >= 0 && l->fragmentation() < 1);
            }
        }
        // Graph plans: every tensor of the graph simulator too, in-place outputs continuing their input's buffer.
        for (const char* name : {"vgg16-b32-224", "resnet18-b32-224", "unet-small-b8-128"}) {
            auto g = loadGraph(std::string(CKPT_SOURCE_DIR) + "/examples/" + name + ".ckpt-graph.json");
            QVERIFY2(g, g ? "" : g.error().c_str());
            for (const char* scheduler : {"store-all", "dtr", "chen-greedy"}) {
                SolveRequest req;
                req.budget_bytes = std::string(scheduler) == "store-all" ? 0 : graphStoreAllPeak(*g) / 2;
                auto plan = solveGraph(scheduler, *g, Hardware::unbounded(), req);
                if (!plan) continue; // chen-greedy may not fit half
                std::vector<TensorLife> lives;
                SimOptions opt;
                opt.tensors = &lives;
                auto tl = simulateGraphPlan(*g, Hardware::unbounded(), *plan, opt);
                QVERIFY2(tl, tl ? "" : tl.error().c_str());
                QCOMPARE(idealPeak(lives), tl->totals.peak_bytes[0]);
                auto l = packLayout(lives);
                QVERIFY(l.ok() && valid(*l));
                QVERIFY(l->packed_peak >= l->ideal_peak);
            }
        }
        {
            // a (400 B) -> b, an in-place ReLU: b's output is a's buffer, one tensor from a's forward to b's release.
            const Graph g = *Graph::make("relu",
                                         {GraphNode{"a", 1, 2, 400, 0, true, false, false},
                                          GraphNode{"b", 1, 2, 400, 0, false, true, false, true},
                                          GraphNode{"c", 1, 2, 10, 0, true, false, false}},
                                         {{"a", "b"}, {"b", "c"}});
            std::vector<TensorLife> lives;
            SimOptions opt;
            opt.tensors = &lives;
            auto tl = simulateGraph(g, graphStoreAll(g), opt);
            QVERIFY(tl && tl->totals.in_place == 1);
            int outputs = 0;
            for (const TensorLife& t : lives)
                if (t.category == MemoryCategory::State) {
                    ++outputs;
                    if (t.bytes == 400) { // to b's backward's end
                        QCOMPARE(t.start, 0.0);
                        QCOMPARE(t.end, 7.0);
                    }
                }
            QCOMPARE(outputs, 2); // a's buffer (then b's) and c's output
            QCOMPARE(idealPeak(lives), tl->totals.peak_bytes[0]);
        }
        // Too many tensors are refused with the reason, not laid out for minutes.
        std::vector<TensorLife> many(kMaxLayoutTensors + 1, TensorLife{0, 1, 1, 2, 8, MemoryCategory::State, 0});
        auto refused = packLayout(many);
        QVERIFY(!refused);
        QVERIFY2(refused.error().find("20001 tensors") != std::string::npos, refused.error().c_str());
    }

    // The one layout both front ends show (run/run_layout.h): a run's plan of its problem, chain or graph, packed from
    // the lifetimes its simulation gives; a plan of another problem, or no plan, is refused with the reason.
    void aRunIsLaidOutOnItsProblem() {
        const Chain chain = *Chain::uniform("u", 12, Step{1, 2, 100, 300, 0, 0});
        SolveRequest req;
        req.params = {{"slots", "3"}};
        const Run chainRun = runScheduler("revolve", Problem(chain), Hardware::unbounded(), req);
        QVERIFY2(chainRun.feasible, chainRun.message.c_str());
        auto laid = layoutRun(chainRun, Problem(chain), Hardware::unbounded());
        QVERIFY2(laid, laid ? "" : laid.error().c_str());
        QCOMPARE(laid->ideal_peak, chainRun.timeline->totals.peak_bytes[0]);
        QVERIFY(valid(*laid));
        auto g = loadGraph(std::string(CKPT_SOURCE_DIR) + "/examples/unet-small-b8-128.ckpt-graph.json");
        QVERIFY2(g, g ? "" : g.error().c_str());
        SolveRequest half;
        half.budget_bytes = graphStoreAllPeak(*g) / 2;
        const Run graphRun = runScheduler("dtr", Problem(*g), Hardware::unbounded(), half);
        QVERIFY2(graphRun.feasible, graphRun.message.c_str());
        laid = layoutRun(graphRun, Problem(*g), Hardware::unbounded());
        QVERIFY2(laid, laid ? "" : laid.error().c_str());
        QCOMPARE(laid->ideal_peak, graphRun.timeline->totals.peak_bytes[0]);
        QVERIFY(valid(*laid));
        // A graph plan on the chain (a U-Net is no chain): refused, naming the problem.
        auto other = layoutRun(graphRun, Problem(chain), Hardware::unbounded());
        QVERIFY(!other);
        QCOMPARE(QString::fromStdString(other.error()), QString("the plan is not of u"));
        Run none = chainRun;
        none.feasible = false;
        none.message = "needs at least 1 KiB";
        QCOMPARE(QString::fromStdString(layoutRun(none, Problem(chain), Hardware::unbounded()).error()),
                 QString("the run found no plan: needs at least 1 KiB"));
    }
};

QTEST_APPLESS_MAIN(TestLayout)
#include "tst_layout.moc"
