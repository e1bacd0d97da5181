// The simulator: timing, memory accounting and every rejection, each with the index of the first bad action.
#include "schedulers/multilevel.h"
#include "schedulers/registry.h"
#include "sim/simulator.h"
#include "test_util.h"

#include <QtTest>

using namespace ckpt;
using namespace ckpt::test;

namespace {

Hardware twoLevels(std::int64_t cap0 = 1 << 30) {
    return *Hardware::make("two", {MemoryLevel{"fast", cap0, 0, 0, 0}, MemoryLevel{"slow", 1 << 30, 50, 100, 0}});
}

Schedule storeAll(int n) {
    Schedule s;
    for (int i = 1; i <= n; ++i)
        s.push_back(Action::forward(i, Keep::Tape));
    for (int i = n; i >= 1; --i)
        s.push_back(Action::backward(i));
    return s;
}

} // namespace

class TestSimulator : public QObject {
    Q_OBJECT
private slots:
    void storeAllTimeAndPeak() {
        Chain c = randomChain(17, 3);
        auto tl = simulate(c, Hardware::unbounded(), storeAll(17));
        QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
        QCOMPARE(tl->totals.makespan_s, c.totalForward() + c.totalBackward());
        QCOMPARE(tl->totals.forward_steps, 17LL);
        QCOMPARE(tl->totals.recomputed_steps, 0LL);
        QCOMPARE(tl->totals.backward_steps, 17LL);
        // Peak from the memory model, computed here step by step: during forward i the tapes 1..i, x_{i-1}, x_i and
        // the temporaries; during backward i the tapes 1..i, both gradients and the temporaries.
        std::int64_t peak = 0, tapes = 0;
        for (int i = 1; i <= 17; ++i) {
            tapes += c.step(i).tape_bytes;
            peak = std::max(peak, tapes + c.stateBytes(i - 1) + c.stateBytes(i) + c.step(i).forward_tmp_bytes);
        }
        for (int i = 17; i >= 1; --i) {
            peak = std::max(peak, tapes + c.stateBytes(i) + c.stateBytes(i - 1) + c.step(i).backward_tmp_bytes);
            tapes -= c.step(i).tape_bytes;
        }
        QCOMPARE(tl->totals.peak_bytes[0], peak);
        // When the forward sweep ends (before the first backward), level 0 holds every tape and nothing else: x_n
        // went with forward n, whose output the loss gradient replaces.
        std::int64_t allTapes = 0;
        for (int i = 1; i <= 17; ++i)
            allTapes += c.step(i).tape_bytes;
        QCOMPARE(tl->totals.held_after_forward_bytes, allTapes);
        // The memory curve agrees with the peak and ends with only the input gradient held.
        std::int64_t curveMax = 0;
        for (const auto& m : tl->memory[0])
            curveMax = std::max(curveMax, m.total());
        QCOMPARE(curveMax, peak);
        QCOMPARE(tl->memory[0].back().total(), c.stateBytes(0));
    }

    void recomputeIsLabelled() {
        Chain c = uniformChain(2);
        Schedule s = {Action::forward(1, Keep::State), Action::forward(2, Keep::Tape), Action::backward(2),
                      Action::forward(1, Keep::Tape), Action::backward(1)};
        auto tl = simulate(c, Hardware::unbounded(), s);
        QVERIFY(tl.ok());
        QCOMPARE(tl->intervals[0].kind, IntervalKind::Forward);
        QCOMPARE(tl->intervals[3].kind, IntervalKind::Recompute);
        QCOMPARE(tl->totals.recomputed_steps, 1LL);
        QCOMPARE(tl->totals.makespan_s, 3 * 1.0 + 2 * 2.0);
    }

