// Optimal schedulers against exhaustive search over every valid schedule on small chains (tests/engine/exhaustive.h).
#include "exhaustive.h"
#include "schedulers/bptt_dp.h"
#include "schedulers/registry.h"
#include "schedulers/revolve.h"
#include "schedulers/rotor.h"
#include "schedulers/store_all.h"
#include "sim/simulator.h"
#include "test_util.h"

#include <QtTest>
#include <random>

using namespace ckpt;
using namespace ckpt::test;

namespace {

// Sizes in multiples of 8 bytes, so a rotor slot of 8 bytes measures them exactly.
Chain smallChain(int n, unsigned seed, bool uniform) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> cost(1, 6), size(1, 6);
    std::vector<Step> steps;
    Step first{double(cost(rng)), double(2 * cost(rng)), 8 * size(rng),
               8 * size(rng),     8 * (size(rng) - 1),   8 * (size(rng) - 1)};
    for (int i = 0; i < n; ++i) {
        if (uniform) {
            steps.push_back(first);
            continue;
        }
        steps.push_back(Step{double(cost(rng)), double(2 * cost(rng)), 8 * size(rng), 8 * size(rng),
                             8 * (size(rng) - 1), 8 * (size(rng) - 1)});
    }
    return *Chain::make(uniform ? "uniform" : "random", steps);
}

std::int64_t peakOf(const Chain& c, const Schedule& s) {
    auto tl = simulate(c, Hardware::unbounded(), s);
    return tl ? tl->totals.peak_bytes[0] : -1;
}

} // namespace

class TestOptimal : public QObject {
    Q_OBJECT
private slots:
    // Rotor's programme is exact for persistent schedules (a checkpoint, once kept, is only consumed by a taped
    // forward): it equals the search over all of them. Over every valid schedule it can be beaten where dropping a
    // small checkpoint early frees room (see rotorAgainstEverySchedule).
    void rotorEqualsExhaustiveSearch() {
        int compared = 0, infeasibleBoth = 0;
        SearchOptions persistent;
        persistent.persistent = true;
        for (unsigned seed = 1; seed <= 24; ++seed) {
            const bool uniform = seed % 3 == 0;
            const int n = 2 + int(seed % 6); // 2..7
            Chain c = smallChain(n, seed, uniform);
            const std::int64_t lean = peakOf(c, revolvePlan(c, 1).actions);
            const std::int64_t all = peakOf(c, storeAllPlan(c).actions);
            for (double f : {0.0, 0.25, 0.5, 0.75, 1.0}) {
                std::int64_t budget = (lean + std::int64_t(f * double(all - lean))) / 8 * 8;
                double truth = exhaustiveOptimum(c, budget, persistent);
                auto r = rotorSolve(c, budget, int(budget / 8));
                if (!std::isfinite(truth)) {
                    QVERIFY2(!r.ok() && r.errorValue().infeasible,
                             qPrintable(QString("seed %1 budget %2").arg(seed).arg(budget)));
                    ++infeasibleBoth;
                    continue;
                }
                QVERIFY2(r.ok(), qPrintable(QString("seed %1 n %2 budget %3: %4")
                                                .arg(seed)
                                                .arg(n)
                                                .arg(budget)
                                                .arg(r.ok() ? "" : r.error().c_str())));
                SimOptions opt;
                opt.budget_bytes = budget;
                auto tl = simulate(c, Hardware::unbounded(), r->plan.actions, opt);
                QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
                QCOMPARE(tl->totals.makespan_s, truth);
                QCOMPARE(r->plan.predicted_makespan_s, truth);
                QCOMPARE(double(r->dp_cost), truth);
                ++compared;
            }
        }
        QVERIFY(compared >= 80);
        qInfo("rotor = exhaustive optimum on %d cases (%d budgets infeasible for both)", compared, infeasibleBoth);
    }

    // Over every valid schedule (checkpoints may be dropped and rebuilt), the optimum is never above rotor's, and on
    // seed 22 (n = 6, 192 B) it is strictly below: F1s F2n F3s F4n F5t F6t B6 B5 F3n F4t B4 F1t F2t F3t B3 B2 B1 takes
    // 77 where rotor's best persistent schedule takes 78.
    void rotorAgainstEverySchedule() {
        for (unsigned seed = 1; seed <= 12; ++seed) {
            const int n = 2 + int(seed % 4);
            Chain c = smallChain(n, seed, seed % 3 == 0);
            const std::int64_t lean = peakOf(c, revolvePlan(c, 1).actions);
            const std::int64_t all = peakOf(c, storeAllPlan(c).actions);
            for (double f : {0.25, 0.5, 0.75}) {
                std::int64_t budget = (lean + std::int64_t(f * double(all - lean))) / 8 * 8;
                auto r = rotorSolve(c, budget, int(budget / 8));
                QVERIFY(r.ok());
                QVERIFY(exhaustiveOptimum(c, budget) <= r->plan.predicted_makespan_s);
            }
        }
        Chain c = smallChain(6, 22, false);
        auto r = rotorSolve(c, 192, 24);
        QVERIFY(r.ok());
        QCOMPARE(r->plan.predicted_makespan_s, 78.0);
        std::vector<std::string> path;
        QCOMPARE(exhaustiveOptimum(c, 192, {}, &path), 77.0);
        std::string text;
        for (const auto& a : path)
            text += a + " ";
        QCOMPARE(text, std::string("F1s F2n F3s F4n F5t F6t B6 B5 F3n F4t B4 F1t F2t F3t B3 B2 B1 "));
    }

