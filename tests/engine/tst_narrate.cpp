// The narration of a plan (run/narrate.h): sentences worked out by hand for a small Revolve plan, and what it says is
// held against the simulator's own memory curve, at every action, for several schedulers.
#include "io/json_io.h"
#include "model/problem.h"
#include "run/narrate.h"
#include "run/runner.h"
#include "schedulers/registry.h"

#include <QtTest>

using namespace ckpt;

namespace {

Run solved(const char* name, const Chain& chain, const Hardware& hw, std::map<std::string, std::string> params,
           std::int64_t budget = 0) {
    SolveRequest req;
    req.params = std::move(params);
    req.budget_bytes = budget;
    return runScheduler(name, Problem(chain), hw, req);
}

} // namespace

class TestNarrate : public QObject {
    Q_OBJECT
private slots:
    // Revolve with 2 slots on 5 unit steps. Griewank's count: the repetition number is t = 2 (β(2,1) = 3 < 5 ≤
    // β(2,2) = 6), so 2·5 − β(3,1) = 6 advances plus one taped forward per step: 11 forwards, 16 actions. Each line
    // follows from the action (Forward keep/tape, Backward), the run count of its step, and which states the
    // simulator still holds: a checkpoint is freed when the backward no longer needs it.
    void smallRevolveReadsAsWorkedOut() {
        const Chain chain = *Chain::uniform("u5", 5, Step{1, 1, 1024, 1024, 0, 0});
        const Run run = solved("revolve", chain, Hardware::unbounded(), {{"slots", "2"}});
        QVERIFY2(run.feasible, run.message.c_str());
        auto told = narrate(chain, Hardware::unbounded(), *run.chainPlan());
        QVERIFY2(told, told ? "" : told.error().c_str());
        const QStringList want = {
            "Forward step 1: x0 → x1; keep x0 as a checkpoint; 1 of 2 slots in use",
            "Forward step 2: x1 → x2; 1 of 2 slots in use",
            "Forward step 3: x2 → x3; 1 of 2 slots in use",
            "Forward step 4: x3 → x4; keep x3 as a checkpoint; 2 of 2 slots in use",
            "Forward step 5: x4 → x5; record its tape for the backward; 2 of 2 slots in use",
            "Backward step 5: the gradient reaches x4; free the tape of step 5; 2 of 2 slots in use",
            "Recompute step 4 from the checkpoint x3 (run 2 of step 4); record its tape for the backward; "
            "checkpoint x3 freed; 1 of 2 slots in use",
            "Backward step 4: the gradient reaches x3; free the tape of step 4; 1 of 2 slots in use",
            "Recompute step 1 from the checkpoint x0 (run 2 of step 1); x0 stays a checkpoint; 1 of 2 slots in use",
            "Recompute step 2 from x1 (run 2 of step 2); keep x1 as a checkpoint; 2 of 2 slots in use",
            "Recompute step 3 from x2 (run 2 of step 3); record its tape for the backward; 2 of 2 slots in use",
            "Backward step 3: the gradient reaches x2; free the tape of step 3; 2 of 2 slots in use",
            "Recompute step 2 from the checkpoint x1 (run 3 of step 2); record its tape for the backward; "
            "checkpoint x1 freed; 1 of 2 slots in use",
            "Backward step 2: the gradient reaches x1; free the tape of step 2; 1 of 2 slots in use",
            "Recompute step 1 from the checkpoint x0 (run 3 of step 1); record its tape for the backward; "
            "checkpoint x0 freed; 0 of 2 slots in use",
            "Backward step 1: the gradient reaches x0; free the tape of step 1; 0 of 2 slots in use",
        };
        QCOMPARE(int(told->actions.size()), want.size());
        for (int k = 0; k < want.size(); ++k)
            QCOMPARE(QString::fromStdString(told->actions[std::size_t(k)].sentence), want[k]);
        QCOMPARE(run.timeline->totals.forward_steps, 11LL);
        // The held set after action 9: the checkpoints x0 and x1, the working state x2, the gradient of x3.
        const NarratedAction& a9 = told->actions[9];
        QCOMPARE(a9.held.states[0], (std::vector<int>{0, 1, 2}));
        QCOMPARE(a9.checkpoints, (std::vector<int>{0, 1}));
        QCOMPARE(a9.held.gradient, 3);
        QCOMPARE(a9.bytes[0], std::int64_t(4 * 1024));
    }

