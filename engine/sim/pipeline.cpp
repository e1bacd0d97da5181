#include "sim/pipeline.h"

#include "sim/memory_ledger.h"
#include "util/bounds.h"
#include "util/units.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ckpt {
namespace {

std::int64_t perMicroBatch(std::int64_t bytes, int m) {
    return bytes / m + (bytes % m ? 1 : 0);
}

double transferSeconds(const PipelineSetup& s, std::int64_t bytes) {
    return s.link_latency_s + (s.link_bytes_per_s > 0 ? double(bytes) / s.link_bytes_per_s : 0.0);
}

// Saturating sums: a bound past 2^63 is "more than any device holds".
std::int64_t add(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    return checkedAdd(a, b, r) ? r : std::numeric_limits<std::int64_t>::max();
}
std::int64_t times(std::int64_t a, int m) {
    return a > std::numeric_limits<std::int64_t>::max() / std::max(1, m) ? std::numeric_limits<std::int64_t>::max()
                                                                         : a * m;
}

std::string checkSetup(const Chain& chain, const PipelineSetup& s) {
    const int n = chain.length();
    if (s.stages < 1) return "the pipeline needs at least 1 stage (got " + std::to_string(s.stages) + ")";
    if (s.stages > n)
        return std::to_string(s.stages) + " stages cannot share " + std::to_string(n) +
               " steps: every stage needs at least one step";
    if (s.micro_batches < 1 || s.micro_batches > 100000)
        return "micro-batches must be between 1 and 100000 (got " + std::to_string(s.micro_batches) + ")";
    if (!s.device_bytes.empty() && s.device_bytes.size() != 1 && int(s.device_bytes.size()) != s.stages)
        return "device memory: give one size for every device or one per device (" + std::to_string(s.stages) +
               "), not " + std::to_string(s.device_bytes.size());
    for (std::int64_t b : s.device_bytes)
        if (b < 0) return "device memory must be >= 0 (0: unbounded)";
    if (!(s.link_bytes_per_s >= 0) || !std::isfinite(s.link_bytes_per_s))
        return "link bandwidth must be a finite number >= 0";
    if (auto why = whyBadSeconds(s.link_latency_s); !why.empty()) return "link latency" + why;
    if (chain.memoryModel() != MemoryModel::Standard)
        return "the pipeline counts memory in this program's chain model, not the rotor paper's";
    return {};
}

std::int64_t capacityOf(const PipelineSetup& s, int device) {
    if (s.device_bytes.empty()) return 0;
    return s.device_bytes.size() == 1 ? s.device_bytes.front() : s.device_bytes[std::size_t(device)];
}

// The working sets of a stage, per micro-batch: see pipeline.h.
struct StageBytes {
    std::int64_t in = 0, out = 0, tapes = 0, forwardWork = 0, backwardWork = 0;
};

StageBytes stageBytes(const Chain& c, int m, int first, int last) {
    StageBytes b;
    b.in = perMicroBatch(c.stateBytes(first - 1), m);
    b.out = perMicroBatch(c.stateBytes(last), m);
    for (int i = first; i <= last; ++i) {
        const Step& st = c.step(i);
        const std::int64_t before = i > first ? perMicroBatch(c.stateBytes(i - 1), m) : 0;
        const std::int64_t after = i < last ? perMicroBatch(c.stateBytes(i), m) : 0;
        b.tapes = add(b.tapes, perMicroBatch(st.tape_bytes, m));
        b.forwardWork = std::max(b.forwardWork, add(add(before, after), perMicroBatch(st.forward_tmp_bytes, m)));
        b.backwardWork =
            std::max(b.backwardWork,
                     add(add(before, after), perMicroBatch(std::max(st.forward_tmp_bytes, st.backward_tmp_bytes), m)));
    }
    return b;
}

bool slowLink(const PipelineSetup& s, std::int64_t bytes) {
    return transferSeconds(s, bytes) > 0;
}

std::int64_t boundOf(const PipelineSetup& s, const StageBytes& b, bool firstStage, bool lastStage) {
    const int m = s.micro_batches;
    const std::int64_t outHeld = lastStage ? b.out : times(b.out, slowLink(s, b.out) ? m : 1);
    const std::int64_t gradInHeld = firstStage ? b.in : times(b.in, slowLink(s, b.in) ? m : 1);
    const std::int64_t gradsOut = times(b.out, lastStage ? 1 : m);
    const std::int64_t keptTapes = times(b.tapes, s.recompute ? 0 : m);
    const std::int64_t forwardPhase = add(add(b.forwardWork, outHeld), keptTapes);
    const std::int64_t backwardPhase =
        add(add(add(gradsOut, s.recompute ? b.tapes : keptTapes), b.backwardWork), gradInHeld);
    return add(times(b.in, m), std::max(forwardPhase, backwardPhase));
}

} // namespace

