// The graph simulator: a residual block worked out by hand, every rejection with its index, recomputation.
#include "io/graph_io.h"
#include "sim/graph_simulator.h"

#include <QtTest>

using namespace ckpt;

namespace {
// a -> b -> c and a -> c; outputs 100, 200, 50 bytes; forward 1, backward 2.
Graph residual() {
    return *Graph::make("res",
                        {GraphNode{"a", 1, 2, 100, 0, true, false, false},
                         GraphNode{"b", 1, 2, 200, 0, true, false, false},
                         GraphNode{"c", 1, 2, 50, 0, true, false, false}},
                        {{"a", "b"}, {"b", "c"}, {"a", "c"}});
}
using A = GraphAction;
} // namespace

class TestGraphSimulator : public QObject {
    Q_OBJECT
private slots:
    void storeAllByHand() {
        Graph g = residual();
        auto tl = simulateGraph(g, graphStoreAll(g));
        QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
        QCOMPARE(tl->totals.makespan_s, 9.0);
        QCOMPARE(tl->totals.forward_steps, 3LL);
        // At the start of c's backward: outputs a and b (300), the loss gradient of c (50) and new gradients for a and
        // b (300). c's own output is not needed by its backward, so it went at the end of its forward.
        QCOMPARE(tl->totals.peak_bytes[0], std::int64_t(650));
        QCOMPARE(tl->memory[0].back().total(), std::int64_t(0));
    }

    void recomputeAfterAFree() {
        Graph g = residual();
        GraphSchedule s = {A::forward(0), A::forward(1),  A::forward(2),  A::free(1),
                           A::forward(1), A::backward(2), A::backward(1), A::backward(0)};
        auto tl = simulateGraph(g, s);
        QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
        QCOMPARE(tl->totals.recomputed_steps, 1LL);
        QCOMPARE(tl->intervals[3].kind, IntervalKind::Recompute);
        QCOMPARE(tl->totals.makespan_s, 10.0);
    }

    void rejectsEachWithItsIndex() {
        Graph g = residual();
        struct Case {
            GraphSchedule s;
            long long index;
            const char* says;
        };
        std::vector<Case> cases = {
            {{A::forward(0), A::forward(2)}, 1, "input 'b' is not held"},
            {{A::forward(0), A::forward(1), A::backward(1)}, 2, "backward of 'c' must come first"},
            {{A::forward(0), A::forward(1), A::forward(2), A::free(0), A::backward(2)}, 4, "needs the output of 'a'"},
            {{A::forward(0), A::forward(1), A::forward(2), A::backward(2), A::backward(1)},
             5,
             "before the backward of node 'a'"},
            {{A::forward(0), A::forward(0)}, 1, "already held"},
            {{A::forward(0), A::forward(1), A::forward(2), A::backward(2), A::backward(2)}, 4, "done twice"},
            {{A::forward(7)}, 0, "no node 7"},
            {{A::forward(0), A::forward(1), A::backward(2)}, 2, "its forward has not run yet"},
        };
        GraphSchedule after = graphStoreAll(g);
        after.push_back(A::forward(0));
        cases.push_back({after, 6, "nothing may follow"});
        for (const Case& c : cases) {
            auto tl = simulateGraph(g, c.s);
            QVERIFY(!tl.ok());
            QCOMPARE(tl.errorIndex(), c.index);
            QVERIFY2(tl.error().find(c.says) != std::string::npos, tl.error().c_str());
        }
        SimOptions opt;
        opt.budget_bytes = 600;
        auto over = simulateGraph(g, graphStoreAll(g), opt);
        QVERIFY(!over.ok());
        QVERIFY(over.errorValue().infeasible);
        QCOMPARE(over.errorIndex(), 3LL);
    }

    void chainsAsGraphsTakeTheChainsTime() {
        Chain c = *Chain::make("c", {Step{1, 2, 10, 30, 0, 0}, Step{3, 5, 20, 40, 0, 0}, Step{2, 4, 30, 50, 0, 0}});
        Graph g = Graph::fromChain(c);
        auto tl = simulateGraph(g, graphStoreAll(g));
        QVERIFY(tl.ok());
        QCOMPARE(tl->totals.makespan_s, c.totalForward() + c.totalBackward());
        auto random = randomLayeredGraph(40, 5);
        auto rt = simulateGraph(random, graphStoreAll(random));
        QVERIFY2(rt.ok(), rt.ok() ? "" : rt.error().c_str());
        QCOMPARE(rt->totals.backward_steps, 40LL);
    }