    // x1 goes out to the slow level while step 2 computes, and comes back while step 3 is reversed.
    void asynchronousTransfersOverlapCompute() {
        Chain c = uniformChain(3, 1.0, 1.0, 100, 10);
        Schedule s = {Action::forward(1, Keep::State),
                      Action::write(1, 1),
                      Action::forward(2, Keep::None),
                      Action::forward(3, Keep::Tape),
                      Action::read(1, 1),
                      Action::backward(3),
                      Action::free(1, 1),
                      Action::forward(2, Keep::Tape),
                      Action::backward(2),
                      Action::forward(1, Keep::Tape),
                      Action::backward(1)};
        auto tl = simulate(c, twoLevels(), s);
        QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
        const auto& iv = tl->intervals;
        // write: 100 B at 100 B/s from t=1; read: 100 B at 50 B/s issued at t=3, when step 3's forward ends.
        QCOMPARE(iv[1].lane, std::int16_t(1));
        QCOMPARE(iv[1].start, 1.0);
        QCOMPARE(iv[1].end, 2.0);
        QCOMPARE(iv[2].start, 1.0); // forward 2 runs during the write
        QCOMPARE(iv[4].kind, IntervalKind::Read);
        QCOMPARE(iv[4].start, 3.0);
        QCOMPARE(iv[4].end, 5.0);
        QCOMPARE(iv[5].start, 3.0); // backward 3 runs during the read
        QCOMPARE(iv[6].start, 5.0); // forward 2 waits for x1 to arrive
        QCOMPARE(tl->totals.makespan_s, 9.0);
        QCOMPARE(tl->totals.bytes_written, 100LL);
        QCOMPARE(tl->totals.bytes_read, 100LL);
        QCOMPARE(tl->totals.peak_bytes[1], 100LL);
        QCOMPARE(tl->totals.channel_busy_s[1], 3.0);
        QCOMPARE(tl->lanes.size(), std::size_t(2));
    }

    // Rotor's paper model, by hand: 2 steps, x_0 = 100 B, x_1 = 10 B, x_2 of its own 1 B, tapes 50 B and 70 B, no
    // temporaries. Store-all: forward 1 holds x_0 (kept for backward 1) and tape 1 (x_1 inside): 150; forward 2 adds
    // tape 2 (x_2 inside): 220; backward 2 adds the loss gradient (1) and grad x_1 (10): 231; then tape 2 and the
    // loss gradient go: 160; backward 1 adds grad x_0 (100): 260. In this program's model the same plan peaks at 160
    // (forward 1: x_0 + x_1 + tape 1; backward 1: tape 1 + grad x_1 + grad x_0).
    void rotorPaperModelByHand() {
        const Chain standard = *Chain::make("two", {Step{1, 1, 100, 50, 0, 0}, Step{1, 1, 10, 70, 0, 0}});
        const Chain paper = *standard.withModel(MemoryModel::RotorPaper, 1);
        const Schedule all{Action::forward(1, Keep::Tape), Action::forward(2, Keep::Tape), Action::backward(2),
                           Action::backward(1)};
        auto tl = simulate(paper, Hardware::unbounded(), all);
        QVERIFY2(tl, tl ? "" : tl.error().c_str());
        QCOMPARE(tl->totals.peak_bytes[0], std::int64_t(260));
        QCOMPARE(tl->totals.peak_time_s[0], 3.0); // backward 1 starts at 3
        auto std2 = simulate(*standard.withModel(MemoryModel::Standard, 1), Hardware::unbounded(), all);
        QVERIFY(std2);
        QCOMPARE(std2->totals.peak_bytes[0], std::int64_t(160));
        // What level 0 holds while each action runs, from the curve.
        QVERIFY(!tl->memory.empty());
        auto heldAt = [&](double t) {
            std::int64_t held = 0;
            for (const MemorySample& m : tl->memory[0])
                if (m.time <= t) held = m.total();
            return held;
        };
        QCOMPARE(heldAt(0.5), std::int64_t(150));
        QCOMPARE(heldAt(1.5), std::int64_t(220));
        QCOMPARE(heldAt(2.5), std::int64_t(231));
        QCOMPARE(heldAt(3.5), std::int64_t(260));
        // Backward 1 reads x_0 in this model: freeing it by hand first is refused, with the reason.
        const Schedule freed{Action::forward(1, Keep::Tape), Action::free(0, 0), Action::forward(2, Keep::Tape),
                             Action::backward(2), Action::backward(1)};
        auto bad = simulate(paper, Hardware::unbounded(), freed);
        QVERIFY(!bad);
        QVERIFY2(bad.error().find("action 4 (backward 1): x0 is not held: in the rotor paper's model") !=
                     std::string::npos,
                 bad.error().c_str());
        // A model of one level: transfers are refused.
        const Hardware two =
            *Hardware::make("two", {MemoryLevel{"fast", std::numeric_limits<std::int64_t>::max(), 0, 0, 0},
                                    MemoryLevel{"host", std::numeric_limits<std::int64_t>::max(), 100, 100, 0}});
        const Schedule moved{Action::forward(1, Keep::Tape), Action::writeTape(1, 1), Action::forward(2, Keep::Tape),
                             Action::backward(2), Action::backward(1)};
        auto transfer = simulate(paper, two, moved);
        QVERIFY(!transfer);
        QVERIFY2(transfer.error().find("no transfers") != std::string::npos, transfer.error().c_str());
    }

