#pragma once
// Exhaustive search over every valid chain schedule in level 0, written independently of the schedulers: a
// shortest-path search over configurations (held states, held tapes, backward progress) with the simulator's
// memory model restated here from plan/action.h. Small chains only (n <= 10).
#include "model/chain.h"

#include <cstdint>
#include <limits>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

namespace ckpt::test {

struct SearchOptions {
    bool modelA = false;        // taped forward only for the step reversed next (Revolve's model)
    int maxStates = -1;         // modelA: at most this many states held, the working state aside (Revolve's slots)
    bool countForwards = false; // minimise forward steps instead of time
    // Persistent schedules (rotor's class): nothing is freed by hand, and a state kept as a checkpoint (forward with
    // keep = state, and x_0) is never released by an untaped forward; only a taped forward may consume it.
    bool persistent = false;
    // Gruslys et al.'s slot model (alpha > 0): the budget counts slots, a kept state 1 and a tape alpha; the working
    // state and the tape of the step reversed next are free; transients are not counted.
    int alpha = 0;
    bool onlyInputKept = false; // BPTT-ISM: no state but x_0 is kept as a checkpoint
    // The rotor paper's memory model (model/chain.h): a taped forward keeps its input until its backward, which needs
    // it, and its output lives inside its tape (available while the tape is held, at no cost of its own).
    bool paperModel = false;
};

// The least total time (or forward count) that reverses the chain with level 0 never above `budget`
// (0: unbounded); +infinity if none.
inline double exhaustiveOptimum(const Chain& c, std::int64_t budget, const SearchOptions& opt = {},
                                std::vector<std::string>* path = nullptr) {
    const int n = c.length();
    const std::int64_t cap = budget > 0 ? budget : std::numeric_limits<std::int64_t>::max();
    auto x = [&](int j) { return c.stateBytes(j); };
    // Configuration: bit j of `states` = x_j held (j < n); bit i-1 of `tapes` = tape of step i held; b = the next
    // backward step (0 = done); `work` = the state just produced by a forward (model A's working state), or -1.
    struct Config {
        std::uint32_t states, tapes, checkpoints;
        int b, work;
        bool operator==(const Config&) const = default;
    };
    struct Hash {
        std::size_t operator()(const Config& k) const {
            return (std::size_t(k.states) * 1315423911u) ^ (std::size_t(k.tapes) << 20) ^ (std::size_t(k.b) << 40) ^
                   (std::size_t(k.work + 1) << 48) ^ (std::size_t(k.checkpoints) * 2654435761u << 8);
        }
    };
    // The paper's model: x_j (j >= 1) is inside the tape of step j while that tape is held.
    auto inTape = [&](const Config& k, int j) { return opt.paperModel && j >= 1 && (k.tapes >> (j - 1) & 1); };
    auto rest = [&](const Config& k) {
        std::int64_t m = 0;
        for (int j = 0; j < n; ++j)
            if ((k.states >> j & 1) && !inTape(k, j)) m += x(j);
        for (int i = 1; i <= n; ++i)
            if (k.tapes >> (i - 1) & 1) m += c.step(i).tape_bytes;
        if (k.b < n) m += x(k.b); // the gradient of x_b
        return m;
    };
    auto held = [&](const Config& k) { return __builtin_popcount(k.states) - (k.work >= 0 ? 1 : 0); };
    auto slots = [&](const Config& k) {
        int tapes = __builtin_popcount(k.tapes) - (k.b >= 1 && (k.tapes >> (k.b - 1) & 1) ? 1 : 0);
        return std::int64_t(held(k)) + std::int64_t(opt.alpha) * tapes;
    };
    using Item = std::pair<double, Config>;
    auto later = [](const Item& a, const Item& b) { return a.first > b.first; };
    std::priority_queue<Item, std::vector<Item>, decltype(later)> queue(later);
    std::unordered_map<Config, double, Hash> best;
    std::unordered_map<Config, std::pair<Config, std::string>, Hash> parent;
    Config start{1u, 0u, opt.persistent ? 1u : 0u, n, -1};
    if (opt.alpha == 0 && x(0) > cap) return std::numeric_limits<double>::infinity();
    if (opt.alpha > 0 && cap < 1) return std::numeric_limits<double>::infinity();
    best[start] = 0;
    queue.push({0, start});
    Config from{};
    auto relax = [&](const Config& k, double d, const std::string& what) {
        auto it = best.find(k);
        if (it == best.end() || d < it->second) {
            best[k] = d;
            queue.push({d, k});
            if (path) parent[k] = {from, what};
        }
    };
    while (!queue.empty()) {
        auto [d, k] = queue.top();
        queue.pop();
        if (d > best[k]) continue;
        if (k.b == 0) {
            if (path) {
                for (Config at = k; !(at == start);) {
                    auto& [prev, what] = parent[at];
                    path->insert(path->begin(), what);
                    at = prev;
                }
            }
            return d;
        }
        from = k;
        const std::int64_t r = rest(k);
        // Forward i from a held x_{i-1}, for steps not yet reversed.
        for (int i = 1; i <= k.b; ++i) {
            if (!(k.states >> (i - 1) & 1)) continue;
            bool outDead = i >= k.b; // x_i is dead once backward i+1 is done (and x_n always)
            if (!outDead && (k.states >> i & 1)) continue;
            const Step& s = c.step(i);
            for (int keep = 0; keep < 3; ++keep) { // none, state, tape
                if (keep == 2 && (k.tapes >> (i - 1) & 1)) continue;
                if (opt.modelA && keep == 2 && i != k.b) continue;
                if (keep == 0 && (k.checkpoints >> (i - 1) & 1)) continue; // persistent: not by an untaped forward
                const bool paperTaped = opt.paperModel && keep == 2;
                std::int64_t peak = r + (paperTaped ? 0 : x(i)) + (keep == 2 ? s.tape_bytes : 0) + s.forward_tmp_bytes;
                if (opt.alpha == 0 && peak > cap) continue;
                if (opt.onlyInputKept && keep == 1 && i > 1) continue;
                Config nk = k;
                if (paperTaped)
                    nk.checkpoints &= ~(1u << (i - 1)); // the input stays, for backward i
                else if (keep != 1 && !inTape(k, i - 1))
                    nk.states &= ~(1u << (i - 1)), nk.checkpoints &= ~(1u << (i - 1));
                if (keep == 1 && opt.persistent) nk.checkpoints |= 1u << (i - 1);
                nk.work = -1;
                if (!outDead) {
                    nk.states |= 1u << i;
                    nk.work = i;
                }
                if (keep == 2) nk.tapes |= 1u << (i - 1);
                if (opt.modelA && opt.maxStates >= 0 && held(nk) > opt.maxStates) continue;
                if (opt.alpha > 0 && slots(nk) > cap) continue;
                relax(nk, d + (opt.countForwards ? 1.0 : s.forward), "F" + std::to_string(i) + "nst"[keep]);
            }
        }
        // Backward b (the paper's model: it reads x_{b-1} too).
        if ((k.tapes >> (k.b - 1) & 1) && (!opt.paperModel || (k.states >> (k.b - 1) & 1))) {
            const Step& s = c.step(k.b);
            std::int64_t peak = r + (k.b == n ? x(n) : 0) + x(k.b - 1) + s.backward_tmp_bytes;
            if (opt.alpha > 0 || peak <= cap) {
                Config nk = k;
                nk.tapes &= ~(1u << (k.b - 1));
                if (!inTape(k, k.b - 1)) nk.states &= ~(1u << (k.b - 1)), nk.checkpoints &= ~(1u << (k.b - 1));
                if (opt.paperModel && k.b < n) nk.states &= ~(1u << k.b); // x_b went with the tape of step b
                nk.b = k.b - 1;
                nk.work = -1;
                relax(nk, d + (opt.countForwards ? 0.0 : s.backward), "B" + std::to_string(k.b));
            }
        }
        // Free a held state or tape (never needed for time, sometimes for memory).
        if (!opt.modelA && !opt.persistent) {
            for (int j = 0; j < n; ++j)
                if ((k.states >> j & 1) && !inTape(k, j)) {
                    Config nk = k;
                    nk.states &= ~(1u << j);
                    if (nk.work == j) nk.work = -1;
                    relax(nk, d, "Dx" + std::to_string(j));
                }
            for (int i = 1; i <= n; ++i)
                if (k.tapes >> (i - 1) & 1) {
                    Config nk = k;
                    nk.tapes &= ~(1u << (i - 1));
                    relax(nk, d, "Dt" + std::to_string(i));
                }
        }
    }
    return std::numeric_limits<double>::infinity();
}

} // namespace ckpt::test
