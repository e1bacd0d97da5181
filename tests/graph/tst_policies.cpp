// The frameworks' policies (engine/schedulers/policies.h) against what can be known without them: Korthikanti et
// al.'s closed forms of what selective and full recomputation keep of a transformer layer, the minimum cut against an
// exhaustive search of every kept set on small graphs, the knapsack against every subset, and the simulator's
// judgement of every plan.
#include "graph_exhaustive.h"
#include "io/graph_io.h"
#include "io/json_io.h"
#include "model/transformer.h"
#include "schedulers/graph_fit.h"
#include "schedulers/policies.h"
#include "sim/graph_simulator.h"

#include <QtTest>

#include <random>

using namespace ckpt;

namespace {

Hardware twoLevels() {
    auto hw =
        Hardware::make("gpu+host", {MemoryLevel{"gpu", std::numeric_limits<std::int64_t>::max(), 0, 0, 0},
                                    MemoryLevel{"host", std::numeric_limits<std::int64_t>::max(), 25e9, 25e9, 0}});
    if (!hw) qFatal("%s", hw.error().c_str());
    return *hw;
}

Graph transformer(TransformerShape m, int layers) {
    m.layers = layers;
    auto g = transformerGraph(m, Hardware::unbounded());
    if (!g) qFatal("%s", g.error().c_str());
    return *g;
}

Timeline run(const Graph& g, const std::string& scheduler, const std::map<std::string, std::string>& params = {},
             const Hardware& hw = Hardware::unbounded()) {
    SolveRequest req;
    req.params = params;
    auto plan = solveGraph(scheduler, g, hw, req);
    if (!plan) qFatal("%s: %s", scheduler.c_str(), plan.error().c_str());
    auto tl = simulateGraph(g, hw, plan->actions);
    if (!tl) qFatal("%s: %s", scheduler.c_str(), tl.error().c_str());
    return *tl;
}

// What one more layer adds to what level 0 holds when the forward ends.
std::int64_t perLayer(const TransformerShape& m, const std::string& scheduler,
                      const std::map<std::string, std::string>& params = {},
                      const Hardware& hw = Hardware::unbounded()) {
    return run(transformer(m, 3), scheduler, params, hw).totals.held_after_forward_bytes -
           run(transformer(m, 2), scheduler, params, hw).totals.held_after_forward_bytes;
}

// Whether keeping `kept` lets every output a backward needs be had without recomputing a banned node or an input.
bool cutWorks(const Graph& g, const std::vector<char>& banned, const std::vector<char>& kept) {
    std::vector<char> available(std::size_t(g.size()), 0);
    for (int v : g.topologicalOrder()) {
        bool ok = kept[std::size_t(v)];
        if (!ok && !banned[std::size_t(v)] && !g.inputs(v).empty()) {
            ok = true;
            for (int u : g.inputs(v))
                ok = ok && available[std::size_t(u)];
        }
        available[std::size_t(v)] = ok;
        if (neededByBackward(g, v) && !ok) return false;
    }
    return true;
}

std::int64_t bytes(const Graph& g, const std::vector<char>& set) {
    std::int64_t sum = 0;
    for (int v = 0; v < g.size(); ++v)
        if (set[std::size_t(v)]) sum += g.node(v).output_bytes;
    return sum;
}

} // namespace

