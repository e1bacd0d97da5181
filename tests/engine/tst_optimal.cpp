// Optimal schedulers against exhaustive search over every valid schedule on small chains (tests/engine/exhaustive.h).
#include "exhaustive.h"
#include "schedulers/bptt_dp.h"
#include "schedulers/fit.h"
#include "schedulers/offload.h"
#include "schedulers/registry.h"
#include "schedulers/revolve.h"
#include "schedulers/rotor.h"
#include "schedulers/store_all.h"
#include "sim/simulator.h"
#include "test_util.h"

#include <QtTest>
#include <algorithm>
#include <random>
#include <thread>

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

// Every persistent reversal of steps s+1..t in rotor's shape (taped first step, or a checkpoint at x_s and an advance
// to x_k), written out plan by plan: an enumeration independent of any programme.
std::vector<Schedule> rotorShapes(int s, int t) {
    if (t == s + 1) return {{Action::forward(t, Keep::Tape), Action::backward(t)}};
    std::vector<Schedule> out;
    for (const Schedule& sub : rotorShapes(s + 1, t)) {
        Schedule a{Action::forward(s + 1, Keep::Tape)};
        a.insert(a.end(), sub.begin(), sub.end());
        a.push_back(Action::backward(s + 1));
        out.push_back(std::move(a));
    }
    for (int k = s + 1; k < t; ++k) {
        Schedule adv;
        for (int j = s + 1; j <= k; ++j)
            adv.push_back(Action::forward(j, j == s + 1 ? Keep::State : Keep::None));
        const auto rights = rotorShapes(k, t), lefts = rotorShapes(s, k);
        for (const Schedule& r : rights)
            for (const Schedule& l : lefts) {
                Schedule a = adv;
                a.insert(a.end(), r.begin(), r.end());
                a.insert(a.end(), l.begin(), l.end());
                out.push_back(std::move(a));
            }
    }
    return out;
}

// The same from x_s to the end of the chain, where each step the first sweep tapes may instead have its tape written
// to level 1 and freed, and read back just before the backward of the next step.
std::vector<Schedule> offloadShapes(int s, int n) {
    if (s + 1 == n) return {{Action::forward(n, Keep::Tape), Action::backward(n)}};
    const int i = s + 1;
    std::vector<Schedule> out;
    for (const Schedule& sub : offloadShapes(i, n)) {
        Schedule keep{Action::forward(i, Keep::Tape)};
        keep.insert(keep.end(), sub.begin(), sub.end());
        keep.push_back(Action::backward(i));
        out.push_back(std::move(keep));
        Schedule off{Action::forward(i, Keep::Tape), Action::writeTape(i, 1), Action::freeTape(i, 0)};
        off.insert(off.end(), sub.begin(), sub.end() - 1); // sub ends with the backward of step i + 1
        off.push_back(Action::readTape(i, 1));
        off.push_back(sub.back());
        off.push_back(Action::backward(i));
        out.push_back(std::move(off));
    }
    for (int k = i; k < n; ++k) {
        Schedule adv;
        for (int j = i; j <= k; ++j)
            adv.push_back(Action::forward(j, j == i ? Keep::State : Keep::None));
        const auto rights = offloadShapes(k, n);
        const auto lefts = rotorShapes(s, k);
        for (const Schedule& r : rights)
            for (const Schedule& l : lefts) {
                Schedule a = adv;
                a.insert(a.end(), r.begin(), r.end());
                a.insert(a.end(), l.begin(), l.end());
                out.push_back(std::move(a));
            }
    }
    return out;
}

// offload-dp's class, judged on the simulated timeline: every tape write starts when its forward (of the first
// sweep) ends, and ends by the end of that sweep.
bool channelNeverBehind(const Timeline& tl, int n) {
    std::vector<double> firstEnd(std::size_t(n) + 1, -1);
    for (const Interval& iv : tl.intervals)
        if (iv.lane == 0 && iv.kind == IntervalKind::Forward) firstEnd[std::size_t(iv.index)] = iv.end;
    for (const Interval& iv : tl.intervals)
        if (iv.kind == IntervalKind::Write && iv.tape &&
            (iv.start != firstEnd[std::size_t(iv.index)] || iv.end > firstEnd[std::size_t(n)]))
            return false;
    return true;
}