    void offloadToASlowerLevelByHand() {
        // a -> b -> c (outputs 100, 200, 50 B; forward 1 s, backward 2 s; backward needs the inputs). Level 1 moves
        // 100 B/s each way. a goes to level 1 while b runs, and comes back while c's backward runs.
        Graph g = *Graph::make("abc",
                               {GraphNode{"a", 1, 2, 100, 0, true, false, false},
                                GraphNode{"b", 1, 2, 200, 0, true, false, false},
                                GraphNode{"c", 1, 2, 50, 0, true, false, false}},
                               {{"a", "b"}, {"b", "c"}});
        Hardware hw = *Hardware::make("two", {MemoryLevel{"fast"}, MemoryLevel{"slow", 1000, 100, 100, 0}});
        GraphSchedule s = {A::forward(0),  A::write(0, 1), A::forward(1),  A::free(0),    A::forward(2),
                           A::backward(2), A::read(0, 1),  A::backward(1), A::backward(0)};
        auto tl = simulateGraph(g, hw, s);
        QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
        // Compute: F a [0,1], F b [1,2], F c [2,3], B c [3,5], B b [6,8] (waits for the read [5,6]), B a [8,10].
        QCOMPARE(tl->totals.makespan_s, 10.0);
        QCOMPARE(tl->totals.compute_s, 9.0);
        QCOMPARE(tl->totals.bytes_written, 100LL);
        QCOMPARE(tl->totals.bytes_read, 100LL);
        QCOMPARE(tl->totals.channel_busy_s[1], 2.0);
        // Intervals in plan order, the free having none: the read is the sixth, b's backward the seventh.
        QCOMPARE(tl->intervals[5].lane, std::int16_t(1));
        QCOMPARE(tl->intervals[5].start, 5.0);
        QCOMPARE(tl->intervals[6].start, 6.0);
        // Level 0 peaks at c's backward: b (200) + the gradients of c and b (250); a is on level 1 then.
        QCOMPARE(tl->totals.peak_bytes[0], std::int64_t(450));
        QCOMPARE(tl->totals.peak_bytes[1], std::int64_t(100));
        auto all = simulateGraph(g, hw, graphStoreAll(g));
        QVERIFY(all.ok());
        QCOMPARE(all->totals.peak_bytes[0], std::int64_t(550)); // a kept: 100 more
        QCOMPARE(tl->memory[0].back().total(), std::int64_t(0));
        QCOMPARE(tl->memory[1].back().total(), std::int64_t(0)); // released once b's backward is done

        struct Case {
            GraphSchedule s;
            long long index;
            const char* says;
        };
        std::vector<Case> cases = {
            {{A::forward(0), A::read(0, 1)}, 1, "not held on level 1"},
            {{A::forward(0), A::write(0, 1), A::free(0), A::forward(1)}, 3, "read it first"},
            {{A::forward(0), A::write(0, 0)}, 1, "level 0 cannot be the other end"},
            {{A::forward(0), A::write(0, 2)}, 1, "no memory level 2"},
            {{A::forward(0), A::write(0, 1), A::write(0, 1)}, 2, "already held on level 1"},
        };
        for (const Case& c : cases) {
            auto r = simulateGraph(g, hw, c.s);
            QVERIFY(!r.ok());
            QCOMPARE(r.errorIndex(), c.index);
            QVERIFY2(r.error().find(c.says) != std::string::npos, r.error().c_str());
        }
        Hardware small = *Hardware::make("small", {MemoryLevel{"fast"}, MemoryLevel{"slow", 50, 100, 100, 0}});
        auto over = simulateGraph(g, small, s);
        QVERIFY(!over.ok() && over.errorValue().infeasible);
        QCOMPARE(over.errorIndex(), 1LL);
        QVERIFY2(over.error().find("its capacity") != std::string::npos, over.error().c_str());
    }