class TestPolicies : public QObject {
    Q_OBJECT
private slots:
    // Table 2 of Korthikanti et al. 2022: a layer keeps sbh(34 + 5as/h) bytes with nothing recomputed, 34sbh with
    // selective recomputation, sbh(10 + 24/t) with tensor parallelism, 34sbh/t with sequence parallelism too, and
    // 2sbh with full recomputation (its input; 2sbh/t when sequence parallelism splits it).
    void layerMemoryIsThePapersClosedForm_data() {
        QTest::addColumn<qlonglong>("s");
        QTest::addColumn<qlonglong>("b");
        QTest::addColumn<qlonglong>("h");
        QTest::addColumn<qlonglong>("a");
        QTest::addColumn<int>("t");
        QTest::newRow("small") << 64LL << 2LL << 128LL << 4LL << 1;
        QTest::newRow("22B-like") << 128LL << 4LL << 6144LL << 64LL << 8;
        QTest::newRow("odd") << 40LL << 3LL << 96LL << 6LL << 2;
    }
    void layerMemoryIsThePapersClosedForm() {
        QFETCH(qlonglong, s);
        QFETCH(qlonglong, b);
        QFETCH(qlonglong, h);
        QFETCH(qlonglong, a);
        QFETCH(int, t);
        TransformerShape m;
        m.seq = s, m.batch = b, m.hidden = h, m.heads = a;
        const std::int64_t sbh = s * b * h;
        struct Case {
            int t;
            bool sp;
            std::int64_t selective, full;
        };
        for (const Case& c : {Case{1, false, 34 * sbh, 2 * sbh}, Case{t, false, 10 * sbh + 24 * sbh / t, 2 * sbh},
                              Case{t, true, 34 * sbh / t, 2 * sbh / t}}) {
            m.tensor_parallel = c.t, m.sequence_parallel = c.sp;
            QCOMPARE(perLayer(m, "selective-ac"), c.selective);
            QCOMPARE(perLayer(m, "full-ac"), c.full);
            // Megatron's block method over every layer is the uniform method one layer a group.
            QCOMPARE(perLayer(m, "full-ac", {{"method", "block"}, {"layers", "3"}}), c.full);
            QCOMPARE(perLayer(m, "jax-policy", {{"policy", "nothing_saveable"}}), c.full);
        }
        // JAX's dots_with_no_batch_dims_saveable keeps the layer's input (2sbh) and the projections' outputs that the
        // backward reads or rebuilds from: QKV (6sbh), the output projection (2sbh, the residual is rebuilt from it)
        // and fc1 (8sbh); QK^T and the product with the values have batch dimensions and are recomputed.
        m.tensor_parallel = 1, m.sequence_parallel = false;
        QCOMPARE(perLayer(m, "jax-policy", {{"policy", "dots_with_no_batch_dims_saveable"}}), 18 * sbh);
        QCOMPARE(perLayer(m, "jax-policy", {{"policy", "save_only_these_names"}, {"names", "qkv,fc1"}}), 16 * sbh);
    }

    // What each technique costs on one layer: full recomputation reruns the whole forward, selective only the core
    // attention; the order of Korthikanti et al.'s Table 4 (full > selective > none).
    void recomputationCostsInThePapersOrder() {
        auto hw = Hardware::make("roofline",
                                 {MemoryLevel{"gpu", std::numeric_limits<std::int64_t>::max(), 2e12, 2e12, 0, 312e12}});
        QVERIFY(hw.ok());
        auto g = transformerGraph(TransformerShape{4, 1024, 16, 256, 2}, *hw);
        QVERIFY(g.ok());
        const Timeline none = run(*g, "store-all"), selective = run(*g, "selective-ac"), full = run(*g, "full-ac");
        QVERIFY(none.totals.makespan_s < selective.totals.makespan_s);
        QVERIFY(selective.totals.makespan_s < full.totals.makespan_s);
        // Full recomputation runs every layer's forward again (all but the residual add that the next layer keeps
        // as its input): forward steps = nodes + 15 a layer.
        QCOMPARE(full.totals.forward_steps, (long long)(g->size() + 4 * 15));
        // Selective recomputation: QK^T, softmax, the dropout mask and the dropout: 4 a layer.
        QCOMPARE(selective.totals.forward_steps, (long long)(g->size() + 4 * 4));
        QVERIFY(full.totals.peak_bytes[0] < selective.totals.peak_bytes[0]);
        QVERIFY(selective.totals.peak_bytes[0] < none.totals.peak_bytes[0]);
    }