    // Offloading a tape, by hand: 2 steps (forward 1 s, backward 1 s, 100 B states and tapes), the slow level
    // written at 100 B/s and read at 50 B/s. The tape of step 1 is written during forward 2 ([1, 2]), read back
    // from t = 2 ([2, 4]) while backward 2 runs ([2, 3]); backward 1 waits for it ([4, 5]).
    void tapeOffloadTimesAndHoldsBothCopies() {
        Chain c = uniformChain(2, 1.0, 1.0, 100, 100);
        Schedule s = {Action::forward(1, Keep::Tape),
                      Action::writeTape(1, 1),
                      Action::freeTape(1, 0),
                      Action::forward(2, Keep::Tape),
                      Action::readTape(1, 1),
                      Action::backward(2),
                      Action::backward(1)};
        std::vector<Holdings> held;
        SimOptions opt;
        opt.observe = [&](std::int32_t, const Holdings& h) { held.push_back(h); };
        auto tl = simulate(c, twoLevels(), s, opt);
        QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
        const auto& iv = tl->intervals;
        QCOMPARE(iv[1].kind, IntervalKind::Write);
        QVERIFY(iv[1].tape);
        QCOMPARE(iv[1].start, 1.0);
        QCOMPARE(iv[1].end, 2.0);
        QCOMPARE(iv[2].start, 1.0); // forward 2 runs during the write
        QCOMPARE(iv[3].kind, IntervalKind::Read);
        QVERIFY(iv[3].tape);
        QCOMPARE(iv[3].start, 2.0);
        QCOMPARE(iv[3].end, 4.0);
        QCOMPARE(iv[4].start, 2.0); // backward 2 during the read
        QCOMPARE(iv[5].start, 4.0); // backward 1 waits for its tape
        QCOMPARE(tl->totals.makespan_s, 5.0);
        QCOMPARE(overlappedMakespan(c, twoLevels(), s), 5.0);
        QCOMPARE(tl->totals.bytes_written, 100LL);
        QCOMPARE(tl->totals.bytes_read, 100LL);
        QCOMPARE(tl->totals.peak_bytes[1], 100LL);
        // Both copies while the write runs; level 1's alone once level 0 lets go; none after the backward.
        QCOMPARE(held[1].tapes, std::vector<int>({1}));
        QCOMPARE(held[1].slowTapes[1], std::vector<int>({1}));
        QCOMPARE(held[2].tapes, std::vector<int>());
        QCOMPARE(held[2].slowTapes[1], std::vector<int>({1}));
        QCOMPARE(held[6].slowTapes[1], std::vector<int>());
        // Level 0 in [1, 2): x1, x2, tape 2 and tape 1 still being written, 400 B; it lets tape 1 go at t = 2.
        std::int64_t at15 = -1;
        for (const MemorySample& m : tl->memory[0])
            if (m.time <= 1.5) at15 = m.total();
        QCOMPARE(at15, 400LL);
    }

    void rejectsTapeMisuse() {
        Chain c = uniformChain(2, 1.0, 1.0, 100, 100);
        struct Case {
            Schedule plan;
            long long index;
            const char* says;
        };
        const std::vector<Case> cases = {
            {{Action::forward(1, Keep::Tape), Action::writeTape(1, 1), Action::freeTape(1, 0),
              Action::forward(2, Keep::Tape), Action::backward(2), Action::backward(1)},
             5,
             "the tape of step 1 is on level 1, not in level 0: read it first"},
            {{Action::forward(1, Keep::Tape), Action::readTape(1, 1)},
             1,
             "the tape of step 1 was never written to level 1"},
            {{Action::forward(1, Keep::None), Action::writeTape(1, 1)}, 1, "is not held in level 0"},
            {{Action::forward(1, Keep::Tape), Action::writeTape(1, 0)}, 1, "level 0 cannot be the other end"},
            {{Action::forward(1, Keep::Tape), Action::writeTape(3, 1)}, 1, "there is no step 3"},
            {{Action::forward(1, Keep::Tape), Action::freeTape(1, 1)}, 1, "the tape of step 1 is not held on level 1"},
        };
        for (const Case& k : cases) {
            auto tl = simulate(c, twoLevels(), k.plan);
            QVERIFY(!tl.ok());
            QCOMPARE(tl.errorIndex(), k.index);
            QVERIFY2(tl.error().find(k.says) != std::string::npos, tl.error().c_str());
        }
    }

    void rejectsForwardFromMissingState() {
        Chain c = uniformChain(4);
        auto tl = simulate(c, Hardware::unbounded(), {Action::forward(1, Keep::None), Action::forward(3, Keep::None)});
        QVERIFY(!tl.ok());
        QCOMPARE(tl.errorIndex(), 1LL);
        QVERIFY2(tl.error().find("x2 is not held") != std::string::npos, tl.error().c_str());
    }