    // On one level with compute in sequence, each action starts when the one before it ends, and the simulator's
    // curve at that instant holds what the action before left plus what this one takes at its start (its
    // temporaries, its output, its tape; a backward's gradient, and the loss gradient first): worked out here from
    // the chain's sizes, and compared with the narration's bytes at every action, for every scheduler here.
    void heldBytesAreTheSimulatorsAtEveryAction() {
        auto chain = loadChain(QString(CKPT_SOURCE_DIR "/examples/small-hetero-12.ckpt-chain.json").toStdString());
        QVERIFY(chain);
        const Hardware hw = Hardware::unbounded();
        const std::vector<std::pair<const char*, std::map<std::string, std::string>>> cases = {
            {"store-all", {}}, {"periodic", {{"segments", "3"}}}, {"revolve", {{"slots", "3"}}},
            {"rotor", {}},     {"bptt-dp", {{"slots", "4"}}},
        };
        for (const auto& [name, params] : cases) {
            const Run run = solved(name, *chain, hw, params);
            QVERIFY2(run.feasible, (std::string(name) + ": " + run.message).c_str());
            const Schedule& plan = run.chainPlan()->actions;
            auto told = narrate(*chain, hw, *run.chainPlan(), run.budget_bytes);
            QVERIFY(told);
            QCOMPARE(told->actions.size(), plan.size());
            const auto& curve = run.timeline->memory[0];
            const auto& ivs = run.timeline->intervals;
            QCOMPARE(ivs.size(), plan.size());
            auto at = [&](double t) { // the curve's value from t on
                std::int64_t total = 0;
                for (const MemorySample& m : curve)
                    if (m.time <= t) total = m.total();
                return total;
            };
            for (std::size_t k = 0; k < plan.size(); ++k) {
                std::int64_t expected = 0;
                if (k + 1 == plan.size()) {
                    expected = at(ivs[k].end);
                } else {
                    const Action& next = plan[k + 1];
                    const Step& st = chain->step(next.index);
                    std::int64_t taken = 0;
                    if (next.kind == ActionKind::Forward)
                        taken = st.forward_tmp_bytes + chain->stateBytes(next.index) +
                                (next.keep == Keep::Tape ? st.tape_bytes : 0);
                    else
                        taken = st.backward_tmp_bytes + chain->stateBytes(next.index - 1) +
                                (next.index == chain->length() ? chain->stateBytes(next.index) : 0);
                    QCOMPARE(ivs[k + 1].start, ivs[k].end);
                    expected = at(ivs[k + 1].start) - taken;
                }
                QVERIFY2(told->actions[k].bytes[0] == expected,
                         qPrintable(QString("%1, action %2: narrated %3, simulated %4")
                                        .arg(name)
                                        .arg(k)
                                        .arg(told->actions[k].bytes[0])
                                        .arg(expected)));
            }
        }
    }

    // A part of the plan (ckpt explain --from/--to) reads as the same lines of the whole: the checkpoints before the
    // part are followed through the simulator's on_state, what is held is copied for the part alone. Plans with
    // checkpoints freed, slots, and states written to and read back from a slower level.
    void aPartReadsAsTheWhole() {
        auto chain = loadChain(QString(CKPT_SOURCE_DIR "/examples/small-hetero-12.ckpt-chain.json").toStdString());
        QVERIFY(chain);
        MemoryLevel gpu{"gpu"}, host{"host"};
        host.read_bytes_per_s = host.write_bytes_per_s = 1e10;
        const Hardware hw = *Hardware::make("two levels", {gpu, host});
        const std::vector<std::pair<const char*, std::map<std::string, std::string>>> cases = {
            {"revolve", {{"slots", "3"}}},
            {"bptt-dp", {{"slots", "4"}}},
            {"multistage", {{"memory_slots", "2"}, {"disk_slots", "3"}}},
            {"async-multistage", {{"slots", "2"}, {"interval", "3"}}},
        };
        for (const auto& [name, params] : cases) {
            const Run run = solved(name, *chain, hw, params);
            QVERIFY2(run.feasible, (std::string(name) + ": " + run.message).c_str());
            auto whole = narrate(*chain, hw, *run.chainPlan(), run.budget_bytes);
            QVERIFY(whole);
            const std::size_t count = whole->actions.size();
            int freed = 0;
            for (const NarratedAction& a : whole->actions)
                freed += a.sentence.find("freed") != std::string::npos;
            QVERIFY2(freed > 0, name);
            for (std::size_t from = 0; from < count; from += 7) {
                const std::size_t to = std::min(count - 1, from + 4);
                auto part = narrate(*chain, hw, *run.chainPlan(), run.budget_bytes, from, (long long)to);
                QVERIFY(part);
                QCOMPARE(part->first, from);
                QCOMPARE(part->actions.size(), to - from + 1);
                for (std::size_t k = from; k <= to; ++k) {
                    const NarratedAction &a = whole->actions[k], &b = part->actions[k - from];
                    QCOMPARE(b.sentence, a.sentence);
                    QCOMPARE(b.checkpoints, a.checkpoints);
                    QCOMPARE(b.bytes, a.bytes);
                    QCOMPARE(b.held.states, a.held.states);
                    QCOMPARE(b.held.tapes, a.held.tapes);
                    QCOMPARE(b.held.gradient, a.held.gradient);
                }
            }
        }
    }

    // An invalid plan is refused with the simulator's message, naming the action.
    void anInvalidPlanIsRefused() {
        const Chain chain = *Chain::uniform("u3", 3, Step{1, 1, 8, 8, 0, 0});
        Plan plan;
        plan.actions = {Action::forward(1, Keep::None), Action::backward(3)};
        auto told = narrate(chain, Hardware::unbounded(), plan);
        QVERIFY(!told);
        QVERIFY2(QString::fromStdString(told.error()).contains("action 1"), told.error().c_str());
    }
};

QTEST_GUILESS_MAIN(TestNarrate)
#include "tst_narrate.moc"