    // Keeping everything a backward needs is store-all: no recomputation, the same time, no higher peak.
    void keepingWhatIsNeededIsStoreAll() {
        for (unsigned seed = 1; seed <= 40; ++seed) {
            const Graph g = test::smallRandomGraph(3 + int(seed % 7), seed * 17);
            std::vector<char> keep(std::size_t(g.size()), 0);
            for (int v = 0; v < g.size(); ++v)
                keep[std::size_t(v)] = neededByBackward(g, v);
            auto tl = simulateGraph(g, savedSetSchedule(g, {keep, {}, {}}));
            QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
            auto all = simulateGraph(g, graphStoreAll(g));
            QVERIFY(all.ok());
            QCOMPARE(tl->totals.recomputed_steps, 0LL);
            QCOMPARE(tl->totals.makespan_s, all->totals.makespan_s);
            QVERIFY(tl->totals.peak_bytes[0] <= all->totals.peak_bytes[0]);
        }
    }

    // Any kept set, offloaded set and rerun groups make a plan the simulator accepts on a two-level machine.
    void everySavedSetMakesAValidPlan() {
        std::mt19937 rng(7);
        const Hardware hw = twoLevels();
        for (unsigned seed = 1; seed <= 200; ++seed) {
            const Graph g = test::smallRandomGraph(2 + int(seed % 9), seed);
            SavedSet set;
            for (int v = 0; v < g.size(); ++v) {
                set.keep.push_back(char(rng() % 2));
                set.offload.push_back(char(set.keep.back() && rng() % 3 == 0));
                set.rerun.push_back(rng() % 3 == 0 ? -1 : int(rng() % 3));
            }
            auto tl = simulateGraph(g, hw, savedSetSchedule(g, set));
            QVERIFY2(tl.ok(), (g.name() + ": " + (tl.ok() ? "" : tl.error())).c_str());
        }
    }

    // Every policy, every parameter choice, on small random graphs whose nodes are random operators and blocks: a
    // plan the simulator accepts on a two-level machine, whose time is the policy's own sum.
    void everyPolicyOnRandomGraphs() {
        const char* ops[] = {"MatMul",    "BatchMatMul", "Softmax", "Dropout", "DropoutMask", "Add", "Gelu",
                             "LayerNorm", "Conv",        "Relu",    ""};
        const Hardware hw = twoLevels();
        std::mt19937 rng(5);
        const std::vector<std::pair<std::string, std::map<std::string, std::string>>> runs = {
            {"full-ac", {}},
            {"full-ac", {{"method", "block"}, {"layers", "2"}}},
            {"full-ac", {{"layers", "2"}}},
            {"selective-ac", {}},
            {"min-cut", {}},
            {"memory-budget", {{"budget", "0.5"}, {"search", "off"}}},
            {"memory-budget", {{"budget", "0.3"}, {"solver", "ilp"}, {"estimator", "profile"}}},
            {"memory-budget", {{"budget", "0"}, {"search", "off"}}},
            {"jax-policy", {{"policy", "dots_saveable"}}},
            {"jax-policy", {{"policy", "offload_dot_with_no_batch_dims"}}},
            {"jax-policy",
             {{"policy", "save_and_offload_only_these_names"}, {"names", "v1,v3"}, {"offload_names", "v2"}}},
            {"deepspeed-offload", {}},
        };
        int planned = 0;
        for (unsigned seed = 1; seed <= 60; ++seed) {
            const Graph base = test::smallRandomGraph(3 + int(seed % 8), seed * 13);
            std::vector<GraphNode> nodes = base.nodes();
            for (GraphNode& n : nodes) {
                n.op = ops[rng() % std::size(ops)];
                n.block = rng() % 4 == 0 ? "" : "b" + std::to_string(rng() % 3);
            }
            const Graph g = *Graph::make(base.name(), nodes, base.edges());
            for (const auto& [name, params] : runs) {
                const GraphSchedulerInfo* s = findGraphScheduler(name);
                QVERIFY(s);
                if (s->lacks && !s->lacks(g).empty()) continue;
                SolveRequest req;
                req.params = params;
                auto plan = solveGraph(name, g, hw, req);
                QVERIFY2(plan.ok(), (name + " on " + g.name() + ": " + (plan.ok() ? "" : plan.error())).c_str());
                auto tl = simulateGraph(g, hw, plan->actions);
                QVERIFY2(tl.ok(), (name + " on " + g.name() + ": " + (tl.ok() ? "" : tl.error())).c_str());
                QVERIFY(std::abs(tl->totals.makespan_s - plan->predicted_makespan_s) <= 1e-9 * tl->totals.makespan_s);
                ++planned;
            }
        }
        QVERIFY(planned > 500);
    }

