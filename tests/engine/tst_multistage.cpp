// The multi-level schedulers: async-multistage's constant overhead and overlap, Disk-Revolve's programme against
// exhaustive search in the papers' synchronous model, and every variant on random chains and machines, where the
// scheduler's own prediction must equal the simulated makespan.
#include "schedulers/async_multistage.h"
#include "schedulers/hrevolve.h"
#include "schedulers/multilevel.h"
#include "schedulers/multistage.h"
#include "schedulers/registry.h"
#include "schedulers/revolve.h"
#include "schedulers/stumm_walther.h"
#include "sim/simulator.h"
#include "test_util.h"

#include <QtTest>
#include <cmath>
#include <queue>
#include <random>

using namespace ckpt;
using namespace ckpt::test;

namespace {

const std::vector<std::string> kNewSchedulers = {"multistage", "async-multistage", "double-checkpointing"};

Hardware machine(std::vector<MemoryLevel> levels) {
    return *Hardware::make("test machine", std::move(levels));
}

MemoryLevel fast() {
    return MemoryLevel{"fast", std::numeric_limits<std::int64_t>::max(), 1e30, 1e30, 0};
}

// The papers' synchronous model in this project's vocabulary, restated independently of hrevolve.cpp: level 0 holds
// the states in `mem`, at most cm of them besides the working state (the one the last forward or read produced);
// the disk holds `disk`, at most cd (-1: any number). Forward uf, taped forward + backward uf + ub (model A: taped
// only right before its backward), write wd, read rd, free 0.
struct SyncModel {
    int n, cm, cd;
    double uf, ub, wd, rd;

    struct Config {
        std::uint64_t mem = 1, disk = 0; // bit j: x_j (chains of up to 63 steps)
        int working = -1, b = 0;
        bool operator==(const Config&) const = default;
    };
    bool fits(const Config& k) const {
        int count = __builtin_popcountll(k.mem) - (k.working >= 0 ? 1 : 0);
        return count <= cm && (cd < 0 || __builtin_popcountll(k.disk) <= cd);
    }

    // Dijkstra over configurations; +infinity if no schedule exists. Distances sit in a flat table indexed by the
    // configuration (n <= 8: 2^n x 2^n x (n + 1) x (n + 1) entries).
    double optimum() const {
        const std::size_t sets = std::size_t(1) << n;
        auto index = [&](const Config& k) {
            return ((std::size_t(k.b) * std::size_t(n + 1) + std::size_t(k.working + 1)) * sets + k.disk) * sets +
                   k.mem;
        };
        std::vector<double> best(sets * sets * std::size_t(n + 1) * std::size_t(n + 1),
                                 std::numeric_limits<double>::infinity());
        using Item = std::pair<double, Config>;
        auto later = [](const Item& a, const Item& b) { return a.first > b.first; };
        std::priority_queue<Item, std::vector<Item>, decltype(later)> queue(later);
        Config start;
        start.b = n;
        if (!fits(start)) return std::numeric_limits<double>::infinity();
        best[index(start)] = 0;
        queue.push({0, start});
        auto relax = [&](const Config& k, double d) {
            if (!fits(k)) return;
            double& at = best[index(k)];
            if (d < at) {
                at = d;
                queue.push({d, k});
            }
        };
        while (!queue.empty()) {
            auto [d, k] = queue.top();
            queue.pop();
            if (d > best[index(k)]) continue;
            if (k.b == 0) return d;
            for (int i = 1; i < k.b; ++i) { // forward i, keeping its input or not
                if (!(k.mem >> (i - 1) & 1) || (k.mem >> i & 1)) continue;
                for (bool keep : {false, true}) {
                    Config x = k;
                    if (!keep) x.mem &= ~(1ull << (i - 1));
                    x.mem |= 1ull << i;
                    x.working = i;
                    relax(x, d + uf);
                }
            }
            if (k.mem >> (k.b - 1) & 1) { // taped forward and backward of step b
                Config x = k;
                x.mem &= ~(1ull << (k.b - 1));
                x.disk &= ~(1ull << (k.b - 1));
                x.working = -1;
                x.b = k.b - 1;
                relax(x, d + uf + ub);
            }
            for (int j = 0; j < k.b; ++j) {
                const bool inMem = k.mem >> j & 1, onDisk = k.disk >> j & 1;
                Config x = k;
                if (inMem && !onDisk) {
                    x.disk |= 1ull << j;
                    relax(x, d + wd);
                }
                x = k;
                if (onDisk && !inMem) {
                    x.mem |= 1ull << j;
                    x.working = j;
                    relax(x, d + rd);
                }
                x = k;
                if (inMem) {
                    x.mem &= ~(1ull << j);
                    if (x.working == j) x.working = -1;
                    relax(x, d);
                }
                x = k;
                if (onDisk) {
                    x.disk &= ~(1ull << j);
                    relax(x, d);
                }
            }
        }
        return std::numeric_limits<double>::infinity();
    }

