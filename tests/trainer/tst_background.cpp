// The explorer's background runs without its widgets: what mainwindow_runs.cpp and trainerpanel.cpp do on worker
// threads (a comparison with progress and Cancel, a solve that a newer one replaces, a training run that Stop ends),
// with the main thread playing the GUI. Deterministic hand-offs make each result exact; the ThreadSanitizer build
// (the `tsan` preset) runs these to find data races between the threads.
#include "model/chain.h"
#include "run/runner.h"
#include "trainer/trainer.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace ckpt;

namespace {

// A one-shot signal between two threads.
class Gate {
public:
    void open() {
        std::lock_guard lock(m_mutex);
        m_open = true;
        m_cv.notify_all();
    }
    void wait() {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return m_open; });
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_open = false;
};

Graph smallGraph() {
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    for (int i = 0; i < 8; ++i) {
        nodes.push_back({"n" + std::to_string(i), 1e-3 * (1 + i % 3), 2e-3, 1000 + 300 * (i % 4), 0, true, false});
        if (i > 0) edges.push_back({nodes[i - 1].id, nodes[i].id});
        if (i > 1 && i % 2 == 0) edges.push_back({nodes[i - 2].id, nodes[i].id});
    }
    return *Graph::make("small", std::move(nodes), std::move(edges));
}

} // namespace

class TestBackground : public QObject {
    Q_OBJECT
private slots:
    // Run all, then Cancel once the first result is in: the worker stops before the next run and returns what it has.
    void compareStopsAtCancel() {
        Chain chain = *Chain::uniform("u", 40, Step{1e-3, 2e-3, 1000, 3000, 0, 0});
        CompareRequest req;
        req.budgets = {0, 60'000};
        std::atomic<bool> cancel = false;
        std::atomic<int> reported = 0;
        Gate firstDone, cancelled;
        std::vector<Run> runs;
        std::thread worker([&] {
            runs = compare(
                chain, Hardware::unbounded(), req,
                [&](int done, int) {
                    reported = done;
                    if (done == 1) {
                        firstDone.open();
                        cancelled.wait();
                    }
                },
                &cancel);
        });
        firstDone.wait();
        cancel = true;
        cancelled.open();
        worker.join();
        QCOMPARE(int(runs.size()), 1);
        QCOMPARE(reported.load(), 1);
        QVERIFY2(runs[0].feasible, runs[0].message.c_str());
        QCOMPARE(runs[0].timeline->totals.forward_steps, 40LL); // the first scheduler is store-all
    }

    // A slider move replaces a running solve: the old one is told to stop while the new one runs beside it (Checkmate
    // keeps CBC's state in statics, so the two share one solver at a time).
    void replacedSolveStops() {
        const Graph graph = smallGraph();
        const std::int64_t budget = graphStoreAllPeak(graph) * 3 / 4;
        std::atomic<bool> staleStop = true, freshStop = false;
        SolveRequest stale, fresh;
        stale.budget_bytes = fresh.budget_bytes = budget;
        stale.cancel = &staleStop;
        fresh.cancel = &freshStop;
        Run staleRun, freshRun;
        std::thread a([&] { staleRun = runScheduler("checkmate", graph, Hardware::unbounded(), stale); });
        std::thread b([&] { freshRun = runScheduler("checkmate", graph, Hardware::unbounded(), fresh); });
        a.join();
        b.join();
        QVERIFY(!staleRun.feasible);
        QVERIFY2(staleRun.message.find("cancelled") != std::string::npos, staleRun.message.c_str());
        QVERIFY2(freshRun.feasible, freshRun.message.c_str());
        QVERIFY(freshRun.timeline->totals.peak_bytes[0] <= budget);
    }

    // The trainer panel: profile, plan on the measured machine (a disk level, so the I/O threads run), iterate until
    // Stop. Stop comes after the second iteration; the files on the disk level are gone once the trainer is.
    void trainingStopsAndCleansUp() {
        QTemporaryDir scratch;
        QVERIFY(scratch.isValid());
        trainer::TrainerConfig config;
        config.hidden = 8;
        config.batch = 2;
        config.length = 12;
        config.scratch = scratch.path().toStdString();
        std::atomic<bool> stop = false;
        Gate second, stopped;
        std::string error;
        int iterations = 0;
        double gradientDiff = -1;
        std::thread worker([&] {
            auto made = trainer::Trainer::make(config);
            if (!made) return void(error = made.error());
            auto profile = (*made)->profile(6, 1, true);
            if (!profile) return void(error = profile.error());
            Chain chain = (*made)->chain(*profile);
            Hardware hw = trainer::Trainer::measuredHardware(*profile);
            SolveRequest req;
            req.budget_bytes = storeAllPeak(chain, hw) / 2;
            Run plan = runScheduler("async-multistage", chain, hw, req);
            if (!plan.feasible) return void(error = plan.message);
            for (int k = 0; k < 1000 && !stop; ++k) {
                auto it = (*made)->iterate(*plan.chainPlan(), hw, true);
                if (!it) return void(error = it.error());
                gradientDiff = std::max(gradientDiff, it->max_abs_grad_diff);
                if (++iterations == 2) {
                    second.open();
                    stopped.wait();
                }
            }
        });
        second.wait();
        stop = true;
        stopped.open();
        worker.join();
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(iterations, 2);
        // The plan recomputes and moves states through files, yet gives store-all's gradients bit for bit.
        QCOMPARE(gradientDiff, 0.0);
        QVERIFY(QDir(scratch.path()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestBackground)
#include "tst_background.moc"