    void rejectsForwardFromStateOnSlowLevel() {
        Chain c = uniformChain(3);
        Schedule s = {Action::forward(1, Keep::None), Action::write(1, 1), Action::free(1, 0),
                      Action::forward(2, Keep::None)};
        auto tl = simulate(c, twoLevels(), s);
        QVERIFY(!tl.ok());
        QCOMPARE(tl.errorIndex(), 3LL);
        QVERIFY2(tl.error().find("on level 1") != std::string::npos, tl.error().c_str());
    }

    void rejectsBackwardWithoutTape() {
        Chain c = uniformChain(3);
        Schedule s = {Action::forward(1, Keep::None), Action::forward(2, Keep::None), Action::forward(3, Keep::None),
                      Action::backward(3)};
        auto tl = simulate(c, Hardware::unbounded(), s);
        QVERIFY(!tl.ok());
        QCOMPARE(tl.errorIndex(), 3LL);
        QVERIFY2(tl.error().find("tape of step 3") != std::string::npos, tl.error().c_str());
    }

    void rejectsBackwardOutOfOrder() {
        Chain c = uniformChain(3);
        Schedule s = {Action::forward(1, Keep::Tape), Action::forward(2, Keep::Tape), Action::backward(2)};
        auto tl = simulate(c, Hardware::unbounded(), s);
        QVERIFY(!tl.ok());
        QCOMPARE(tl.errorIndex(), 2LL);
        QVERIFY2(tl.error().find("backward step 3 must come first") != std::string::npos, tl.error().c_str());
    }

    void rejectsReadNeverWritten() {
        Chain c = uniformChain(3);
        auto tl = simulate(c, twoLevels(), {Action::forward(1, Keep::None), Action::read(0, 1)});
        QVERIFY(!tl.ok());
        QCOMPARE(tl.errorIndex(), 1LL);
        QVERIFY2(tl.error().find("never written to level 1") != std::string::npos, tl.error().c_str());
    }

    void rejectsCapacityExceeded() {
        // Store-all on 4 steps of x=100, tape=300: the tapes pass 1000 B during forward 3 (900 + 100 + 100 > 1000).
        Chain c = uniformChain(4);
        auto tl = simulate(c, twoLevels(1000), storeAll(4));
        QVERIFY(!tl.ok());
        QCOMPARE(tl.errorIndex(), 2LL);
        QVERIFY2(tl.error().find("over its capacity") != std::string::npos, tl.error().c_str());
        // The same through a budget on an unbounded machine.
        SimOptions opt;
        opt.budget_bytes = 1000;
        auto tb = simulate(c, Hardware::unbounded(), storeAll(4), opt);
        QVERIFY(!tb.ok());
        QCOMPARE(tb.errorIndex(), 2LL);
        QVERIFY2(tb.error().find("over the budget") != std::string::npos, tb.error().c_str());
    }

    void rejectsMissingBackward() {
        Chain c = uniformChain(5);
        Schedule s = storeAll(5);
        s.pop_back();
        auto tl = simulate(c, Hardware::unbounded(), s);
        QVERIFY(!tl.ok());
        QCOMPARE(tl.errorIndex(), 9LL);
        QVERIFY2(tl.error().find("before backward step 1") != std::string::npos, tl.error().c_str());
    }

    void rejectsBackwardTwice() {
        Chain c = uniformChain(3);
        Schedule s = {Action::forward(1, Keep::Tape), Action::forward(2, Keep::Tape), Action::forward(3, Keep::Tape),
                      Action::backward(3), Action::backward(3)};
        auto tl = simulate(c, Hardware::unbounded(), s);
        QVERIFY(!tl.ok());
        QCOMPARE(tl.errorIndex(), 4LL);
        QVERIFY2(tl.error().find("done twice") != std::string::npos, tl.error().c_str());
    }

    void rejectsActionAfterEnd() {
        Chain c = uniformChain(3);
        Schedule s = storeAll(3);
        s.push_back(Action::forward(1, Keep::None));
        auto tl = simulate(c, Hardware::unbounded(), s);
        QVERIFY(!tl.ok());
        QCOMPARE(tl.errorIndex(), 6LL);
        QVERIFY2(tl.error().find("nothing may follow") != std::string::npos, tl.error().c_str());
    }

    void rejectsBadIndices() {
        Chain c = uniformChain(3);
        auto a = simulate(c, Hardware::unbounded(), {Action::forward(4, Keep::None)});
        QVERIFY(!a.ok());
        QCOMPARE(a.errorIndex(), 0LL);
        auto b = simulate(c, Hardware::unbounded(), {Action::forward(1, Keep::None), Action::write(1, 1)});
        QVERIFY(!b.ok());
        QCOMPARE(b.errorIndex(), 1LL);
        QVERIFY2(b.error().find("no memory level 1") != std::string::npos, b.error().c_str());
    }