    // Replays a plan under the same rules: its synchronous cost, or -1 if an action breaks them.
    double replay(const Schedule& plan, std::string& why) const {
        Config k;
        k.b = n;
        double cost = 0;
        for (const Action& a : plan) {
            const int j = a.index;
            switch (a.kind) {
            case ActionKind::Forward:
                if (!(k.mem >> (j - 1) & 1)) return why = "input missing: " + toString(a), -1;
                if (a.keep == Keep::Tape) {
                    if (j != k.b) return why = "taped forward not before its backward: " + toString(a), -1;
                    k.mem &= ~(1ull << (j - 1));
                    k.working = -1;
                } else {
                    if (a.keep == Keep::None) k.mem &= ~(1ull << (j - 1));
                    k.mem |= 1ull << j;
                    k.working = j;
                }
                cost += uf;
                break;
            case ActionKind::Backward:
                if (j != k.b) return why = "backward out of order", -1;
                k.disk &= ~(1ull << (j - 1));
                k.b = j - 1;
                cost += ub;
                break;
            case ActionKind::Write:
                if (!(k.mem >> j & 1) || (k.disk >> j & 1)) return why = "bad write: " + toString(a), -1;
                k.disk |= 1ull << j;
                cost += wd;
                break;
            case ActionKind::Read:
                if ((k.mem >> j & 1) || !(k.disk >> j & 1)) return why = "bad read: " + toString(a), -1;
                k.mem |= 1ull << j;
                k.working = j;
                cost += rd;
                break;
            case ActionKind::Free:
                if (a.level == 0) {
                    k.mem &= ~(1ull << j);
                    if (k.working == j) k.working = -1;
                } else {
                    k.disk &= ~(1ull << j);
                }
                break;
            case ActionKind::WriteTape:
            case ActionKind::ReadTape:
            case ActionKind::FreeTape:
                return why = "multistage moves states only: " + toString(a), -1;
            }
            if (!fits(k)) return why = "over the slots after " + toString(a), -1;
        }
        if (k.b != 0) return why = "not all steps reversed", -1;
        return cost;
    }
};

struct RandomMachine {
    Hardware hw;
    std::string text;
};

// Two or three levels with random bandwidths (about 0.2x to 5x a step's time per state) and latencies; level 0
// bounded or not, slower levels sometimes small.
RandomMachine randomMachine(std::mt19937& rng, const Chain& c) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const double f = c.totalForward() / c.length();
    const double x = double(c.stateBytes(0));
    std::vector<MemoryLevel> levels = {fast()};
    const int count = 2 + int(rng() % 2);
    std::string text;
    for (int l = 1; l < count; ++l) {
        MemoryLevel m;
        m.name = "level " + std::to_string(l);
        const double w = f * (0.2 + 5 * u(rng)), r = f * (0.2 + 5 * u(rng));
        m.write_bytes_per_s = x / w;
        m.read_bytes_per_s = x / r;
        m.latency_s = u(rng) < 0.5 ? 0 : f * u(rng);
        if (rng() % 3 == 0) m.capacity_bytes = std::int64_t(x * (2 + rng() % 8) * 8); // some states only
        levels.push_back(m);
        text += " L" + std::to_string(l) + "(w " + std::to_string(w) + ", r " + std::to_string(r) + ")";
    }
    return {machine(levels), text};
}

