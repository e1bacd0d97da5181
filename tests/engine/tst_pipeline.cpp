// GPipe's pipeline (sim/pipeline.h) against its oracles: the bubble's closed form (K - 1) / (M + K - 1) on equal
// stages, a two-stage pipeline worked out by hand, the cuts' dynamic programme against every cut of small chains,
// and the memory bound against the simulated peak of every device, whatever the timing.
#include "sim/pipeline.h"
#include "test_util.h"
#include "util/units.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

using namespace ckpt;
using namespace ckpt::test;

namespace {

std::int64_t perMicro(std::int64_t b, int m) {
    return (b + m - 1) / m;
}

// Every way to cut steps 1..n into k stages: the last step of each stage but the last.
void everyCut(int n, int k, const std::function<void(const std::vector<int>&)>& visit) {
    std::vector<int> cuts;
    std::function<void(int)> rec = [&](int from) {
        if (int(cuts.size()) == k - 1) return visit(cuts);
        for (int c = from; c <= n - (k - 1 - int(cuts.size())); ++c) {
            cuts.push_back(c);
            rec(c + 1);
            cuts.pop_back();
        }
    };
    rec(1);
}

// The bottleneck of a cut, summed here step by step: a stage's forward and backward (its re-run included) per
// micro-batch, and a link's two transfers.
double bottleneckOf(const Chain& c, const PipelineSetup& s, const std::vector<int>& cuts) {
    double worst = 0;
    const int K = int(cuts.size()) + 1, M = s.micro_batches;
    for (int k = 0; k < K; ++k) {
        const int first = k == 0 ? 1 : cuts[std::size_t(k - 1)] + 1,
                  last = k == K - 1 ? c.length() : cuts[std::size_t(k)];
        double t = 0;
        for (int i = first; i <= last; ++i)
            t += (c.step(i).forward * (s.recompute ? 2 : 1) + c.step(i).backward) / M;
        worst = std::max(worst, t);
        if (k > 0) {
            const double bytes = double(perMicro(c.stateBytes(first - 1), M));
            worst = std::max(worst, 2 * (s.link_latency_s + (s.link_bytes_per_s > 0 ? bytes / s.link_bytes_per_s : 0)));
        }
    }
    return worst;
}

bool fits(const Chain& c, const PipelineSetup& s, const std::vector<int>& cuts, std::int64_t* worstBound = nullptr) {
    const int K = int(cuts.size()) + 1;
    bool ok = true;
    std::int64_t worst = 0;
    for (int k = 0; k < K; ++k) {
        const int first = k == 0 ? 1 : cuts[std::size_t(k - 1)] + 1,
                  last = k == K - 1 ? c.length() : cuts[std::size_t(k)];
        const std::int64_t bound = pipelineMemoryBound(c, s, first, last);
        worst = std::max(worst, bound);
        const std::int64_t cap = s.device_bytes.empty()       ? 0
                                 : s.device_bytes.size() == 1 ? s.device_bytes[0]
                                                              : s.device_bytes[std::size_t(k)];
        if (cap > 0 && bound > cap) ok = false;
    }
    if (worstBound) *worstBound = worst;
    return ok;
}

} // namespace

class TestPipeline : public QObject {
    Q_OBJECT
private slots:
    void bubbleMatchesTheClosedForm() {
        for (bool recompute : {true, false})
            for (int K = 1; K <= 5; ++K)
                for (int M = 1; M <= 12; ++M) {
                    const int q = 3;
                    Chain c = uniformChain(K * q, 0.004, 0.007);
                    PipelineSetup s;
                    s.stages = K, s.micro_batches = M, s.recompute = recompute;
                    auto run = runPipeline(c, s);
                    QVERIFY2(run.ok(), run.ok() ? "" : run.error().c_str());
                    // Equal steps: the balanced cuts are equal stages.
                    for (const PipelineStage& st : run->stages)
                        QCOMPARE(st.last - st.first + 1, q);
                    const double F = q * 0.004 / M, B = q * (0.007 + (recompute ? 0.004 : 0.0)) / M;
                    QVERIFY(std::abs(run->timeline.totals.makespan_s - (M + K - 1) * (F + B)) <= 1e-12);
                    QVERIFY2(std::abs(run->bubble - double(K - 1) / (M + K - 1)) <= 1e-9,
                             qPrintable(QString("K=%1 M=%2: bubble %3").arg(K).arg(M).arg(run->bubble)));
                    QCOMPARE(run->ideal_bubble, double(K - 1) / (M + K - 1));
                    // Every step runs forward once per micro-batch, again before its backward with rematerialisation.
                    QCOMPARE(run->timeline.totals.forward_steps, (long long)(K * q * M * (recompute ? 2 : 1)));
                    QCOMPARE(run->timeline.totals.backward_steps, (long long)(K * q * M));
                    QCOMPARE(int(run->timeline.lanes.size()), 2 * K - 1);
                }
    }