    // The minimum cut keeps the fewest bytes among every kept set that works (all 2^n of them on small graphs).
    void minCutMatchesExhaustiveSearch() {
        std::mt19937 rng(3);
        for (unsigned seed = 1; seed <= 150; ++seed) {
            const Graph g = test::smallRandomGraph(2 + int(seed % 9), seed * 7);
            const int n = g.size();
            std::vector<char> banned(static_cast<std::size_t>(n));
            for (auto& b : banned)
                b = char(rng() % 3 == 0);
            const std::vector<char> cut = minCutSaved(g, banned);
            QVERIFY2(cutWorks(g, banned, cut), g.name().c_str());
            std::int64_t best = -1;
            for (unsigned mask = 0; mask < (1u << n); ++mask) {
                std::vector<char> kept(static_cast<std::size_t>(n));
                for (int v = 0; v < n; ++v)
                    kept[std::size_t(v)] = (mask >> v) & 1;
                if (!cutWorks(g, banned, kept)) continue;
                const std::int64_t b = bytes(g, kept);
                if (best < 0 || b < best) best = b;
            }
            QCOMPARE(bytes(g, cut), best);
        }
    }

    // The knapsack's solvers against every subset: ilp exact, dp exact on sizes in steps of 10^-4, greedy feasible.
    void knapsackSolversAgainstEverySubset() {
        std::mt19937 rng(11);
        for (int round = 0; round < 300; ++round) {
            const int m = 1 + int(rng() % 11);
            std::vector<double> size(static_cast<std::size_t>(m)), runtime(static_cast<std::size_t>(m));
            for (int i = 0; i < m; ++i)
                size[std::size_t(i)] = double(rng() % 4000) / 10000, runtime[std::size_t(i)] = double(1 + rng() % 50);
            const double capacity = double(rng() % 10000) / 10000;
            double best = 0;
            for (unsigned mask = 0; mask < (1u << m); ++mask) {
                double s = 0, r = 0;
                for (int i = 0; i < m; ++i)
                    if ((mask >> i) & 1) s += size[std::size_t(i)], r += runtime[std::size_t(i)];
                if (s <= capacity + 1e-12) best = std::max(best, r);
            }
            auto value = [&](const KnapsackResult& k) {
                double s = 0, r = 0;
                for (int i = 0; i < m; ++i)
                    if (k.keep[std::size_t(i)]) s += size[std::size_t(i)], r += runtime[std::size_t(i)];
                if (s > capacity + 1e-9) return -1.0;
                return r;
            };
            const KnapsackResult ilp = solveKnapsack(size, runtime, capacity, "ilp");
            QVERIFY(ilp.proven);
            QCOMPARE(value(ilp), best);
            QCOMPARE(value(solveKnapsack(size, runtime, capacity, "dp")), best);
            const double greedy = value(solveKnapsack(size, runtime, capacity, "greedy"));
            QVERIFY(greedy >= 0 && greedy <= best);
        }
    }