double stageForwardSeconds(const Chain& chain, const PipelineSetup& setup, int first, int last) {
    double f = 0;
    for (int i = first; i <= last; ++i)
        f += chain.step(i).forward;
    return f / std::max(1, setup.micro_batches);
}

double stageBackwardSeconds(const Chain& chain, const PipelineSetup& setup, int first, int last) {
    double b = 0;
    for (int i = first; i <= last; ++i)
        b += chain.step(i).backward + (setup.recompute ? chain.step(i).forward : 0.0);
    return b / std::max(1, setup.micro_batches);
}

double linkSeconds(const Chain& chain, const PipelineSetup& setup, int lastOfStage) {
    return 2 * transferSeconds(setup, perMicroBatch(chain.stateBytes(lastOfStage), std::max(1, setup.micro_batches)));
}

std::int64_t pipelineMemoryBound(const Chain& chain, const PipelineSetup& setup, int first, int last) {
    return boundOf(setup, stageBytes(chain, std::max(1, setup.micro_batches), first, last), first == 1,
                   last == chain.length());
}

namespace {

// The DP over cuts: best[k][i] is the least objective for steps 1..i on devices 0..k-1, where the objective is the
// bottleneck (time) or the largest memory bound over the stages (memory, capacities ignored: the least memory every
// device needs). Returns infinity when no cut fits.
double solveCuts(const Chain& chain, const PipelineSetup& s, bool memory, std::vector<int>& cuts) {
    const int n = chain.length(), K = s.stages, M = s.micro_batches;
    std::vector<double> fwd(std::size_t(n) + 1, 0), bwd(std::size_t(n) + 1, 0);
    for (int i = 1; i <= n; ++i) {
        fwd[std::size_t(i)] = fwd[std::size_t(i - 1)] + chain.step(i).forward / M;
        bwd[std::size_t(i)] =
            bwd[std::size_t(i - 1)] + (chain.step(i).backward + (s.recompute ? chain.step(i).forward : 0.0)) / M;
    }
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<std::vector<double>> best(std::size_t(K) + 1, std::vector<double>(std::size_t(n) + 1, inf));
    std::vector<std::vector<int>> from(std::size_t(K) + 1, std::vector<int>(std::size_t(n) + 1, -1));
    best[0][0] = 0;
    for (int k = 1; k <= K; ++k) {
        const std::int64_t cap = memory ? 0 : capacityOf(s, k - 1);
        const bool lastStage = k == K;
        for (int i = k; i <= n - (K - k); ++i) {
            if (lastStage && i != n) continue;
            // Stage k-1 = steps j+1..i for j from i-1 down: its working sets grow with it. Step `first` enters with
            // the stage input before it (not part of the work); the step after it now has x_first as an
            // intermediate input, so its term is taken again (a max only grows).
            StageBytes b;
            b.out = perMicroBatch(chain.stateBytes(i), M);
            auto term = [&](int step, std::int64_t before, std::int64_t after) {
                const Step& st = chain.step(step);
                b.forwardWork =
                    std::max(b.forwardWork, add(add(before, after), perMicroBatch(st.forward_tmp_bytes, M)));
                b.backwardWork = std::max(
                    b.backwardWork,
                    add(add(before, after), perMicroBatch(std::max(st.forward_tmp_bytes, st.backward_tmp_bytes), M)));
            };
            for (int j = i - 1; j >= k - 1; --j) {
                const int first = j + 1;
                const std::int64_t xFirst = perMicroBatch(chain.stateBytes(first), M);
                b.in = perMicroBatch(chain.stateBytes(j), M);
                b.tapes = add(b.tapes, perMicroBatch(chain.step(first).tape_bytes, M));
                term(first, 0, first < i ? xFirst : 0);
                if (first < i)
                    term(first + 1, xFirst, first + 1 < i ? perMicroBatch(chain.stateBytes(first + 1), M) : 0);
                const double before = best[std::size_t(k - 1)][std::size_t(j)];
                if (before == inf) continue;
                const std::int64_t bound = boundOf(s, b, k == 1, lastStage);
                if (cap > 0 && bound > cap) continue;
                double cost = 0;
                if (memory) {
                    cost = std::max(before, double(bound));
                } else {
                    cost = std::max(before, fwd[std::size_t(i)] - fwd[std::size_t(j)] + bwd[std::size_t(i)] -
                                                bwd[std::size_t(j)]);
                    if (k > 1) cost = std::max(cost, linkSeconds(chain, s, j));
                }
                double& here = best[std::size_t(k)][std::size_t(i)];
                int& at = from[std::size_t(k)][std::size_t(i)];
                if (cost < here || (cost == here && j < at)) here = cost, at = j;
            }
        }
    }
    const double result = best[std::size_t(K)][std::size_t(n)];
    cuts.assign(std::size_t(K - 1), 0);
    if (result == inf) return inf;
    for (int k = K, i = n; k > 1; --k) {
        i = from[std::size_t(k)][std::size_t(i)];
        cuts[std::size_t(k - 2)] = i;
    }
    return result;
}

} // namespace

