// The first schedulers against their closed forms, recursions computed here, and the simulator's verdict.
#include "io/json_io.h"
#include "run/runner.h"
#include "schedulers/fit.h"
#include "schedulers/periodic.h"
#include "schedulers/periodic_costs.h"
#include "schedulers/registry.h"
#include "schedulers/revolve.h"
#include "schedulers/store_all.h"
#include "sim/simulator.h"
#include "test_util.h"

#include <QtTest>
#include <cmath>

using namespace ckpt;
using namespace ckpt::test;

namespace {

// Griewank's recursion for the fewest advances, written independently of the scheduler:
// t(n, s) = min over 1 <= i < n of [i + t(i, s) + t(n - i, s - 1)], t(n, 1) = n(n-1)/2, t(1, s) = 0.
std::vector<std::vector<long long>> advancesTable(int N, int S) {
    std::vector<std::vector<long long>> t(size_t(N) + 1, std::vector<long long>(size_t(S) + 1, 0));
    for (int n = 1; n <= N; ++n)
        t[size_t(n)][1] = (long long)n * (n - 1) / 2;
    for (int s = 2; s <= S; ++s)
        for (int n = 2; n <= N; ++n) {
            long long best = -1;
            for (int i = 1; i < n; ++i) {
                long long v = i + t[size_t(i)][size_t(s)] + t[size_t(n - i)][size_t(s - 1)];
                if (best < 0 || v < best) best = v;
            }
            t[size_t(n)][size_t(s)] = best;
        }
    return t;
}

long long binom(long long a, long long b) {
    long double r = 1;
    for (long long i = 1; i <= b; ++i)
        r = r * (a - b + i) / i;
    return std::llround(r);
}

// Checkpoints held after each action: the states in level 0 other than the one just produced (the working state).
int maxCheckpoints(const Chain& c, const Schedule& s) {
    const int n = c.length();
    std::vector<char> held(size_t(n) + 1, 0), reversed(size_t(n) + 2, 0);
    int count = 1;
    held[0] = 1;
    auto drop = [&](int j) { count -= held[size_t(j)], held[size_t(j)] = 0; };
    int worst = 1;
    for (const Action& a : s) {
        bool working = false;
        if (a.kind == ActionKind::Forward) {
            if (a.keep != Keep::State) drop(a.index - 1);
            if (a.index == n || reversed[size_t(a.index) + 1]) {
                drop(a.index);
            } else {
                count += 1 - held[size_t(a.index)];
                held[size_t(a.index)] = 1;
                working = true;
            }
        } else if (a.kind == ActionKind::Backward) {
            reversed[size_t(a.index)] = 1;
            drop(a.index - 1);
        }
        worst = std::max(worst, count - (working ? 1 : 0));
    }
    return worst;
}

Timeline mustSimulate(const Chain& c, const Schedule& s, const Hardware& hw = Hardware::unbounded()) {
    auto tl = simulate(c, hw, s);
    if (!tl) qFatal("plan rejected: %s", tl.error().c_str());
    return *tl;
}

} // namespace

class TestSchedulers : public QObject {
    Q_OBJECT
private slots:
    void revolveClosedFormMatchesRecursion() {
        auto t = advancesTable(300, 12);
        for (int s = 1; s <= 12; ++s)
            for (int n = 1; n <= 300; ++n)
                QCOMPARE(revolveAdvances(n, s), t[size_t(n)][size_t(s)]);
        // The examples of algorithms.md.
        QCOMPARE(10 + revolveAdvances(10, 2), 30LL);
        QCOMPARE(100 + revolveAdvances(100, 5), 416LL);
        QCOMPARE(1000 + revolveAdvances(1000, 10), 4636LL);
    }

