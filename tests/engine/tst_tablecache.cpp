// The programme tables kept between solves (util/table_cache.h) by rotor, offload-dp, bptt-dp and multistage: a solve
// that reads a kept table gives exactly the plan a fresh solve gives, whatever came before it (other budgets in any
// order, an edited chain, other threads), and every such plan passes the simulator.
#include "run/runner.h"
#include "schedulers/bptt_dp.h"
#include "schedulers/fit.h"
#include "schedulers/multistage.h"
#include "schedulers/offload.h"
#include "schedulers/registry.h"
#include "schedulers/rotor.h"
#include "schedulers/store_all.h"
#include "sim/simulator.h"
#include "test_util.h"
#include "util/table_cache.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <random>
#include <thread>

using namespace ckpt;
using namespace ckpt::test;

namespace {

struct Case {
    std::string scheduler;
    std::map<std::string, std::string> params;
};

// Rotor with 60 slots rounds sizes at the larger budgets (a unit per budget) and measures them exactly at the smaller
// ones (the chain's common unit): both kinds of key.
const std::vector<Case> kCases = {
    {"rotor", {}},
    {"rotor", {{"slots", "60"}}},
    {"bptt-dp", {}},
    {"bptt-dp", {{"variant", "hsm"}}},
    {"bptt-dp", {{"variant", "ism"}}},
    {"multistage", {}},
    {"multistage", {{"variant", "periodic-disk-revolve"}}},
    {"multistage", {{"variant", "h-revolve"}}},
    {"offload-dp", {}},
    {"offload-dp", {{"slots", "60"}}},
};

QString nameOf(const Case& c) {
    QString s = QString::fromStdString(c.scheduler);
    for (const auto& [k, v] : c.params)
        s += QString(" %1=%2").arg(QString::fromStdString(k), QString::fromStdString(v));
    return s;
}

// Level 0 and two slower levels, none bounded: multistage's tables stay one layer deep.
Hardware machine() {
    const std::int64_t big = std::int64_t(1) << 50;
    return *Hardware::make("test machine",
                           {MemoryLevel{"fast", big, 1e30, 1e30, 0}, MemoryLevel{"dram", big, 400, 400, 0},
                            MemoryLevel{"disk", big, 100, 80, 0.01}});
}

void clearAll() {
    clearRotorCache();
    clearBpttCache();
    clearMultistageCache();
    clearOffloadDpCache();
}

// The hits of the scheduler's own cache (offload-dp reads rotor's tables too, but its own must be reused).
long long hits(const std::string& scheduler) {
    if (scheduler == "offload-dp") return offloadDpCacheStats().hits;
    return rotorCacheStats().hits + bpttCacheStats().hits + multistageCacheStats().hits;
}

// `count` budgets from below the leanest schedule's peak (some refused) up to store-all's, geometrically spaced.
std::vector<std::int64_t> budgets(const Chain& c, int count) {
    const double lo = 0.9 * double(leanestPeak(c)), hi = double(storeAllPeakBytes(c));
    std::vector<std::int64_t> out;
    for (int k = 0; k < count; ++k)
        out.push_back(std::int64_t(lo * std::pow(hi / lo, double(k) / (count - 1))));
    return out;
}

Result<Plan> solveOne(const Case& c, const Chain& chain, std::int64_t budget) {
    SolveRequest r;
    r.params = c.params;
    r.budget_bytes = budget;
    return solve(c.scheduler, chain, machine(), r);
}

// Equal results: the same refusal, or the same actions, parameters and predicted time (and a plan the simulator
// accepts within the budget).
QString differs(const Result<Plan>& a, const Result<Plan>& b, const Chain& chain, std::int64_t budget) {
    if (a.ok() != b.ok()) return "one solve found a plan, the other did not";
    if (!a.ok()) return a.error() == b.error() ? QString() : QString::fromStdString(a.error() + " | " + b.error());
    if (a->actions != b->actions) return "different actions";
    if (a->params != b->params) return "different parameters";
    if (a->predicted_makespan_s != b->predicted_makespan_s) return "different predicted makespan";
    SimOptions opt;
    opt.budget_bytes = budget;
    auto tl = simulate(chain, machine(), a->actions, opt);
    if (!tl) return QString::fromStdString("the simulator refuses it: " + tl.error());
    return {};
}

struct Blob {
    std::size_t size;
    std::size_t bytes() const { return size; }
};

} // namespace

