// The executor runs every chain plan for real: for every scheduler of the registry and each cell, the gradients equal
// store-all BPTT's bit for bit, and on plans without transfers the measured peak of level 0 equals the simulator's,
// byte for byte. Plans with a disk level (hand-written here, and any registry entry that writes) run on real files
// with background I/O threads. A plan that asks for a state the store does not hold is an error.
#include "schedulers/registry.h"
#include "sim/simulator.h"
#include "trainer/bptt.h"
#include "trainer/executor.h"
#include "trainer/task.h"
#include "trainer/timeline_json.h"

#include <QtTest>
#include <cstring>

using namespace ckpt;
using namespace ckpt::trainer;

namespace {

constexpr int kHidden = 5, kBatch = 3;

Hardware withDisk(std::int64_t ram = std::numeric_limits<std::int64_t>::max()) {
    // Nominal speeds against 1 s forward steps: a state of a few hundred bytes moves in a fraction of a step.
    return *Hardware::make("ram+disk",
                           {MemoryLevel{"RAM", ram, 0, 0, 0}, MemoryLevel{"disk", 1LL << 40, 2000, 2000, 0}});
}

template <typename T> struct Setup {
    Task task = *Task::make("copy", {}, 0);
    Network<T> net;
    Batch<T> batch;
    Chain chain;
    Setup(CellKind cell, int n)
        : net(Shape{cell, task.inputWidth(), kHidden, kBatch, task.outputWidth()}, task.loss(), 17),
          batch(sample(task, n)),
          chain(*Chain::uniform("trainer", n, Step{1.0, 2.0, net.cell().stateBytes(), net.cell().tapeBytes(), 0, 0})) {}
    static Batch<T> sample(const Task& t, int n) {
        std::mt19937_64 rng(23);
        return t.sample<T>(n, kBatch, rng);
    }
};

template <typename T> bool bitwiseEqual(const Parameters<T>& a, const Parameters<T>& b) {
    if (a.tensors.size() != b.tensors.size()) return false;
    for (std::size_t k = 0; k < a.tensors.size(); ++k)
        if (a.tensors[k].size() != b.tensors[k].size() ||
            std::memcmp(a.tensors[k].data(), b.tensors[k].data(), std::size_t(a.tensors[k].size()) * sizeof(T)))
            return false;
    return true;
}

bool hasTransfers(const Schedule& s) {
    for (const Action& a : s)
        if (a.isTransfer()) return true;
    return false;
}

// Runs `plan` and checks it against store-all BPTT and the simulator. Returns an empty string when all agree.
// With `budget`, the executor keeps level 0 within it; with `lag`, every write waits until the compute thread waits
// (the slowest writer that still lets the run end).
template <typename T>
QString runAndCompare(Setup<T>& s, const Schedule& plan, const Hardware& hw, std::int64_t budget = 0,
                      bool lag = false) {
    auto predicted = simulate(s.chain, hw, plan, SimOptions{budget, true});
    if (!predicted) return "the simulator rejects the plan: " + QString::fromStdString(predicted.error());
    Parameters<T> ref = s.net.zeroGradients();
    const double refLoss = bpttStoreAll(s.net, s.batch, ref);
    auto exec = Executor<T>::make(hw);
    if (!exec) return QString::fromStdString(exec.error());
    (*exec)->setBudget(budget);
    (*exec)->setLaggingWriter(lag);
    Parameters<T> got = s.net.zeroGradients();
    auto run = (*exec)->run(s.net, s.batch, plan, got);
    if (!run) return "the executor fails: " + QString::fromStdString(run.error());
    if (!bitwiseEqual(got, ref))
        return QString("gradients differ from store-all BPTT: max |diff| = %1").arg(maxAbsDiff(got, ref));
    if (run->loss != refLoss) return QString("loss %1, store-all %2").arg(run->loss).arg(refLoss);
    const Totals& m = run->timeline.totals;
    const Totals& p = predicted->totals;
    if (m.forward_steps != p.forward_steps || m.backward_steps != p.backward_steps)
        return QString("forward/backward steps %1/%2, predicted %3/%4")
            .arg(m.forward_steps)
            .arg(m.backward_steps)
            .arg(p.forward_steps)
            .arg(p.backward_steps);
    if (m.bytes_written != p.bytes_written || m.bytes_read != p.bytes_read) return "bytes moved differ";
    if (run->timeline.intervals.size() != predicted->intervals.size()) return "interval counts differ";
    for (std::size_t k = 0; k < predicted->intervals.size(); ++k) {
        const Interval& a = run->timeline.intervals[k];
        const Interval& b = predicted->intervals[k];
        if (a.action != b.action || a.kind != b.kind || a.index != b.index || a.bytes != b.bytes || a.lane != b.lane ||
            a.tape != b.tape)
            return QString("interval %1 differs from the prediction").arg(k);
        if (!(a.end >= a.start)) return QString("interval %1 ends before it starts").arg(k);
    }
    if (!hasTransfers(plan) && m.peak_bytes[0] != p.peak_bytes[0])
        return QString("measured peak %1 B, predicted %2 B").arg(m.peak_bytes[0]).arg(p.peak_bytes[0]);
    if (budget > 0 && m.peak_bytes[0] > budget)
        return QString("measured peak %1 B, over the budget of %2 B").arg(m.peak_bytes[0]).arg(budget);
    if (m.peak_bytes.size() != std::size_t(hw.levelCount()) ||
        run->timeline.lanes.size() != std::size_t(hw.levelCount()))
        return "one peak and one lane per level expected";
    return {};
}

// Offloads every s-th state to the disk level while going forward, then reverses segment by segment, reading each
// segment's start back (prefetching the next one while computing, when asked). Exercises write, read, free on both
// levels, a level-0 release that waits for its write, and a forward that waits for its read.
Schedule offloadPlan(int n, int s, bool prefetch) {
    Schedule p;
    const int M = (n + s - 1) / s;
    for (int i = 1; i <= n; ++i) {
        if ((i - 1) % s == 0) {
            p.push_back(Action::write(i - 1, 1));
            if (((i - 1) / s) % 2) {
                p.push_back(Action::forward(i, Keep::State));
                p.push_back(Action::free(i - 1, 0)); // released when its write is done
                continue;
            }
        }
        p.push_back(Action::forward(i, Keep::None));
    }
    p.push_back(Action::read((M - 1) * s, 1));
    for (int m = M - 1; m >= 0; --m) {
        const int a = m * s, b = std::min(n, a + s);
        if (prefetch && m > 0) p.push_back(Action::read((m - 1) * s, 1));
        if (m % 2) p.push_back(Action::free(a, 1)); // else backward a+1 releases it on every level
        for (int i = a + 1; i <= b; ++i)
            p.push_back(Action::forward(i, Keep::Tape));
        for (int i = b; i >= a + 1; --i)
            p.push_back(Action::backward(i));
        if (!prefetch && m > 0) p.push_back(Action::read((m - 1) * s, 1));
    }
    return p;
}

} // namespace

