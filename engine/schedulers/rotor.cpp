// Rotor: Beaumont, Eyraud-Dubois, Herrmann, Joly, Shilova, "Optimal checkpointing for heterogeneous chains: how to
// train deep neural networks with limited memory" (2019). Dynamic programme over (s, t, m) with the three forward
// modes no-keep / keep-state / keep-tape, in the simulator's memory model (see plan/action.h), memory discretised.
//
// Opt(s, t, m): least time to turn {x_s, grad x_t} into {grad x_s}, reversing steps s+1..t, holding at most m.
//   turn  (t = s+1): F(t, tape) B(t)
//   taped:           F(s+1, tape), Opt(s+1, t, m - tape_{s+1}), B(s+1)
//   checkpoint at k: F(s+1, state) F(s+2..k, none), Opt(k, t, m - x_s), Opt(s, k, m)
// It is optimal among persistent schedules (a kept checkpoint is consumed only by a taped forward, nothing is freed
// by hand); tests/engine/tst_optimal checks that against exhaustive search, and shows a chain where dropping a small
// checkpoint early and rebuilding it beats every persistent schedule.
//
// Heterogeneous chains fill the table in square tiles of cells (see RotorTable::tile), so that the rows a cell reads
// are shared by its neighbours in cache, and skip an option on a run of slots where a lower bound of it (from the rows'
// values at the ends of those runs, kept aside) cannot beat what the cell already holds. The table is the same, bit for
// bit, as the plain order fills it: every option evaluated is the same float sum, skipped ones could not lower the
// minimum, and the minimum does not depend on the order (tst_optimal rotorTilesFillTheSameTable).
//
// rotorSolve, which reads the table at (0, n, M) only, prunes a table too large to keep between solves by branch and
// bound: an upper bound of the optimum's overhead from a plan on a grid of states (gridOverhead) caps what each cell
// can be worth on an optimal plan (capOf), and options over the cap are skipped too. The optimum and its plan stay
// the plain fill's (tst_optimal rotorPrunedByABoundKeepsTheOptimumAndItsPlan).
#include "schedulers/rotor.h"

#include "schedulers/fit.h"
#include "schedulers/revolve.h"
#include "schedulers/store_all.h"
#include "util/table_cache.h"
#include "util/vector_clones.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <numeric>
#include <optional>
#include <system_error>
#include <thread>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ckpt {
namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr int kRotorMaxSteps = 20000;

// The fill's inner loops are written as plain loops over 16 or 32 floats, which the compiler turns into whatever
// vector instructions the target has (four SSE, two AVX or one AVX-512 register for 16 floats); the function that runs
// them is cloned per instruction set level (util/vector_clones.h), so the portable build fills as fast as a
// -march=native one. `(b < a) ? b : a` is std::min(a, b), lane by lane, which the vector min instructions compute
// exactly.
// Gates, read from an offset: kGateUntil + 32 - d gives d lanes of +infinity, then zeros; kGateFrom + 32 - d gives d
// zeros, then +infinity. Added to a finite value they keep it or make it +infinity, exactly.
constexpr float kGateUntil[64] = {kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf,
                                  kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf,
                                  kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf};
constexpr float kGateFrom[64] = {0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                                 0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                                 0,    0,    0,    0,    0,    0,    kInf, kInf, kInf, kInf, kInf, kInf, kInf,
                                 kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf,
                                 kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf, kInf};
// The lower bounds of an option on 16 runs of slots, one lane per run.
struct alignas(64) Lanes16 {
    float v[16];
};

constexpr int kTile = 24; // cells per tile side (1000 steps: sides of 16 and 32 are 7 % and 2 % slower)
constexpr int kRun = 32;  // slots per run of the bounds, two vectors (runs of 16 and 64: 6 % and 12 % slower)
// Unused slots before each start's rows (s, s+1..n) of a heterogeneous table: a vector that straddles the start of
// row (k, k+1) reads (and ignores) them; before any other row (k, t) lies row (k, t-1), filled before it is read.
constexpr int kLead = 16;
// The pruning's upper bound (gridOverhead) cuts the chain into at most 64 parts, fewer if its table would take over
// 32 MiB: 1000 steps at 500 slots take parts of 16 steps, 8 MiB and about 12 ms.
constexpr int kGridParts = 64;
constexpr std::size_t kGridBytes = std::size_t(32) << 20;
// A spin barrier for the threads that fill a diagonal of tiles each (a diagonal lasts milliseconds).
class SpinBarrier {
public:
    explicit SpinBarrier(int parties) : m_parties(parties) {}
    void wait() {
        const int gen = m_generation.load(std::memory_order_acquire);
        if (m_waiting.fetch_add(1, std::memory_order_acq_rel) + 1 == m_parties) {
            m_waiting.store(0, std::memory_order_relaxed);
            m_generation.fetch_add(1, std::memory_order_acq_rel);
            return;
        }
        while (m_generation.load(std::memory_order_acquire) == gen)
            std::this_thread::yield();
    }

private:
    const int m_parties;
    std::atomic<int> m_waiting{0};
    std::atomic<int> m_generation{0};
};

// Floats on a 64-byte boundary, not initialised: a row of the table (a whole number of vectors of 16 floats) then
// starts on a cache line, and a vector read at a slot that is a multiple of 16 lies in one line instead of straddling
// two. (1000 steps: with `new float[]`, 16 bytes past a page boundary, the fill took 10 % longer.)
struct FreeFloats {
    void operator()(float* p) const { std::free(p); }
};
using AlignedFloats = std::unique_ptr<float[], FreeFloats>;
// A table of several huge pages (2 MiB) is aligned on one and asked to live in them (Linux's transparent huge pages,
// in their madvise mode): the fill's first touch of 1 GB then takes 512 times fewer page faults, which cost about
// 40 % of the fill of 1000 steps in 4 KiB pages on a virtual machine.
AlignedFloats alignedFloats(std::size_t count) {
    constexpr std::size_t kHuge = std::size_t(2) << 20;
    const std::size_t bytes = count * sizeof(float);
    const std::size_t align = bytes >= 4 * kHuge ? kHuge : 64;
    const std::size_t rounded = (bytes + align - 1) / align * align;
    void* p = std::aligned_alloc(align, rounded);
    if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align == kHuge) ::madvise(p, rounded, MADV_HUGEPAGE); // a hint: no harm if refused
#endif
    return AlignedFloats(static_cast<float*>(p));
}
} // namespace

namespace rotor_detail {

// The chain in slots of `unit` bytes, and its times: everything the programme's table depends on (the budget only
// picks the column read), so it is the key the table is kept under between solves.
struct RotorInputs {
    bool uniform = false;
    bool paper = false; // rotor's paper model (model/chain.h): a second layer of the table, x_s inside a tape
    std::vector<int> X, T, FT, BT; // [j]: state x_j; [i]: tape, forward and backward temporaries of step i
    std::vector<double> F, B;