    void revolveForwardStepsRestoresAndSlots() {
        auto t = advancesTable(300, 12);
        for (int n = 1; n <= 300; ++n) {
            Chain c = uniformChain(n);
            for (int s = 1; s <= 12; ++s) {
                Plan p = revolvePlan(c, s);
                SimOptions opt;
                opt.memory_curve = n % 25 == 0; // the curve is checked on a sample; counts on every case
                auto sim = simulate(c, Hardware::unbounded(), p.actions, opt);
                QVERIFY2(sim.ok(), sim.ok() ? "" : sim.error().c_str());
                const Timeline& tl = *sim;
                // Griewank's closed form, evaluated here from its definition.
                int r = 0;
                while (binom(s + r, s) < n)
                    ++r;
                long long closed =
                    n <= 1 ? 0 : (s == 1 ? (long long)n * (n - 1) / 2 : r * (long long)n - binom(s + r, s + 1));
                QCOMPARE(tl.totals.forward_steps, n + t[size_t(n)][size_t(s)]);
                QCOMPARE(tl.totals.forward_steps, n + closed);
                QCOMPARE(tl.totals.backward_steps, (long long)n);
                long long restores = 0;
                for (size_t k = 1; k < p.actions.size(); ++k)
                    if (p.actions[k].kind == ActionKind::Forward && p.actions[k - 1].kind == ActionKind::Backward)
                        ++restores;
                QCOMPARE(restores, (long long)n - 1);
                QVERIFY2(maxCheckpoints(c, p.actions) <= std::min(s, n),
                         qPrintable(QString("n=%1 s=%2").arg(n).arg(s)));
                // And the simulator's memory agrees: at most s checkpoints, the working state and a step's output.
                std::int64_t states = 0;
                if (opt.memory_curve)
                    for (const auto& m : tl.memory[0])
                        states = std::max(states, m.bytes[size_t(MemoryCategory::State)]);
                QVERIFY(states <= (std::min(s, n) + 2) * c.stateBytes(0));
            }
        }
    }

    void storeAllCountsAndPeak() {
        for (int n : {1, 2, 7, 50}) {
            Chain c = uniformChain(n, 1.5, 2.5, 100, 300);
            Plan p = storeAllPlan(c);
            Timeline tl = mustSimulate(c, p.actions);
            QCOMPARE(tl.totals.forward_steps, (long long)n);
            QCOMPARE(tl.totals.recomputed_steps, 0LL);
            QCOMPARE(tl.totals.peak_bytes[0], std::int64_t(2 * 100 + n * 300));
            QCOMPARE(tl.totals.makespan_s, n * 4.0);
        }
    }

    void periodicCountsAndPeak() {
        // PyTorch's rule: k = floor(n/S); forward steps n + (S-1)k; peak (S+1)x + L tape, L = n - (S-1)k the taped
        // remainder (S-1 checkpoints, the remainder's tapes, and two states or gradients at the busiest step).
        for (int n : {1, 5, 12, 37, 100}) {
            Chain c = uniformChain(n, 1.0, 2.0, 100, 300);
            for (int S = 1; S <= n; ++S) {
                Plan p = periodicPlan(c, S);
                Timeline tl = mustSimulate(c, p.actions);
                long long k = n / S, L = n - (S - 1) * k;
                QCOMPARE(tl.totals.forward_steps, n + (S - 1) * k);
                QCOMPARE(tl.totals.peak_bytes[0], std::int64_t((S + 1) * 100 + L * 300));
            }
        }
    }

    // The periodic formulas against the simulator, for every S: random heterogeneous chains with temporaries (and one
    // without), and the bundled examples (the 1000-step LSTM on a sample of S).
    void periodicCostsEqualSimulation() {
        std::vector<Chain> chains;
        for (unsigned seed = 1; seed <= 60; ++seed)
            chains.push_back(randomChain(1 + int(seed * 13 % 47), seed, seed % 7 != 0));
        for (const char* name : {"small-hetero-12", "resnet18-b32-224", "vgg16-b32-224", "lstm-h512-b32-fp32-1000"}) {
            auto c = loadChain(std::string(CKPT_SOURCE_DIR) + "/examples/" + name + ".ckpt-chain.json");
            QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
            chains.push_back(*c);
        }
        for (const Chain& c : chains) {
            const int n = c.length();
            const PeriodicCosts costs(c);
            for (int S = 1; S <= n; S += n <= 100 || S < 40 ? 1 : 37) {
                Timeline tl = mustSimulate(c, periodicPlan(c, S).actions);
                QCOMPARE(costs.peakBytes(S), tl.totals.peak_bytes[0]);
                QCOMPARE(costs.makespan(S), tl.totals.makespan_s);
            }
        }
    }