std::vector<std::map<std::string, std::string>> parameterSets(unsigned seed) {
    const std::string k = std::to_string(1 + seed % 5);
    return {{},
            {{"variant", "periodic-disk-revolve"}},
            {{"variant", "h-revolve"}},
            {{"variant", "stumm-walther"}},
            {{"variant", "disk-revolve"}, {"memory_slots", k}, {"disk_slots", "2"}},
            {{"variant", "periodic-disk-revolve"}, {"period", k}},
            {{"variant", "stumm-walther"}, {"disk_slots", k}}};
}

} // namespace

class TestMultistage : public QObject {
    Q_OBJECT
private slots:
    // (b) Disk-Revolve's programme equals the search over every schedule of the synchronous model.
    void diskRevolveEqualsExhaustiveSearch() {
        struct Costs {
            double uf, ub, wd, rd;
        };
        int compared = 0, usedDisk = 0;
        for (const Costs& k :
             {Costs{1, 2, 1, 1}, Costs{1, 2, 3, 2}, Costs{2, 3, 1, 4}, Costs{1, 1, 0.5, 0.5}, Costs{1, 3, 6, 6}})
            for (int cd : {-1, 1, 2})
                for (int cm = 1; cm <= 3; ++cm)
                    for (int n = 1; n <= 8; ++n) {
                        if (cd >= 0 && n > 7) continue; // the bounded disk is checked on shorter chains
                        SyncModel model{n, cm, cd, k.uf, k.ub, k.wd, k.rd};
                        const double truth = model.optimum();
                        const double dp = diskRevolveOptimum(n, cm, cd, k.uf, k.ub, k.wd, k.rd);
                        const QString where = QString("n %1 cm %2 cd %3 uf %4 ub %5 wd %6 rd %7")
                                                  .arg(n)
                                                  .arg(cm)
                                                  .arg(cd)
                                                  .arg(k.uf)
                                                  .arg(k.ub)
                                                  .arg(k.wd)
                                                  .arg(k.rd);
                        QVERIFY2(dp == truth,
                                 qPrintable(where + QString(": programme %1, search %2").arg(dp).arg(truth)));
                        const double memoryOnly = double(n + revolveAdvances(n, cm)) * k.uf + n * k.ub;
                        QVERIFY(dp <= memoryOnly);
                        usedDisk += dp < memoryOnly;
                        ++compared;
                    }
        QVERIFY(usedDisk > 20); // the disk matters in many of them
        qInfo("Disk-Revolve = exhaustive optimum on %d cases (%d better than Revolve alone)", compared, usedDisk);
    }

    // The emitted plan is the programme's: replayed in the synchronous model it keeps the slots and costs exactly
    // the optimum; in the simulator it validates, and the overlap only shortens it.
    void diskRevolvePlansRealiseTheOptimum() {
        for (int cd : {-1, 2})
            for (double wd : {1.0, 2.0, 4.0})
                for (double rd : {1.0, 4.0})
                    for (int n : {2, 5, 9, 17, 40})
                        for (int cm = 1; cm <= 4; ++cm) {
                            Chain c = uniformChain(n, 1.0, 2.0, 8, 24);
                            MemoryLevel disk{"disk", cd < 0 ? std::numeric_limits<std::int64_t>::max() : 8 * cd,
                                             8.0 / rd, 8.0 / wd, 0};
                            Hardware hw = machine({fast(), disk});
                            MultistageCosts costs = multistageCosts(c, hw, {1}, 0);
                            QCOMPARE(costs.levels[0].write, wd);
                            QCOMPARE(costs.levels[0].capacity, cd < 0 || cd >= n ? -1 : cd);
                            HierarchicalRevolve table(n, cm, 1.0, 2.0, costs.levels);
                            Schedule plan;
                            table.append(c, 0, n, cm, plan);
                            SyncModel model{n, cm, cd, 1.0, 2.0, wd, rd};
                            std::string why;
                            const double cost = model.replay(plan, why);
                            const QString where =
                                QString("n %1 cm %2 cd %3 wd %4 rd %5").arg(n).arg(cm).arg(cd).arg(wd).arg(rd);
                            QVERIFY2(cost >= 0, qPrintable(where + ": " + QString::fromStdString(why)));
                            QCOMPARE(cost, table.cost(n, cm));
                            auto tl = simulate(c, hw, plan);
                            QVERIFY2(tl.ok(),
                                     qPrintable(where + ": " + QString::fromStdString(tl.ok() ? "" : tl.error())));
                            QVERIFY(tl->totals.makespan_s <= cost);
                            QCOMPARE(tl->totals.makespan_s, overlappedMakespan(c, hw, plan));
                        }
    }