    RotorInputs(const Chain& c, std::int64_t unit)
        : uniform(c.isUniform()), paper(c.memoryModel() == MemoryModel::RotorPaper) {
        const int n = c.length();
        auto units = [&](std::int64_t b) { return slotsOf(b, unit); };
        X.resize(size_t(n) + 1);
        for (int j = 0; j <= n; ++j)
            X[size_t(j)] = units(c.stateBytes(j));
        T.assign(size_t(n) + 1, 0), FT.assign(size_t(n) + 1, 0), BT.assign(size_t(n) + 1, 0);
        F.assign(size_t(n) + 1, 0), B.assign(size_t(n) + 1, 0);
        for (int i = 1; i <= n; ++i) {
            const Step& st = c.step(i);
            T[size_t(i)] = units(st.tape_bytes), FT[size_t(i)] = units(st.forward_tmp_bytes);
            BT[size_t(i)] = units(st.backward_tmp_bytes);
            F[size_t(i)] = st.forward, B[size_t(i)] = st.backward;
        }
    }
    bool operator==(const RotorInputs&) const = default;
};

// The margin a pruned table keeps for the rounding of its floats: its cells are float sums of at most R / t terms (R:
// the largest value under a cap, t: the least positive time of a forward, or of a forward and its backward, the terms
// of the programme), each sum within 2^-24 of R per term; four times that, and at least a thousandth of R.
double capMargin(const RotorInputs& in, double cap) {
    double base = 0, least = std::numeric_limits<double>::infinity();
    for (std::size_t i = 1; i < in.F.size(); ++i) {
        base += in.F[i] + in.B[i];
        for (double term : {in.F[i], in.F[i] + in.B[i]})
            if (term > 0) least = std::min(least, term);
    }
    const double R = base + cap;
    const double terms = std::isinf(least) ? 1 : std::min(R / least, 1e12);
    return std::max(1e-3, 4 * terms * std::ldexp(1.0, -24)) * R;
}

// An upper bound of the optimum's overhead at M slots (standard model): the overhead of the best plan whose
// checkpoints all lie on a grid of every g-th state, by the same recurrence restricted to it, in doubles. From a grid
// state x_s such a plan either tapes the steps up to the next grid state (taped forwards one after the other, each as
// the recurrence's taped option allows) or checkpoints x_s and advances to a later grid state. Every such plan is one
// of the programme's, so the optimum costs no more. +infinity when none fits.
double gridOverhead(const RotorInputs& in, int M, int g) {
    const int n = int(in.F.size()) - 1;
    std::vector<int> P;
    for (int s = 0; s < n; s += g)
        P.push_back(s);
    P.push_back(n);
    const int count = int(P.size());
    const std::size_t W = std::size_t(M) + 1;
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> PF(std::size_t(n) + 1, 0);
    for (int i = 1; i <= n; ++i)
        PF[std::size_t(i)] = PF[std::size_t(i) - 1] + in.F[std::size_t(i)];
    auto x = [&](int j) { return in.X[std::size_t(j)]; };
    // Cells (a, b) of grid indices, a < b, by b: row b holds a = 0..b-1.
    std::vector<double> D(std::size_t(count) * std::size_t(count - 1) / 2 * W, inf);
    auto cell = [&](int a, int b) { return &D[(std::size_t(b) * std::size_t(b - 1) / 2 + std::size_t(a)) * W]; };
    for (int b = 1; b < count; ++b)
        for (int a = b - 1; a >= 0; --a) {
            const int s = P[std::size_t(a)], t = P[std::size_t(b)], e = P[std::size_t(a) + 1];
            const int xs = x(s), gt = t < n ? x(t) : 0;
            double* out = cell(a, b);
            // Tape s+1..e: forward j starts from x_{j-1} holding the tapes before it (a sum of up to g sizes: 64 bits).
            std::int64_t need = 0, held = 0;
            double c = 0;
            for (int j = s + 1; j <= e; ++j) {
                const auto u = std::size_t(j);
                int peak = std::max(x(j - 1) + x(j) + in.T[u] + in.FT[u] + gt, in.T[u] + x(j) + x(j - 1) + in.BT[u]);
                if (j < t) peak = std::max(peak, in.T[u]);
                need = std::max(need, held + peak);
                held += in.T[u];
                c += in.F[u] + in.B[u];
            }
            if (e == t) {
                for (std::int64_t m = need; m <= M; ++m)
                    out[m] = c;
            } else {
                const double* rest = cell(a + 1, b);
                for (std::int64_t m = need; m <= M; ++m)
                    out[m] = std::min(out[m], c + rest[m - held]);
            }
            // Checkpoint x_s and advance to x_k, as fill() does.
            int advPeak = 0;
            for (int k = a + 1, j = s + 1; k < b; ++k) {
                const int to = P[std::size_t(k)];
                for (; j <= to; ++j)
                    advPeak = std::max(advPeak, xs + (j > s + 1 ? x(j - 1) : 0) + x(j) + in.FT[std::size_t(j)] + gt);
                if (advPeak > M) break;
                const double adv = PF[std::size_t(to)] - PF[std::size_t(s)];
                const double *right = cell(k, b), *left = cell(a, k);
                for (int m = std::max(advPeak, xs); m <= M; ++m)
                    out[m] = std::min(out[m], adv + right[m - xs] + left[m]);
            }
        }
    double base = 0;
    for (int i = 1; i <= n; ++i)
        base += in.F[std::size_t(i)] + in.B[std::size_t(i)];
    return cell(0, count - 1)[M] - base;
}

// The programme's table for slot counts 0..M. An entry for m slots does not depend on M (the loops over m run up to
// M, and an option that needs more than M is skipped for every m <= M alike), so a table built for more slots answers
// every smaller count exactly as one built for that count would.
class RotorTable {
public:
    // `plain`: fill a heterogeneous table cell by cell in the order of the recurrence, on one thread, as the tiles'
    // reference (tests only). `threads`: how many fill the tiles (0: as many as the work and the cores call for).
    // `bound` (the tiled fill only): an upper bound of the overhead of the optimum wanted, which prunes the fill (see
    // capOf); exactAt tells which entries of the first row the pruned table still holds exactly.
    RotorTable(RotorInputs in, int slots, bool plain = false, int threads = 0,
               double bound = std::numeric_limits<double>::infinity())
        : m_in(std::move(in)), n(int(m_in.F.size()) - 1), M(slots), stride(rowStride(slots)),
          m_bound(uniform || plain ? std::numeric_limits<double>::infinity() : bound),
          m_margin(std::isinf(m_bound) ? 0 : capMargin(m_in, m_bound)), m_cap(m_bound + 2 * m_margin) {
        PF.assign(size_t(n) + 1, 0), PB.assign(size_t(n) + 1, 0);
        for (int i = 1; i <= n; ++i)
            PF[size_t(i)] = PF[size_t(i) - 1] + F[size_t(i)], PB[size_t(i)] = PB[size_t(i) - 1] + B[size_t(i)];
        std::size_t rows = uniform ? 2 * std::size_t(n) + 2 : std::size_t(n) * (std::size_t(n) + 1) / 2;
        costSize = rows * std::size_t(layers) * std::size_t(stride) + lead(n);
        cost = alignedFloats(costSize); // not initialised: the tiled fill first touches its rows in its threads
        if (uniform || plain) {
            std::fill_n(cost.get(), costSize, kInf);
            run();
        } else {
            runTiles(threads > 0 ? threads : fillThreads());
        }
    }