class TestExecutor : public QObject {
    Q_OBJECT
private slots:
    void everySchedulerEqualsStoreAll_data() {
        QTest::addColumn<int>("cell");
        for (CellKind c : {CellKind::Rnn, CellKind::Gru, CellKind::Lstm})
            QTest::newRow(cellName(c)) << int(c);
    }
    void everySchedulerEqualsStoreAll() {
        QFETCH(int, cell);
        Setup<float> s(CellKind(cell), 13);
        const Hardware hw = withDisk();
        const std::int64_t full = simulate(s.chain, hw,
                                           [&] {
                                               Schedule all;
                                               for (int i = 1; i <= 13; ++i)
                                                   all.push_back(Action::forward(i, Keep::Tape));
                                               for (int i = 13; i >= 1; --i)
                                                   all.push_back(Action::backward(i));
                                               return all;
                                           }())
                                      .value()
                                      .totals.peak_bytes[0];
        for (const SchedulerInfo& info : schedulers()) {
            int feasible = 0;
            for (double share : {0.0, 0.6, 0.35, 0.2}) {
                SolveRequest req;
                req.budget_bytes = std::int64_t(share * double(full));
                auto plan = solve(info.name, s.chain, hw, req);
                if (!plan) {
                    QVERIFY2(plan.errorValue().infeasible, plan.error().c_str());
                    continue;
                }
                ++feasible;
                // Plans with transfers run a second time with writes that lag as far as they can: the budget holds.
                for (bool lag : {false, true}) {
                    if (lag && !hasTransfers(plan->actions)) continue;
                    QString err = runAndCompare(s, plan->actions, hw, req.budget_bytes, lag);
                    QVERIFY2(err.isEmpty(),
                             qPrintable(QString::fromStdString(info.name) + " at " + QString::number(share) +
                                        " of store-all" + (lag ? " with a lagging writer: " : ": ") + err));
                }
                if (hasTransfers(plan->actions)) qInfo("%s uses the disk level", info.name.c_str());
            }
            QVERIFY2(feasible > 0, info.name.c_str());
        }
    }