    // H-Revolve nests the programme: on a three-level machine it is never worse than Disk-Revolve on either level,
    // and with one slower level it is Disk-Revolve. Periodic-Disk-Revolve is never better than the optimum.
    void hRevolveAndPeriodicAgainstDiskRevolve() {
        const double uf = 1, ub = 2;
        for (int n : {6, 15, 30})
            for (int cm = 1; cm <= 4; ++cm) {
                std::vector<StorageLevel> two = {{1, 1, 1, 3}, {2, 3, 5, -1}};
                HierarchicalRevolve h(n, cm, uf, ub, two), d1(n, cm, uf, ub, {two[0]}), d2(n, cm, uf, ub, {two[1]});
                QVERIFY(h.cost(n, cm) <= d1.cost(n, cm));
                QVERIFY(h.cost(n, cm) <= d2.cost(n, cm));
                QCOMPARE(d1.cost(n, cm), diskRevolveOptimum(n, cm, 3, uf, ub, 1, 1));
                Chain c = uniformChain(n, uf, ub, 8, 24);
                Hardware hw =
                    machine({fast(), {"disk", std::numeric_limits<std::int64_t>::max(), 8.0 / 5, 8.0 / 3, 0}});
                HierarchicalRevolve table(n, cm, uf, ub, multistageCosts(c, hw, {1}, 0).levels);
                for (int period = 1; period <= n; ++period) {
                    double sync = 0;
                    Plan p = periodicDiskRevolvePlan(c, hw, table, period, cm, 1, &sync);
                    QVERIFY(sync >= table.cost(n, cm));
                    auto tl = simulate(c, hw, p.actions);
                    QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
                    QCOMPARE(tl->totals.makespan_s, p.predicted_makespan_s);
                }
            }
    }

    // Issue 15's reproducer, in Aupy & Herrmann's synchronous costs: 10 steps (forward 1, backward 1, 1 KiB states and
    // tapes), a disk at 512 B/s both ways (2 s a transfer), one memory slot, period 3. Writing stops once at most one
    // period remains: 2 writes (x0, x3) and the last 4 steps reversed in memory, 46 s; writing at every multiple of 3
    // below 10 made 3 and left a 1-step tail, 50 s. On 100 steps the free scan reaches every period (it stopped at 64):
    // the plan chosen costs the least of all periods 1 to 100, at most the 526 s of the longest.
    void periodicDiskRevolveAsThePaper() {
        const auto disk = MemoryLevel{"disk", std::numeric_limits<std::int64_t>::max(), 512, 512, 0};
        Hardware hw = machine({fast(), disk});
        Chain c = uniformChain(10, 1, 1, 1024, 1024);
        HierarchicalRevolve table(10, 1, 1, 1, multistageCosts(c, hw, {1}, 0).levels);
        double sync = 0;
        Plan p = periodicDiskRevolvePlan(c, hw, table, 3, 1, 1, &sync);
        int writes = 0;
        for (const Action& a : p.actions)
            writes += a.kind == ActionKind::Write;
        QCOMPARE(writes, 2);
        QCOMPARE(sync, 46.0);
        QVERIFY(simulate(c, hw, p.actions).ok());

        Chain hundred = uniformChain(100, 1, 1, 1024, 1024);
        auto chosen =
            solve("multistage", hundred, hw, {{{"variant", "periodic-disk-revolve"}, {"memory_slots", "1"}}, 0});
        QVERIFY2(chosen.ok(), chosen.ok() ? "" : chosen.error().c_str());
        HierarchicalRevolve big(100, 1, 1, 1, multistageCosts(hundred, hw, {1}, 0).levels);
        double least = 0, longest = 0;
        for (int period = 1; period <= 100; ++period) {
            double s = 0;
            periodicDiskRevolvePlan(hundred, hw, big, period, 1, 1, &s);
            if (period == 1 || s < least) least = s;
            if (period == 100) longest = s;
        }
        double got = 0;
        periodicDiskRevolvePlan(hundred, hw, big, std::stoi(chosen->params.at("period")), 1, 1, &got);
        QCOMPARE(got, least);
        QCOMPARE(longest, 526.0); // period 100: no periodic write, Disk-Revolve's programme on the whole chain
        QVERIFY(least <= longest);
    }