    // A row holds slots 0..M, rounded up to whole vectors of 16.
    static int rowStride(int slots) { return (slots + 1 + 15) / 16 * 16; }
    // Ends of runs per row in the tiled fill's side table, rounded up to whole vectors of 16.
    static int endsStrideFor(int slots) { return ((slots + 1 + kRun - 1) / kRun + 15) / 16 * 16; }
    // The table and, for the tiled fill, its side tables.
    static std::size_t tableBytes(int n, int slots, bool uniform, bool paper = false) {
        std::size_t rows = uniform ? 2 * std::size_t(n) + 2 : std::size_t(n) * (std::size_t(n) + 1) / 2;
        std::size_t floats = rows * (paper ? 2 : 1) * std::size_t(rowStride(slots));
        if (!uniform) floats += std::size_t(n + 1) * kLead;
        if (!uniform) floats += rows * std::size_t((paper ? 2 : 1) * endsStrideFor(slots) + 2); // ends, advance
        return floats * sizeof(float);
    }
    std::size_t bytes() const {
        return (costSize + endsSize + advTime.size()) * sizeof(float) + advPeak.size() * sizeof(int) +
               7 * X.size() * sizeof(double);
    }
    int slots() const { return M; }
    int threads() const { return m_threads; }

    float optimum(int m) const { return at(0, n)[m]; }
    // Whether optimum(m) is the programme's optimum: always, unless the fill was pruned and this optimum's overhead
    // is not within the bound and one margin for rounding (the cap leaves two).
    bool exactAt(int m) const { return within(optimum(m)); }
    // Whether a plan taking this time reads only exact cells of the table (see capOf): its overhead, the time less one
    // forward and one backward of every step, is within the bound and one margin.
    bool within(double time) const {
        return std::isinf(m_bound) || time - (PF[size_t(n)] + PB[size_t(n)]) <= m_bound + m_margin;
    }
    float value(int s, int t, int m) const { return at(s, t)[m]; }
    const float* values(int s, int t) const { return at(s, t); }
    const float* values(int s, int t, int f) const { return at(s, t, f); } // layer f (the paper's model has two)
    int layerCount() const { return layers; }

    // Rebuilds the choices from the table: the options are evaluated in the order and with the same float
    // operations as fill(), and the first that reaches the stored optimum is the one fill() kept. The sub-problems
    // wait on an explicit stack (a taped chain of n steps would otherwise recurse n deep).
    void emit(int s0, int t0, int m0, Plan& plan, double& time) const {
        auto fwd = [&](int i, Keep k) {
            plan.actions.push_back(Action::forward(i, k));
            time += F[size_t(i)];
        };
        struct Task {
            int s, t, m; // reverse s+1..t within m; t < 0: the backward of step s
            int f = 0;   // the paper's model: x_s lives inside the tape of step s
        };
        std::vector<Task> todo{{s0, t0, m0, 0}};
        while (!todo.empty()) {
            const auto [s, t, m, f] = todo.back();
            todo.pop_back();
            if (t < 0) {
                plan.actions.push_back(Action::backward(s));
                time += B[size_t(s)];
                continue;
            }
            if (t == s + 1) {
                fwd(t, Keep::Tape);
                todo.push_back({t, -1, 0}); // its backward, next
                continue;
            }
            const float target = at(s, t, f)[m];
            const int xs = X[size_t(s)], g = G(t);
            if (paper) {
                const int cs = f ? 0 : xs, i = s + 1, ti = T[size_t(i)];
                const int peak = std::max(cs + ti + FT[size_t(i)] + g, cs + ti + X[size_t(i)] + xs + BT[size_t(i)]);
                if (m >= std::max(peak, cs + ti) &&
                    float(F[size_t(i)] + B[size_t(i)]) + at(i, t, 1)[m - cs - ti] == target) {
                    fwd(i, Keep::Tape);
                    todo.push_back({i, -1, 0});
                    todo.push_back({i, t, m - cs - ti, 1});
                    continue;
                }
                int advPeak = 0, best = -1;
                float bestValue = kInf;
                for (int k = i; k < t; ++k) {
                    advPeak = std::max(advPeak, cs + (k > i ? X[size_t(k) - 1] : 0) + X[size_t(k)] + FT[size_t(k)] + g);
                    if (advPeak > M) break;
                    if (m < std::max(advPeak, cs)) continue;
                    float v = float(PF[size_t(k)] - PF[size_t(s)]) + at(k, t, 0)[m - cs] + at(s, k, f)[m];
                    if (v == target) {
                        best = k;
                        break;
                    }
                    if (v < bestValue) bestValue = v, best = k;
                }
                for (int j = i; j <= best; ++j)
                    fwd(j, j == i ? Keep::State : Keep::None);
                todo.push_back({s, best, m, f});
                todo.push_back({best, t, m - cs, 0});
                continue;
            }
            {
                const int i = s + 1, ti = T[size_t(i)];
                int peak = std::max(xs + X[size_t(i)] + ti + FT[size_t(i)] + g, ti + X[size_t(i)] + xs + BT[size_t(i)]);
                if (m >= std::max(peak, ti) && float(F[size_t(i)] + B[size_t(i)]) + at(i, t)[m - ti] == target) {
                    fwd(s + 1, Keep::Tape);
                    todo.push_back({s + 1, -1, 0});     // then the backward of step s+1
                    todo.push_back({s + 1, t, m - ti}); // first the rest
                    continue;
                }
            }
            int advPeak = 0, best = -1;
            float bestValue = kInf;
            for (int k = s + 1; k < t; ++k) {
                advPeak = std::max(advPeak, xs + (k > s + 1 ? X[size_t(k) - 1] : 0) + X[size_t(k)] + FT[size_t(k)] + g);
                if (advPeak > M) break;
                if (m < std::max(advPeak, xs)) continue;
                float v = float(PF[size_t(k)] - PF[size_t(s)]) + at(k, t)[m - xs] + at(s, k)[m];
                if (v == target) {
                    best = k;
                    break;
                }
                if (v < bestValue) bestValue = v, best = k;
            }
            for (int i = s + 1; i <= best; ++i)
                fwd(i, i == s + 1 ? Keep::State : Keep::None);
            todo.push_back({s, best, m});      // then the part before the checkpoint
            todo.push_back({best, t, m - xs}); // first the part after it
        }
    }

private:
    const RotorInputs m_in;
    const int n, M;
    const bool uniform = m_in.uniform;
    const bool paper = m_in.paper;
    const int layers = paper ? 2 : 1;
    const std::vector<int>&X = m_in.X, &T = m_in.T, &FT = m_in.FT, &BT = m_in.BT;
    const std::vector<double>&F = m_in.F, &B = m_in.B;
    const int stride;           // floats from one row to the next
    std::vector<double> PF, PB; // prefix sums of the forward and backward times
    // The pruning's bound on overhead (+infinity: none), its margin for rounding (capMargin), and the cap: the bound
    // and two margins. A plan's overhead is its time less one forward and one backward of every step: the sum of its
    // advances, since a persistent schedule runs every step taped exactly once.
    const double m_bound, m_margin, m_cap;
    AlignedFloats cost; // rows of `stride` floats after each start's lead
    std::size_t costSize = 0;
    // The tiled fill's side tables, indexed like the rows (s, k): the advance's peak from x_s to x_k without x_s
    // and the gradient held (max over j in s+1..k of x_{j-1} (j > s+1) + x_j + forward temporaries), its time as the
    // plain fill sums it, and each row's values (in each layer) at the ends of its runs of kRun slots (the least in
    // each run).
    std::vector<int> advPeak;
    std::vector<float> advTime;
    AlignedFloats ends;
    std::size_t endsSize = 0;
    int runs = 0, endsStride = 0; // runs, rounded up to a vector
    int m_threads = 1;            // that filled the table