    // The auto fit against a brute-force scan that builds and simulates every S: the fastest S that fits (the fewest
    // segments on a tie; costs are integers here, so ties are exact), or, when none fits, the smallest peak named.
    void periodicAutoFitEqualsBruteForce() {
        for (unsigned seed = 200; seed < 230; ++seed) {
            Chain c = randomChain(2 + int(seed * 11 % 41), seed, seed % 5 != 0);
            const int n = c.length();
            std::vector<std::int64_t> peak(size_t(n) + 1);
            std::vector<double> time(size_t(n) + 1);
            for (int S = 1; S <= n; ++S) {
                Timeline tl = mustSimulate(c, periodicPlan(c, S).actions);
                peak[size_t(S)] = tl.totals.peak_bytes[0];
                time[size_t(S)] = tl.totals.makespan_s;
            }
            const std::int64_t lo = *std::min_element(peak.begin() + 1, peak.end());
            const std::int64_t hi = *std::max_element(peak.begin() + 1, peak.end());
            for (std::int64_t budget : {lo - 1, lo, (lo + hi) / 2, lo + (hi - lo) / 5, hi}) {
                int best = 0;
                for (int S = 1; S <= n; ++S)
                    if (peak[size_t(S)] <= budget && (best == 0 || time[size_t(S)] < time[size_t(best)])) best = S;
                auto plan = solve("periodic", c, Hardware::unbounded(), {{}, budget});
                if (best == 0) {
                    QVERIFY(!plan.ok());
                    QVERIFY(plan.errorValue().infeasible);
                    QVERIFY2(plan.error().find("(" + std::to_string(lo) + " B)") != std::string::npos,
                             plan.error().c_str());
                    continue;
                }
                QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
                QCOMPARE(plan->params.at("segments"), std::to_string(best));
                SimOptions opt;
                opt.budget_bytes = budget;
                auto tl = simulate(c, Hardware::unbounded(), plan->actions, opt);
                QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
                QCOMPARE(tl->totals.makespan_s, time[size_t(best)]);
            }
        }
    }

    void randomChainsPredictionEqualsSimulation() {
        for (unsigned seed = 1; seed <= 40; ++seed) {
            int n = 1 + int(seed * 7 % 60);
            Chain c = randomChain(n, seed);
            std::vector<Plan> plans = {storeAllPlan(c), periodicPlan(c, 1 + int(seed % 9)),
                                       revolvePlan(c, 1 + int(seed % 6))};
            for (const Plan& p : plans) {
                Timeline tl = mustSimulate(c, p.actions);
                QCOMPARE(tl.totals.makespan_s, p.predicted_makespan_s);
                QCOMPARE(tl.totals.compute_s, p.predicted_makespan_s);
            }
        }
    }

    // Whatever the registry holds: on random chains, with defaults and under budgets, every plan validates and the
    // scheduler's own prediction equals the simulated makespan.
    void everyRegisteredSchedulerOnRandomChains() {
        for (const SchedulerInfo& info : schedulers()) {
            if (info.min_levels > Hardware::unbounded().levelCount()) continue; // tst_multistage covers those
            for (unsigned seed = 100; seed < 112; ++seed) {
                Chain c = randomChain(2 + int(seed % 29), seed);
                std::int64_t full = mustSimulate(c, storeAllPlan(c).actions).totals.peak_bytes[0];
                for (double fraction : {0.0, 0.6, 0.3}) {
                    std::int64_t budget = std::int64_t(double(full) * fraction);
                    auto plan = solve(info.name, c, Hardware::unbounded(), {{}, budget});
                    if (!plan) {
                        QVERIFY2(budget > 0 && plan.errorValue().infeasible, (info.name + ": " + plan.error()).c_str());
                        continue;
                    }
                    SimOptions opt;
                    opt.budget_bytes = budget;
                    auto tl = simulate(c, Hardware::unbounded(), plan->actions, opt);
                    QVERIFY2(tl.ok(), (info.name + ": " + (tl.ok() ? "" : tl.error())).c_str());
                    QCOMPARE(tl->totals.makespan_s, plan->predicted_makespan_s);
                    QCOMPARE(tl->totals.backward_steps, (long long)c.length());
                }
            }
        }
    }