    // Stumm & Walther's split is a schedule of the same synchronous model: it keeps the memory slots, never beats the
    // programme's optimum, and with no disk slot it is Revolve.
    void stummWaltherInTheSynchronousModel() {
        Hardware hw = machine({fast(), {"disk", std::numeric_limits<std::int64_t>::max(), 8.0 / 2, 8.0 / 1, 0}});
        for (int n : {5, 12, 30})
            for (int cm = 1; cm <= 3; ++cm) {
                Chain c = uniformChain(n, 1.0, 2.0, 8, 24);
                QVERIFY(stummWaltherPlan(c, hw, cm, 0, 1).actions == revolvePlan(c, cm).actions);
                for (int cd = 1; cd <= 3; ++cd) {
                    double sync = 0;
                    Plan p = stummWaltherPlan(c, hw, cm, cd, 1, &sync);
                    SyncModel model{n, cm, cd, 1.0, 2.0, 1.0, 2.0};
                    std::string why;
                    QVERIFY2(model.replay(p.actions, why) == sync, why.c_str());
                    QVERIFY(sync >= diskRevolveOptimum(n, cm, cd, 1.0, 2.0, 1.0, 2.0));
                    auto tl = simulate(c, hw, p.actions);
                    QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
                    QCOMPARE(tl->totals.makespan_s, p.predicted_makespan_s);
                }
            }
    }