    void twoStagesByHand() {
        // Steps f = 1, b = 2, states 100 B, tapes 300 B; two micro-batches (F 0.5, B 1.5 with the re-run), free
        // links. Device 0: F1 [0,0.5], F2 [0.5,1], B2 [3,4.5], B1 [4.5,6]; device 1: F1 [0.5,1], F2 [1,1.5],
        // B2 [1.5,3], B1 [3,4.5].
        Chain c = uniformChain(2, 1, 2, 100, 300);
        PipelineSetup s;
        s.stages = 2, s.micro_batches = 2;
        auto run = runPipeline(c, s);
        QVERIFY2(run.ok(), run.ok() ? "" : run.error().c_str());
        QCOMPARE(run->timeline.totals.makespan_s, 6.0);
        QCOMPARE(run->bubble, 1 - (2 * 4.0) / (2 * 6.0));
        // Device 0 at B2's start: both inputs (100), micro-batch 2's output gradient (50), the tapes of its re-run
        // (150) and its input's gradient (50). Device 1 at B2's start: both inputs, the loss gradient, tapes, the
        // input gradient: 350 too, which is its bound exactly.
        QCOMPARE(run->timeline.totals.peak_bytes[0], std::int64_t(350));
        QCOMPARE(run->timeline.totals.peak_bytes[1], std::int64_t(350));
        QCOMPARE(run->stages[0].bound_bytes, std::int64_t(400));
        QCOMPARE(run->stages[1].bound_bytes, std::int64_t(350));
        QCOMPARE(run->timeline.totals.peak_time_s[0], 3.0);
        QCOMPARE(run->timeline.totals.peak_time_s[1], 1.5);
        // The link carries both activations and both gradients, 50 B each.
        QCOMPARE(run->timeline.totals.bytes_written, 100LL);
        QCOMPARE(run->timeline.totals.bytes_read, 100LL);
        // Without rematerialisation: no re-run (F 0.5, B 1); device 1 keeps both micro-batches' tapes.
        s.recompute = false;
        auto kept = runPipeline(c, s);
        QVERIFY(kept.ok());
        QCOMPARE(kept->timeline.totals.makespan_s, 4.5);
        QCOMPARE(kept->timeline.totals.recomputed_steps, 0LL);
        QVERIFY(kept->timeline.totals.peak_bytes[1] >= 300);
        // A device too small is refused, named.
        s.recompute = true;
        s.device_bytes = {349};
        auto small = runPipeline(c, s);
        QVERIFY(!small.ok() && small.errorValue().infeasible);
        QVERIFY2(small.error().find("leanest cut needs 400 B") != std::string::npos, small.error().c_str());
        s.cuts = {1};
        auto given = runPipeline(c, s);
        QVERIFY(!given.ok() && given.errorValue().infeasible);
        QVERIFY2(given.error().find("device 1 would hold 350 B, over its 349 B") != std::string::npos,
                 given.error().c_str());
    }

    void cutsEqualExhaustiveSearch() {
        std::mt19937 rng(11);
        int cases = 0, infeasibleCases = 0, capped = 0;
        for (int trial = 0; trial < 400; ++trial) {
            const int n = 2 + int(rng() % 8);
            Chain c = randomChain(n, unsigned(trial) + 1);
            PipelineSetup s;
            s.stages = 1 + int(rng() % std::min(4, n));
            s.micro_batches = std::vector<int>{1, 2, 3, 5, 8}[rng() % 5];
            s.recompute = rng() % 3 != 0;
            if (rng() % 2) s.link_bytes_per_s = double(5 + rng() % 100), s.link_latency_s = (rng() % 3) * 0.5;
            // Capacities around what the stages need: some cuts fit, some do not, sometimes none.
            std::int64_t leanest = std::numeric_limits<std::int64_t>::max();
            everyCut(n, s.stages, [&](const std::vector<int>& cuts) {
                std::int64_t w = 0;
                fits(c, s, cuts, &w);
                leanest = std::min(leanest, w);
            });
            if (rng() % 4) {
                s.device_bytes.clear();
                for (int k = 0; k < s.stages; ++k)
                    s.device_bytes.push_back(std::int64_t(double(leanest) * (0.8 + 0.6 * (rng() % 100) / 100.0)));
                ++capped;
            }
            double best = std::numeric_limits<double>::infinity();
            everyCut(n, s.stages, [&](const std::vector<int>& cuts) {
                if (fits(c, s, cuts)) best = std::min(best, bottleneckOf(c, s, cuts));
            });
            auto cuts = balancedCuts(c, s);
            ++cases;
            if (best == std::numeric_limits<double>::infinity()) {
                ++infeasibleCases;
                QVERIFY2(!cuts.ok() && cuts.errorValue().infeasible, "the DP found a cut where none fits");
                // The message gives the least memory any cut needs (equal devices would do with it).
                QVERIFY2(cuts.error().find("needs " + formatBytes(double(leanest))) != std::string::npos,
                         cuts.error().c_str());
                continue;
            }
            QVERIFY2(cuts.ok(), cuts.ok() ? "" : cuts.error().c_str());
            QVERIFY(fits(c, s, *cuts));
            const double got = bottleneckOf(c, s, *cuts);
            QVERIFY2(std::abs(got - best) <= 1e-12 * best,
                     qPrintable(
                         QString("trial %1: the DP's bottleneck %2, the best cut's %3").arg(trial).arg(got).arg(best)));
            s.cuts = *cuts;
            auto run = runPipeline(c, s);
            QVERIFY2(run.ok(), run.ok() ? "" : run.error().c_str());
            QVERIFY(std::abs(run->bottleneck_s - best) <= 1e-12 * best);
        }
        QVERIFY(infeasibleCases > 10 && capped > 200 && cases - infeasibleCases > 200);
    }