Hardware hostOver(double bytesPerSecond) {
    return *Hardware::make(
        "two", {MemoryLevel{"fast", std::numeric_limits<std::int64_t>::max(), 0, 0, 0},
                MemoryLevel{"host", std::numeric_limits<std::int64_t>::max(), bytesPerSecond, bytesPerSecond, 0}});
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

    // offload-dp's programme against every plan of its class (tests above: offloadShapes), each simulated: the least
    // makespan within the budget equals the programme's optimum, on chains of 2..6 steps, at five budgets and three
    // speeds of the slower level (everything offloadable at once; writes about as long as forwards; most too slow).
    void offloadDpEqualsExhaustiveSearch() {
        int compared = 0, infeasibleBoth = 0, offloadWins = 0;
        SimOptions lean;
        lean.memory_curve = false;
        for (unsigned seed = 1; seed <= 15; ++seed) {
            const int n = 2 + int(seed % 5); // 2..6
            Chain c = smallChain(n, seed, seed % 4 == 0);
            const std::int64_t leanest = peakOf(c, revolvePlan(c, 1).actions);
            const std::int64_t all = peakOf(c, storeAllPlan(c).actions);
            const auto shapes = offloadShapes(0, n);
            for (double bw : {1e9, 8.0, 2.0}) {
                const Hardware hw = hostOver(bw);
                struct Outcome {
                    double makespan;
                    std::int64_t peak;
                };
                std::vector<Outcome> outcomes;
                for (const Schedule& plan : shapes) {
                    auto tl = simulate(c, hw, plan, lean);
                    QVERIFY2(tl.ok(), tl.ok() ? "" : tl.error().c_str());
                    if (channelNeverBehind(*tl, n))
                        outcomes.push_back({tl->totals.makespan_s, tl->totals.peak_bytes[0]});
                }
                for (double f : {0.0, 0.25, 0.5, 0.75, 1.0}) {
                    const std::int64_t budget = (leanest + std::int64_t(f * double(all - leanest))) / 8 * 8;
                    double truth = std::numeric_limits<double>::infinity();
                    for (const Outcome& o : outcomes)
                        if (o.peak <= budget) truth = std::min(truth, o.makespan);
                    auto r = offloadDpSolve(c, hw, 1, budget, int(budget / 8));
                    const QString where =
                        QString("seed %1 n %2 bandwidth %3 budget %4").arg(seed).arg(n).arg(bw).arg(budget);
                    if (!std::isfinite(truth)) {
                        QVERIFY2(!r.ok() && r.errorValue().infeasible, qPrintable(where));
                        ++infeasibleBoth;
                        continue;
                    }
                    QVERIFY2(r.ok(), qPrintable(where + ": " + (r.ok() ? "" : r.error().c_str())));
                    SimOptions opt;
                    opt.budget_bytes = budget;
                    auto tl = simulate(c, hw, r->plan.actions, opt);
                    QVERIFY2(tl.ok(), qPrintable(where + ": " + (tl.ok() ? "" : tl.error().c_str())));
                    QVERIFY2(channelNeverBehind(*tl, n), qPrintable(where));
                    QVERIFY2(std::abs(r->dp_cost - truth) <= 1e-9 * truth,
                             qPrintable(where + QString(": programme %1, search %2").arg(r->dp_cost).arg(truth)));
                    QCOMPARE(tl->totals.makespan_s, truth);
                    QCOMPARE(r->plan.predicted_makespan_s, truth);
                    // With rotor's table pruned (as for tables too large to keep): the same optimum and plan.
                    auto pruned = offloadDpSolve(c, hw, 1, budget, int(budget / 8), 0);
                    QVERIFY2(pruned.ok() && pruned->dp_cost == r->dp_cost && pruned->plan.actions == r->plan.actions,
                             qPrintable(where + ": pruned"));
                    auto rot = rotorSolve(c, budget, int(budget / 8));
                    QVERIFY(rot.ok());
                    QVERIFY(truth <= rot->plan.predicted_makespan_s);
                    if (truth < rot->plan.predicted_makespan_s) ++offloadWins;
                    ++compared;
                }
            }
        }
        QVERIFY(compared >= 150);
        QVERIFY(offloadWins >= 20);
        qInfo("offload-dp = exhaustive optimum on %d cases (%d budgets infeasible for both); faster than rotor on %d",
              compared, infeasibleBoth, offloadWins);
    }

    // offload-dp on longer chains with rotor's table pruned by a grid plan's bound (as rotorSolve prunes tables too
    // large to keep) and not: the same optimum and plan, at budgets from nearly the leanest to 60 % of the way to
    // store-all's peak, over channels from slow to fast.
    void offloadDpPrunedEqualsUnpruned() {
        int solved = 0, pruned = 0;
        for (unsigned seed = 1; seed <= 12; ++seed) {
            std::mt19937 rng(seed);
            const int n = std::uniform_int_distribution<int>(20, 60)(rng);
            std::uniform_int_distribution<int> size(1, 12), cost(0, 8), coin(0, 9);
            std::vector<Step> steps;
            for (int i = 0; i < n; ++i) {
                const double f = coin(rng) == 0 ? 0.0 : 0.001 * (1 + cost(rng)) / 3;
                steps.push_back(Step{f, coin(rng) == 0 ? 0.0 : 2.1 * f, 8 * std::int64_t(size(rng)),
                                     16 * std::int64_t(size(rng)), 0, 0});
            }
            Chain c = *Chain::make("pruned offload", steps);
            const Hardware hw = hostOver(std::vector<double>{2e3, 2e4, 2e5, 1e9}[seed % 4]);
            const std::int64_t lean = leanestPeak(c), all = storeAllPeakBytes(c);
            for (double f : {0.02, 0.2, 0.6}) {
                const std::int64_t budget = lean + std::int64_t(f * double(all - lean));
                const int budgetSlots = std::uniform_int_distribution<int>(40, 200)(rng);
                auto plain = offloadDpSolve(c, hw, 1, budget, budgetSlots),
                     bounded = offloadDpSolve(c, hw, 1, budget, budgetSlots, 0);
                const QString where = QString("seed %1, %2 steps, budget %3").arg(seed).arg(n).arg(budget);
                QCOMPARE(bounded.ok(), plain.ok());
                if (!plain.ok()) continue;
                QVERIFY2(bounded->dp_cost == plain->dp_cost,
                         qPrintable(where + QString(": %1 against %2").arg(bounded->dp_cost).arg(plain->dp_cost)));
                QVERIFY2(bounded->plan.actions == plain->plan.actions, qPrintable(where + ": another plan"));
                QVERIFY(!plain->bound);
                solved += plain->offloaded > 0;
                pruned += bool(bounded->bound); // else no grid plan fitted, or the optimum was not within the bound
            }
        }
        qInfo("%d of the solves read rotor's pruned table; %d plans offload", pruned, solved);
        QVERIFY(solved >= 10); // plans that offload, not only rotor's
        QVERIFY(pruned >= 20);
    }

    // Below its least feasible budget, offload-dp names that budget: the budget named solves, one byte less does not.
    // Offloading needs less than rotor's least budget (leanestPeak), which offload-dp once named: on issue 34's chain
    // it said 9 KiB at 6 KiB and then solved at 7 KiB. Random chains with temporaries, transfers free (1e30 B/s).
    void offloadDpNamesItsOwnLeastBudget() {
        const Hardware hw = hostOver(1e30);
        const Chain issue =
            *Chain::make("issue 34", {Step{1, 4, 1024, 1024, 0, 1024}, Step{3, 1, 2048, 1024, 0, 1024},
                                      Step{2, 1, 2048, 1024, 1024, 0}, Step{3, 1, 2048, 1024, 1024, 0}});
        auto named = [&](const Chain& c, std::int64_t budget) -> std::int64_t {
            auto r = solve("offload-dp", c, hw, {{}, budget});
            if (r.ok()) return -1;
            const QString msg = QString::fromStdString(r.error());
            if (!r.errorValue().infeasible || !msg.contains(" B) in level 0")) return -2;
            return msg.section(" B) in level 0", 0, 0).section('(', -1).toLongLong();
        };
        QCOMPARE(named(issue, 6 * 1024), std::int64_t(7 * 1024));
        int checked = 0, belowRotor = 0;
        for (unsigned seed = 1; seed <= 40; ++seed) {
            const Chain c = randomChain(3 + int(seed % 6), seed);
            const std::int64_t lean = leanestPeak(c);
            for (double f : {0.5, 0.8}) {
                const std::int64_t budget = std::int64_t(f * double(lean));
                const std::int64_t need = named(c, budget);
                const QString where = QString("seed %1 budget %2").arg(seed).arg(budget);
                if (need == -1) continue; // offloading fits even this
                QVERIFY2(need > budget, qPrintable(where + QString(": named %1").arg(need)));
                auto at = solve("offload-dp", c, hw, {{}, need});
                QVERIFY2(at.ok(), qPrintable(where + ": at the named budget: " + (at.ok() ? "" : at.error().c_str())));
                SimOptions opt;
                opt.budget_bytes = need;
                auto tl = simulate(c, hw, at->actions, opt);
                QVERIFY2(tl.ok(), qPrintable(where + ": " + (tl.ok() ? "" : tl.error().c_str())));
                QVERIFY2(named(c, need - 1) == need, qPrintable(where + ": one byte under the named budget"));
                belowRotor += need < lean;
                ++checked;
            }
        }
        qInfo("offload-dp's least budget named and checked on %d chains, below rotor's on %d", checked, belowRotor);
        QVERIFY(checked >= 30);
        QVERIFY(belowRotor >= 5);
    }

    // The rotor paper's memory model (model/chain.h: a taped forward keeps its input until its backward and holds its
    // output inside its tape; x_n has a size of its own): rotor's programme in that model equals exhaustive search
    // over every persistent schedule, the search restating the model (exhaustive.h) and the simulator judging the
    // plans. Store-all's peak formula and the leanest schedule's agree with the simulator there too.
    // Heterogeneous tables are filled by tiles, skipping options a bound says cannot lower a cell; the table must be
    // the one the recurrence fills cell by cell, in every bit. Chains across tile edges (rotor_detail::tileCells()),
    // states larger than a vector of slots (the loads before a row's start) and than the whole budget, free forwards
    // (ties), slot counts around multiples of the runs (32 and 64); the last ones large enough for two threads, and
    // those of three and four tiles also on 3 and 5 threads. Each chain in both memory models (the paper's has a
    // second layer of the table).
    void rotorTilesFillTheSameTable() {
        struct Case {
            int n, budgetSlots;
            unsigned seed;
            int maxSlots; // sizes up to this many slots of 8 bytes
            bool freeForwards;
        };
        // Lengths around the tiles' multiples: one tile (its cells in the plain order only), two, and three or more
        // (split points in a block strictly between a tile's blocks, and diagonals of several tiles).
        const int w = rotor_detail::tileCells();
        const Case cases[] = {
            {1, 10, 1, 3, false},           {2, 10, 2, 4, false},           {w - 1, 20, 3, 6, false},
            {w, 63, 4, 12, true},           {w + 1, 64, 5, 30, false},      {2 * w + 1, 65, 6, 40, false},
            {2 * w + 8, 129, 7, 150, true}, {3 * w - 2, 200, 8, 24, false}, {4 * w + 4, 130, 9, 20, true}};
        int rows = 0;
        for (const Case& k : cases) {
            std::mt19937 rng(k.seed);
            std::uniform_int_distribution<int> size(0, k.maxSlots), cost(0, 8);
            std::vector<Step> steps;
            for (int i = 0; i < k.n; ++i) {
                double f = k.freeForwards && i % 3 == 0 ? 0.0 : 0.25 * cost(rng) + 0.125;
                steps.push_back(Step{f, 2 * f + 0.0625 * cost(rng), 8 * (1 + size(rng)), 8 * (1 + size(rng)),
                                     8 * size(rng) / 4, 8 * size(rng) / 4});
            }
            Chain c = *Chain::make("tiles", steps);
            Chain paper = *c.withModel(MemoryModel::RotorPaper, k.seed % 2 ? 8 * std::int64_t(k.maxSlots) : -1);
            for (const Chain* chain : {&c, &paper}) {
                // As many threads as rotorSolve picks here, and on the chains of three or four tiles also 3 and 5 (more
                // than the tiles of a late diagonal, and more than the test machine's cores).
                for (int threads : {0, 3, 5}) {
                    if (threads && (k.n <= 2 * w || k.n > 4 * w)) continue;
                    const std::size_t differ = rotor_detail::tiledTableDifferences(*chain, 8, k.budgetSlots, threads);
                    QVERIFY2(differ == 0, qPrintable(QString("n %1, %2 slots, %3 model, %4 threads: %5 rows differ")
                                                         .arg(k.n)
                                                         .arg(k.budgetSlots)
                                                         .arg(chain == &c ? "standard" : "paper")
                                                         .arg(threads)
                                                         .arg(differ)));
                    rows += k.n * (k.n + 1) / 2;
                }
            }
        }
        // And random chains, zero sizes and zero times among them.
        for (unsigned seed = 1; seed <= 24; ++seed) {
            std::mt19937 rng(seed);
            const int n = std::uniform_int_distribution<int>(1, 40)(rng);
            const int budgetSlots = std::uniform_int_distribution<int>(1, 150)(rng);
            std::uniform_int_distribution<int> size(0, std::uniform_int_distribution<int>(0, 40)(rng)), cost(0, 6),
                coin(0, 3);
            std::vector<Step> steps;
            for (int i = 0; i < n; ++i) {
                const double f = coin(rng) == 0 ? 0.0 : 0.25 * cost(rng) + 0.125;
                steps.push_back(Step{f, coin(rng) == 0 ? 0.0 : 2 * f + 0.0625 * cost(rng), 8 * std::int64_t(size(rng)),
                                     8 * std::int64_t(size(rng)), 8 * std::int64_t(size(rng) / 3),
                                     8 * std::int64_t(size(rng) / 3)});
            }
            Chain c = *Chain::make("random", steps);
            Chain paper = *c.withModel(MemoryModel::RotorPaper, seed % 2 ? 8 * std::int64_t(size(rng)) : -1);
            for (const Chain* chain : {&c, &paper}) {
                const std::size_t differ = rotor_detail::tiledTableDifferences(*chain, 8, budgetSlots);
                QVERIFY2(differ == 0, qPrintable(QString("seed %1, %2 model: %3 rows differ")
                                                     .arg(seed)
                                                     .arg(chain == &c ? "standard" : "paper")
                                                     .arg(differ)));
                rows += n * (n + 1) / 2;
            }
        }
        qInfo("tiled and plain rotor tables equal bit for bit on %d rows", rows);
    }

    // The threads rotorSolve reports (ckpt bench prints them): one for a table of at most 1e8 inner steps (n^3 by the
    // slots), else one per core up to 8; uniform chains fill their O(n) rows on one thread.
    void rotorReportsTheThreadsThatFilledItsTable() {
        const int cores = std::clamp(int(std::thread::hardware_concurrency()), 1, 8);
        std::mt19937 rng(3);
        std::uniform_int_distribution<int> size(1, 97); // sizes with no common unit: the table has the asked slots
        auto chain = [&](int n) {
            std::vector<Step> steps;
            for (int i = 0; i < n; ++i)
                steps.push_back(Step{1.0 + i % 3, 2.0, 1000 + size(rng), 3000 + size(rng), 0, 0});
            return *Chain::make("threads", steps);
        };
        struct Case {
            int n, slotCount, threads;
        };
        // 60 steps: under the 64 that repay threads; 100 x 500 slots: 5e8 inner steps; 100 x 80 slots: 8.1e7.
        for (const Case& k : {Case{60, 500, 1}, Case{100, 500, cores}, Case{100, 80, 1}}) {
            clearRotorCache();
            Chain c = chain(k.n);
            auto r = rotorSolve(c, storeAllPeakBytes(c) / 4, k.slotCount);
            QVERIFY2(bool(r), r ? "" : r.error().c_str());
            QCOMPARE(r->threads, k.threads);
        }
        auto uniform = rotorSolve(*Chain::uniform("u", 200, Step{1.0, 2.0, 1000, 3000, 0, 0}), 40000, 500);
        QVERIFY(bool(uniform));
        QCOMPARE(uniform->threads, 1);
    }

    // Chains for the pruned fill: the tiles' edges (one to four tiles, so split points in blocks between a tile's
    // blocks too), free forwards and backwards (ties, and plans whose overhead is 0), and states larger than a vector
    // of slots; in the standard model, the one rotorSolve prunes.
    static std::vector<std::pair<Chain, int>> prunedCases() {
        std::vector<std::pair<Chain, int>> out; // chain, budget in budgetSlots of 8 bytes
        const int w = rotor_detail::tileCells();
        for (unsigned seed = 1; seed <= 30; ++seed) {
            std::mt19937 rng(seed);
            const int lengths[] = {2, w - 1, w + 1, 2 * w + 3, 3 * w + 5, 4 * w + 2};
            const int n = seed <= 12 ? lengths[seed % 6] : std::uniform_int_distribution<int>(1, 3 * w)(rng);
            std::uniform_int_distribution<int> size(0, std::uniform_int_distribution<int>(2, 40)(rng)), cost(0, 6),
                coin(0, 4);
            std::vector<Step> steps;
            for (int i = 0; i < n; ++i) {
                const double f = coin(rng) == 0 ? 0.0 : 0.25 * cost(rng) + 0.125;
                steps.push_back(Step{f, coin(rng) == 0 ? 0.0 : 2 * f + 0.0625 * cost(rng),
                                     8 * std::int64_t(1 + size(rng)), 8 * std::int64_t(1 + size(rng)),
                                     8 * std::int64_t(size(rng) / 3), 8 * std::int64_t(size(rng) / 3)});
            }
            Chain c = *Chain::make("pruned", steps);
            // From a little over the leanest budget to store-all's peak.
            const std::int64_t lean = leanestPeak(c) / 8, all = storeAllPeakBytes(c) / 8;
            const int budgetSlots = int(lean + (all - lean) * std::int64_t(seed % 5) / 5 + 1);
            out.emplace_back(std::move(c), budgetSlots);
        }
        return out;
    }
    static double storeAllTime(const Chain& c) {
        double t = 0;
        for (int i = 1; i <= c.length(); ++i)
            t += c.step(i).forward + c.step(i).backward;
        return t;
    }

    // rotor_detail::gridBound is the overhead of a plan of the programme's (checkpoints on every g-th state): with
    // g = 1, the optimal overhead itself; on a coarser grid, no less than on a grid it contains.
    void rotorGridBoundIsTheOverheadOfAPlan() {
        int finite = 0, above = 0;
        for (const auto& [c, budgetSlots] : prunedCases()) {
            const double optimum = rotor_detail::plainOptimum(c, 8, budgetSlots);
            const double g1 = rotor_detail::gridBound(c, 8, budgetSlots, 1),
                         g2 = rotor_detail::gridBound(c, 8, budgetSlots, 2),
                         g4 = rotor_detail::gridBound(c, 8, budgetSlots, 4);
            const double base = storeAllTime(c), tolerance = 1e-6 * (base + 1);
            const QString at = QString("%1 steps, %2 slots").arg(c.length()).arg(budgetSlots);
            QVERIFY2(std::isinf(optimum) == std::isinf(g1), qPrintable(at));
            if (std::isinf(optimum)) continue;
            ++finite;
            QVERIFY2(std::abs(g1 - (optimum - base)) <= tolerance,
                     qPrintable(at + QString(": grid of 1 %1, optimum's overhead %2").arg(g1).arg(optimum - base)));
            QVERIFY2(g2 >= g1 - tolerance && g4 >= g2 - tolerance,
                     qPrintable(at + QString(": grids of 1, 2, 4: %1, %2, %3").arg(g1).arg(g2).arg(g4)));
            above += g4 > g1 + tolerance;
        }
        QVERIFY(finite >= 20);
        QVERIFY(above >= 5); // the coarse grid does lose plans on some
    }

    // rotorSolve fills a table too large to keep pruned by a bound on the optimal overhead (branch and bound). Filled
    // with the true optimal overhead as the bound (the tightest one there is) and with grid plans' overheads, the
    // optimum and the plan are the plain fill's, in every bit, while pruning leaves other rows different (else the
    // test would not test it); a bound under the optimum is found out (exactAt); and with no bound the tables are
    // equal.
    void rotorPrunedByABoundKeepsTheOptimumAndItsPlan() {
        std::size_t pruned = 0;
        int checked = 0, refused = 0;
        for (const auto& [c, budgetSlots] : prunedCases()) {
            const QString at = QString("%1 steps, %2 slots").arg(c.length()).arg(budgetSlots);
            const double inf = std::numeric_limits<double>::infinity();
            const auto none = rotor_detail::cappedFills(c, 8, budgetSlots, {inf}, 3)[0];
            QVERIFY2(none.exact && none.rowsDiffer == 0, qPrintable(at));
            if (std::isinf(none.plain)) continue;
            const double base = storeAllTime(c), overhead = double(none.plain) - base;
            // The tightest bound there is, and grid plans'; on 3 threads (more than a late diagonal's tiles).
            std::vector<double> bounds{std::max(0.0, overhead)};
            for (int g : {2, 8})
                if (double b = rotor_detail::gridBound(c, 8, budgetSlots, g); std::isfinite(b)) bounds.push_back(b);
            // And one that the optimum exceeds by more than the margins for rounding.
            const bool low = overhead > 0.05 * (base + overhead);
            if (low) bounds.push_back(0.5 * overhead - 0.01 * (base + overhead));
            const auto fills = rotor_detail::cappedFills(c, 8, budgetSlots, bounds, 3);
            for (std::size_t i = 0; i < fills.size(); ++i) {
                const auto& r = fills[i];
                const QString what = at + QString(", bound %1 (optimum's overhead %2)").arg(bounds[i]).arg(overhead);
                if (low && i + 1 == fills.size()) {
                    QVERIFY2(!r.exact, qPrintable(what + ": a bound under the optimum went unnoticed"));
                    QVERIFY2(r.capped >= r.plain, qPrintable(what));
                    ++refused;
                    continue;
                }
                QVERIFY2(r.exact, qPrintable(what + ": says it is not exact"));
                QVERIFY2(r.capped == r.plain, qPrintable(what + QString(": %1 against %2").arg(r.capped).arg(r.plain)));
                QVERIFY2(r.samePlan, qPrintable(what + ": another plan"));
                pruned += r.rowsDiffer;
                ++checked;
            }
        }
        qInfo("%d pruned fills equal the plain fill at the optimum (%zu other rows pruned); %d low bounds found out",
              checked, pruned, refused);
        QVERIFY(checked >= 50);
        QVERIFY(pruned > 1000);
        QVERIFY(refused >= 5);
    }

    // rotorSolve prunes only tables too large to keep between solves: pruning every table (pruneAbove = 0) gives the
    // same optimum and plan, says it pruned where a grid plan fits, and never prunes uniform chains or the paper's
    // model. Where no grid plan fits the budget, the fill is not pruned.
    void rotorSolvePrunesWithTheSameResult() {
        int bounded = 0, unbounded = 0;
        for (const auto& [c, budgetSlots] : prunedCases()) {
            for (const Chain& chain : {c, *c.withModel(MemoryModel::RotorPaper, -1)}) {
                const std::int64_t budget = 8 * std::int64_t(budgetSlots);
                auto plain = rotorSolve(chain, budget, budgetSlots),
                     pruned = rotor_detail::solve(chain, budget, budgetSlots, 0);
                QCOMPARE(bool(pruned), bool(plain));
                if (!plain) continue;
                QVERIFY(!plain->bound);
                QCOMPARE(pruned->dp_cost, plain->dp_cost);
                QVERIFY(pruned->plan.actions == plain->plan.actions);
                if (chain.memoryModel() == MemoryModel::RotorPaper) QVERIFY(!pruned->bound);
                if (pruned->bound) {
                    QVERIFY(*pruned->bound >= pruned->dp_cost - storeAllTime(chain) - 1e-6);
                    ++bounded;
                } else if (chain.memoryModel() == MemoryModel::Standard && !chain.isUniform()) {
                    QVERIFY(std::isinf(rotor_detail::gridBound(chain, pruned->unit, int(budget / pruned->unit),
                                                               std::max(1, (chain.length() + 63) / 64)))); // 64 parts
                    ++unbounded;
                }
            }
        }
        qInfo("%d solves pruned, %d not (no grid plan fits)", bounded, unbounded);
        QVERIFY(bounded >= 15);
        auto uniform = rotor_detail::solve(*Chain::uniform("u", 50, Step{1.0, 2.0, 1000, 3000, 0, 0}), 20000, 100, 0);
        QVERIFY(uniform && !uniform->bound);
    }

    void rotorPaperModelEqualsExhaustiveSearch() {
        int compared = 0, infeasibleBoth = 0;
        SearchOptions paper;
        paper.persistent = true;
        paper.paperModel = true;
        for (unsigned seed = 1; seed <= 24; ++seed) {
            const bool uniform = seed % 3 == 0;
            const int n = 2 + int(seed % 6); // 2..7
            const std::int64_t last = seed % 2 ? 8 * std::int64_t(1 + seed % 5) : -1;
            Chain c = *smallChain(n, seed, uniform).withModel(MemoryModel::RotorPaper, last);
            const std::int64_t lean = peakOf(c, revolvePlan(c, 1).actions);
            const std::int64_t all = peakOf(c, storeAllPlan(c).actions);
            QCOMPARE(storeAllPeakBytes(c), all);
            QCOMPARE(leanestPeak(c), lean);
            for (double f : {0.0, 0.25, 0.5, 0.75, 1.0}) {
                std::int64_t budget = (lean + std::int64_t(f * double(all - lean))) / 8 * 8;
                double truth = exhaustiveOptimum(c, budget, paper);
                auto r = rotorSolve(c, budget, int(budget / 8));
                const QString where = QString("seed %1 n %2 budget %3").arg(seed).arg(n).arg(budget);
                if (!std::isfinite(truth)) {
                    QVERIFY2(!r.ok() && r.errorValue().infeasible, qPrintable(where));
                    ++infeasibleBoth;
                    continue;
                }
                QVERIFY2(r.ok(), qPrintable(where + ": " + (r.ok() ? "" : r.error().c_str())));
                SimOptions opt;
                opt.budget_bytes = budget;
                auto tl = simulate(c, Hardware::unbounded(), r->plan.actions, opt);
                QVERIFY2(tl.ok(), qPrintable(where + ": " + (tl.ok() ? "" : tl.error().c_str())));
                QCOMPARE(tl->totals.makespan_s, truth);
                QCOMPARE(double(r->dp_cost), truth);
                ++compared;
            }
        }
        QVERIFY(compared >= 80);
        qInfo("rotor (paper model) = exhaustive optimum on %d cases (%d budgets infeasible for both)", compared,
              infeasibleBoth);
    }

    // The two memory models give different optima on the same steps: a taped forward that keeps its input costs
    // more in the paper's model, an output inside a tape costs less. Wherever rotor's optima differ, the faster
    // model's optimal plan (the same actions take the same time in both) does not fit the budget in the other.
    void rotorModelsGiveDifferentOptima() {
        int differ = 0, paperSlower = 0, paperFaster = 0;
        for (unsigned seed = 1; seed <= 24; ++seed) {
            const int n = 3 + int(seed % 5);
            const Chain standard = smallChain(n, seed, false);
            const Chain paper = *standard.withModel(MemoryModel::RotorPaper);
            for (std::int64_t budget = 64; budget <= 400; budget += 16) {
                auto a = rotorSolve(standard, budget, int(budget / 8));
                auto b = rotorSolve(paper, budget, int(budget / 8));
                if (!a.ok() || !b.ok() || a->dp_cost == b->dp_cost) continue;
                ++differ;
                (a->dp_cost < b->dp_cost ? paperSlower : paperFaster)++;
                SimOptions opt;
                opt.budget_bytes = budget;
                const Chain& slowerChain = a->dp_cost < b->dp_cost ? paper : standard;
                const Schedule& fasterPlan = a->dp_cost < b->dp_cost ? a->plan.actions : b->plan.actions;
                auto there = simulate(slowerChain, Hardware::unbounded(), fasterPlan, opt);
                QVERIFY(!there.ok() && there.errorValue().infeasible);
            }
        }
        QVERIFY(differ >= 10);
        qInfo("rotor's optima differ between the models in %d cases: the paper's slower in %d, faster in %d", differ,
              paperSlower, paperFaster);
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