    // A chain in rotor's paper model: store-all and rotor plan for it (and the simulator judges their plans in that
    // model); every other scheduler is refused with the reason, not run in a model it does not know.
    void paperModelChains() {
        const Chain paper = *randomChain(12, 3).withModel(MemoryModel::RotorPaper, 64);
        const std::int64_t all = storeAllPeakBytes(paper);
        QCOMPARE(mustSimulate(paper, storeAllPlan(paper).actions).totals.peak_bytes[0], all);
        for (const SchedulerInfo& info : schedulers()) {
            auto plan = solve(info.name, paper, Hardware::unbounded(), {{}, all * 3 / 5});
            if (info.name == "store-all") {
                QVERIFY(!plan && plan.errorValue().infeasible);
                continue;
            }
            if (info.name == "rotor") {
                QVERIFY2(plan, plan ? "" : plan.error().c_str());
                SimOptions opt;
                opt.budget_bytes = all * 3 / 5;
                auto tl = simulate(paper, Hardware::unbounded(), plan->actions, opt);
                QVERIFY2(tl, tl ? "" : tl.error().c_str());
                QCOMPARE(tl->totals.makespan_s, plan->predicted_makespan_s);
                continue;
            }
            QVERIFY(!plan);
            QVERIFY2(plan.error().find("rotor paper") != std::string::npos, plan.error().c_str());
            // A comparison shows it as not applicable, with the reason, and goes on.
            const Run run = runScheduler(info.name, Problem(paper), Hardware::unbounded(), {{}, all * 3 / 5});
            QVERIFY(!run.available && !run.feasible);
            QVERIFY2(run.message.find("rotor paper") != std::string::npos ||
                         !machineLacks(info, Hardware::unbounded()).empty(),
                     run.message.c_str());
        }
    }

    // offload-dp through the registry, on longer random chains: its prediction is the simulation, it is never slower
    // than rotor at the same budget (rotor's plans are in its class), and with bandwidth to spare it keeps store-all's
    // time within 1 % at a quarter of store-all's peak, where rotor recomputes.
    void offloadDp() {
        for (unsigned seed = 1; seed <= 4; ++seed) {
            Chain c = randomChain(20 + int(seed) * 10, seed);
            const Plan all = storeAllPlan(c);
            const std::int64_t allPeak = mustSimulate(c, all.actions).totals.peak_bytes[0];
            for (double bw : {1e12, 50.0, 5.0}) {
                const Hardware hw =
                    *Hardware::make("two", {MemoryLevel{"fast", std::numeric_limits<std::int64_t>::max(), 0, 0, 0},
                                            MemoryLevel{"host", std::numeric_limits<std::int64_t>::max(), bw, bw, 0}});
                for (double share : {0.25, 0.5}) {
                    const auto budget = std::int64_t(share * double(allPeak));
                    auto plan = solve("offload-dp", c, hw, {{{"slots", "200"}}, budget});
                    auto rotor = solve("rotor", c, hw, {{{"slots", "200"}}, budget});
                    QVERIFY2(plan, plan ? "" : plan.error().c_str());
                    QVERIFY2(rotor, rotor ? "" : rotor.error().c_str());
                    SimOptions opt;
                    opt.budget_bytes = budget;
                    auto tl = simulate(c, hw, plan->actions, opt);
                    QVERIFY2(tl, tl ? "" : tl.error().c_str());
                    QCOMPARE(tl->totals.makespan_s, plan->predicted_makespan_s);
                    QVERIFY(plan->predicted_makespan_s <= rotor->predicted_makespan_s * (1 + 1e-12));
                    if (bw == 1e12 && share == 0.25) {
                        QVERIFY2(tl->totals.makespan_s <= 1.01 * all.predicted_makespan_s,
                                 qPrintable(QString::number(tl->totals.makespan_s / all.predicted_makespan_s)));
                        QVERIFY(rotor->predicted_makespan_s > 1.05 * all.predicted_makespan_s);
                    }
                }
            }
        }
        // Refused with the reason: a machine without a second level, a budget below the leanest schedule.
        Chain c = uniformChain(10);
        auto none = solve("offload-dp", c, Hardware::unbounded(), {{}, 1000});
        QVERIFY(!none);
        const Hardware hw =
            *Hardware::make("two", {MemoryLevel{"fast", std::numeric_limits<std::int64_t>::max(), 0, 0, 0},
                                    MemoryLevel{"host", std::numeric_limits<std::int64_t>::max(), 100, 100, 0}});
        auto tiny = solve("offload-dp", c, hw, {{}, 10});
        QVERIFY(!tiny && tiny.errorValue().infeasible);
        QVERIFY2(tiny.error().find("needs at least") != std::string::npos, tiny.error().c_str());
    }