    void revolveEqualsExhaustiveSearchInModelA() {
        for (int n = 1; n <= 8; ++n)
            for (int s = 1; s <= 4; ++s) {
                Chain c = uniformChain(n);
                SearchOptions opt;
                opt.modelA = true;
                opt.maxStates = s;
                opt.countForwards = true;
                double truth = exhaustiveOptimum(c, 0, opt);
                auto tl = simulate(c, Hardware::unbounded(), revolvePlan(c, s).actions);
                QVERIFY(tl.ok());
                QCOMPARE(double(tl->totals.forward_steps), truth);
            }
    }

    // Gruslys et al.'s three programmes against the search in their slot model, for every small length, tape size and
    // slot count; and each plan, replayed by the simulator, does exactly the forward steps the programme counts.
    void bpttDpEqualsExhaustiveSearch() {
        for (BpttVariant variant : {BpttVariant::HSM, BpttVariant::ISM, BpttVariant::MSM})
            for (int alpha = 1; alpha <= 3; ++alpha) {
                BpttTable table(8, 9, alpha, variant);
                for (int n = 1; n <= 7; ++n)
                    for (int m = 1; m <= 9; ++m) {
                        Chain c = uniformChain(n);
                        SearchOptions opt;
                        opt.alpha = alpha;
                        opt.countForwards = true;
                        opt.modelA = variant == BpttVariant::HSM;
                        opt.onlyInputKept = variant == BpttVariant::ISM;
                        double truth = exhaustiveOptimum(c, m, opt);
                        auto dp = table.forwardSteps(n, m);
                        QString where =
                            QString("variant %1 alpha %2 n %3 m %4").arg(int(variant)).arg(alpha).arg(n).arg(m);
                        QVERIFY2(dp.has_value() == std::isfinite(truth), qPrintable(where));
                        if (!dp) continue;
                        QVERIFY2(double(*dp) == truth,
                                 qPrintable(where + QString(": dp %1, search %2").arg(*dp).arg(truth)));
                        auto tl = simulate(c, Hardware::unbounded(), table.plan(c, m).actions);
                        QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
                        QCOMPARE(tl->totals.forward_steps, *dp);
                    }
            }
    }

    void bpttMixedNeverWorseThanHidden() {
        Chain c = uniformChain(300, 1.0, 2.0, 128, 512);
        BpttTable hsm(300, 40, 4, BpttVariant::HSM), msm(300, 40, 4, BpttVariant::MSM),
            ism(300, 40, 4, BpttVariant::ISM);
        for (int m = 1; m <= 40; ++m) {
            auto h = hsm.forwardSteps(300, m), x = msm.forwardSteps(300, m), i = ism.forwardSteps(300, m);
            QVERIFY(h.has_value() && x.has_value());
            QVERIFY(*x <= *h);
            if (i) QVERIFY(*x <= *i);
            // HSM is Revolve: n + t(n, m) forward steps.
            QCOMPARE(*h, 300 + revolveAdvances(300, m));
        }
        // At the same byte budget, through the registry.
        for (std::int64_t budget : {6000, 12000, 40000}) {
            auto a = solve("bptt-dp", c, Hardware::unbounded(), {{{"variant", "msm"}}, budget});
            auto b = solve("bptt-dp", c, Hardware::unbounded(), {{{"variant", "hsm"}}, budget});
            QVERIFY2(a.ok() && b.ok(), a.ok() ? (b.ok() ? "" : b.error().c_str()) : a.error().c_str());
            QVERIFY(a->predicted_makespan_s <= b->predicted_makespan_s);
        }
    }

    void rotorNeverWorseThanRevolveOnHomogeneousChains() {
        for (int n : {5, 20, 60}) {
            Chain c = uniformChain(n, 1.0, 2.0, 64, 192);
            for (int s = 1; s <= 8; ++s) {
                Plan rev = revolvePlan(c, s);
                std::int64_t peak = peakOf(c, rev.actions);
                auto r = rotorSolve(c, peak, int(peak / 64));
                QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
                QVERIFY(peakOf(c, r->plan.actions) <= peak);
                QVERIFY2(r->plan.predicted_makespan_s <= rev.predicted_makespan_s,
                         qPrintable(QString("n %1 s %2: rotor %3 > revolve %4")
                                        .arg(n)
                                        .arg(s)
                                        .arg(r->plan.predicted_makespan_s)
                                        .arg(rev.predicted_makespan_s)));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestOptimal)
#include "tst_optimal.moc"
