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
#include "schedulers/rotor.h"

#include "schedulers/fit.h"
#include "schedulers/revolve.h"
#include "schedulers/store_all.h"
#include "util/table_cache.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <thread>

namespace ckpt {
namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr int kRotorMaxSteps = 20000;
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
        auto units = [&](std::int64_t b) { return int((b + unit - 1) / unit); };
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

// The programme's table for slot counts 0..M. An entry for m slots does not depend on M (the loops over m run up to
// M, and an option that needs more than M is skipped for every m <= M alike), so a table built for more slots answers
// every smaller count exactly as one built for that count would.
class RotorTable {
public:
    RotorTable(RotorInputs in, int slots) : m_in(std::move(in)), n(int(m_in.F.size()) - 1), M(slots) {
        PF.assign(size_t(n) + 1, 0);
        for (int i = 1; i <= n; ++i)
            PF[size_t(i)] = PF[size_t(i) - 1] + F[size_t(i)];
        std::size_t rows = uniform ? 2 * std::size_t(n) + 2 : std::size_t(n) * (std::size_t(n) + 1) / 2;
        cost.assign(rows * std::size_t(layers) * std::size_t(M + 1), kInf);
        run();
    }

    static std::size_t tableBytes(int n, int slots, bool uniform, bool paper = false) {
        std::size_t rows = uniform ? 2 * std::size_t(n) + 2 : std::size_t(n) * (std::size_t(n) + 1) / 2;
        return rows * (paper ? 2 : 1) * std::size_t(slots + 1) * sizeof(float);
    }
    std::size_t bytes() const { return cost.size() * sizeof(float) + 7 * X.size() * sizeof(double); }
    int slots() const { return M; }

    float optimum(int m) const { return at(0, n)[m]; }
    float value(int s, int t, int m) const { return at(s, t)[m]; }
    const float* values(int s, int t) const { return at(s, t); }

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
    std::vector<double> PF;
    std::vector<float> cost;

    void run() {
        if (uniform) {
            for (int span = 1; span <= n; ++span) {
                if (span < n) fill(0, span); // any interior span
                fill(n - span, n);           // the span that ends the chain (no gradient held at rest)
            }
            return;
        }
        // By the end t, then the start s downwards: (s, t) reads rows (k, t) for k > s, filled just before and still
        // in cache, and rows (s, k) for k < t, one run of memory. Spans by growing length read both from all over
        // the table: 1.6x slower on 1000 steps with 500 slots (ckpt bench), where the table is 1 GB.
        //
        // Two threads take the ends in turn: the one on t needs (s, t - 1) from the other, which runs a column ahead
        // downwards as well, so it waits only for that column's progress (done[t - 1] <= s); every earlier column is
        // complete by then (the other thread finished t - 3 before starting t - 1, and this one t - 2). The cells
        // and their operations are those of one thread, so the table is the same, bit for bit.
        const bool twoThreads = n >= 64 && double(n) * double(n) * double(n) * double(M + 1) > 1e8 &&
                                std::thread::hardware_concurrency() > 1;
        if (!twoThreads) {
            for (int t = 1; t <= n; ++t)
                for (int s = t - 1; s >= 0; --s)
                    fill(s, t);
            return;
        }
        // done[t]: the smallest s whose cell (s, t) is filled (t + 1 before any; 0 once the column is complete).
        std::vector<std::atomic<int>> done(std::size_t(n) + 1);
        for (int t = 0; t <= n; ++t)
            done[std::size_t(t)].store(t == 0 ? 0 : t, std::memory_order_relaxed);
        auto columns = [&](int first) {
            for (int t = first; t <= n; t += 2)
                for (int s = t - 1; s >= 0; --s) {
                    if (s < t - 1)
                        while (done[std::size_t(t) - 1].load(std::memory_order_acquire) > s)
                            std::this_thread::yield();
                    fill(s, t);
                    done[std::size_t(t)].store(s, std::memory_order_release);
                }
        };
        std::thread other(columns, 2);
        columns(1);
        other.join();
    }

    std::size_t row(int s, int t) const {
        if (uniform) return std::size_t(t - s) * 2 + (t == n ? 1 : 0);
        // Rows grouped by s: for each s, t = s+1..n.
        std::size_t before = std::size_t(s) * std::size_t(n) - std::size_t(s) * (std::size_t(s) - 1) / 2;
        return before + std::size_t(t - s - 1);
    }
    float* at(int s, int t, int f = 0) { return &cost[(row(s, t) * std::size_t(layers) + std::size_t(f)) * std::size_t(M + 1)]; }
    const float* at(int s, int t, int f = 0) const {
        return &cost[(row(s, t) * std::size_t(layers) + std::size_t(f)) * std::size_t(M + 1)];
    }

    int G(int t) const { return t < n ? X[size_t(t)] : 0; } // grad x_t held at rest