    // (a) async-multistage. Uniform steps f = 1, b = 2; a state takes 2.5 f to write or read, so the default interval
    // is 3 steps and the transfers fit behind the compute; Revolve inside an interval gets 3 slots (all the interval
    // needs, so no step is advanced more than once inside it). A model-A plan cannot come within 5% of store-all
    // (model B): every step runs once untaped and once taped, so any model-A plan takes at least (2f + b)/(f + b) =
    // 4/3 of store-all, and this one, whose sweep adds a forward pass over all but one step per interval,
    // (3f + b - f/I)/(f + b) = 1.56 here. What the paper claims, and what is checked, is that (1) the ratio does not
    // grow with n, (2) with enough bandwidth the transfers cost (almost) nothing: the makespan is within 5% of the
    // compute time, and with bandwidth for an interval of 1 it is the model-A floor itself, and (3) the transfers run
    // on their channel while compute runs.
    void asyncMultistageConstantOverhead() {
        const Hardware hw = machine({fast(), {"host", std::numeric_limits<std::int64_t>::max(), 400, 400, 0}});
        std::vector<double> ratios;
        for (int n : {1000, 10000, 100000}) {
            Chain c = uniformChain(n, 1.0, 2.0, 1000, 3000);
            QCOMPARE(asyncDefaultInterval(c, hw, 1), 3);
            auto p = solve("async-multistage", c, hw, {{{"slots", "3"}}, 0});
            QVERIFY2(p.ok(), p.ok() ? "" : p.error().c_str());
            QCOMPARE(p->params.at("interval"), std::string("3"));
            SimOptions opt;
            opt.memory_curve = false;
            auto tl = simulate(c, hw, p->actions, opt);
            QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
            QCOMPARE(tl->totals.makespan_s, p->predicted_makespan_s);
            const double storeAll = c.totalForward() + c.totalBackward();
            const double ratio = tl->totals.makespan_s / storeAll;
            ratios.push_back(ratio);
            QVERIFY2(tl->totals.makespan_s < 1.05 * tl->totals.compute_s,
                     qPrintable(QString("n %1: makespan %2, compute %3")
                                    .arg(n)
                                    .arg(tl->totals.makespan_s)
                                    .arg(tl->totals.compute_s)));
            // Per interval of 3: a sweep of 3, Revolve's 3 + t(3, 3) forward and 3 backward steps.
            const double expected = (3 + 3 + revolveAdvances(3, 3) + 3 * 2.0) / (3 * 3.0);
            QVERIFY2(std::abs(ratio - expected) < 0.01 * expected,
                     qPrintable(QString("n %1: ratio %2, expected %3").arg(n).arg(ratio).arg(expected)));
            QVERIFY(tl->totals.bytes_written > 0 && tl->totals.bytes_read > 0);
            QCOMPARE(tl->totals.peak_bytes[1], std::int64_t(1000) * std::int64_t(offloaded(n)));
            if (n == 1000) checkOverlap(*tl);
        }
        for (double r : ratios)
            QVERIFY2(std::abs(r - ratios[0]) < 0.01 * ratios[0], qPrintable(QString::number(r)));
        qInfo("async-multistage / store-all: %.4f %.4f %.4f for n = 1e3, 1e4, 1e5", ratios[0], ratios[1], ratios[2]);

        // With bandwidth for a state per step (0.5 f), the interval is 1 and the plan reaches the least any model-A
        // schedule needs, every transfer hidden: each step once untaped, once taped, once backward, (2n - 1) f + n b,
        // 4/3 of store-all: within 5% of the model's floor, as store-all itself is in model B.
        const Hardware wide = machine({fast(), {"wide", std::numeric_limits<std::int64_t>::max(), 2000, 2000, 0}});
        for (int n : {1000, 10000, 100000}) {
            Chain c = uniformChain(n, 1.0, 2.0, 1000, 3000);
            auto p = solve("async-multistage", c, wide, {});
            QVERIFY2(p.ok(), p.ok() ? "" : p.error().c_str());
            QCOMPARE(p->params.at("interval"), std::string("1"));
            SimOptions opt;
            opt.memory_curve = false;
            auto tl = simulate(c, wide, p->actions, opt);
            QVERIFY(tl.ok());
            QCOMPARE(tl->totals.makespan_s, p->predicted_makespan_s);
            QCOMPARE(tl->totals.makespan_s, double(2 * n - 1) + 2.0 * n);
            const double floorA = (2 * 1.0 + 2.0) / (1.0 + 2.0);
            QVERIFY(tl->totals.makespan_s / (c.totalForward() + c.totalBackward()) < 1.05 * floorA);
        }

        // With too little bandwidth for the interval (writes take 10 steps, interval 3) the writes queue up and the
        // reversal waits for its reads: the makespan rises above the compute time.
        const Hardware slow = machine({fast(), {"slow", std::numeric_limits<std::int64_t>::max(), 100, 100, 0}});
        Chain c = uniformChain(1000, 1.0, 2.0, 1000, 3000);
        auto p = solve("async-multistage", c, slow, {{{"slots", "3"}, {"interval", "3"}}, 0});
        QVERIFY(p.ok());
        auto tl = simulate(c, slow, p->actions);
        QVERIFY(tl.ok());
        QCOMPARE(tl->totals.makespan_s, p->predicted_makespan_s);
        QVERIFY(tl->totals.makespan_s > 1.3 * tl->totals.compute_s);
    }