class TestTableCache : public QObject {
    Q_OBJECT
private slots:
    void init() { clearAll(); }

    // Budgets up, down and shuffled (the slider's moves), each solved with whatever tables the earlier ones left,
    // against a solve after emptying the caches.
    void keptTablesGiveTheFreshPlan() {
        for (const Chain& chain : {uniformChain(60), randomChain(24, 3)}) {
            const std::vector<std::int64_t> b = budgets(chain, 8);
            std::vector<std::int64_t> order = b;
            order.insert(order.end(), b.rbegin(), b.rend());
            std::vector<std::int64_t> shuffled = b;
            std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(11));
            order.insert(order.end(), shuffled.begin(), shuffled.end());
            for (const Case& c : kCases) {
                clearAll();
                std::vector<std::pair<std::int64_t, Result<Plan>>> kept;
                for (std::int64_t budget : order)
                    kept.emplace_back(budget, solveOne(c, chain, budget));
                const long long reused = hits(c.scheduler);
                int plans = 0;
                for (const auto& [budget, plan] : kept) {
                    clearAll();
                    const QString why = differs(plan, solveOne(c, chain, budget), chain, budget);
                    QVERIFY2(why.isEmpty(), qPrintable(QString("%1 on %2, budget %3: %4")
                                                           .arg(nameOf(c), QString::fromStdString(chain.name()))
                                                           .arg(budget)
                                                           .arg(why)));
                    plans += plan.ok() ? 1 : 0;
                }
                // The comparison means something: tables were reused, and most budgets have a plan.
                QVERIFY2(reused > 0, qPrintable(nameOf(c)));
                QVERIFY2(plans >= int(order.size()) / 2, qPrintable(nameOf(c)));
            }
        }
    }

    // The explorer's slider: after prepareTables, a solve at any of its budgets that finds a plan reads a kept table
    // of the scheduler's (where none fits, offload-dp searches other budgets for its least: not counted), and the plan
    // is the fresh solve's.
    void preparedTablesServeEveryBudget() {
        for (const Chain& chain : {uniformChain(60), randomChain(24, 3)}) {
            const std::vector<std::int64_t> b = budgets(chain, 120);
            for (const Case& c : kCases) {
                clearAll();
                const SchedulerInfo* info = findScheduler(c.scheduler);
                QVERIFY(info && info->table_budgets && info->table_stats);
                const PreparedTables p = prepareTables(c.scheduler, Problem(chain), machine(), c.params, b, b[60]);
                // Random sizes have no common unit: rotor's and offload-dp's tables are a budget each, more than
                // kept (checked below).
                if (p.tables > int(info->table_stats().max_tables)) {
                    QVERIFY(!p.complete && chain.name() == "random");
                    continue;
                }
                QVERIFY2(p.complete && p.tables >= 1 && p.solved == p.tables,
                         qPrintable(QString("%1 on %2: %3 of %4 tables")
                                        .arg(nameOf(c), QString::fromStdString(chain.name()))
                                        .arg(p.solved)
                                        .arg(p.tables)));
                int plans = 0, built = 0;
                for (std::int64_t budget : b) {
                    const long long misses = info->table_stats().misses;
                    auto plan = solveOne(c, chain, budget);
                    if (!plan) continue;
                    ++plans;
                    built += int(info->table_stats().misses - misses);
                    if (budget % 7) continue; // a sample against the fresh solve
                    clearAll();
                    const QString why = differs(plan, solveOne(c, chain, budget), chain, budget);
                    QVERIFY2(why.isEmpty(), qPrintable(nameOf(c) + ": " + why));
                    prepareTables(c.scheduler, Problem(chain), machine(), c.params, b, b[60]);
                }
                QVERIFY2(plans >= int(b.size()) / 2, qPrintable(nameOf(c)));
                QVERIFY2(built == 0, qPrintable(QString("%1 on %2: %3 tables built after preparing %4")
                                                    .arg(nameOf(c), QString::fromStdString(chain.name()))
                                                    .arg(built)
                                                    .arg(p.tables)));
            }
        }
        // More tables than the cache keeps (sizes with no common unit: a unit a budget): it stops at the first it
        // would push out, and says it is incomplete.
        Chain odd = randomChain(24, 5);
        auto steps = odd.steps();
        for (std::size_t i = 0; i < steps.size(); ++i)
            steps[i].tape_bytes += std::int64_t(2 * i + 1);
        odd = *Chain::make("odd", steps);
        clearAll();
        const PreparedTables p =
            prepareTables("rotor", Problem(odd), machine(), {{"slots", "10"}}, budgets(odd, 1000), 0);
        QVERIFY2(p.tables > int(rotorCacheStats().max_tables), qPrintable(QString::number(p.tables)));
        QVERIFY(!p.complete && p.solved < p.tables);
        QCOMPARE(rotorCacheStats().evictions, 1LL);
    }

    // A table kept for a chain is never read for an edited one: the edited chain's solve equals its fresh solve. The
    // edits change a tape's size, a step's time, or the length; at least some of them change the plan, so a stale
    // table would show.
    void anEditedChainNeverReadsAStaleTable() {
        const Chain base = randomChain(24, 7);
        std::vector<Step> steps = base.steps();
        std::vector<Chain> edited;
        steps[4].tape_bytes *= 5;
        edited.push_back(*Chain::make("tape", steps));
        steps = base.steps();
        steps[9].forward += 7;
        steps[9].backward += 7;
        edited.push_back(*Chain::make("time", steps));
        steps = base.steps();
        steps.pop_back();
        edited.push_back(*Chain::make("shorter", steps));
        int changed = 0;
        for (const Case& c : kCases)
            for (const Chain& e : edited) {
                const std::int64_t budget = std::min(budgets(base, 5)[2], budgets(e, 5)[2]);
                clearAll();
                const Result<Plan> before = solveOne(c, base, budget); // leaves its tables behind
                const Result<Plan> after = solveOne(c, e, budget);
                clearAll();
                const Result<Plan> fresh = solveOne(c, e, budget);
                const QString why = differs(after, fresh, e, budget);
                QVERIFY2(
                    why.isEmpty(),
                    qPrintable(
                        QString("%1, chain edited (%2): %3").arg(nameOf(c), QString::fromStdString(e.name()), why)));
                if (!differs(before, fresh, e, budget).isEmpty()) ++changed;
            }
        QVERIFY2(changed >= int(kCases.size()), qPrintable(QString("only %1 edits changed the plan").arg(changed)));
    }

    // offload-dp's table depends on the machine's link too: solved on one machine, then on another whose link is
    // slower, it gives the fresh plan of the second (the kept table of the first would offload tapes whose writes no
    // longer end in time).
    void offloadDpKeepsATablePerMachine() {
        const Chain chain = uniformChain(40);
        const std::int64_t budget = budgets(chain, 5)[1];
        const Hardware fast = machine();
        Hardware slow = machine();
        slow = *Hardware::make(
            "slow link", {slow.level(0), MemoryLevel{"dram", std::int64_t(1) << 50, 1e-3, 1e-3, 0}, slow.level(2)});
        clearAll();
        auto onFast = offloadDpSolve(chain, fast, 1, budget, 500);
        auto onSlow = offloadDpSolve(chain, slow, 1, budget, 500);
        clearAll();
        auto fresh = offloadDpSolve(chain, slow, 1, budget, 500);
        QVERIFY(onFast && onSlow && fresh);
        QVERIFY2(onFast->offloaded > 0, "the fast link offloads tapes");
        QCOMPARE(onSlow->offloaded, fresh->offloaded);
        QCOMPARE(onSlow->plan.actions, fresh->plan.actions);
        QCOMPARE(onSlow->dp_cost, fresh->dp_cost);
        QVERIFY2(onSlow->plan.actions != onFast->plan.actions, "the machines must call for different plans");
    }

    // Solves in several threads share the caches; each gets the plan a lone fresh solve gives.
    void concurrentSolvesAgree() {
        const Chain chain = uniformChain(50);
        const std::vector<std::int64_t> b = budgets(chain, 6);
        std::vector<std::vector<Result<Plan>>> got(4);
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (std::size_t k = 0; k < b.size(); ++k) {
                    const std::size_t i = t % 2 ? b.size() - 1 - k : k; // half the threads go down
                    for (const Case& c : kCases)
                        got[std::size_t(t)].push_back(solveOne(c, chain, b[i]));
                }
            });
        for (auto& th : threads)
            th.join();
        for (int t = 0; t < 4; ++t)
            for (std::size_t k = 0; k < b.size(); ++k) {
                const std::size_t i = t % 2 ? b.size() - 1 - k : k;
                for (std::size_t c = 0; c < kCases.size(); ++c) {
                    clearAll();
                    const QString why = differs(got[std::size_t(t)][k * kCases.size() + c],
                                                solveOne(kCases[c], chain, b[i]), chain, b[i]);
                    QVERIFY2(
                        why.isEmpty(),
                        qPrintable(
                            QString("thread %1, %2, budget %3: %4").arg(t).arg(nameOf(kCases[c])).arg(b[i]).arg(why)));
                }
            }
    }

    // The bounds: at most so many tables and bytes, the least recently used dropped first, a table over the byte
    // bound never kept, and a key kept once (the newer table replaces it).
    void cacheStaysWithinItsBounds() {
        TableCache<int, Blob> cache(3, 100);
        auto any = [](const Blob&) { return true; };
        for (int k = 1; k <= 3; ++k)
            cache.keep(k, std::make_shared<const Blob>(Blob{20}));
        QVERIFY(cache.find(1, any)); // 1 is now the most recently used
        cache.keep(4, std::make_shared<const Blob>(Blob{20}));
        QCOMPARE(cache.stats().tables, std::size_t(3));
        QVERIFY(!cache.find(2, any)); // the least recently used went
        QVERIFY(cache.find(1, any) && cache.find(3, any) && cache.find(4, any));
        cache.keep(5, std::make_shared<const Blob>(Blob{70})); // 20 + 20 + 70 > 100: the two oldest go
        QCOMPARE(cache.stats().bytes, std::size_t(90));
        QVERIFY(cache.find(5, any) && cache.find(4, any) && !cache.find(1, any));
        cache.keep(6, std::make_shared<const Blob>(Blob{101}));
        QVERIFY(!cache.find(6, any));
        std::shared_ptr<const Blob> smaller;
        QVERIFY(!cache.find(
            4, [](const Blob& b) { return b.size >= 30; }, &smaller));
        QVERIFY(smaller && smaller->size == 20);
        cache.keep(4, std::make_shared<const Blob>(Blob{30}));
        QCOMPARE(cache.stats().tables, std::size_t(2));
        QCOMPARE(cache.stats().evictions, 3LL); // 2, then 1 and 3; not 6 (never kept) nor 4 (replaced)
        QCOMPARE(cache.find(4, any)->size, std::size_t(30));
        // Growth: the asked size first, then doubling within the most any request asks.
        QCOMPARE(grownSlots(100, 0, 2000), 100);
        QCOMPARE(grownSlots(150, 100, 2000), 200);
        QCOMPARE(grownSlots(500, 100, 2000), 500);
        QCOMPARE(grownSlots(1500, 1200, 2000), 2000);
    }
};

QTEST_APPLESS_MAIN(TestTableCache)
#include "tst_tablecache.moc"