    // The paper's model (model/chain.h), layer f = 1 when x_s lives inside the tape of step s (no bytes of its own, never
    // freed by a forward); cs is what x_s costs. A taped forward keeps x_s until its backward and holds its output in
    // its tape:
    //   turn / taped: F(s+1, tape) [Opt(s+1, t, m - cs - tape_{s+1}, f = 1)] B(s+1)
    //   checkpoint:   F(s+1, state) F(s+2..k, none), Opt(k, t, m - cs, f = 0), Opt(s, k, m, f)
    void fillPaper(int s, int t, int f) {
        float* out = at(s, t, f);
        const int xs = X[size_t(s)], g = G(t), cs = f ? 0 : xs, i = s + 1, ti = T[size_t(i)];
        const int peak = std::max(cs + ti + FT[size_t(i)] + g, cs + ti + X[size_t(i)] + xs + BT[size_t(i)]);
        const float c = float(F[size_t(i)] + B[size_t(i)]);
        if (t == i) {
            for (int m = peak; m <= M; ++m)
                out[m] = c;
            return;
        }
        {
            const float* sub = at(i, t, 1);
            for (int m = std::max(peak, cs + ti); m <= M; ++m)
                out[m] = std::min(out[m], c + sub[m - cs - ti]);
        }
        int advPeak = 0;
        for (int k = i; k < t; ++k) {
            advPeak = std::max(advPeak, cs + (k > i ? X[size_t(k) - 1] : 0) + X[size_t(k)] + FT[size_t(k)] + g);
            if (advPeak > M) break;
            const float* right = at(k, t, 0);
            const float* left = at(s, k, f);
            const float adv = float(PF[size_t(k)] - PF[size_t(s)]);
            for (int m = std::max(advPeak, cs); m <= M; ++m)
                out[m] = std::min(out[m], adv + right[m - cs] + left[m]);
        }
    }

    void fill(int s, int t) {
        if (paper) {
            fillPaper(s, t, 0);
            fillPaper(s, t, 1);
            return;
        }
        float* out = at(s, t);
        const int xs = X[size_t(s)], g = G(t);
        if (t == s + 1) {
            int peak = std::max(xs + X[size_t(t)] + T[size_t(t)] + FT[size_t(t)] + g,
                                T[size_t(t)] + X[size_t(t)] + xs + BT[size_t(t)]);
            float c = float(F[size_t(t)] + B[size_t(t)]);
            for (int m = peak; m <= M; ++m)
                out[m] = c;
            return;
        }
        // Taped first step.
        {
            const int i = s + 1, ti = T[size_t(i)];
            int peak = std::max(xs + X[size_t(i)] + ti + FT[size_t(i)] + g, ti + X[size_t(i)] + xs + BT[size_t(i)]);
            const float* sub = at(i, t);
            float c = float(F[size_t(i)] + B[size_t(i)]);
            for (int m = std::max(peak, ti); m <= M; ++m)
                out[m] = std::min(out[m], c + sub[m - ti]);
        }
        // Checkpoint x_s and advance to x_k.
        int advPeak = 0;
        for (int k = s + 1; k < t; ++k) {
            int stepPeak = xs + (k > s + 1 ? X[size_t(k) - 1] : 0) + X[size_t(k)] + FT[size_t(k)] + g;
            advPeak = std::max(advPeak, stepPeak);
            if (advPeak > M) break; // longer advances only need more
            const float* right = at(k, t);
            const float* left = at(s, k);
            const float adv = float(PF[size_t(k)] - PF[size_t(s)]);
            // The hot loop: vectorised (no branches, no choice bookkeeping).
            for (int m = std::max(advPeak, xs); m <= M; ++m)
                out[m] = std::min(out[m], adv + right[m - xs] + left[m]);
        }
    }
};

} // namespace rotor_detail

namespace {
using rotor_detail::RotorInputs;
using rotor_detail::RotorTable;

// Tables between solves: a uniform chain of 1000 steps at 2000 slots takes 16 MiB.
constexpr std::size_t kKeptBytes = std::size_t(128) << 20;
TableCache<RotorInputs, RotorTable>& rotorTables() {
    static TableCache<RotorInputs, RotorTable> cache(4, kKeptBytes);
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
        return fail(what + ": the chain has " + std::to_string(n) + " steps, over the limit of " +
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

const float* RotorProgramme::row(int s, int t) const {
    return table->values(s, t);
}

void RotorProgramme::emit(int s, int t, int m, Plan& plan, double& time) const {
    table->emit(s, t, m, plan, time);
}

Result<RotorProgramme> rotorProgramme(const Chain& chain, std::int64_t budget, int slots) {
    const int n = chain.length();
    const bool paper = chain.memoryModel() == MemoryModel::RotorPaper;
    if (budget <= 0) return fail("rotor needs a budget > 0");
    if (auto e = rotorCheckSize(n, slots, chain.isUniform())) return *e;
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
    const bool exact = common > 0 && budget / common <= 4 * std::int64_t(slots) &&
                       RotorTable::tableBytes(n, int(budget / common), chain.isUniform(), paper) <= (std::size_t(512) << 20);
    if (exact) unit = common;
    const int M = int(budget / unit);
    std::size_t bytes = RotorTable::tableBytes(n, M, chain.isUniform(), paper);
    if (bytes > (std::size_t(1) << 30))
        return fail("rotor: " + std::to_string(n) + " heterogeneous steps with " + std::to_string(slots) +
                    " memory slots need a " + std::to_string(bytes >> 20) + " MiB table; lower the slots parameter");
    // The slots a budget can ask for with this unit: up to 4x the asked slots with the common unit, else the asked.
    RotorProgramme p;
    p.table = rotorTable(chain, unit, M, exact ? 4 * slots : slots);
    p.unit = unit;
    p.M = M;
    return p;
}

Result<RotorResult> rotorSolve(const Chain& chain, std::int64_t budget, int slots) {
    const int n = chain.length();
    auto prog = rotorProgramme(chain, budget, slots);
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
    r.dp_cost = dp->optimum(M);
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
    s.params = {{"slots",
                 "memory slots the budget is divided into (sizes round up to whole slots)",
                 ParamType::Int,
                 "500",
                 10,
                 30000,
                 {}}};
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
    return s;
}

} // namespace ckpt