    // A plan without transfers is swept as its events come (MemoryLedger::stream); asking for the tensors keeps the
    // events and sorts them first, and a plan with transfers always does. Both sweeps must agree on everything: the
    // peaks and their times, the curves, the totals and, over a budget, the first action that overflows and why. And
    // leaving out the intervals leaves the totals as they were.
    void streamedSweepEqualsKeptEvents() {
        int compared = 0, overflows = 0;
        for (unsigned seed = 1; seed <= 12; ++seed) {
            Chain c = randomChain(6 + int(seed) * 2, seed);
            if (seed % 3 == 0) c = *c.withModel(MemoryModel::RotorPaper, 50);
            for (const char* name : {"store-all", "periodic", "revolve", "rotor", "bptt-dp"}) {
                SolveRequest req;
                if (std::string(name) == "revolve") req.params["slots"] = "3";
                auto plan = solve(name, c, Hardware::unbounded(), req);
                if (!plan) continue; // the paper model's chain: only the schedulers of that model
                auto whole = simulate(c, Hardware::unbounded(), plan->actions);
                QVERIFY2(whole.ok(), whole.ok() ? "" : whole.error().c_str());
                const std::int64_t peak = whole->totals.peak_bytes[0];
                for (std::int64_t budget : {std::int64_t(0), peak, peak * 3 / 4, peak / 2}) {
                    SimOptions streamed;
                    streamed.budget_bytes = budget;
                    SimOptions kept = streamed;
                    std::vector<TensorLife> tensors;
                    kept.tensors = &tensors;
                    auto a = simulate(c, Hardware::unbounded(), plan->actions, streamed);
                    auto b = simulate(c, Hardware::unbounded(), plan->actions, kept);
                    const QString what = QString("%1 on seed %2 at %3 B").arg(name).arg(seed).arg(budget);
                    QVERIFY2(a.ok() == b.ok(), qPrintable(what));
                    ++compared;
                    if (!a.ok()) {
                        QVERIFY2(budget > 0 && budget < peak, qPrintable(what));
                        QCOMPARE(a.errorIndex(), b.errorIndex());
                        QCOMPARE(a.error(), b.error());
                        ++overflows;
                        continue;
                    }
                    QCOMPARE(a->totals.peak_bytes, b->totals.peak_bytes);
                    QCOMPARE(a->totals.peak_time_s, b->totals.peak_time_s);
                    QCOMPARE(a->totals.held_after_forward_bytes, b->totals.held_after_forward_bytes);
                    QCOMPARE(a->memory.size(), b->memory.size());
                    for (std::size_t l = 0; l < a->memory.size(); ++l) {
                        QCOMPARE(a->memory[l].size(), b->memory[l].size());
                        for (std::size_t k = 0; k < a->memory[l].size(); ++k) {
                            QCOMPARE(a->memory[l][k].time, b->memory[l][k].time);
                            QVERIFY(a->memory[l][k].bytes == b->memory[l][k].bytes);
                        }
                    }
                    SimOptions lean = streamed;
                    lean.intervals = lean.memory_curve = false;
                    auto t = simulate(c, Hardware::unbounded(), plan->actions, lean);
                    QVERIFY(t.ok() && t->intervals.empty() && t->memory.empty());
                    QCOMPARE(t->totals.makespan_s, a->totals.makespan_s);
                    QCOMPARE(t->totals.compute_s, a->totals.compute_s);
                    QCOMPARE(t->totals.forward_steps, a->totals.forward_steps);
                    QCOMPARE(t->totals.recomputed_steps, a->totals.recomputed_steps);
                    QCOMPARE(t->totals.peak_bytes, a->totals.peak_bytes);
                }
            }
        }
        QVERIFY2(compared >= 150 && overflows >= 40, qPrintable(QString("%1 %2").arg(compared).arg(overflows)));
    }

    void earlierOverflowWinsOverLaterLogicError() {
        Chain c = uniformChain(4);
        Schedule s = storeAll(4);
        s.insert(s.begin() + 5, Action::backward(4)); // a logic error at index 5, after the overflow at index 2
        auto tl = simulate(c, twoLevels(1000), s);
        QVERIFY(!tl.ok());
        QCOMPARE(tl.errorIndex(), 2LL);
    }
};

QTEST_APPLESS_MAIN(TestSimulator)
#include "tst_simulator.moc"