    void doublePrecisionToo() {
        for (CellKind c : {CellKind::Rnn, CellKind::Gru, CellKind::Lstm}) {
            Setup<double> s(c, 9);
            SolveRequest req;
            req.params["slots"] = "3";
            auto plan = solve("revolve", s.chain, Hardware::unbounded(), req);
            QVERIFY(plan.ok());
            QString err = runAndCompare(s, plan->actions, Hardware::unbounded());
            QVERIFY2(err.isEmpty(), qPrintable(err));
        }
    }

    void diskLevelPlans_data() {
        QTest::addColumn<int>("cell");
        QTest::addColumn<int>("segment");
        QTest::addColumn<bool>("prefetch");
        for (CellKind c : {CellKind::Rnn, CellKind::Gru, CellKind::Lstm})
            for (int seg : {1, 3, 4})
                for (bool pre : {false, true})
                    QTest::newRow(
                        (std::string(cellName(c)) + "/s" + std::to_string(seg) + (pre ? "/prefetch" : "")).c_str())
                        << int(c) << seg << pre;
    }
    void diskLevelPlans() {
        QFETCH(int, cell);
        QFETCH(int, segment);
        QFETCH(bool, prefetch);
        Setup<float> s(CellKind(cell), 11);
        Schedule plan = offloadPlan(11, segment, prefetch);
        QString err = runAndCompare(s, plan, withDisk());
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }

    void measuredTimelineOfADiskPlan() {
        Setup<float> s(CellKind::Lstm, 12);
        Schedule plan = offloadPlan(12, 4, true);
        auto exec = Executor<float>::make(withDisk());
        QVERIFY(exec.ok());
        Parameters<float> g = s.net.zeroGradients();
        auto run = (*exec)->run(s.net, s.batch, plan, g);
        QVERIFY2(run.ok(), run.ok() ? "" : run.error().c_str());
        const Timeline& tl = run->timeline;
        QCOMPARE(tl.lanes.size(), std::size_t(2));
        QCOMPARE(tl.lanes[1], std::string("disk"));
        // Compute intervals follow one another; a forward from a state being read starts after the read ends.
        double lastEnd = 0;
        for (const Interval& iv : tl.intervals) {
            if (iv.lane != 0) continue;
            QVERIFY(iv.start >= lastEnd);
            lastEnd = iv.end;
        }
        for (const Interval& rd : tl.intervals) {
            if (rd.kind != IntervalKind::Read) continue;
            QCOMPARE(rd.lane, std::int16_t(1));
            for (const Interval& f : tl.intervals)
                if (f.lane == 0 && f.action > rd.action && f.index == rd.index + 1 &&
                    f.kind != IntervalKind::Backward) {
                    QVERIFY(f.start >= rd.end);
                    break;
                }
        }
        // Every byte written was counted on level 1, and all of it is gone at the end; level 0 ends holding the
        // gradient of x_0 only, as in the simulator.
        QVERIFY(tl.totals.peak_bytes[1] >= s.net.cell().stateBytes());
        QCOMPARE(tl.memory[1].back().total(), std::int64_t(0));
        QCOMPARE(tl.memory[0].back().total(), s.net.cell().stateBytes());
        QCOMPARE(tl.memory[0].back().bytes[int(MemoryCategory::Gradient)], s.net.cell().stateBytes());
        QCOMPARE(tl.totals.bytes_written, 3 * s.net.cell().stateBytes());
        QVERIFY(tl.totals.channel_busy_s[1] > 0);
        // The measured timeline reads back from its JSON text unchanged.
        auto back = timelineFromJson(nlohmann::json::parse(timelineToJson(tl).dump()), "run.json: measured");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QCOMPARE(back->lanes, tl.lanes);
        QCOMPARE(back->intervals.size(), tl.intervals.size());
        for (std::size_t k = 0; k < tl.intervals.size(); ++k) {
            QCOMPARE(back->intervals[k].start, tl.intervals[k].start);
            QCOMPARE(back->intervals[k].end, tl.intervals[k].end);
            QVERIFY(back->intervals[k].kind == tl.intervals[k].kind);
            QCOMPARE(back->intervals[k].lane, tl.intervals[k].lane);
        }
        QCOMPARE(back->memory.size(), tl.memory.size());
        QCOMPARE(back->memory[0].back().bytes, tl.memory[0].back().bytes);
        QCOMPARE(back->totals.peak_bytes, tl.totals.peak_bytes);
        QCOMPARE(back->totals.makespan_s, tl.totals.makespan_s);
        auto bad =
            timelineFromJson(nlohmann::json::parse(R"({"lanes": ["compute"], "intervals": [[0, 1, 0]]})"), "t.json");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().find("t.json: intervals[0]") != std::string::npos, bad.error().c_str());
    }

    // docs/trainer.md's async-multistage case in small: with the writer lagging, the states it has not written yet pile
    // up in level 0 far over the plan's predicted peak unless compute waits for them; with the budget set it does,
    // the measured peak stays within the budget, and the gradients are still store-all's bit for bit.
    void budgetHoldsWhenTheWriterLags() {
        Setup<float> s(CellKind::Lstm, 30);
        const Hardware hw = withDisk();
        SolveRequest req;
        req.budget_bytes = 12 * (s.net.cell().stateBytes() + s.net.cell().tapeBytes());
        auto plan = solve("async-multistage", s.chain, hw, req);
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
        QVERIFY(hasTransfers(plan->actions));
        auto predicted = simulate(s.chain, hw, plan->actions, SimOptions{req.budget_bytes, true});
        QVERIFY(predicted.ok());
        const std::int64_t budget = predicted->totals.peak_bytes[0]; // as tight as the plan allows
        QVERIFY(budget <= req.budget_bytes);
        Parameters<float> ref = s.net.zeroGradients();
        bpttStoreAll(s.net, s.batch, ref);
        auto exec = Executor<float>::make(hw);
        QVERIFY(exec.ok());
        (*exec)->setLaggingWriter(true);
        // No budget: every write waits for the first read of the backward pass, so every offloaded state is still in
        // level 0 then. This is the bug, made deterministic.
        Parameters<float> g = s.net.zeroGradients();
        auto loose = (*exec)->run(s.net, s.batch, plan->actions, g);
        QVERIFY2(loose.ok(), loose.ok() ? "" : loose.error().c_str());
        QVERIFY2(loose->timeline.totals.peak_bytes[0] > budget,
                 qPrintable(QString("%1 B, budget %2 B").arg(loose->timeline.totals.peak_bytes[0]).arg(budget)));
        QCOMPARE(loose->budget_waits, 0);
        // The budget set: compute waits for the writes instead.
        (*exec)->setBudget(budget);
        g.setZero();
        auto kept = (*exec)->run(s.net, s.batch, plan->actions, g);
        QVERIFY2(kept.ok(), kept.ok() ? "" : kept.error().c_str());
        const Timeline& tl = kept->timeline;
        QVERIFY2(tl.totals.peak_bytes[0] <= budget,
                 qPrintable(QString("%1 B, budget %2 B").arg(tl.totals.peak_bytes[0]).arg(budget)));
        for (const MemorySample& m : tl.memory[0])
            QVERIFY(m.total() <= budget);
        QVERIFY(kept->budget_waits > 0); // else it would have run as the loose run did, over the budget
        QVERIFY(bitwiseEqual(g, ref));
        QCOMPARE(tl.totals.forward_steps, predicted->totals.forward_steps);
        QCOMPARE(tl.totals.bytes_written, predicted->totals.bytes_written);
        // The waits are gaps on the compute lane: compute intervals still follow one another.
        double lastEnd = 0;
        for (const Interval& iv : tl.intervals)
            if (iv.lane == 0) {
                QVERIFY(iv.start >= lastEnd);
                lastEnd = iv.end;
            }
    }

    // A plan over the budget whatever the writes do is refused at the action that would overflow it, with the
    // numbers; the executor stays usable.
    void overTheBudgetIsAnError() {
        Setup<float> s(CellKind::Gru, 4);
        auto exec = Executor<float>::make(withDisk());
        QVERIFY(exec.ok());
        const std::int64_t x = s.net.cell().stateBytes(), tape = s.net.cell().tapeBytes();
        (*exec)->setBudget(x + 2 * (x + tape)); // x_0 and two taped steps
        Schedule all;
        for (int i = 1; i <= 4; ++i)
            all.push_back(Action::forward(i, Keep::Tape));
        for (int i = 4; i >= 1; --i)
            all.push_back(Action::backward(i));
        Parameters<float> g = s.net.zeroGradients();
        auto run = (*exec)->run(s.net, s.batch, all, g);
        QVERIFY(!run.ok());
        QCOMPARE(run.errorIndex(), 2LL);
        QVERIFY2(run.error().find("over the budget") != std::string::npos, run.error().c_str());
        (*exec)->setBudget(0);
        QVERIFY((*exec)->run(s.net, s.batch, all, g).ok());
    }

    // A cancel flag (what the CLI's signal handler sets) stops a run before its next action, even one waiting for
    // a read that a held writer delays.
    void cancelStopsARun() {
        Setup<float> s(CellKind::Rnn, 8);
        auto exec = Executor<float>::make(withDisk());
        QVERIFY(exec.ok());
        std::atomic<bool> stop{true};
        (*exec)->setCancelFlag(&stop);
        Parameters<float> g = s.net.zeroGradients();
        auto run = (*exec)->run(s.net, s.batch, offloadPlan(8, 2, true), g);
        QVERIFY(!run.ok());
        QCOMPARE(run.error(), std::string(kCancelled));
        QCOMPARE(run.errorIndex(), 0LL);
        stop = false;
        QVERIFY((*exec)->run(s.net, s.batch, offloadPlan(8, 2, true), g).ok());
    }

    void missingStateIsAnError() {
        Setup<float> s(CellKind::Gru, 3);
        auto exec = Executor<float>::make(withDisk());
        QVERIFY(exec.ok());
        Parameters<float> g = s.net.zeroGradients();
        struct Bad {
            Schedule plan;
            long long at;
            const char* says;
        };
        const std::vector<Bad> bad = {
            {{Action::forward(1, Keep::None), Action::forward(1, Keep::Tape)}, 1, "not held by the store"},
            {{Action::forward(1, Keep::None), Action::forward(3, Keep::Tape)}, 1, "x2"},
            {{Action::write(0, 1), Action::forward(1, Keep::None), Action::forward(2, Keep::Tape),
              Action::forward(1, Keep::Tape)},
             3,
             "on level 1, not in level 0"},
            {{Action::read(0, 1)}, 0, "not held on level 1"},
            {{Action::forward(1, Keep::Tape), Action::forward(2, Keep::None), Action::forward(3, Keep::Tape),
              Action::backward(3), Action::backward(2)},
             4,
             "tape of step 2 is not held"},
            {{Action::forward(1, Keep::Tape), Action::backward(1)}, 1, "backward step 2 must come first"},
            {{Action::forward(1, Keep::State), Action::forward(2, Keep::Tape), Action::forward(3, Keep::Tape),
              Action::backward(3), Action::backward(2)},
             5,
             "before backward step 1"},
            {{Action::forward(4, Keep::Tape)}, 0, "there is no step 4"},
            {{Action::write(0, 2)}, 0, "no memory level 2"},
        };
        for (const Bad& b : bad) {
            auto run = (*exec)->run(s.net, s.batch, b.plan, g);
            QVERIFY(!run.ok());
            QCOMPARE(run.errorIndex(), b.at);
            QVERIFY2(run.error().find(b.says) != std::string::npos, run.error().c_str());
        }
        // The executor is still usable after a failed plan, and its folder is clean.
        Schedule all = {Action::forward(1, Keep::Tape),
                        Action::forward(2, Keep::Tape),
                        Action::forward(3, Keep::Tape),
                        Action::backward(3),
                        Action::backward(2),
                        Action::backward(1)};
        QVERIFY((*exec)->run(s.net, s.batch, all, g).ok());
    }

    void scratchFolderIsRemoved() {
        QTemporaryDir base;
        {
            auto exec = Executor<float>::make(withDisk(), base.path().toStdString());
            QVERIFY(exec.ok());
            QCOMPARE(QDir(base.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 1);
            Setup<float> s(CellKind::Rnn, 6);
            Parameters<float> g = s.net.zeroGradients();
            // A plan that fails with states on disk: the level's file stays for the next run, and the next run
            // works.
            Schedule p = {Action::write(0, 1), Action::forward(1, Keep::None), Action::write(1, 1),
                          Action::forward(2, Keep::None), Action::forward(1, Keep::Tape)};
            auto run = (*exec)->run(s.net, s.batch, p, g);
            QVERIFY(!run.ok());
            QCOMPARE(run.errorIndex(), 4LL);
            QDir level(base.path() + "/" + QDir(base.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).first());
            QCOMPARE(level.entryList(QDir::Files, QDir::Name), (QStringList{"states.bin", "tapes.bin"}));
            QVERIFY((*exec)->run(s.net, s.batch, offloadPlan(6, 2, true), g).ok());
        }
        QCOMPARE(QDir(base.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 0);
    }
};

QTEST_APPLESS_MAIN(TestExecutor)
#include "tst_executor.moc"