Result<std::vector<int>> balancedCuts(const Chain& chain, const PipelineSetup& s) {
    if (auto e = checkSetup(chain, s); !e.empty()) return fail(e);
    const int n = chain.length(), K = s.stages, M = s.micro_batches;
    if (double(n) * n * K > 4e9)
        return overLimit("choosing the cuts of " + std::to_string(n) + " steps over " + std::to_string(K) +
                         " stages takes n^2 K steps, over the limit of 4e9: give the cuts");
    std::vector<int> cuts;
    if (solveCuts(chain, s, false, cuts) < std::numeric_limits<double>::infinity()) return cuts;
    std::vector<int> leanest;
    const double need = solveCuts(chain, s, true, leanest);
    return infeasible("no cut of the " + std::to_string(n) + " steps into " + std::to_string(K) +
                      " stages fits every device's memory with " + std::to_string(M) +
                      " micro-batches: the leanest cut needs " + formatBytes(need) +
                      " on its fullest device (more devices, more micro-batches or rematerialisation need less)");
}

namespace {

// The cuts given, or the balanced ones when none are (run.cuts_chosen), checked.
Result<std::vector<int>> stageCuts(const Chain& chain, const PipelineSetup& setup, PipelineRun& run) {
    const int n = chain.length(), K = setup.stages;
    std::vector<int> cuts = setup.cuts;
    if (cuts.empty() && K > 1) {
        auto chosen = balancedCuts(chain, setup);
        if (!chosen) return chosen.errorValue();
        cuts = *chosen;
        run.cuts_chosen = true;
    }
    if (int(cuts.size()) != K - 1)
        return fail("expected " + std::to_string(K - 1) + " cuts for " + std::to_string(K) + " stages, got " +
                    std::to_string(cuts.size()));
    for (std::size_t c = 0; c < cuts.size(); ++c)
        if (cuts[c] < 1 || cuts[c] >= n || (c > 0 && cuts[c] <= cuts[c - 1]))
            return fail("cut " + std::to_string(c + 1) + " (" + std::to_string(cuts[c]) +
                        "): cuts are the last steps of the stages but the last, increasing, between 1 and " +
                        std::to_string(n - 1));
    return cuts;
}

// The stages between the cuts, and the bottleneck.
void addStages(const Chain& chain, const PipelineSetup& setup, const std::vector<int>& cuts, PipelineRun& run) {
    const int n = chain.length(), K = setup.stages;
    for (int k = 0; k < K; ++k) {
        PipelineStage st;
        st.first = k == 0 ? 1 : cuts[std::size_t(k - 1)] + 1;
        st.last = k == K - 1 ? n : cuts[std::size_t(k)];
        st.forward_s = stageForwardSeconds(chain, setup, st.first, st.last);
        st.backward_s = stageBackwardSeconds(chain, setup, st.first, st.last);
        st.bound_bytes = pipelineMemoryBound(chain, setup, st.first, st.last);
        st.capacity_bytes = capacityOf(setup, k);
        run.bottleneck_s = std::max(run.bottleneck_s, st.forward_s + st.backward_s);
        if (k > 0) run.bottleneck_s = std::max(run.bottleneck_s, linkSeconds(chain, setup, st.first - 1));
        run.stages.push_back(st);
    }
}

// The run's timeline, device and link lanes alternating, and the memory each interval holds on each device.
class PipelineSchedule {
public:
    PipelineSchedule(const Chain& chain, const PipelineSetup& setup, PipelineRun& run)
        : m_setup(setup), m_run(run), m_tl(run.timeline), m_K(setup.stages), m_M(setup.micro_batches),
          m_deviceFree(std::size_t(m_K), 0.0), m_linkFree(std::size_t(m_K), 0.0) {
        for (int k = 0; k < m_K; ++k) {
            m_tl.lanes.push_back("device " + std::to_string(k));
            if (k + 1 < m_K) m_tl.lanes.push_back("link " + std::to_string(k) + "-" + std::to_string(k + 1));
        }
        for (const PipelineStage& st : run.stages)
            m_bytes.push_back(stageBytes(chain, m_M, st.first, st.last));
        m_ledger.reserve(std::size_t(m_K) * std::size_t(m_M) * 16);
    }