    // Uniform chains by span; otherwise (the tiles' reference, tests) cell by cell in the recurrence's order, by the
    // end t and then the start s downwards, on one thread.
    CKPT_VECTOR_CLONES void run() {
        if (uniform) {
            for (int span = 1; span <= n; ++span) {
                if (span < n) fill(0, span); // any interior span
                fill(n - span, n);           // the span that ends the chain (no gradient held at rest)
            }
            return;
        }
        for (int t = 1; t <= n; ++t)
            for (int s = t - 1; s >= 0; --s)
                fill(s, t);
    }

    std::size_t row(int s, int t) const {
        if (uniform) return std::size_t(t - s) * 2 + (t == n ? 1 : 0);
        // Rows grouped by s: for each s, t = s+1..n.
        std::size_t before = std::size_t(s) * std::size_t(n) - std::size_t(s) * (std::size_t(s) - 1) / 2;
        return before + std::size_t(t - s - 1);
    }
    float* at(int s, int t, int f = 0) {
        return &cost[(row(s, t) * std::size_t(layers) + std::size_t(f)) * std::size_t(stride) + lead(s)];
    }
    const float* at(int s, int t, int f = 0) const {
        return &cost[(row(s, t) * std::size_t(layers) + std::size_t(f)) * std::size_t(stride) + lead(s)];
    }
    // Row r (of start s) in layer f.
    float* atRow(std::size_t r, int s, int f) {
        return &cost[(r * std::size_t(layers) + std::size_t(f)) * std::size_t(stride) + lead(s)];
    }
    float* endsOf(std::size_t r, int f) {
        return &ends[(r * std::size_t(layers) + std::size_t(f)) * std::size_t(endsStride)];
    }
    std::size_t lead(int s) const { return uniform ? 0 : std::size_t(s + 1) * kLead; }
    // One thread per core, up to 8, once the table is large enough to repay them (a diagonal of tiles per barrier).
    int fillThreads() const {
        if (n < 64 || double(n) * double(n) * double(n) * double(M + 1) <= 1e8) return 1;
        return int(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
    }

    int G(int t) const { return t < n ? X[size_t(t)] : 0; } // grad x_t held at rest

    // Pruning by a cap U on the optimum's overhead (branch and bound). A cell (s, t) at m slots lies in a plan of
    // overhead at most U only if its own overhead (value less the forward and backward times of s+1..t) is at most U
    // less the overhead outside it; and a cell that ends before the chain does (t < n) lies within the part before a
    // checkpoint that was advanced over, from a start at or before s up to t: its steps' forward times are overhead
    // outside the cell. So its value matters only up to
    //   capOf(s, t) = B(s+1..t) + U            (t < n)
    //               = F(s+1..t) + B(s+1..t) + U  (t = n).
    // The fill skips an option on a run of slots where its lower bound exceeds that (as it skips one that cannot lower
    // the cell), and every cell whose value stays under its cap, less the margins for rounding, comes out exact: the
    // options that reach it read only cells under their own caps (the caps above add up along the recurrence: parent
    // value = advance + the parts' values, each part at least its own forward and backward times). Cells over their
    // caps only come out too high (never too low), which no cell under its cap can use. So the first row is exact
    // wherever it stays under its cap (exactAt).
    float capOf(int s, int t) const {
        if (std::isinf(m_cap)) return kInf;
        double v = PB[size_t(t)] - PB[size_t(s)] + m_cap;
        if (t == n) v += PF[size_t(t)] - PF[size_t(s)];
        return std::nextafter(float(v), kInf);
    }
    // A cell that ends before the chain and whose steps' forward times alone exceed the cap: no slot of it is needed.
    bool beyondCap(int s, int t) const { return t < n && PF[size_t(t)] - PF[size_t(s)] > m_cap; }
    // Forward k of an advance from x_s (k > s), without x_s and the gradient held: x_{k-1} (unless it is x_s), x_k and
    // the forward's temporaries.
    int advanceStep(int s, int k) const { return (k > s + 1 ? X[size_t(k) - 1] : 0) + X[size_t(k)] + FT[size_t(k)]; }

    // The paper's model (model/chain.h), layer f = 1 when x_s lives inside the tape of step s (no bytes of its own,
    // never freed by a forward); cs is what x_s costs. A taped forward keeps x_s until its backward and holds its
    // output in its tape:
    //   turn / taped: F(s+1, tape) [Opt(s+1, t, m - cs - tape_{s+1}, f = 1)] B(s+1)
    //   checkpoint:   F(s+1, state) F(s+2..k, none), Opt(k, t, m - cs, f = 0), Opt(s, k, m, f)
    // The turn (false: nothing else to do) or the taped first step, in the paper's model.
    bool fillTapedPaper(int s, int t, int f, float* out) {
        const int xs = X[size_t(s)], g = G(t), cs = f ? 0 : xs, i = s + 1, ti = T[size_t(i)];
        const int peak = std::max(cs + ti + FT[size_t(i)] + g, cs + ti + X[size_t(i)] + xs + BT[size_t(i)]);
        const float c = float(F[size_t(i)] + B[size_t(i)]);
        if (t == i) {
            for (int m = peak; m <= M; ++m)
                out[m] = c;
            return false;
        }
        const float* sub = at(i, t, 1);
        for (int m = std::max(peak, cs + ti); m <= M; ++m)
            out[m] = std::min(out[m], c + sub[m - cs - ti]);
        return true;
    }

    // The turn (t = s + 1: false, nothing else to do), or the option of a taped first step.
    bool fillTaped(int s, int t, float* out) {
        const int xs = X[size_t(s)], g = G(t);
        if (t == s + 1) {
            int peak = std::max(xs + X[size_t(t)] + T[size_t(t)] + FT[size_t(t)] + g,
                                T[size_t(t)] + X[size_t(t)] + xs + BT[size_t(t)]);
            float c = float(F[size_t(t)] + B[size_t(t)]);
            for (int m = peak; m <= M; ++m)
                out[m] = c;
            return false;
        }
        const int i = s + 1, ti = T[size_t(i)];
        int peak = std::max(xs + X[size_t(i)] + ti + FT[size_t(i)] + g, ti + X[size_t(i)] + xs + BT[size_t(i)]);
        const float* sub = at(i, t);
        float c = float(F[size_t(i)] + B[size_t(i)]);
        for (int m = std::max(peak, ti); m <= M; ++m)
            out[m] = std::min(out[m], c + sub[m - ti]);
        return true;
    }

    // The turn or the taped first step, in either model.
    bool taped(int s, int t, int f, float* out) { return paper ? fillTapedPaper(s, t, f, out) : fillTaped(s, t, out); }

    // One cell in the recurrence's order (both layers of the paper's model): the turn or the taped first step, then
    // every checkpoint of x_s (costing cs) and advance to x_k.
    void fill(int s, int t) {
        for (int f = 0; f < layers; ++f) {
            float* out = at(s, t, f);
            if (!taped(s, t, f, out)) continue;
            const int cs = paper && f ? 0 : X[size_t(s)], g = G(t);
            int advPeak = 0;
            for (int k = s + 1; k < t; ++k) {
                advPeak = std::max(advPeak, cs + advanceStep(s, k) + g);
                if (advPeak > M) break; // longer advances only need more
                const float* right = at(k, t, 0);
                const float* left = at(s, k, f);
                const float adv = float(PF[size_t(k)] - PF[size_t(s)]);
                for (int m = std::max(advPeak, cs); m <= M; ++m)
                    out[m] = std::min(out[m], adv + right[m - cs] + left[m]);
            }
        }
    }

    // The tiled fill. Cells (s, t) are grouped in tiles of kTile x kTile (s and t in blocks I <= J), filled by
    // diagonals J - I. A tile first takes the checkpoint options whose k lies in a block strictly between I and J, one
    // block K at a time: those read only tiles (I, K) and (K, J) of earlier diagonals, three tiles in cache. Then its
    // cells are finished in the plain order (s down, t up): the taped option and the checkpoints inside blocks I and J.
    // The threads take the tiles of a diagonal in turn; a tile reads only earlier diagonals and itself.
    void runTiles(int threads) {
        const std::size_t rows = std::size_t(n) * (std::size_t(n) + 1) / 2;
        advPeak.assign(rows, 0), advTime.assign(rows, 0);
        for (int s = 0; s < n; ++s) {
            int peak = 0;
            for (int k = s + 1; k <= n; ++k) {
                peak = std::max(peak, advanceStep(s, k));
                advPeak[row(s, k)] = peak;
                advTime[row(s, k)] = float(PF[size_t(k)] - PF[size_t(s)]);
            }
        }
        // The rows are set to +infinity by their tiles; the leads here (ignored where read, and the one after the last
        // row).
        for (int s = 0; s < n; ++s)
            std::fill_n(at(s, s + 1) - kLead, kLead, kInf);
        std::fill_n(cost.get() + costSize - kLead, kLead, kInf);
        runs = (M + 1 + kRun - 1) / kRun;
        endsStride = endsStrideFor(M);
        endsSize = rows * std::size_t(layers) * std::size_t(endsStride);
        ends = alignedFloats(endsSize);
        std::fill_n(ends.get(), endsSize, kInf);
        const int tiles = (n + 1 + kTile - 1) / kTile;
        std::vector<std::atomic<int>> next(std::size_t(tiles) + 1);
        for (auto& a : next)
            a.store(0, std::memory_order_relaxed);
        std::optional<SpinBarrier> diagonalDone; // for the threads that did start
        std::atomic<bool> go{false};
        auto work = [&] {
            while (!go.load(std::memory_order_acquire))
                std::this_thread::yield();
            for (int d = 0; d < tiles; ++d) {
                for (int i; (i = next[std::size_t(d)].fetch_add(1, std::memory_order_relaxed)) < tiles - d;)
                    tile(i, i + d);
                diagonalDone->wait();
            }
        };
        std::vector<std::thread> others;
        try {
            for (int i = 1; i < threads; ++i)
                others.emplace_back(work);
        } catch (const std::system_error&) { // the system refused a thread: fill on those there are
        }
        m_threads = int(others.size()) + 1;
        diagonalDone.emplace(m_threads);
        go.store(true, std::memory_order_release);
        work();
        for (std::thread& other : others)
            other.join();
    }

    void tile(int I, int J) {
        const int s0 = I * kTile, s1 = std::min(s0 + kTile, n + 1), t0 = J * kTile, t1 = std::min(t0 + kTile, n + 1);
        for (int s = s0; s < s1; ++s) // this thread touches the tile's rows first
            for (int t = std::max(t0, s + 1); t < t1; ++t)
                for (int f = 0; f < layers; ++f)
                    std::fill_n(at(s, t, f), stride, kInf);
        for (int K = I + 1; K < J; ++K) {
            const int kb = K * kTile, ke = kb + kTile;
            After after[kTile]; // rows (k, t) by t
            for (int t = t0; t < t1; ++t)
                afterRows(after[t - t0], t, kb, ke);
            for (int s = s0; s < s1; ++s)
                for (int f = 0; f < layers; ++f) {
                    Checkpoints c;
                    beforeRows(c, s, f, kb, ke);
                    for (int t = t0; t < t1; ++t)
                        if (!beyondCap(s, t)) checkpoints(c, after[t - t0], s, t, f);
                }
        }
        for (int s = s1 - 1; s >= s0; --s)
            for (int t = std::max(t0, s + 1); t < t1; ++t)
                for (int f = 0; f < layers; ++f) {
                    float* out = at(s, t, f);
                    if (beyondCap(s, t)) continue; // left at +infinity, ends included
                    if (taped(s, t, f, out)) {
                        checkpoints(s, t, s + 1, std::min(t, s1), f);
                        if (J > I) checkpoints(s, t, std::max(t0, s + 1), t, f);
                    }
                    float* end = endsOf(row(s, t), f);
                    for (int r = 0; r < runs; ++r)
                        end[r] = out[std::min(r * kRun + kRun - 1, M)];
                }
    }

    // The options of cell (s, t) that checkpoint x_s and advance to x_k, for k in [kb, ke) (at most kTile of them):
    // adv(k) + Opt(k, t, m - x_s) + Opt(s, k, m) for m >= from(k), the advance's peak with grad x_t held. In the
    // paper's model, layer f: x_s costs cs (nothing when it lives inside a tape, f = 1), the part after the
    // checkpoint is read in layer 0 and the part before it in layer f.
    struct Checkpoints {
        int options = 0; // split points kb.. of the block
        int peak[kTile]; // the advance's peak from x_s to x_k, without x_s and grad x_t (advPeak)
        float adv[kTile];
        const float* left[kTile]; // row (s, k)
        const float* leftEnds[kTile];
        int count = 0;             // the options that fit with grad x_t held
        const float* right[kTile]; // row (k, t), shifted by x_s (cs)
        int from[kTile];
        Lanes16 bound[kTile]; // on 16 runs
        Lanes16 least;
        float cap; // capOf the cell
    };
    // The rows (k, t) of the split points of a block, in layer 0: the same for every s.
    struct After {
        const float* row[kTile];
        const float* ends[kTile];
    };

    // What the options of split points k in [kb, ke) take from the rows (s, k): the same for every t. (A block of
    // the tile fills these once for its kTile cells (s, t), and the rows (k, t) once for its kTile values of s.)
    void beforeRows(Checkpoints& c, int s, int f, int kb, int ke) {
        const std::size_t r0 = row(s, kb); // rows (s, k) are consecutive in k
        c.options = ke - kb;
        for (int j = 0; j < c.options; ++j) {
            const std::size_t rl = r0 + std::size_t(j);
            c.peak[j] = advPeak[rl];
            c.adv[j] = advTime[rl];
            c.left[j] = atRow(rl, s, f);
            c.leftEnds[j] = endsOf(rl, f);
        }
    }
    void afterRows(After& a, int t, int kb, int ke) {
        for (int k = kb; k < ke; ++k) {
            const std::size_t rr = row(k, t);
            a.row[k - kb] = atRow(rr, k, 0);
            a.ends[k - kb] = endsOf(rr, 0);
        }
    }

    void checkpoints(int s, int t, int kb, int ke, int f) {
        if (kb >= ke) return;
        Checkpoints c;
        beforeRows(c, s, f, kb, ke);
        After a;
        afterRows(a, t, kb, ke);
        checkpoints(c, a, s, t, f);
    }

    CKPT_VECTOR_CLONES void checkpoints(Checkpoints& c, const After& a, int s, int t, int f) {
        const int cs = paper && f ? 0 : X[size_t(s)], g = G(t); // what x_s costs, as in fill()
        c.count = 0;
        for (int j = 0; j < c.options; ++j) {
            const int from = std::max(c.peak[j] + cs + g, cs);
            if (from > M) break; // longer advances only need more
            c.from[j] = from;
            c.right[j] = a.row[j] - cs;
            c.count = j + 1;
        }
        if (!c.count) return;
        float* out = at(s, t, f);
        c.cap = capOf(s, t);
        for (int g0 = 0; g0 < runs; g0 += 16) {
            // Lower bounds of each option on runs g0..g0+15 (the value at a run's last slot, bounded again by the rows'
            // values there: the rows are non-increasing in m), +infinity where the option does not reach the run;
            // and the least of them over the options. The lanes of runs an option does not reach, and those past the
            // row, get +infinity added (gates, not selects: the compiler makes vectors of additions at any width, not
            // always of selects).
            float least[16];
            for (int q = 0; q < 16; ++q)
                least[q] = kInf;
            const float* pastRow = kGateFrom + 32 - std::clamp(runs - g0, 0, 16);
            for (int j = 0; j < c.count; ++j) {
                const float adv = c.adv[j];
                const float *after = a.ends[j] + g0, *before = c.leftEnds[j] + g0;
                const int reached = std::clamp(c.from[j] / kRun - g0, 0, 16); // runs before it have no slot >= from
                const float* unreached = kGateUntil + 32 - reached;
                float bound[16];
                for (int q = 0; q < 16; ++q) {
                    bound[q] = adv + after[q] + before[q] + unreached[q] + pastRow[q];
                    least[q] = minOf(least[q], bound[q]);
                }
                std::memcpy(c.bound[j].v, bound, sizeof bound);
            }
            std::memcpy(c.least.v, least, sizeof least);
            for (int r = g0; r < std::min(runs, g0 + 16); ++r) {
                static_assert(kRun == 32, "a run is two vectors, or one at the end of a row");
                if (std::min(kRun, stride - r * kRun) == kRun)
                    checkpointRun<2>(out, r, r - g0, c);
                else
                    checkpointRun<1>(out, r, r - g0, c);
            }
        }
    }

    // The checkpoint options on run r of the slots (V vectors of 16 from slot r * kRun), the run's values held in
    // registers. An option whose lower bound on the run (lane q of its bounds) is not below the cell's value at the
    // run's first slot (an upper bound of the cell over the run) lowers nothing there, and is skipped; so is one whose
    // bound is not below the cell's cap.
    template <int V> void checkpointRun(float* out, int r, int q, const Checkpoints& c) const {
        constexpr int W = 16 * V; // slots of the run
        const int first = r * kRun;
        if (!(c.least.v[q] < std::min(out[first], c.cap))) return;
        float acc[W];
        for (int i = 0; i < W; ++i)
            acc[i] = out[first + i];
        if (c.from[c.count - 1] <= first) { // every option covers the run (`from` grows with k; 1000 steps: 4 % faster)
            for (int j = 0; j < c.count; ++j) {
                if (!(c.bound[j].v[q] < std::min(acc[0], c.cap))) continue;
                const float adv = c.adv[j];
                const float *R = c.right[j] + first, *L = c.left[j] + first;
                for (int i = 0; i < W; ++i)
                    acc[i] = minOf(acc[i], adv + R[i] + L[i]);
            }
        } else {
            for (int j = 0; j < c.count; ++j) {
                if (!(c.bound[j].v[q] < std::min(acc[0], c.cap))) continue;
                const int from = c.from[j];
                const float adv = c.adv[j];
                const float *R = c.right[j] + first, *L = c.left[j] + first;
                for (int v = 0; v < V; ++v) {
                    // The run where the option starts: slots below `from` keep their value. (A vector of 16 wholly
                    // below it is not read: its loads could reach past the 16 floats before the row.)
                    if (first + 16 * v + 15 < from) continue;
                    const float* gate = kGateUntil + 32 - std::max(0, from - first); // +infinity below `from`
                    for (int i = 16 * v; i < 16 * v + 16; ++i)
                        acc[i] = minOf(acc[i], adv + R[i] + L[i] + gate[i]);
                }
            }
        }
        for (int i = 0; i < W; ++i)
            out[first + i] = acc[i];
    }
};

int tileCells() {
    return kTile;
}

float plainOptimum(const Chain& chain, std::int64_t unit, int slots) {
    return RotorTable(RotorInputs(chain, unit), slots, true).optimum(slots);
}

std::size_t tiledTableDifferences(const Chain& chain, std::int64_t unit, int slots, int threads) {
    RotorInputs in(chain, unit);
    RotorTable tiled(in, slots, false, threads), plain(in, slots, true);
    std::size_t differ = 0;
    const int n = chain.length();
    for (int s = 0; s < n; ++s)
        for (int t = s + 1; t <= n; ++t)
            for (int f = 0; f < tiled.layerCount(); ++f)
                differ += std::size_t(std::memcmp(tiled.values(s, t, f), plain.values(s, t, f),
                                                  sizeof(float) * std::size_t(slots + 1)) != 0);
    return differ;
}

double gridBound(const Chain& chain, std::int64_t unit, int slots, int g) {
    return gridOverhead(RotorInputs(chain, unit), slots, g);
}

std::vector<CappedFill> cappedFills(const Chain& chain, std::int64_t unit, int slots, const std::vector<double>& bounds,
                                    int threads) {
    RotorInputs in(chain, unit);
    const RotorTable plain(in, slots, true);
    const int n = chain.length();
    Plan plainPlan;
    double ignored = 0;
    if (std::isfinite(plain.optimum(slots))) plain.emit(0, n, slots, plainPlan, ignored);
    std::vector<CappedFill> out;
    for (double bound : bounds) {
        const RotorTable capped(in, slots, false, threads, bound);
        CappedFill r;
        r.plain = plain.optimum(slots), r.capped = capped.optimum(slots), r.exact = capped.exactAt(slots);
        for (int s = 0; s < n; ++s)
            for (int t = s + 1; t <= n; ++t)
                r.rowsDiffer += std::size_t(
                    std::memcmp(capped.values(s, t), plain.values(s, t), sizeof(float) * std::size_t(slots + 1)) != 0);
        if (r.exact && std::isfinite(r.plain)) {
            Plan p;
            capped.emit(0, n, slots, p, ignored);
            r.samePlan = p.actions == plainPlan.actions;
        }
        out.push_back(r);
    }
    return out;
}

} // namespace rotor_detail

namespace {
using rotor_detail::RotorInputs;
using rotor_detail::RotorTable;

// Tables between solves: a uniform chain of 1000 steps at 2000 slots takes 16 MiB. Budgets past 4x the slots of the
// common unit each have a unit of their own (slotUnit): the explorer builds the slider's tables ahead, one for each
// chain in slots, so the cache keeps up to 24 (the 1000-step LSTM's slider on the A100 asks for 3).
constexpr std::size_t kKeptBytes = std::size_t(128) << 20;
TableCache<RotorInputs, RotorTable>& rotorTables() {
    static TableCache<RotorInputs, RotorTable> cache(24, kKeptBytes);
    return cache;
}

// The table for the chain in slots of `unit` with at least `M` slots: a kept one, or one built (and kept) with up to
// `most` slots when a kept one was too small.
std::shared_ptr<const RotorTable> rotorTable(const Chain& chain, std::int64_t unit, int M, int most) {
    RotorInputs in(chain, unit);
    std::shared_ptr<const RotorTable> smaller;
    if (auto kept = rotorTables().find(
            in, [M](const RotorTable& t) { return t.slots() >= M; }, &smaller))
        return kept;
    int slots = grownSlots(M, smaller ? smaller->slots() : 0, most);
    if (RotorTable::tableBytes(chain.length(), slots, chain.isUniform(), in.paper) > kKeptBytes) slots = M;
    auto table = std::make_shared<const RotorTable>(in, slots);
    rotorTables().keep(in, table);
    return table;
}

} // namespace

TableCacheStats rotorCacheStats() {
    return rotorTables().stats();
}

void clearRotorCache() {
    rotorTables().clear();
}

std::optional<Error> rotorCheckSize(int n, int slots, bool uniform) {
    const std::string what = "rotor's programme for " + std::to_string(n) + (uniform ? " uniform" : " heterogeneous") +
                             " steps and " + std::to_string(slots) + " slots";
    if (n > kRotorMaxSteps)
        return overLimit(what + ": the chain has " + std::to_string(n) + " steps, over the limit of " +
                         std::to_string(kRotorMaxSteps) + "; use revolve or bptt-dp for longer chains");
    // Uniform chains fill O(n) rows of the table, each over O(n) splits; heterogeneous ones O(n^2) rows.
    const double operations =
        uniform ? 2.0 * double(n) * double(n) * slots / 2 : double(n) * double(n) * double(n) * slots / 6;
    if (operations > kMaxTableOperations)
        return tooLarge(what, operations, kMaxTableOperations, "steps of its inner loop",
                        "lower the slots parameter, or use revolve or bptt-dp");
    return std::nullopt;
}

float RotorProgramme::cost(int s, int t, int m) const {
    return table->value(s, t, m);
}

int RotorProgramme::slots() const {
    return table->slots();
}

int RotorProgramme::threads() const {
    return table->threads();
}

const float* RotorProgramme::row(int s, int t) const {
    return table->values(s, t);
}

void RotorProgramme::emit(int s, int t, int m, Plan& plan, double& time) const {
    table->emit(s, t, m, plan, time);
}

namespace {
// A table over `pruneAbove` bytes (heterogeneous, standard model) is filled pruned by the overhead of the best plan on
// a grid of states (gridOverhead; capOf says how). offload-dp can make the grid plan's choices too (keeping every tape
// it does not recompute), so its optimum keeps within the bound as well. `root`: rotorSolve reads the table at (0, n,
// M) only, so it is checked there, and filled again without pruning should that optimum not keep within the bound
// (which the bound rules out but for rounding beyond the margin); else the caller checks its own optimum
// (RotorProgramme::trusts). Smaller tables are kept or looked up as rotorTable does.
void prunedTable(RotorProgramme& p, const Chain& chain, int most, std::size_t pruneAbove, bool root) {
    if (chain.isUniform() || chain.memoryModel() == MemoryModel::RotorPaper ||
        RotorTable::tableBytes(chain.length(), p.M, false) <= pruneAbove) {
        p.table = rotorTable(chain, p.unit, p.M, most);
        return;
    }
    RotorInputs in(chain, p.unit);
    const int n = chain.length();
    int parts = kGridParts;
    while (parts > 1 &&
           std::size_t(parts) * std::size_t(parts + 1) / 2 * (std::size_t(p.M) + 1) * sizeof(double) > kGridBytes)
        --parts;
    const double bound = gridOverhead(in, p.M, std::max(1, (n + parts - 1) / parts));
    if (std::isfinite(bound)) {
        p.table = std::make_shared<const RotorTable>(in, p.M, false, 0, bound);
        if (!root || p.table->exactAt(p.M)) {
            p.bound = bound;
            return;
        }
    }
    p.table.reset(); // before the next gigabyte
    p.table = std::make_shared<const RotorTable>(std::move(in), p.M);
}

// The slot unit of a budget, and whether it is exact (every size a whole number of slots).
struct SlotUnit {
    std::int64_t unit = 1;
    bool exact = false;
};
SlotUnit slotUnit(const Chain& chain, std::int64_t budget, int slots) {
    const int n = chain.length();
    const bool paper = chain.memoryModel() == MemoryModel::RotorPaper;
    // Sizes round up to whole slots, which costs optimality; when every size is a multiple of a common unit that
    // divides the budget into at most 4x the asked slots (and the table stays under 512 MiB), use that unit and lose
    // nothing.
    std::int64_t unit = std::max<std::int64_t>(1, (budget + slots - 1) / slots);
    std::int64_t common = 0;
    for (int i = 1; i <= n; ++i) {
        const Step& s = chain.step(i);
        for (std::int64_t b : {s.state_bytes, s.tape_bytes, s.forward_tmp_bytes, s.backward_tmp_bytes})
            common = std::gcd(common, b);
    }
    common = std::gcd(common, chain.stateBytes(n)); // x_n may have a size of its own
    const bool exact =
        common > 0 && budget / common <= 4 * std::int64_t(slots) &&
        RotorTable::tableBytes(n, int(budget / common), chain.isUniform(), paper) <= (std::size_t(512) << 20);
    if (exact) return {common, true};
    // Otherwise the least multiple of the common unit that divides the budget into at most the asked slots: sizes
    // round up no more than with budget / slots (a multiple of the common unit holds each size as well), and nearby
    // budgets share a unit, so the slider's moves read one kept table instead of building one each.
    if (common > 1) unit = (unit + common - 1) / common * common;
    return {unit, false};
}

// `pruneAbove`, `root`: see prunedTable (SIZE_MAX: never pruned).
Result<RotorProgramme> programme(const Chain& chain, std::int64_t budget, int slots, std::size_t pruneAbove,
                                 bool root) {
    const int n = chain.length();
    const bool paper = chain.memoryModel() == MemoryModel::RotorPaper;
    if (budget <= 0) return fail("rotor needs a budget > 0");
    if (auto e = rotorCheckSize(n, slots, chain.isUniform())) return *e;
    const auto [unit, exact] = slotUnit(chain, budget, slots);
    const int M = int(budget / unit);
    std::size_t bytes = RotorTable::tableBytes(n, M, chain.isUniform(), paper);
    if (bytes > (std::size_t(1) << 30))
        return overLimit("rotor: " + std::to_string(n) + " heterogeneous steps with " + std::to_string(slots) +
                         " memory slots need a " + std::to_string(bytes >> 20) +
                         " MiB table; lower the slots parameter");
    // The slots a budget can ask for with this unit: up to 4x the asked slots with the common unit, else the asked.
    RotorProgramme p;
    p.unit = unit;
    p.M = M;
    prunedTable(p, chain, exact ? 4 * slots : slots, pruneAbove, root);
    return p;
}

} // namespace

std::int64_t rotorSlotUnit(const Chain& chain, std::int64_t budget, int slots) {
    return slotUnit(chain, budget, slots).unit;
}

Result<RotorProgramme> rotorProgramme(const Chain& chain, std::int64_t budget, int slots, std::size_t pruneAbove) {
    return programme(chain, budget, slots, pruneAbove, false);
}

RotorProgramme rotorProgrammeGrown(const RotorProgramme& p, const Chain& chain, int slots) {
    if (p.bound || p.slots() >= slots) return p;
    RotorProgramme grown = p;
    grown.table = rotorTable(chain, p.unit, slots, slots);
    return grown;
}

std::size_t rotorPruneAbove() {
    return kKeptBytes;
}

bool RotorProgramme::trusts(double time) const {
    return !bound || table->within(time);
}

Result<RotorResult> rotorSolve(const Chain& chain, std::int64_t budget, int slots) {
    return rotor_detail::solve(chain, budget, slots, kKeptBytes);
}

Result<RotorResult> rotor_detail::solve(const Chain& chain, std::int64_t budget, int slots, std::size_t pruneAbove) {
    const int n = chain.length();
    auto prog = programme(chain, budget, slots, pruneAbove, true);
    if (!prog) return prog.errorValue();
    const int M = prog->M;
    const std::int64_t unit = prog->unit;
    const auto& dp = prog->table;
    if (!std::isfinite(dp->optimum(M))) {
        // Every schedule keeps x_0 until the end; keeping nothing else (revolve with one slot) is the leanest.
        std::int64_t need = leanestPeak(chain);
        Error e = needsBudget("rotor", need, budget);
        e.message += " (rounding sizes to slots of " + std::to_string(unit) + " B may ask a little more)";
        return e;
    }
    RotorResult r;
    r.unit = unit;
    r.bound = prog->bound;
    r.dp_cost = dp->optimum(M);
    r.threads = prog->threads();
    double time = 0;
    r.plan.actions.reserve(4 * std::size_t(n));
    dp->emit(0, n, M, r.plan, time);
    r.plan.predicted_makespan_s = time;
    return r;
}

SchedulerInfo rotorScheduler() {
    SchedulerInfo s;
    s.name = "rotor";
    s.description = "Optimal for heterogeneous chains within a byte budget (DP over no-keep / keep-state / keep-tape)";
    s.paper =
        "Beaumont, Eyraud-Dubois, Herrmann, Joly, Shilova 2019, \"Optimal checkpointing for heterogeneous chains\"";
    s.model = 'B';
    s.optimality = Optimality::Optimal;
    s.paper_model = true;
    s.params = {{.name = "slots",
                 .description = "memory slots the budget is divided into (sizes round up to whole slots)",
                 .type = ParamType::Int,
                 .default_value = "500",
                 .min = 10,
                 .max = 30000}};
    s.solve = [](const Chain& chain, const Hardware& hw, const Params& params, std::int64_t budget) -> Result<Plan> {
        std::int64_t limit = levelZeroLimit(hw, budget);
        const int n = chain.length();
        Plan all = storeAllPlan(chain);
        // Nothing to recompute: store-all is optimal.
        if (limit == 0 || storeAllPeakBytes(chain) <= limit) return all;
        const int slots = int(params.integer("slots"));
        if (auto e = rotorCheckSize(n, slots, chain.isUniform())) return *e; // at once, before any table
        auto r = rotorSolve(chain, limit, slots);
        if (!r) return r.errorValue();
        r->plan.params["unit_bytes"] = std::to_string(r->unit);
        return std::move(r->plan);
    };
    // A table for each chain in slots (units that round every size alike share one), needing limit / unit slots.
    s.table_budgets = [](const Chain& chain, const Hardware& hw, const Params& params,
                         const std::vector<std::int64_t>& budgets) {
        const int slots = int(params.integer("slots"));
        const bool paper = chain.memoryModel() == MemoryModel::RotorPaper;
        std::vector<RotorInputs> tables;
        std::map<std::int64_t, std::int64_t> tableOf; // unit -> index in tables
        return largestBudgetPerTable(chain, hw, budgets, [&](std::int64_t limit) {
            const std::int64_t unit = rotorSlotUnit(chain, limit, slots);
            const std::int64_t M = limit / unit;
            if (RotorTable::tableBytes(chain.length(), int(M), chain.isUniform(), paper) > kKeptBytes)
                return std::pair<std::int64_t, std::int64_t>{-1, M}; // pruned, and not kept
            auto it = tableOf.find(unit);
            if (it == tableOf.end()) {
                RotorInputs in(chain, unit);
                const auto index = std::int64_t(std::find(tables.begin(), tables.end(), in) - tables.begin());
                if (index == std::int64_t(tables.size())) tables.push_back(std::move(in));
                it = tableOf.emplace(unit, index).first;
            }
            return std::pair{it->second, M};
        });
    };
    s.table_stats = rotorCacheStats;
    return s;
}

} // namespace ckpt
