// Chains of 1e5 and 1e6 steps: every plan builder runs without recursing per step (the stack held ~8 MB), and what
// would not fit in memory is refused up front with the estimate and the limit in the message.
#include "schedulers/bptt_dp.h"
#include "schedulers/fit.h"
#include "schedulers/periodic.h"
#include "schedulers/periodic_costs.h"
#include "schedulers/registry.h"
#include "schedulers/revolve.h"
#include "schedulers/rotor.h"
#include "schedulers/segment_offload.h"
#include "schedulers/store_all.h"
#include "sim/simulator.h"
#include "test_util.h"

#include <QtTest>

using namespace ckpt;
using namespace ckpt::test;

namespace {

// C(a, b) exactly, for the small b (or a - b) the closed form needs here.
long long binom(long long a, long long b) {
    b = std::min(b, a - b);
    long long r = 1;
    for (long long i = 1; i <= b; ++i)
        r = r * (a - b + i) / i; // exact: r * (a - b + i) is C(a - b + i, i) * i
    return r;
}

// Griewank's closed form written again: t(n, s) = r n - C(s + r, s + 1), r the least with C(s + r, s) >= n.
long long advances(long long n, long long s) {
    if (s == 1) return n * (n - 1) / 2;
    long long r = 0;
    while (binom(s + r, s) < n)
        ++r;
    return r * n - binom(s + r, s + 1);
}

struct Counts {
    long long forwards = 0, backwards = 0;
};
Counts count(const Schedule& s) {
    Counts c;
    for (const Action& a : s) {
        c.forwards += a.kind == ActionKind::Forward ? 1 : 0;
        c.backwards += a.kind == ActionKind::Backward ? 1 : 0;
    }
    return c;
}

Timeline judge(const Chain& c, const Schedule& s) {
    SimOptions opt;
    opt.memory_curve = false;
    auto tl = simulate(c, Hardware::unbounded(), s, opt);
    if (!tl) qFatal("plan rejected: %s", tl.error().c_str());
    return *tl;
}

bool names(const std::string& message, const std::string& a, const std::string& b) {
    return message.find(a) != std::string::npos && message.find(b) != std::string::npos;
}

} // namespace