    // Forward phase: micro-batch by micro-batch down the line.
    void forwardPhase() {
        using C = MemoryCategory;
        const int K = m_K, M = m_M;
        std::vector<std::vector<double>> inputReady(std::size_t(K), std::vector<double>(std::size_t(M) + 1, 0.0));
        for (int m = 1; m <= M; ++m)
            for (int k = 0; k < K; ++k) {
                const StageBytes& b = m_bytes[std::size_t(k)];
                const PipelineStage& st = m_run.stages[std::size_t(k)];
                if (k == 0) m_ledger.add(0, 0, m_action, C::State, b.in); // the micro-batch's data
                const double start = std::max(m_deviceFree[std::size_t(k)], inputReady[std::size_t(k)][std::size_t(m)]);
                const double end = start + st.forward_s;
                const std::int32_t a = m_action;
                interval(start, end, m, b.out, deviceLane(k), IntervalKind::Forward);
                m_deviceFree[std::size_t(k)] = end;
                m_ledger.add(start, k, a, C::State, add(b.forwardWork, b.out));
                if (!m_setup.recompute) m_ledger.add(start, k, a, C::Tape, b.tapes);
                m_ledger.add(end, k, a, C::State, -b.forwardWork);
                if (!m_setup.recompute)
                    m_ledger.add(end, k, a, C::State, -b.in); // the tapes hold what the backward needs
                if (k + 1 < K) {
                    const double ts = std::max(end, m_linkFree[std::size_t(k)]);
                    const double te = ts + transferSeconds(m_setup, b.out);
                    const std::int32_t t = m_action;
                    interval(ts, te, m, b.out, linkLane(k), IntervalKind::Write);
                    m_linkFree[std::size_t(k)] = te;
                    m_ledger.add(te, k, t, C::State, -b.out);
                    m_ledger.add(ts, k + 1, t, C::State, m_bytes[std::size_t(k + 1)].in);
                    inputReady[std::size_t(k + 1)][std::size_t(m)] = te;
                } else {
                    m_ledger.add(end, k, a, C::State, -b.out); // the loss is taken at the backward
                }
            }
    }

    // Backward phase: micro-batches M..1 up the line.
    void backwardPhase() {
        using C = MemoryCategory;
        const int K = m_K, M = m_M;
        std::vector<std::vector<double>> gradReady(std::size_t(K), std::vector<double>(std::size_t(M) + 1, 0.0));
        for (int m = M; m >= 1; --m)
            for (int k = K - 1; k >= 0; --k) {
                const StageBytes& b = m_bytes[std::size_t(k)];
                const PipelineStage& st = m_run.stages[std::size_t(k)];
                const double start = std::max(m_deviceFree[std::size_t(k)], gradReady[std::size_t(k)][std::size_t(m)]);
                const double rerun = m_setup.recompute ? st.forward_s : 0.0; // the stage's forward again, with tapes
                const double end = start + st.backward_s;
                const std::int32_t a = m_action;
                if (m_setup.recompute) interval(start, start + rerun, m, b.out, deviceLane(k), IntervalKind::Recompute);
                interval(start + rerun, end, m, b.in, deviceLane(k), IntervalKind::Backward);
                m_deviceFree[std::size_t(k)] = end;
                if (k == K - 1) m_ledger.add(start, k, a, C::Gradient, b.out); // the loss gradient
                if (m_setup.recompute) m_ledger.add(start, k, a, C::Tape, b.tapes);
                m_ledger.add(start, k, a, C::Gradient, add(b.backwardWork, b.in));
                m_ledger.add(end, k, a, C::Tape, -b.tapes);
                m_ledger.add(end, k, a, C::Gradient, -add(b.backwardWork, b.out));
                if (m_setup.recompute) m_ledger.add(end, k, a, C::State, -b.in);
                if (k > 0) {
                    const double ts = std::max(end, m_linkFree[std::size_t(k - 1)]);
                    const double te = ts + transferSeconds(m_setup, b.in);
                    const std::int32_t t = m_action;
                    interval(ts, te, m, b.in, linkLane(k - 1), IntervalKind::Read);
                    m_linkFree[std::size_t(k - 1)] = te;
                    m_ledger.add(te, k, t, C::Gradient, -b.in);
                    m_ledger.add(ts, k - 1, t, C::Gradient, m_bytes[std::size_t(k - 1)].out);
                    gradReady[std::size_t(k - 1)][std::size_t(m)] = te;
                } else {
                    m_ledger.add(end, k, a, C::Gradient, -b.in); // the data's gradient is not needed
                }
            }
    }