    // offload-all: every tape to level 1 and back. With bandwidth to spare it costs store-all's time within 1 % and
    // holds a few tapes in level 0 instead of all; on a slow channel it takes at least the channel's time for every
    // tape written then read (the channel runs them in order), and its prediction is the simulated makespan.
    void offloadAll() {
        auto machine = [](double bytesPerSecond) {
            return *Hardware::make("two", {MemoryLevel{"fast", std::numeric_limits<std::int64_t>::max(), 0, 0, 0},
                                           MemoryLevel{"host", std::numeric_limits<std::int64_t>::max(), bytesPerSecond,
                                                       bytesPerSecond, 0}});
        };
        for (unsigned seed = 1; seed <= 8; ++seed) {
            Chain c = randomChain(20 + int(seed) * 25, seed);
            const Plan all = storeAllPlan(c);
            const std::int64_t allPeak = mustSimulate(c, all.actions).totals.peak_bytes[0];
            std::int64_t tapes = 0, largest = 0;
            for (int i = 1; i <= c.length(); ++i)
                tapes += c.step(i).tape_bytes, largest = std::max(largest, c.step(i).tape_bytes);
            for (double bw : {1e12, 50.0, 5.0}) {
                const Hardware hw = machine(bw);
                auto plan = solve("offload-all", c, hw, {{}, 0});
                QVERIFY2(plan, plan ? "" : plan.error().c_str());
                Timeline tl = mustSimulate(c, plan->actions, hw);
                QCOMPARE(tl.totals.makespan_s, plan->predicted_makespan_s);
                QCOMPARE(tl.totals.forward_steps, (long long)c.length()); // nothing recomputed
                QCOMPARE(tl.totals.bytes_written, (long long)tapes);
                QCOMPARE(tl.totals.bytes_read, (long long)tapes);
                QCOMPARE(tl.totals.peak_bytes[1], tapes);
                QVERIFY(tl.totals.makespan_s >= 2 * double(tapes) / bw);
                if (bw == 1e12) {
                    QVERIFY2(tl.totals.makespan_s <= 1.01 * all.predicted_makespan_s,
                             qPrintable(QString::number(tl.totals.makespan_s / all.predicted_makespan_s)));
                    QVERIFY(tl.totals.peak_bytes[0] <= allPeak / 4);
                    QVERIFY(tl.totals.peak_bytes[0] < 8 * largest + 1000);
                }
            }
        }
        // Refused with the reason: a machine without a second level, and tapes over its capacity.
        Chain c = uniformChain(10);
        auto none = solve("offload-all", c, Hardware::unbounded(), {{}, 0});
        QVERIFY(!none);
        auto small = *Hardware::make("small", {MemoryLevel{"fast", std::numeric_limits<std::int64_t>::max(), 0, 0, 0},
                                               MemoryLevel{"host", 2000, 100, 100, 0}});
        auto over = solve("offload-all", c, small, {{}, 0});
        QVERIFY(!over && over.errorValue().infeasible);
        QVERIFY2(over.error().find("(3000 B), over level 1's capacity") != std::string::npos, over.error().c_str());
    }

    // The formula for the leanest schedule's peak agrees with the simulator on Revolve with one slot.
    void leanestPeakFormula() {
        for (unsigned seed = 1; seed <= 60; ++seed) {
            Chain c = randomChain(1 + int(seed % 23), seed);
            QCOMPARE(leanestPeak(c), mustSimulate(c, revolvePlan(c, 1).actions).totals.peak_bytes[0]);
        }
        Chain u = uniformChain(1);
        QCOMPARE(leanestPeak(u), mustSimulate(u, revolvePlan(u, 1).actions).totals.peak_bytes[0]);
    }

