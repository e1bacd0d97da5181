// Training learns: a few hundred iterations (fixed seeds) lower the loss on the copy and adding tasks by a stated
// factor, whatever plan runs the backward pass, and the profile's chain has the network's true sizes.
#include "schedulers/registry.h"
#include "sim/simulator.h"
#include "trainer/trainer.h"

#include <QtTest>

using namespace ckpt;
using namespace ckpt::trainer;

namespace {

struct Curve {
    double first = 0; // mean of the first 10 iterations
    double last = 0;  // mean of the last 10
};

Curve train(const TrainerConfig& c, const std::string& scheduler, int iterations) {
    auto t = Trainer::make(c);
    if (!t) qFatal("%s", t.error().c_str());
    Chain chain = (*t)->chain(1.0, 2.0);
    auto plan = solve(scheduler, chain, Hardware::unbounded(), {});
    if (!plan) qFatal("%s", plan.error().c_str());
    Curve curve;
    for (int k = 0; k < iterations; ++k) {
        auto it = (*t)->iterate(*plan, Hardware::unbounded(), false);
        if (!it) qFatal("%s", it.error().c_str());
        if (k < 10) curve.first += it->loss / 10;
        if (k >= iterations - 10) curve.last += it->loss / 10;
    }
    return curve;
}

} // namespace

class TestTraining : public QObject {
    Q_OBJECT
private slots:
    void copyTaskLearns() {
        // Copy-memory with 8 symbols, 3 to recall after a delay of 6. A net that ignores the past cannot beat
        // 3 ln 8 / 12 = 0.52 (perfect blanks, a guess at each recall); this one must remember.
        TrainerConfig c;
        c.cell = CellKind::Gru;
        c.task = "copy";
        c.hidden = 32;
        c.batch = 16;
        c.length = 12;
        c.seed = 3;
        c.optimizer.learning_rate = 0.03;
        Curve k = train(c, "revolve", 300);
        const double memoryless = Task::make("copy", {}, 0)->memorylessLoss(12);
        qInfo("copy, GRU 32, T = 12, revolve: loss %.4f -> %.4f (%.1fx; memoryless %.4f)", k.first, k.last,
              k.first / k.last, memoryless);
        QVERIFY(k.last < k.first / 5);
        QVERIFY(k.last < memoryless / 2);
    }

    void addingTaskLearns() {
        TrainerConfig c;
        c.cell = CellKind::Lstm;
        c.task = "adding";
        c.hidden = 24;
        c.batch = 16;
        c.length = 12;
        c.seed = 3;
        c.optimizer.learning_rate = 0.01;
        Curve k = train(c, "periodic", 300);
        qInfo("adding, LSTM 24, T = 12, periodic: loss %.4f -> %.4f (%.1fx)", k.first, k.last, k.first / k.last);
        QVERIFY(k.last < k.first / 10);
    }

    void sgdLearnsToo() {
        TrainerConfig c;
        c.cell = CellKind::Rnn;
        c.task = "sine";
        c.hidden = 16;
        c.batch = 8;
        c.length = 20;
        c.optimizer.kind = OptimizerKind::Sgd;
        c.optimizer.learning_rate = 0.3;
        Curve k = train(c, "store-all", 150);
        qInfo("sine, RNN 16, T = 20, SGD: loss %.4f -> %.4f (%.1fx)", k.first, k.last, k.first / k.last);
        QVERIFY(k.last < k.first / 3);
    }

    void profileDescribesTheNetwork() {
        TrainerConfig c;
        c.cell = CellKind::Lstm;
        c.hidden = 16;
        c.batch = 4;
        c.length = 30;
        auto t = Trainer::make(c);
        QVERIFY(t.ok());
        auto p = (*t)->profile(6, 2, true);
        QVERIFY2(p.ok(), p.ok() ? "" : p.error().c_str());
        QVERIFY(p->forward_s > 0 && p->backward_s > 0);
        QVERIFY(p->write_bytes_per_s > 0 && p->read_bytes_per_s > 0);
        QCOMPARE(p->state_bytes, std::int64_t(2 * 16 * 4 * 4));
        QCOMPARE(p->tape_bytes, std::int64_t(8 * 16 * 4 * 4));
        Chain chain = (*t)->chain(*p);
        QCOMPARE(chain.length(), 30);
        QCOMPARE(chain.step(1).forward, p->forward_s);
        QCOMPARE(chain.stateBytes(0), p->state_bytes);
        Hardware hw = Trainer::measuredHardware(*p);
        QCOMPARE(hw.levelCount(), 2);
        // A run of store-all predicts its own peak exactly.
        auto plan = solve("store-all", chain, hw, {});
        QVERIFY(plan.ok());
        auto it = (*t)->iterate(*plan, hw, true);
        QVERIFY2(it.ok(), it.ok() ? "" : it.error().c_str());
        QCOMPARE(it->max_abs_grad_diff, 0.0);
        auto predicted = simulate(chain, hw, plan->actions);
        QCOMPARE(it->execution.timeline.totals.peak_bytes[0], predicted->totals.peak_bytes[0]);
    }

    void badConfigurations() {
        TrainerConfig c;
        c.hidden = 0;
        QVERIFY(Trainer::make(c).error().find("hidden") != std::string::npos);
        c = {};
        c.task = "copy";
        c.length = 2;
        QVERIFY(Trainer::make(c).error().find("at least 3") != std::string::npos);
        c = {};
        c.task = "text";
        c.text = "/nonexistent/book.txt";
        QVERIFY(Trainer::make(c).error().find("/nonexistent/book.txt") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestTraining)
#include "tst_training.moc"