    void inPlaceByHand() {
        // a -> b -> c: a 400 B, b an in-place ReLU (400 B; its backward needs its output only), c 10 B; forward 1 s,
        // backward 2 s. b writes over a, which no later action reads: the forward holds 400 B where it held 800.
        auto graph = [](bool inPlace, bool bNeedsA) {
            return *Graph::make("relu",
                                {GraphNode{"a", 1, 2, 400, 0, true, false, false},
                                 GraphNode{"b", 1, 2, 400, 0, bNeedsA, true, false, inPlace},
                                 GraphNode{"c", 1, 2, 10, 0, true, false, false}},
                                {{"a", "b"}, {"b", "c"}});
        };
        auto forwardPeak = [](const Timeline& tl, double before) {
            std::int64_t most = 0;
            for (const MemorySample& m : tl.memory[0])
                if (m.time < before) most = std::max(most, m.total());
            return most;
        };
        for (bool inPlace : {false, true}) {
            Graph g = graph(inPlace, false);
            // Store-all frees a after b's forward (no backward needs it): with the flag, that free frees nothing more.
            auto tl = simulateGraph(g, graphStoreAll(g));
            QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
            QCOMPARE(tl->totals.in_place, inPlace ? 1LL : 0LL);
            QCOMPARE(forwardPeak(*tl, 3.0), std::int64_t(inPlace ? 410 : 800));
            // The backward is the same: b's backward holds b, its gradient and a's (1200).
            QCOMPARE(tl->totals.peak_bytes[0], std::int64_t(1200));
            QCOMPARE(tl->totals.makespan_s, 9.0);
            QCOMPARE(tl->memory[0].back().total(), std::int64_t(0));
        }
        // When b's backward needs a, a must survive: no in-place, and c's forward holds a, b and c.
        Graph needs = graph(true, true);
        auto kept = simulateGraph(needs, graphStoreAll(needs));
        QVERIFY(kept.ok());
        QCOMPARE(kept->totals.in_place, 0LL);
        QCOMPARE(forwardPeak(*kept, 3.0), std::int64_t(810));
        QCOMPARE(kept->totals.peak_bytes[0], std::int64_t(1600));

        // A write of a still under way when b starts: b waits for it (400 B at 100 B/s: [1,5]), then takes a's
        // buffer; a written after b instead keeps b from running in place.
        Graph g = graph(true, false);
        Hardware hw = *Hardware::make("two", {MemoryLevel{"fast"}, MemoryLevel{"slow", 1000, 100, 100, 0}});
        GraphSchedule before = {A::forward(0), A::write(0, 1), A::forward(1),  A::free(0),
                                A::forward(2), A::backward(2), A::backward(1), A::backward(0)};
        auto waits = simulateGraph(g, hw, before);
        QVERIFY2(waits.ok(), waits.ok() ? "" : waits.error().c_str());
        QCOMPARE(waits->totals.in_place, 1LL);
        QCOMPARE(waits->intervals[2].start, 5.0); // b's forward
        QCOMPARE(waits->totals.makespan_s, 13.0);
        QCOMPARE(waits->memory[1].back().total(), std::int64_t(0));
        GraphSchedule after = {A::forward(0), A::forward(1),  A::write(0, 1), A::free(0),
                               A::forward(2), A::backward(2), A::backward(1), A::backward(0)};
        auto reads = simulateGraph(g, hw, after);
        QVERIFY2(reads.ok(), reads.ok() ? "" : reads.error().c_str());
        QCOMPARE(reads->totals.in_place, 0LL);
        QCOMPARE(forwardPeak(*reads, 2.0), std::int64_t(800));
        // Recomputing a after b wrote over it, and b again from it: a's new copy is a's, and b runs in place again.
        GraphSchedule again = {A::forward(0), A::forward(1),  A::forward(2),  A::free(1),    A::forward(0),
                               A::forward(1), A::backward(2), A::backward(1), A::backward(0)};
        auto twice = simulateGraph(g, again);
        QVERIFY2(twice.ok(), twice.ok() ? "" : twice.error().c_str());
        QCOMPARE(twice->totals.in_place, 2LL);
        QCOMPARE(twice->totals.recomputed_steps, 2LL);
        QCOMPARE(twice->memory[0].back().total(), std::int64_t(0));
    }
};

QTEST_APPLESS_MAIN(TestGraphSimulator)
#include "tst_graph_simulator.moc"