    void simulatedPeakWithinTheBound() {
        // Whatever the links, the cut and the micro-batches, no device ever holds more than its stage's bound, and
        // every device ends empty.
        std::mt19937 rng(5);
        int tight = 0;
        for (int trial = 0; trial < 300; ++trial) {
            const int n = 2 + int(rng() % 14);
            Chain c = randomChain(n, unsigned(trial) * 7 + 3);
            PipelineSetup s;
            s.stages = 1 + int(rng() % std::min(5, n));
            s.micro_batches = 1 + int(rng() % 9);
            s.recompute = rng() % 2;
            if (rng() % 2) s.link_bytes_per_s = double(20 + rng() % 2000), s.link_latency_s = (rng() % 4) * 0.003;
            std::vector<int> all;
            for (int i = 1; i < n; ++i)
                all.push_back(i);
            std::shuffle(all.begin(), all.end(), rng);
            s.cuts.assign(all.begin(), all.begin() + (s.stages - 1));
            std::sort(s.cuts.begin(), s.cuts.end());
            auto run = runPipeline(c, s);
            QVERIFY2(run.ok(), run.ok() ? "" : run.error().c_str());
            for (int k = 0; k < s.stages; ++k) {
                const std::int64_t peak = run->timeline.totals.peak_bytes[std::size_t(k)];
                QVERIFY2(peak <= run->stages[std::size_t(k)].bound_bytes,
                         qPrintable(QString("trial %1 device %2: peak %3 over the bound %4")
                                        .arg(trial)
                                        .arg(k)
                                        .arg(peak)
                                        .arg(run->stages[std::size_t(k)].bound_bytes)));
                tight += peak == run->stages[std::size_t(k)].bound_bytes;
                QCOMPARE(run->timeline.memory[std::size_t(k)].back().total(), std::int64_t(0));
            }
            // Compute never overlaps on a device, and the makespan is at least the busiest device's work.
            double busiest = 0;
            for (int k = 0; k < s.stages; ++k) {
                double busy = 0, last = 0;
                for (const Interval& iv : run->timeline.intervals)
                    if (iv.lane == 2 * k) {
                        QVERIFY(iv.start >= last - 1e-12);
                        last = iv.end, busy += iv.end - iv.start;
                    }
                busiest = std::max(busiest, busy);
            }
            QVERIFY(run->timeline.totals.makespan_s >= busiest - 1e-12);
        }
        QVERIFY(tight > 0); // the bound is reached, not only respected
    }

    void badSetupsAreRefusedWithAReason() {
        Chain c = uniformChain(4);
        struct Case {
            PipelineSetup s;
            const char* says;
        };
        auto with = [](auto f) {
            PipelineSetup s;
            f(s);
            return s;
        };
        std::vector<Case> cases = {
            {with([](PipelineSetup& s) { s.stages = 0; }), "at least 1 stage"},
            {with([](PipelineSetup& s) { s.stages = 5; }), "every stage needs at least one step"},
            {with([](PipelineSetup& s) { s.micro_batches = 0; }), "micro-batches must be between 1"},
            {with([](PipelineSetup& s) {
                 s.device_bytes = {1, 2, 3};
             }),
             "one per device (2)"},
            {with([](PipelineSetup& s) { s.device_bytes = {-1}; }), "must be >= 0"},
            {with([](PipelineSetup& s) { s.link_bytes_per_s = -1; }), "link bandwidth"},
            {with([](PipelineSetup& s) { s.cuts = {4}; }), "between 1 and 3"},
            {with([](PipelineSetup& s) {
                 s.stages = 3, s.cuts = {2, 2};
             }),
             "increasing"},
            {with([](PipelineSetup& s) { s.stages = 3, s.cuts = {2}; }), "expected 2 cuts"},
        };
        for (const Case& k : cases) {
            auto r = runPipeline(c, k.s);
            QVERIFY(!r.ok());
            QVERIFY2(r.error().find(k.says) != std::string::npos, r.error().c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