    // The devices' memory over the timeline, against their capacities.
    std::optional<Error> checkMemory() {
        std::vector<std::int64_t> caps(std::size_t(m_K), 0);
        for (int k = 0; k < m_K; ++k)
            caps[std::size_t(k)] = capacityOf(m_setup, k);
        std::string err;
        const long long over = m_ledger.sweep(
            std::numeric_limits<long long>::max(), caps, true, m_tl,
            [&](std::int32_t a, int device, std::int64_t total, std::int64_t cap) {
                const Interval& iv = m_tl.intervals[std::size_t(a)];
                return "device " + std::to_string(device) + " would hold " +
                       (total < 0 ? std::string("more than 2^63 bytes") : formatBytes(double(total))) + ", over its " +
                       formatBytes(double(cap)) + ", at " + formatSeconds(iv.start) + " (micro-batch " +
                       std::to_string(iv.index) + ", " + intervalKindName(iv.kind) + ")";
            },
            err);
        if (over >= 0) return infeasible(err);
        return std::nullopt;
    }

private:
    static std::int16_t deviceLane(int k) { return std::int16_t(2 * k); }
    static std::int16_t linkLane(int k) { return std::int16_t(2 * k + 1); } // between k and k + 1
    void interval(double start, double end, int m, std::int64_t b, std::int16_t lane, IntervalKind kind) {
        m_tl.intervals.push_back(Interval{start, end, m_action++, m, b, lane, kind});
    }

    const PipelineSetup& m_setup;
    PipelineRun& m_run;
    Timeline& m_tl;
    const int m_K, m_M;
    std::vector<StageBytes> m_bytes;
    MemoryLedger m_ledger;
    std::vector<double> m_deviceFree, m_linkFree;
    std::int32_t m_action = 0;
};

// The timeline's totals, and the bubble.
void tally(const Chain& chain, const PipelineSetup& setup, PipelineRun& run) {
    const int n = chain.length(), K = setup.stages, M = setup.micro_batches;
    Timeline& tl = run.timeline;
    Totals& t = tl.totals;
    t.steps = n;
    double busy = 0;
    for (const Interval& iv : tl.intervals) {
        t.makespan_s = std::max(t.makespan_s, iv.end);
        if (iv.lane % 2 == 0) { // a device: every step of its stage, forward (re-runs too) or backward
            const PipelineStage& st = run.stages[std::size_t(iv.lane / 2)];
            busy += iv.end - iv.start;
            (iv.kind == IntervalKind::Backward ? t.backward_steps : t.forward_steps) += st.last - st.first + 1;
        } else if (iv.kind == IntervalKind::Write) {
            t.bytes_written += iv.bytes;
        } else {
            t.bytes_read += iv.bytes;
        }
    }
    t.compute_s = busy;
    t.recomputed_steps = t.forward_steps - std::int64_t(n) * M;
    t.channel_busy_s.assign(tl.lanes.size(), 0.0);
    for (const Interval& iv : tl.intervals)
        t.channel_busy_s[std::size_t(iv.lane)] += iv.end - iv.start;
    run.bubble = t.makespan_s > 0 ? 1 - busy / (K * t.makespan_s) : 0;
    run.ideal_bubble = double(K - 1) / double(M + K - 1);
}

} // namespace

Result<PipelineRun> runPipeline(const Chain& chain, const PipelineSetup& setup) {
    if (auto e = checkSetup(chain, setup); !e.empty()) return fail(e);
    PipelineRun run;
    auto cuts = stageCuts(chain, setup, run);
    if (!cuts) return cuts.errorValue();
    addStages(chain, setup, *cuts, run);
    PipelineSchedule schedule(chain, setup, run);
    schedule.forwardPhase();
    schedule.backwardPhase();
    if (auto e = schedule.checkMemory()) return *e;
    tally(chain, setup, run);
    return run;
}

} // namespace ckpt