    // Long chains are refused or solved, never built into billions of actions.
    void longChainsStayBounded() {
        Chain c = uniformChain(20000); // one slot would take 2e8 actions
        auto one = solve("revolve", c, Hardware::unbounded(), {{{"slots", "1"}}, 0});
        QVERIFY(!one.ok());
        QVERIFY2(one.error().find("actions") != std::string::npos, one.error().c_str());
        auto fit = solve("revolve", c, Hardware::unbounded(), {{}, leanestPeak(c) + 100 * c.stateBytes(0)});
        QVERIFY2(fit.ok(), fit.ok() ? "" : fit.error().c_str());
        QVERIFY((long long)fit->actions.size() <= kMaxPlanActions);
    }

    void registryListsParameters() {
        QVERIFY(findScheduler("store-all"));
        QVERIFY(findScheduler("periodic"));
        const SchedulerInfo* r = findScheduler("revolve");
        QVERIFY(r);
        QCOMPARE(r->model, 'A');
        QCOMPARE(r->params.size(), size_t(1));
        QCOMPARE(r->params[0].name, std::string("slots"));
        QVERIFY(!findScheduler("nonsense"));
    }

    void registryRejectsBadParameters() {
        Chain c = uniformChain(10);
        auto a = solve("revolve", c, Hardware::unbounded(), {{{"slots", "-3"}}, 0});
        QVERIFY(!a.ok());
        QVERIFY2(a.error().find("slots") != std::string::npos, a.error().c_str());
        auto b = solve("revolve", c, Hardware::unbounded(), {{{"slotz", "3"}}, 0});
        QVERIFY(!b.ok());
        QVERIFY2(b.error().find("slotz") != std::string::npos, b.error().c_str());
        auto d = solve("periodic", c, Hardware::unbounded(), {{{"segments", "two"}}, 0});
        QVERIFY(!d.ok());
        QVERIFY(!d.errorValue().infeasible);
    }

    void revolveFitsTheBudget() {
        Chain c = randomChain(200, 11);
        for (std::int64_t budget : {3000, 5000, 20000}) {
            auto p = solve("revolve", c, Hardware::unbounded(), {{}, budget});
            QVERIFY2(p.ok(), p.ok() ? "" : p.error().c_str());
            SimOptions opt;
            opt.budget_bytes = budget;
            auto tl = simulate(c, Hardware::unbounded(), p->actions, opt);
            QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
            // One more slot would not fit (unless all slots are already used).
            int used = std::stoi(p->params.at("slots"));
            if (used < c.length()) {
                auto more = simulate(c, Hardware::unbounded(), revolvePlan(c, used + 1).actions);
                QVERIFY(more->totals.peak_bytes[0] > budget);
            }
        }
    }

    void infeasibleBudgetNamesTheMinimum() {
        Chain c = uniformChain(50, 1, 2, 100, 300);
        Timeline one = mustSimulate(c, revolvePlan(c, 1).actions);
        std::int64_t need = one.totals.peak_bytes[0];
        auto p = solve("revolve", c, Hardware::unbounded(), {{}, need - 1});
        QVERIFY(!p.ok());
        QVERIFY(p.errorValue().infeasible);
        QVERIFY2(p.error().find(std::to_string(need) + " B") != std::string::npos, p.error().c_str());
        QVERIFY(solve("revolve", c, Hardware::unbounded(), {{}, need}).ok());
        auto s = solve("store-all", c, Hardware::unbounded(), {{}, 1000});
        QVERIFY(!s.ok());
        QVERIFY(s.errorValue().infeasible);
        QVERIFY2(s.error().find(std::to_string(2 * 100 + 50 * 300) + " B") != std::string::npos, s.error().c_str());
        auto q = solve("periodic", c, Hardware::unbounded(), {{}, 600});
        QVERIFY(!q.ok());
        QVERIFY(q.errorValue().infeasible);
    }
};

QTEST_APPLESS_MAIN(TestSchedulers)
#include "tst_schedulers.moc"