class TestLongChains : public QObject {
    Q_OBJECT

private slots:
    // 1e5 steps through the simulator: half as many slots as steps (the builder used to recurse once per slot and
    // overflowed the stack), and few slots (three repetitions).
    void revolveHundredThousandSteps() {
        const int n = 100'000;
        Chain c = uniformChain(n);
        for (int s : {50'000, 100}) {
            Plan p = revolvePlan(c, s);
            Timeline tl = judge(c, p.actions);
            QCOMPARE(tl.totals.forward_steps, n + advances(n, s));
            QCOMPARE(tl.totals.backward_steps, (long long)n);
            QCOMPARE((long long)p.actions.size(), (long long)revolveActions(n, s));
        }
    }

    // 1e6 steps, counted (a simulation of millions of actions is too slow for the Debug build): the forward steps
    // are n + t(n, s) and every step is reversed once.
    void revolveMillionStepsCounted() {
        const int n = 1'000'000;
        Chain c = uniformChain(n);
        for (int s : {500'000}) {
            Plan p = revolvePlan(c, s);
            Counts k = count(p.actions);
            QCOMPARE(k.forwards, n + advances(n, s));
            QCOMPARE(k.backwards, (long long)n);
            QCOMPARE(revolveAdvances(n, s), advances(n, s));
        }
    }

    // No budget on a machine with a bounded level 0 (the explorer's default A100): the fit takes the most slots
    // that fit, here all of them (the builder used to recurse once per slot), on 1e5 steps through the simulator.
    void revolveFitOnMachineCapacity() {
        const int n = 100'000;
        Chain c = uniformChain(n);
        MemoryLevel hbm{"hbm"};
        hbm.capacity_bytes = std::int64_t(40) << 30;
        auto fit = solve("revolve", c, *Hardware::make("gpu", {hbm}), {{}, 0});
        QVERIFY2(fit.ok(), fit.ok() ? "" : fit.error().c_str());
        QCOMPARE(fit->params.at("slots"), std::to_string(n));
        Timeline tl = judge(c, fit->actions);
        QCOMPARE(tl.totals.forward_steps, n + advances(n, n)); // 2n - 1: every state kept
    }

    // Too few slots: refused before building, the message naming the plan's size and the limit.
    void revolveTooFewSlotsRefused() {
        Chain c = uniformChain(100'000);
        auto r = solve("revolve", c, Hardware::unbounded(), {{{"slots", "2"}}, 0});
        QVERIFY(!r.ok());
        QVERIFY(!r.errorValue().infeasible); // a refused size: exit 2
        const std::string estimate = std::to_string(2LL * 100'000 + advances(100'000, 2));
        QVERIFY2(names(r.error(), estimate + " actions", "limit of " + std::to_string(kMaxPlanActions)),
                 r.error().c_str());
        QVERIFY2(names(r.error(), "slots (" + std::to_string(revolveFewestSlots(100'000)), "at least"),
                 r.error().c_str());
        auto ok =
            solve("revolve", c, Hardware::unbounded(), {{{"slots", std::to_string(revolveFewestSlots(100'000))}}, 0});
        QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().c_str());
        QVERIFY((long long)ok->actions.size() <= kMaxPlanActions);
    }

    // 1e6 steps with a budget: the fit starts from the fewest slots whose plan can be built (the 1-slot plan alone
    // would be 5e11 actions). (The fit itself on 1e6 steps takes too long for the Debug build: see the report.)
    void revolveFewestSlotsIsBuildable() {
        for (int n : {100'000, 1'000'000, 3'000'000}) {
            const int lo = revolveFewestSlots(n);
            QVERIFY(lo >= 2 && lo <= n);
            QVERIFY(revolveActions(n, lo) <= kMaxPlanActions);
            QVERIFY(revolveActions(n, lo - 1) > kMaxPlanActions);
            QCOMPARE(revolveActions(n, lo), 2LL * n + advances(n, lo));
        }
    }

    // Store-all's peak by formula equals the simulated one (random chains with temporaries, and a long one).
    void storeAllPeakFormula() {
        for (unsigned seed = 1; seed <= 60; ++seed) {
            Chain c = randomChain(1 + int(seed % 29), seed, seed % 2 == 0);
            QCOMPARE(storeAllPeakBytes(c), judge(c, storeAllPlan(c).actions).totals.peak_bytes[0]);
        }
        Chain u = uniformChain(100'000);
        QCOMPARE(storeAllPeakBytes(u), judge(u, storeAllPlan(u).actions).totals.peak_bytes[0]);
    }

    // Periodic's auto fit on 1e5 steps under 1% of store-all (it used to build and simulate ~550 candidate plans):
    // the plan fits, its peak is the formula's, and every S faster than it (fewer re-run steps, (S-1)floor(n/S)),
    // checked against the closed form (S+1)x + L tape of a uniform chain, L = n - (S-1)k, does not fit.
    void periodicAutoFitHundredThousandSteps() {
        const int n = 100'000;
        Chain c = uniformChain(n, 1.0, 2.0, 100, 300);
        const std::int64_t budget = storeAllPeakBytes(c) / 100;
        auto fit = solve("periodic", c, Hardware::unbounded(), {{}, budget});
        QVERIFY2(fit.ok(), fit.ok() ? "" : fit.error().c_str());
        const long long S = std::stoll(fit->params.at("segments"));
        const std::int64_t peak = judge(c, fit->actions).totals.peak_bytes[0];
        QVERIFY(peak <= budget);
        QCOMPARE(PeriodicCosts(c).peakBytes(int(S)), peak);
        auto rerun = [&](long long s) { return (s - 1) * (n / s); };
        for (long long s = 1; s <= n; ++s) {
            const long long k = n / s, L = n - (s - 1) * k;
            if (rerun(s) < rerun(S) || (rerun(s) == rerun(S) && s < S)) QVERIFY((s + 1) * 100 + L * 300 > budget);
        }
        // A heterogeneous long chain: the chosen plan peaks where the formula says.
        Chain h = randomChain(n, 7);
        auto het = solve("periodic", h, Hardware::unbounded(), {{}, storeAllPeakBytes(h) / 50});
        QVERIFY2(het.ok(), het.ok() ? "" : het.error().c_str());
        QCOMPARE(PeriodicCosts(h).peakBytes(std::stoi(het->params.at("segments"))),
                 judge(h, het->actions).totals.peak_bytes[0]);
    }

    // The other builders that used to recurse per step, on chains long enough to have overflowed: their plans
    // validate, and their counts hold.
    void otherBuildersOnLongChains() {
        // bptt-dp's HSM is Revolve: n + t(n, s) forward steps.
        const int n = 3000;
        Chain c = uniformChain(n);
        BpttTable hsm(n, 3, 3, BpttVariant::HSM);
        Plan p = hsm.plan(c, 3);
        QCOMPARE(judge(c, p.actions).totals.forward_steps, n + advances(n, 3));
        QCOMPARE(*hsm.forwardSteps(n, 3), n + advances(n, 3));
        // Rotor with a budget that keeps all but a few tapes: a long run of taped steps (the old emit recursed once
        // per taped step).
        Chain r = uniformChain(1000);
        auto rotor = rotorSolve(r, storeAllPeakBytes(r) - 3 * 300, 40);
        QVERIFY2(rotor.ok(), rotor.ok() ? "" : rotor.error().c_str());
        QVERIFY(judge(r, rotor->plan.actions).totals.peak_bytes[0] <= storeAllPeakBytes(r) - 3 * 300);
        // The segmented offload plan's size in closed form equals what it builds.
        MemoryLevel fast{"fast"}, slow{"slow"};
        slow.read_bytes_per_s = slow.write_bytes_per_s = 1e9;
        Hardware two = *Hardware::make("two", {fast, slow});
        for (int I : {1, 7, 100, n})
            for (int m : {1, 3, 50})
                QCOMPARE(double(segmentedOffloadPlan(c, two, I, m, 1).actions.size()),
                         segmentedOffloadActions(n, I, m));
    }

    // Programmes too large for memory or time are refused at once, naming the estimate and the limit.
    void tablesRefusedByEstimate() {
        Chain c = uniformChain(1'000'000);
        auto rotor = solve("rotor", c, Hardware::unbounded(), {{}, storeAllPeakBytes(c) / 100});
        QVERIFY(!rotor.ok());
        QVERIFY2(names(rotor.error(), "1000000", "20000"), rotor.error().c_str());
        auto bptt = solve("bptt-dp", c, Hardware::unbounded(), {{}, 0});
        QVERIFY(!bptt.ok() && !bptt.errorValue().infeasible);
        QVERIFY2(names(bptt.error(), "table cells", "limit of"), bptt.error().c_str());
        auto bpttFit = solve("bptt-dp", c, Hardware::unbounded(), {{}, storeAllPeakBytes(c) / 100});
        QVERIFY(!bpttFit.ok() && !bpttFit.errorValue().infeasible);
        QVERIFY2(names(bpttFit.error(), "inner loop", "limit of"), bpttFit.error().c_str());
        // Past a billion, counts read as powers of ten: rotor's n³M/6 on 20000 heterogeneous steps and 500 slots.
        std::vector<Step> steps;
        for (int i = 0; i < 20000; ++i)
            steps.push_back(Step{1, 2, 100 + i % 7, 300 + i % 5, 0, 0});
        const Chain het = *Chain::make("het", steps);
        auto big = solve("rotor", het, Hardware::unbounded(), {{{"slots", "500"}}, storeAllPeakBytes(het) / 20});
        QVERIFY(!big.ok());
        QVERIFY2(names(big.error(), "would take 6.67 × 10¹⁴ steps of its inner loop", "over the limit of 10¹¹;"),
                 big.error().c_str());
    }

    // Every plan within the action limit can be simulated, curves included.
    void limitsAgree() {
        QVERIFY(simulationBytes(std::size_t(kMaxPlanActions), true) <= kMaxSimulationBytes);
        QVERIFY(simulationBytes(std::size_t(4) * kMaxPlanActions, true) > kMaxSimulationBytes);
        QVERIFY(checkPlanActions("x", double(kMaxPlanActions), "") == std::nullopt);
        auto e = checkPlanActions("x", double(kMaxPlanActions) + 1, "hint");
        QVERIFY(e && names(e->message, "10000001 actions", "limit of 10000000; hint"));
        QCOMPARE(fewestBuildable(1, 100, [](int k) { return k < 37 ? 1e12 : 1.0; }), 37);
        QCOMPARE(fewestBuildable(1, 100, [](int) { return 1e12; }), 101);
    }
};

QTEST_GUILESS_MAIN(TestLongChains)
#include "tst_longchains.moc"