    // (c) Every new scheduler and variant, on random chains and random two- and three-level machines, with and
    // without budgets: the plan validates within the budget and the prediction equals the simulated makespan.
    void randomChainsAndMachines() {
        std::mt19937 rng(7);
        int plans = 0, infeasibleCount = 0;
        for (unsigned seed = 1; seed <= 14; ++seed) {
            Chain c = randomChain(2 + int(seed * 5 % 33), seed);
            RandomMachine m = randomMachine(rng, c);
            auto all = solve("store-all", c, m.hw, {});
            QVERIFY(all.ok());
            const std::int64_t full = simulate(c, m.hw, all->actions)->totals.peak_bytes[0];
            for (const std::string& name : kNewSchedulers) {
                std::vector<std::map<std::string, std::string>> sets = {{}};
                if (name == "multistage") sets = parameterSets(seed);
                if (name == "async-multistage") sets = {{}, {{"interval", std::to_string(1 + seed % 7)}}};
                if (name == "double-checkpointing") sets = {{}, {{"offchip_slots", std::to_string(seed % 6)}}};
                for (const auto& params : sets)
                    for (double fraction : {0.0, 0.5, 0.25}) {
                        const std::int64_t budget = std::int64_t(double(full) * fraction);
                        QString where = QString("%1 seed %2 n %3%4 budget %5 params")
                                            .arg(QString::fromStdString(name))
                                            .arg(seed)
                                            .arg(c.length())
                                            .arg(QString::fromStdString(m.text))
                                            .arg(budget);
                        for (const auto& [k, v] : params)
                            where += QString(" %1=%2").arg(QString::fromStdString(k), QString::fromStdString(v));
                        auto plan = solve(name, c, m.hw, {params, budget});
                        if (!plan) {
                            QVERIFY2(plan.errorValue().infeasible,
                                     qPrintable(where + ": " + QString::fromStdString(plan.error())));
                            ++infeasibleCount;
                            continue;
                        }
                        SimOptions opt;
                        opt.budget_bytes = budget;
                        opt.memory_curve = false;
                        auto tl = simulate(c, m.hw, plan->actions, opt);
                        QVERIFY2(tl.ok(), qPrintable(where + ": " + QString::fromStdString(tl.ok() ? "" : tl.error())));
                        QVERIFY2(tl->totals.makespan_s == plan->predicted_makespan_s,
                                 qPrintable(where + QString(": simulated %1, predicted %2")
                                                        .arg(tl->totals.makespan_s, 0, 'g', 17)
                                                        .arg(plan->predicted_makespan_s, 0, 'g', 17)));
                        QCOMPARE(tl->totals.backward_steps, (long long)c.length());
                        ++plans;
                    }
            }
        }
        QVERIFY(plans > 300);
        qInfo("%d plans checked, %d budgets infeasible", plans, infeasibleCount);
    }

    // The shortest chains, every variant, on a two-level machine.
    void shortChains() {
        Hardware hw = machine({fast(), {"host", std::numeric_limits<std::int64_t>::max(), 50, 80, 0.5}});
        for (int n = 1; n <= 4; ++n) {
            Chain c = randomChain(n, unsigned(n));
            for (const std::string& name : kNewSchedulers)
                for (const auto& params : name == "multistage" ? parameterSets(unsigned(n))
                                                               : std::vector<std::map<std::string, std::string>>{{}}) {
                    auto p = solve(name, c, hw, {params, 0});
                    QVERIFY2(p.ok(), (name + ": " + (p.ok() ? "" : p.error())).c_str());
                    auto tl = simulate(c, hw, p->actions);
                    QVERIFY2(tl.ok(), (name + ": " + (tl.ok() ? "" : tl.error())).c_str());
                    QCOMPARE(tl->totals.makespan_s, p->predicted_makespan_s);
                }
        }
    }

    // Errors: a one-level machine is a request error naming the missing level; a budget too small names the least.
    void errorsAreClear() {
        Chain c = uniformChain(30, 1.0, 2.0, 100, 300);
        for (const std::string& name : kNewSchedulers) {
            auto p = solve(name, c, Hardware::unbounded(), {});
            QVERIFY(!p.ok());
            QVERIFY(!p.errorValue().infeasible);
            QVERIFY2(p.error().find("slower memory level") != std::string::npos, p.error().c_str());
            Hardware two = machine({fast(), {"host", std::numeric_limits<std::int64_t>::max(), 1e3, 1e3, 0}});
            auto l = solve(name, c, two, {{{"level", "2"}}, 0});
            QVERIFY(!l.ok());
            QVERIFY(!l.errorValue().infeasible);
            QVERIFY2(l.error().find("level") != std::string::npos, l.error().c_str());
            for (const auto& params :
                 name == "multistage" ? parameterSets(3) : std::vector<std::map<std::string, std::string>>{{}}) {
                auto tight = solve(name, c, two, {params, 150});
                QVERIFY(!tight.ok());
                QVERIFY(tight.errorValue().infeasible);
                // "... needs at least 1.81 KiB (1853 B) in level 0 ...": and that budget is enough.
                const std::string& e = tight.error();
                const auto at = e.find("needs at least");
                QVERIFY2(at != std::string::npos, e.c_str());
                const auto open = e.find('(', at);
                const std::int64_t need = std::stoll(e.substr(open + 1));
                auto enough = solve(name, c, two, {params, need});
                QVERIFY2(enough.ok(), (e + " / " + (enough.ok() ? "" : enough.error())).c_str());
            }
        }
        // Periods that keep more states on the level than it holds are refused, naming the least period that works.
        Hardware few = machine({fast(), {"few", 300, 1e3, 1e3, 0}});
        auto period = solve("multistage", c, few, {{{"variant", "periodic-disk-revolve"}, {"period", "5"}}, 0});
        QVERIFY(!period.ok());
        QVERIFY(period.errorValue().infeasible);
        QVERIFY2(period.error().find("at least 8") != std::string::npos, period.error().c_str());
        QVERIFY(solve("multistage", c, few, {{{"variant", "periodic-disk-revolve"}, {"period", "8"}}, 0}).ok());
        // The level's capacity binds too: 30 steps, a state every step, on a level that holds 5.
        Hardware small = machine({fast(), {"tiny", 500, 1e3, 1e3, 0}});
        auto p = solve("async-multistage", c, small, {{{"interval", "1"}}, 0});
        QVERIFY(!p.ok());
        QVERIFY(p.errorValue().infeasible);
        QVERIFY2(p.error().find("capacity") != std::string::npos, p.error().c_str());
    }