    // PyTorch's memory budget: 1 is the default partitioner's cut, 0 keeps only the graph's input, between them the
    // knapsack; every plan fits the byte budget it was searched for.
    void memoryBudgetBetweenItsExtremes() {
        TransformerShape m;
        m.seq = 128, m.batch = 2, m.hidden = 256, m.heads = 4;
        const Graph g = transformer(m, 3);
        SolveRequest req;
        req.params = {{"budget", "1"}, {"search", "off"}};
        auto one = solveGraph("memory-budget", g, Hardware::unbounded(), req);
        auto cut = solveGraph("min-cut", g, Hardware::unbounded(), {});
        QVERIFY(one.ok() && cut.ok());
        QCOMPARE(one->actions, cut->actions);
        req.params["budget"] = "0";
        auto zero = solveGraph("memory-budget", g, Hardware::unbounded(), req);
        QVERIFY(zero.ok());
        QCOMPARE(zero->params.at("stage"), std::string("inputs only"));
        QVERIFY(simulateGraph(g, zero->actions).ok());
        // Only the embedding's output (2sbh): every other output a backward reads is rebuilt from it.
        const std::int64_t sbh = 128 * 2 * 256;
        QCOMPARE(zero->params.at("kept_bytes"), std::to_string(2 * sbh));
        req.params["budget"] = "0.5";
        for (const char* solver : {"greedy", "dp", "ilp"}) {
            req.params["solver"] = solver;
            auto half = solveGraph("memory-budget", g, Hardware::unbounded(), req);
            QVERIFY(half.ok());
            QVERIFY(simulateGraph(g, half->actions).ok());
            QCOMPARE(half->params.at("stage"), std::string("knapsack"));
        }
        // Searched for a byte budget: the largest budget whose plan fits.
        const std::int64_t storeAll = simulateGraph(g, graphStoreAll(g))->totals.peak_bytes[0];
        SolveRequest fit;
        fit.budget_bytes = storeAll * 6 / 10;
        auto searched = solveGraph("memory-budget", g, Hardware::unbounded(), fit);
        QVERIFY2(searched.ok(), searched.ok() ? "" : searched.error().c_str());
        auto tl = simulateGraph(g, searched->actions);
        QVERIFY(tl.ok() && tl->totals.peak_bytes[0] <= fit.budget_bytes);
        QVERIFY(std::stod(searched->params.at("budget")) < 1);
    }

    // A policy that cannot meet a budget says so with its own least memory, and that budget works.
    void infeasibleNamesItsOwnLeastMemory() {
        TransformerShape m;
        m.seq = 64, m.batch = 2, m.hidden = 128, m.heads = 4;
        const Graph g = transformer(m, 3);
        for (const char* name : {"selective-ac", "full-ac", "min-cut", "memory-budget", "jax-policy"}) {
            SolveRequest req;
            req.budget_bytes = 1024;
            auto plan = solveGraph(name, g, Hardware::unbounded(), req);
            QVERIFY2(!plan.ok() && plan.errorValue().infeasible, name);
            const std::string& msg = plan.error();
            auto open = msg.find('('), space = msg.find(" B)");
            QVERIFY2(open != std::string::npos && space != std::string::npos, msg.c_str());
            req.budget_bytes = std::stoll(msg.substr(open + 1, space - open - 1));
            auto retry = solveGraph(name, g, Hardware::unbounded(), req);
            QVERIFY2(retry.ok(), retry.ok() ? "" : retry.error().c_str());
            req.budget_bytes -= 1;
            QVERIFY2(!solveGraph(name, g, Hardware::unbounded(), req).ok(), name);
        }
    }

    // DeepSpeed's cpu_checkpointing: each layer's input goes to level 1 (2sbh written a layer) and level 0 keeps none
    // of them when the forward ends; the plan runs on the machine as it is. On one level it is "n/a", saying why.
    void deepspeedOffloadsEachCheckpoint() {
        TransformerShape m;
        m.seq = 64, m.batch = 2, m.hidden = 128, m.heads = 4;
        const std::int64_t sbh = 64 * 2 * 128;
        const Hardware hw = twoLevels();
        const Timeline three = run(transformer(m, 3), "deepspeed-offload", {}, hw);
        const Timeline two = run(transformer(m, 2), "deepspeed-offload", {}, hw);
        QCOMPARE(three.totals.bytes_written - two.totals.bytes_written, 2 * sbh);
        QCOMPARE(three.totals.bytes_read - two.totals.bytes_read, 2 * sbh);
        QCOMPARE(three.totals.held_after_forward_bytes - two.totals.held_after_forward_bytes, 0LL);
        auto one = solveGraph("deepspeed-offload", transformer(m, 2), Hardware::unbounded(), {});
        QVERIFY(!one.ok() && !one.errorValue().infeasible);
        QVERIFY2(QString::fromStdString(one.error()).contains("needs 2 memory levels"), one.error().c_str());
    }