    // (d) The registry lists each with its parameters, so the CLI and the GUI need no code per scheduler.
    void registryListsThem() {
        const std::map<std::string, std::vector<std::string>> expected = {
            {"multistage", {"variant", "memory_slots", "disk_slots", "level", "period"}},
            {"async-multistage", {"interval", "slots", "level"}},
            {"double-checkpointing", {"offchip_slots", "onchip_slots", "level"}}};
        for (const auto& [name, params] : expected) {
            const SchedulerInfo* s = findScheduler(name);
            QVERIFY2(s, name.c_str());
            QCOMPARE(s->model, 'A');
            QCOMPARE(s->min_levels, 2);
            QVERIFY(!s->paper.empty() && !s->description.empty());
            QCOMPARE(s->params.size(), params.size());
            for (std::size_t i = 0; i < params.size(); ++i) {
                QCOMPARE(s->params[i].name, params[i]);
                QVERIFY(!s->params[i].description.empty());
            }
        }
        const SchedulerInfo* m = findScheduler("multistage");
        QCOMPARE(m->params[0].type, ParamType::Choice);
        QCOMPARE(m->params[0].choices,
                 (std::vector<std::string>{"disk-revolve", "periodic-disk-revolve", "h-revolve", "stumm-walther"}));
        QCOMPARE(m->params[0].default_value, std::string("disk-revolve"));
        // A bad choice is refused by the registry with the list.
        auto bad = solve("multistage", uniformChain(5), machine({fast(), fast()}), {{{"variant", "disk"}}, 0});
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().find("h-revolve") != std::string::npos, bad.error().c_str());
    }

private:
    static int offloaded(int n) { return (n - 1) / 3 - 1; }

    // Some write (and some read) runs while the compute lane is busy from before it starts until after it ends.
    static void checkOverlap(const Timeline& tl) {
        std::vector<std::pair<double, double>> compute;
        for (const Interval& iv : tl.intervals)
            if (iv.lane == 0) compute.push_back({iv.start, iv.end});
        auto covered = [&](double s, double e) {
            // Compute intervals are in time order; the ones touching [s, e] must leave no gap and reach past e.
            double reach = -1, first = -1;
            for (const auto& [a, b] : compute) {
                if (b <= s || a >= e) continue;
                if (first < 0) first = a, reach = a;
                if (a > reach) return false;
                reach = std::max(reach, b);
            }
            return first >= 0 && first <= s && reach > e;
        };
        int writes = 0, reads = 0;
        for (const Interval& iv : tl.intervals) {
            if (iv.lane == 0) continue;
            if (covered(iv.start, iv.end)) (iv.kind == IntervalKind::Write ? writes : reads)++;
        }
        QVERIFY2(writes > 0 && reads > 0,
                 qPrintable(QString("writes %1 reads %2 inside compute").arg(writes).arg(reads)));
    }
};

QTEST_APPLESS_MAIN(TestMultistage)
#include "tst_multistage.moc"