    // JAX: everything_saveable is store-all; the offload policy writes the projections' outputs to level 1.
    void jaxPolicies() {
        TransformerShape m;
        m.seq = 64, m.batch = 2, m.hidden = 128, m.heads = 4;
        const Graph g = transformer(m, 2);
        const Timeline all = run(g, "store-all"), every = run(g, "jax-policy", {{"policy", "everything_saveable"}});
        QCOMPARE(every.totals.makespan_s, all.totals.makespan_s);
        QCOMPARE(every.totals.held_after_forward_bytes, all.totals.held_after_forward_bytes);
        const std::int64_t sbh = 64 * 2 * 128;
        const Hardware hw = twoLevels();
        const std::map<std::string, std::string> offload{{"policy", "offload_dot_with_no_batch_dims"}};
        QCOMPARE(run(transformer(m, 3), "jax-policy", offload, hw).totals.bytes_written -
                     run(transformer(m, 2), "jax-policy", offload, hw).totals.bytes_written,
                 16 * sbh);
        SolveRequest req;
        req.params = offload;
        QVERIFY(!solveGraph("jax-policy", g, Hardware::unbounded(), req).ok());
        req.params = {{"policy", "save_only_these_names"}};
        auto noNames = solveGraph("jax-policy", g, Hardware::unbounded(), req);
        QVERIFY(!noNames.ok());
        QVERIFY2(QString::fromStdString(noNames.error()).contains("needs names"), noNames.error().c_str());
    }

    // Every policy on the shipped transformers (the tagged encoder example and the two generated ones) on the A100
    // 80 GB preset: a plan the simulator accepts on that machine, selective recomputation faster than full.
    void policiesOnTheShippedTransformers() {
        const std::string root = std::string(CKPT_SOURCE_DIR) + "/";
        auto hw = loadHardware(root + "resources/hardware/gpu-a100-80gb.ckpt-hardware.json");
        QVERIFY2(hw.ok(), hw.ok() ? "" : hw.error().c_str());
        for (const char* file : {"transformer-4x-b8-s512", "transformer-l4-h1024-s1024", "gpt3-175b-stage-t8"}) {
            auto g = loadGraph(root + "examples/" + file + ".ckpt-graph.json");
            QVERIFY2(g.ok(), g.ok() ? "" : g.error().c_str());
            std::map<std::string, double> time;
            for (const char* name :
                 {"full-ac", "selective-ac", "memory-budget", "min-cut", "jax-policy", "deepspeed-offload"}) {
                auto plan = solveGraph(name, *g, *hw, {});
                QVERIFY2(plan.ok(), (std::string(file) + ", " + name + ": " + (plan ? "" : plan.error())).c_str());
                auto tl = simulateGraph(*g, *hw, plan->actions);
                QVERIFY2(tl.ok(), (std::string(file) + ", " + name + ": " + (tl ? "" : tl.error())).c_str());
                time[name] = tl->totals.makespan_s;
            }
            QVERIFY2(time["selective-ac"] < time["full-ac"], file);
        }
    }

    // Without a Softmax there is no attention to recompute: selective-ac is "n/a" and says why.
    void selectiveNeedsAttention() {
        const Graph g = test::smallRandomGraph(6, 3);
        const GraphSchedulerInfo* s = findGraphScheduler("selective-ac");
        QVERIFY(s && s->lacks);
        QVERIFY(!s->lacks(g).empty());
        QVERIFY(s->lacks(transformer(TransformerShape{1, 128, 4, 64, 1}, 1)).empty());
    }
};

QTEST_GUILESS_MAIN(TestPolicies)
#include "tst_policies.moc"
