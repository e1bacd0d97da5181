// join-dp: the optimal plan of a join graph within the class of join_dp.h. Three levels:
// - Part::opt, rotor's recursion for one chain part in the graph simulator's memory model. opt(s, t, ht, m, keep):
//   the output at position s is held (by the caller, who needs it after when keep), the gradient of t's output
//   exists (the loss has none yet), t's own output is held when ht; reverse positions t, t-1, ..., s+1 within m slots
//   besides what the caller holds, ending with the gradient of s's output. Either t = s + 1 (recompute t when its
//   backward needs its output, free s first when no one reads it again, then t's backward), or run t's backward at
//   once when it reads nothing, or sweep s+1..j keeping only j, reverse (j, t] with j held (and s freed when j's
//   backward alone is left and reads neither), then (s, j] with j kept or freed.
// - branchTable: a branch swept once with checkpoints c_1 < ... < c_r and its end e, reversed segment by segment
//   from the right, each segment by opt with the checkpoints left of it held. W(c, h, ht) is the cost of reversing
//   positions 1..c with h slots of checkpoints before c; the table gives, per total of checkpoint slots, the least
//   cost of the branch's reversal within `avail` slots whose sweep fits `allowance` slots.
// - JoinSolver: a DP over the subsets of branches reversed last, which of them drop their ends during the trunk, and
//   the slots of checkpoints they keep; then the join and the trunk (opt from the join's output to the loss, or from
//   the branch ends with the join inside) and the join's backward, checked against what is left.
#include "schedulers/join_dp.h"

#include "plan/branch_order.h"

#include "schedulers/checkmate.h"
#include "schedulers/fit.h"
#include "schedulers/graph_fit.h"
#include "sim/graph_simulator.h"
#include "util/units.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace ckpt {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kMaxBranches = 10;
constexpr int kAutoGuardNodes = 20;                // guard=auto runs checkmate up to this many nodes
constexpr long long kMaxTableEntries = 20'000'000; // opt's memo, over every part

std::string quoted(const Graph& g, int v) {
    return "'" + g.node(v).id + "'";
}

// Applies actions to the graph's state as the simulator does (an output no one will need again is released), so
// that the plan frees only what is still held.
class Emitter {
public:
    explicit Emitter(const Graph& g) : m_g(g), m_held(std::size_t(g.size()), 0), m_done(std::size_t(g.size()), 0) {}
    void forward(int v) {
        m_out.push_back(GraphAction::forward(v));
        m_held[std::size_t(v)] = 1;
        settle(v);
    }
    void backward(int v) {
        m_out.push_back(GraphAction::backward(v));
        m_done[std::size_t(v)] = 1;
        settle(v);
        for (int u : m_g.inputs(v))
            settle(u);
    }
    void free(int v) {
        if (v < 0 || !m_held[std::size_t(v)]) return;
        m_out.push_back(GraphAction::free(v));
        m_held[std::size_t(v)] = 0;
    }
    GraphSchedule take() { return std::move(m_out); }

private:
    void settle(int v) {
        if (!m_held[std::size_t(v)]) return;
        for (int c : m_g.consumers(v))
            if (!m_done[std::size_t(c)]) return;
        if (m_done[std::size_t(v)] || !m_g.node(v).needs_output) m_held[std::size_t(v)] = 0;
    }
    const Graph& m_g;
    std::vector<char> m_held, m_done;
    GraphSchedule m_out;
};

// One chain part in slots: position 0 is where it starts (a branch's data, of no size; the join, for the trunk),
// positions 1..L its nodes.
class Part {
public:
    std::vector<int> node, size, wsf, wsb;
    std::vector<double> f, b;
    std::vector<char> needsOut, needsIn;
    int grad0 = 0; // the gradient of position 0's output: the join's, for the trunk
    bool lossAtEnd = false;

    int length() const { return int(node.size()) - 1; }
    long long tableEntries(int slots) const { return (long long)(length() + 1) * (length() + 1) * 4 * (slots + 1); }
    void prepare(int slots) {
        m_slots = slots;
        m_memo.assign(std::size_t(tableEntries(slots)), std::nan(""));
        m_how.assign(m_memo.size(), -1);
        m_whole.assign(m_memo.size() / std::size_t(slots + 1), 0);
        const int n = length();
        m_forwards.assign(std::size_t(n + 1), 0);
        for (int v = 1; v <= n; ++v)
            m_forwards[std::size_t(v)] = m_forwards[std::size_t(v - 1)] + f[std::size_t(v)];
        m_sweep.assign(std::size_t(n + 1) * std::size_t(n + 1), 0);
        for (int a = 0; a <= n; ++a)
            for (int c = a + 1, peak = 0; c <= n; ++c) {
                peak = std::max(peak, (c - 1 > a ? size[std::size_t(c - 1)] : 0) + size[std::size_t(c)] +
                                          wsf[std::size_t(c)]);
                m_sweep[std::size_t(a) * std::size_t(n + 1) + std::size_t(c)] = peak;
            }
    }

    // keep: whether the caller needs s's output after this; when it does not and t's backward does not read it, s
    // goes before that backward.
    double opt(int s, int t, int ht, int m, int keep) {
        if (m < 0) return kInf;
        const std::size_t at = index(s, t, ht, m, keep);
        if (!std::isnan(m_memo[at])) return m_memo[at];
        const std::size_t ut = std::size_t(t);
        const bool loss = lossAtEnd && t == length();
        const int cur = (loss ? 0 : size[ut]) + (ht ? size[ut] : 0);
        const int gs = s == 0 ? grad0 : size[std::size_t(s)];
        double best = kInf;
        int how = -1;
        if (cur <= m && t == s + 1) {
            int c = cur;
            double cost = 0;
            bool ok = true;
            if (!ht && (needsOut[ut] || loss)) {
                ok = c + size[ut] + wsf[ut] <= m;
                cost += f[ut];
                if (needsOut[ut]) c += size[ut];
            }
            const int freed = dropsInput(s, t, keep) ? size[std::size_t(s)] : 0;
            ok = ok && c + wsb[ut] + (loss ? size[ut] : 0) + gs <= m + freed;
            if (ok) best = cost + b[ut];
        } else if (cur <= m) {
            // t's backward needs nothing from its left: run it now, then reverse (s, t - 1].
            if (!loss && !needsIn[ut] && (ht || !needsOut[ut]) && cur + wsb[ut] + size[ut - 1] <= m) {
                const double rest = opt(s, t - 1, 0, m, keep);
                if (rest + b[ut] < best) best = rest + b[ut], how = -2;
            }
            double sweep = 0;
            int prev = 0;
            for (int j = s + 1; j < t; ++j) {
                const std::size_t uj = std::size_t(j);
                if (cur + prev + size[uj] + wsf[uj] > m) break;
                sweep += f[uj];
                prev = size[uj];
                for (int hl = 0; hl <= (needsOut[uj] ? 1 : 0); ++hl) {
                    // s goes as soon as j is computed when the rest never reads it (see passedOver).
                    const int back = passedOver(s, j, hl, keep) ? size[std::size_t(s)] : 0;
                    const double right = opt(j, t, ht, m - size[uj] + back, hl);
                    if (right == kInf) continue;
                    const double total = sweep + right + opt(s, j, hl, m, keep);
                    if (total < best) best = total, how = 2 * j + hl;
                }
            }
        }
        m_memo[at] = best;
        m_how[at] = how;
        return best;
    }

    // opt(s, t, ht, m, keep) for every m, in order of m.
    const double* slice(int s, int t, int ht, int keep) {
        const std::size_t at = index(s, t, ht, 0, keep), whole = at / std::size_t(m_slots + 1);
        if (!m_whole[whole]) {
            for (int m = 0; m <= m_slots; ++m)
                opt(s, t, ht, m, keep);
            m_whole[whole] = 1;
        }
        return &m_memo[at];
    }

    // The actions of opt(s, t, ht, m, keep), which must be finite.
    void emit(int s, int t, int ht, int m, int keep, Emitter& out) {
        opt(s, t, ht, m, keep);
        const int how = m_how[index(s, t, ht, m, keep)];
        if (how == -2) {
            out.backward(node[std::size_t(t)]);
            emit(s, t - 1, 0, m, keep, out);
            return;
        }
        if (how < 0) {
            const bool loss = lossAtEnd && t == length();
            if (!ht && (needsOut[std::size_t(t)] || loss)) out.forward(node[std::size_t(t)]);
            if (dropsInput(s, t, keep)) out.free(node[std::size_t(s)]);
            out.backward(node[std::size_t(t)]);
            return;
        }
        const int j = how / 2, hl = how % 2;
        for (int v = s + 1; v <= j; ++v) {
            out.forward(node[std::size_t(v)]);
            if (v - 1 > s) out.free(node[std::size_t(v - 1)]);
        }
        const bool passed = passedOver(s, j, hl, keep);
        if (passed) out.free(node[std::size_t(s)]);
        emit(j, t, ht, m - size[std::size_t(j)] + (passed ? size[std::size_t(s)] : 0), hl, out);
        if (!hl) out.free(node[std::size_t(j)]);
        emit(s, j, hl, m, keep, out);
    }

    // The peak of sweeping (a, c] from a held a, besides what is held before: each forward holds the previous output
    // (unless it is a's), its own and its workspace. After prepare().
    int sweepPeak(int a, int c) const { return m_sweep[std::size_t(a) * std::size_t(length() + 1) + std::size_t(c)]; }
    // The time of the forwards of positions a+1..c. After prepare().
    double forwards(int a, int c) const { return m_forwards[std::size_t(c)] - m_forwards[std::size_t(a)]; }

private:
    // Whether s is of no more use once j = s + 1 is computed from it: the caller does not need it, and (s, j] is then
    // reversed by j's backward alone, which reads neither s nor a recomputed j. The rest of (s, t] then has s's room.
    bool passedOver(int s, int j, int hl, int keep) const {
        return !keep && j == s + 1 && node[std::size_t(s)] >= 0 && !needsIn[std::size_t(j)] &&
               (hl || !needsOut[std::size_t(j)]);
    }
    // Whether t's backward runs after s's output is freed: no one needs it after, and t's backward does not read it.
    bool dropsInput(int s, int t, int keep) const {
        return !keep && node[std::size_t(s)] >= 0 && !needsIn[std::size_t(t)];
    }
    std::size_t index(int s, int t, int ht, int m, int keep) const {
        const std::size_t n = std::size_t(length() + 1);
        return (((std::size_t(s) * n + std::size_t(t)) * 2 + std::size_t(ht)) * 2 + std::size_t(keep)) *
                   std::size_t(m_slots + 1) +
               std::size_t(m);
    }
    int m_slots = 0;
    std::vector<double> m_memo;
    std::vector<int> m_how;
    std::vector<char> m_whole;      // per (s, t, ht, keep): every m computed
    std::vector<double> m_forwards; // [v]: the forwards of positions 1..v
    std::vector<int> m_sweep;       // [a * (length + 1) + c]: sweepPeak(a, c)
};

// A branch's reversal from its checkpoints (the W table of the file's comment), for one (avail, allowance).
struct BranchTable {
    int length = 0, slots = 0;
    std::vector<double> w; // [(c * 2 + ht) * (slots + 1) + h]
    std::vector<int> how;  // previous checkpoint c' * 2 + hl
    std::size_t cell(int c, int h, int ht) const {
        return (std::size_t(c) * 2 + std::size_t(ht)) * std::size_t(slots + 1) + std::size_t(h);
    }
    double at(int c, int h, int ht) const { return w[cell(c, h, ht)]; }
};

// resweep: the branch's end is swept again from its last checkpoint before the join's backward (its sweep's time is
// added at the top).
BranchTable branchTable(Part& p, int slots, int avail, int allowance, bool resweep) {
    BranchTable t;
    t.length = p.length();
    t.slots = slots;
    const std::size_t cells = std::size_t(p.length() + 1) * std::size_t(slots + 1) * 2;
    t.w.assign(cells, kInf);
    t.how.assign(cells, -1);
    t.w[t.cell(0, 0, 0)] = t.w[t.cell(0, 0, 1)] = 0;
    // Checkpoints beyond what the reversal or the sweep has room for cannot fit (their cells stay infinite).
    const int most = std::min({slots, avail, allowance});
    if (most < 0) return t;
    for (int c = 1; c <= p.length(); ++c)
        for (int ht = 0; ht <= (p.needsOut[std::size_t(c)] ? 1 : 0); ++ht) {
            double* best = &t.w[t.cell(c, 0, ht)];
            int* how = &t.how[t.cell(c, 0, ht)];
            for (int a = 0; a < c; ++a) {
                const double again = resweep && c == p.length() ? p.forwards(a, c) : 0;
                const int ha = a == 0 ? 0 : p.size[std::size_t(a)];
                // h: the checkpoints before c, a's among them (none before the first segment); the sweep of (a, c]
                // runs with them held.
                const int room = allowance - p.sweepPeak(a, c);
                if (room < 0) continue;
                const int hi = a == 0 ? 0 : std::min(most, room);
                for (int hl = 0; hl <= (a > 0 && p.needsOut[std::size_t(a)] ? 1 : 0); ++hl) {
                    const double* seg = p.slice(a, c, ht, hl); // by the memory it may use: avail - h
                    const double* left = &t.w[t.cell(a, 0, hl)];
                    for (int h = ha; h <= hi; ++h) {
                        const double total = again + seg[avail - h] + left[h - ha];
                        if (total < best[h]) best[h] = total, how[h] = 2 * a + hl;
                    }
                }
            }
        }
    return t;
}

struct Slots {
    std::int64_t unit = 1;
    int total = 0;
    int of(std::int64_t bytes) const { return slotsOf(bytes, unit); }
};

struct Solved {
    double time = kInf;
    GraphSchedule actions;
};

class JoinSolver {
public:
    JoinSolver(const Graph& g, const JoinShape& shape, Slots slots) : m_g(g), m_shape(shape), m_s(slots) {}

    Result<Solved> solve(const std::atomic<bool>* cancel) {
        if (m_shape.branches.size() <= 1) return solveChain();
        if (auto e = prepareParts()) return *e;
        describeBranches();
        if (auto e = reverseBranches(cancel)) return *e;
        const Choice best = joinAndTrunk();
        if (best.A < 0) return Solved{};
        const Reversal reversal = backtrack(best);
        return Solved{best.time, emitPlan(best, reversal)};
    }

private:
    // D[(mask, drop)][A]: the least reversal time of the branches in mask (reversed last, swept first), those in
    // drop dropping their ends, whose checkpoints take A slots.
    struct Cell {
        std::vector<double> time;
        std::vector<std::pair<int, int>> from; // branch, its checkpoint slots
    };
    // The best plan found: its time, the checkpoint slots of the branches, which drop their ends, and whether the
    // join runs once (held) or inside the trunk's chain.
    struct Choice {
        double time = kInf;
        int A = -1, drop = 0;
        bool joinOnce = false;
    };
    struct Segment {
        int a, c, ht, m, hl;
    };
    // The best plan's branches: the order of their reversal (first to last), with their checkpoint slots, and each
    // branch's segments, right to left, and checkpoints.
    struct Reversal {
        std::vector<std::pair<int, int>> order; // branch, slots; the first reversed first
        std::vector<std::vector<Segment>> segments;
        std::vector<std::vector<char>> isCheckpoint;
    };

    int branchCount() const { return int(m_shape.branches.size()); }
    int outputSlots(int v) const { return m_s.of(m_g.node(v).output_bytes); }
    int sumOver(int mask, int drop, const std::vector<std::array<int, 2>>& what) const {
        int s = 0;
        for (int i = 0; i < branchCount(); ++i)
            if (mask & (1 << i)) s += what[std::size_t(i)][(drop >> i) & 1];
        return s;
    }
    int endsOver(int mask) const {
        int s = 0;
        for (int i = 0; i < branchCount(); ++i)
            if (mask & (1 << i)) s += m_end[std::size_t(i)];
        return s;
    }
    Cell& cellOf(int mask, int drop) {
        auto [it, fresh] = m_D.try_emplace({mask, drop});
        if (fresh) {
            it->second.time.assign(std::size_t(m_s.total + 1), kInf);
            it->second.from.assign(std::size_t(m_s.total + 1), {-1, -1});
        }
        return it->second;
    }

    // A chain: rotor's recursion from the data to the loss.
    Result<Solved> solveChain() const {
        const int k = branchCount();
        const int M = m_s.total;
        std::vector<int> all = k ? m_shape.branches.front() : std::vector<int>{};
        all.push_back(m_shape.join);
        all.insert(all.end(), m_shape.trunk.begin(), m_shape.trunk.end());
        Part chain = makePart(all, -1, true);
        if (chain.tableEntries(M) > kMaxTableEntries) return tooLarge(chain.tableEntries(M));
        chain.prepare(M);
        const double time = chain.opt(0, chain.length(), 0, M, 1);
        if (time == kInf) return Solved{};
        Emitter out(m_g);
        chain.emit(0, chain.length(), 0, M, 1, out);
        return Solved{time, out.take()};
    }

    // The branches' parts, the trunk from the join's output (the join run once, held) and from the branch ends (the
    // join in it), with their tables; an error when the tables would be too large.
    std::optional<Error> prepareParts() {
        const int M = m_s.total;
        long long entries = 0;
        for (const std::vector<int>& nodes : m_shape.branches) {
            m_parts.push_back(makePart(nodes, -1, false));
            entries += m_parts.back().tableEntries(M);
        }
        const int J = m_shape.join;
        m_trunk = makePart(m_shape.trunk, J, true);
        std::vector<int> joinAndTrunk{J};
        joinAndTrunk.insert(joinAndTrunk.end(), m_shape.trunk.begin(), m_shape.trunk.end());
        m_whole = makePart(joinAndTrunk, -1, true);
        entries += m_trunk.tableEntries(M) + m_whole.tableEntries(M);
        if (entries > kMaxTableEntries) return tooLarge(entries);
        for (Part& p : m_parts)
            p.prepare(M);
        m_trunk.prepare(M);
        m_whole.prepare(M);
        return std::nullopt;
    }

    // Per branch and variant (0: its end stays from its sweep to the join's backward, as far as the join needs it; 1:
    // dropped after the join's forward, swept again before the join's backward when the join reads it), the slots it
    // holds besides its checkpoints while swept (F), during the trunk (P) and while it waits for its reversal (H).
    void describeBranches() {
        const int k = branchCount();
        const std::size_t nk = static_cast<std::size_t>(k);
        const GraphNode& jn = m_g.node(m_shape.join);
        std::vector<int> keepE(nk);
        m_end.assign(nk, 0);
        m_maxSweep.assign(nk, 0);
        m_P.assign(nk, {});
        m_H.assign(nk, {});
        m_variants.assign(nk, 1);
        for (int i = 0; i < k; ++i) {
            const std::size_t u = std::size_t(i);
            const int e = m_shape.branches[u].back();
            m_end[u] = outputSlots(e);
            keepE[u] = m_g.node(e).needs_output ? 1 : 0;
            const bool joinReads = jn.needs_inputs;
            m_P[u] = {(joinReads || keepE[u]) ? m_end[u] : 0, 0};
            m_H[u] = {m_end[u] * (1 + keepE[u]), joinReads ? m_end[u] * (1 + keepE[u]) : m_end[u]};
            if (joinReads || keepE[u]) m_variants[u] = 2;
            m_maxSweep[u] = m_parts[u].sweepPeak(0, m_parts[u].length());
        }
    }

    // The DP over the subsets of branches reversed last (D, see Cell).
    std::optional<Error> reverseBranches(const std::atomic<bool>* cancel) {
        const int k = branchCount();
        const int M = m_s.total;
        const GraphNode& jn = m_g.node(m_shape.join);
        const int full = (1 << k) - 1;
        cellOf(0, 0).time[0] = 0;
        for (int mask = 0; mask < full; ++mask)
            for (int drop = mask;; drop = (drop - 1) & mask) {
                auto found = m_D.find({mask, drop});
                // A state with more checkpoint slots and no less time is dominated: it leaves the branches still to
                // place, the trunk and the join less memory for nothing. Only the staircase of the others goes on.
                double frontier = kInf;
                if (found != m_D.end())
                    for (int A = 0; A <= M; ++A) {
                        const double here = found->second.time[std::size_t(A)];
                        if (!(here < frontier)) continue;
                        frontier = here;
                        if (cancel && cancel->load(std::memory_order_relaxed)) return fail("join-dp: cancelled");
                        for (int i = 0; i < k; ++i) {
                            if (mask & (1 << i)) continue;
                            for (int v = 0; v < m_variants[std::size_t(i)]; ++v) {
                                const std::vector<double>& T = table(i, v, M - A - sumOver(mask, drop, m_H),
                                                                     M - A - endsOver(mask), jn.needs_inputs);
                                Cell& into = cellOf(mask | (1 << i), drop | (v << i));
                                for (int x = 0; A + x <= M; ++x)
                                    if (here + T[std::size_t(x)] < into.time[std::size_t(A + x)]) {
                                        into.time[std::size_t(A + x)] = here + T[std::size_t(x)];
                                        into.from[std::size_t(A + x)] = {i, x};
                                    }
                            }
                        }
                    }
                if (drop == 0) break;
            }
        return std::nullopt;
    }

    // The join and the trunk, with every branch idle, after each complete state of the DP: the best plan.
    Choice joinAndTrunk() {
        const int k = branchCount();
        const int M = m_s.total;
        const int J = m_shape.join;
        const GraphNode& jn = m_g.node(J);
        const int full = (1 << k) - 1;
        double sweepTime = 0;
        for (const std::vector<int>& nodes : m_shape.branches)
            for (int v : nodes)
                sweepTime += m_g.node(v).forward;
        const int allEnds = endsOver(full);
        m_whole.grad0 = allEnds; // the join's backward gives every branch end its gradient
        const bool hasTrunk = !m_shape.trunk.empty();
        const int ws = m_s.of(jn.workspace_bytes);
        Choice best;
        for (auto& [key, cell] : m_D) {
            if (key.first != full) continue;
            const int drop = key.second;
            const int allP = sumOver(full, drop, m_P);
            for (int A = 0; A <= M; ++A) {
                const double d = cell.time[std::size_t(A)];
                if (d == kInf) continue;
                if (drop == 0) { // the join and the trunk reversed as one chain from the held branch ends
                    const double tw = m_whole.opt(0, m_whole.length(), 0, M - A - allEnds, 1);
                    if (sweepTime + tw + d < best.time) best = {sweepTime + tw + d, A, 0, false};
                }
                // The join run once and held.
                if (A + allEnds + outputSlots(J) + ws > M) continue; // the join's forward
                double tr = 0;
                if (hasTrunk)
                    tr = m_trunk.opt(0, m_trunk.length(), 0, M - A - allP - outputSlots(J), jn.needs_output ? 1 : 0);
                if (tr == kInf) continue;
                // Before the join's backward: the join's output if its backward needs it, its gradient from the
                // trunk, and the dropped ends swept again one by one (each checked as if it came last).
                int before = A + allP + (jn.needs_output ? outputSlots(J) : 0) + (hasTrunk ? outputSlots(J) : 0);
                bool fits = true;
                if (jn.needs_inputs) {
                    const int dropped = endsOver(drop);
                    for (int i = 0; i < k; ++i)
                        if ((drop >> i) & 1)
                            fits = fits && before + dropped - m_end[std::size_t(i)] + m_maxSweep[std::size_t(i)] <= M;
                    before += dropped;
                }
                if (!fits || before + ws + (hasTrunk ? 0 : outputSlots(J)) + allEnds > M) continue;
                const double once = sweepTime + jn.forward + jn.backward + tr + d;
                if (once < best.time) best = {once, A, drop, true};
            }
        }
        return best;
    }

    // Back through the DP: the order of reversal (first to last), each branch's checkpoint slots, and, from its
    // table, its segments.
    Reversal backtrack(const Choice& best) {
        const int k = branchCount();
        const int M = m_s.total;
        const std::size_t nk = static_cast<std::size_t>(k);
        const bool joinReads = m_g.node(m_shape.join).needs_inputs;
        Reversal out;
        std::vector<int> masks;
        for (int mask = (1 << k) - 1, A = best.A; mask;) {
            auto [i, x] = m_D[{mask, best.drop & mask}].from[std::size_t(A)];
            out.order.push_back({i, x});
            mask &= ~(1 << i);
            A -= x;
            masks.push_back(mask);
        }
        out.segments.resize(nk);
        out.isCheckpoint.resize(nk);
        for (int r = k - 1, A = 0; r >= 0; --r) { // the reversed-last first, as the DP built them
            const int i = out.order[std::size_t(r)].first, x = out.order[std::size_t(r)].second;
            const int mask = masks[std::size_t(r)], v = (best.drop >> i) & 1;
            const int avail = M - A - sumOver(mask, best.drop & mask, m_H);
            Part& p = m_parts[std::size_t(i)];
            BranchTable t = branchTable(p, M, avail, M - A - endsOver(mask), v && joinReads);
            out.isCheckpoint[std::size_t(i)].assign(std::size_t(p.length() + 1), 0);
            for (int c = p.length(), h = x, ht = topHeld(i, v); c > 0;) {
                const int how = t.how[t.cell(c, h, ht)];
                const int a = how / 2, hl = how % 2;
                out.segments[std::size_t(i)].push_back({a, c, ht, avail - h, hl});
                if (a > 0) out.isCheckpoint[std::size_t(i)][std::size_t(a)] = 1;
                h -= a == 0 ? 0 : p.size[std::size_t(a)];
                c = a;
                ht = hl;
            }
            A += x;
        }
        return out;
    }

    // The plan's actions: the branches' sweeps, the join and the trunk, then the branches' reversals.
    GraphSchedule emitPlan(const Choice& best, const Reversal& rev) {
        const int k = branchCount();
        const int M = m_s.total;
        const int J = m_shape.join;
        const GraphNode& jn = m_g.node(J);
        Emitter out(m_g);
        for (int r = k - 1; r >= 0; --r) { // sweep: the branch reversed last first
            const int i = rev.order[std::size_t(r)].first;
            const Part& p = m_parts[std::size_t(i)];
            for (int v = 1; v <= p.length(); ++v) {
                out.forward(p.node[std::size_t(v)]);
                if (v > 1 && !rev.isCheckpoint[std::size_t(i)][std::size_t(v - 1)])
                    out.free(p.node[std::size_t(v - 1)]);
            }
        }
        if (best.joinOnce) {
            out.forward(J);
            for (int i = 0; i < k; ++i)
                if (!m_P[std::size_t(i)][(best.drop >> i) & 1]) out.free(m_shape.branches[std::size_t(i)].back());
            if (!m_shape.trunk.empty())
                m_trunk.emit(0, m_trunk.length(), 0,
                             M - best.A - sumOver((1 << k) - 1, best.drop, m_P) - outputSlots(J),
                             jn.needs_output ? 1 : 0, out);
            if (jn.needs_inputs)
                for (int i = 0; i < k; ++i)
                    if ((best.drop >> i) & 1) { // the end again, from the branch's last checkpoint
                        const Part& p = m_parts[std::size_t(i)];
                        const int a = rev.segments[std::size_t(i)].front().a;
                        for (int v = a + 1; v <= p.length(); ++v) {
                            out.forward(p.node[std::size_t(v)]);
                            if (v - 1 > a) out.free(p.node[std::size_t(v - 1)]);
                        }
                    }
            out.backward(J);
        } else {
            m_whole.emit(0, m_whole.length(), 0, M - best.A - endsOver((1 << k) - 1), 1, out);
        }
        for (int r = 0; r < k; ++r) {
            const int i = rev.order[std::size_t(r)].first;
            Part& p = m_parts[std::size_t(i)];
            for (const Segment& seg : rev.segments[std::size_t(i)]) {
                p.emit(seg.a, seg.c, seg.ht, seg.m, seg.hl, out);
                if (seg.a > 0 && !seg.hl) out.free(p.node[std::size_t(seg.a)]);
            }
        }
        return out.take();
    }
    Error tooLarge(long long entries) const {
        return overLimit("join-dp: " + std::to_string(m_g.size()) + " nodes at " + std::to_string(m_s.total) +
                         " memory slots need " + std::to_string(entries) + " table entries (at most " +
                         std::to_string(kMaxTableEntries) + "); use fewer slots");
    }

    // Whether a branch's end is held when its reversal starts: when its backward needs it, unless it was dropped
    // and the join's backward did not need it back.
    int topHeld(int i, int variant) const {
        const bool keep = m_g.node(m_shape.branches[std::size_t(i)].back()).needs_output;
        return keep && (variant == 0 || m_g.node(m_shape.join).needs_inputs) ? 1 : 0;
    }

    Part makePart(const std::vector<int>& nodes, int start, bool loss) const {
        Part p;
        auto add = [&](int v) {
            const GraphNode& n = m_g.node(v);
            p.node.push_back(v);
            p.size.push_back(m_s.of(n.output_bytes));
            p.wsf.push_back(m_s.of(n.workspace_bytes));
            p.wsb.push_back(m_s.of(n.workspace_bytes));
            p.f.push_back(n.forward);
            p.b.push_back(n.backward);
            p.needsOut.push_back(n.needs_output);
            p.needsIn.push_back(n.needs_inputs);
        };
        // Position 0: nothing (a branch's data) or the join.
        p.node.push_back(start);
        p.size.push_back(start < 0 ? 0 : m_s.of(m_g.node(start).output_bytes));
        p.wsf.push_back(0);
        p.wsb.push_back(0);
        p.f.push_back(0);
        p.b.push_back(0);
        p.needsOut.push_back(0);
        p.needsIn.push_back(1);
        for (int v : nodes)
            add(v);
        p.grad0 = p.size[0];
        p.lossAtEnd = loss;
        return p;
    }

    const std::vector<double>& table(int i, int variant, int avail, int allowance, bool joinReads) {
        const auto key = std::make_tuple(i, variant, avail, allowance);
        auto it = m_tables.find(key);
        if (it != m_tables.end()) return it->second;
        std::vector<double> T(std::size_t(m_s.total + 1), kInf);
        if (avail >= 0 && allowance >= 0) {
            BranchTable t = branchTable(m_parts[std::size_t(i)], m_s.total, avail, allowance, variant && joinReads);
            const int e = m_parts[std::size_t(i)].length();
            for (int x = 0; x <= m_s.total; ++x)
                T[std::size_t(x)] = t.at(e, x, topHeld(i, variant));
        }
        return m_tables.emplace(key, std::move(T)).first->second;
    }

    const Graph& m_g;
    const JoinShape& m_shape;
    Slots m_s;
    std::vector<Part> m_parts;
    Part m_trunk, m_whole; // the trunk from the join's output; the join and the trunk from the branch ends
    std::vector<int> m_end, m_maxSweep, m_variants; // per branch: its end's slots, its sweep's peak, its variants
    std::vector<std::array<int, 2>> m_P, m_H;       // per branch and variant (see describeBranches)
    std::map<std::pair<int, int>, Cell> m_D;
    std::map<std::tuple<int, int, int, int>, std::vector<double>> m_tables;
};

Slots slotsFor(std::int64_t limit, int slots) {
    Slots s;
    s.unit = std::max<std::int64_t>(1, (limit + slots - 1) / slots);
    s.total = int(limit / s.unit);
    return s;
}

// A budget every plan of the class fits: everything held, every gradient, the largest workspace.
std::int64_t roomyLimit(const Graph& g) {
    std::int64_t sum = 0, ws = 0;
    for (const GraphNode& n : g.nodes())
        sum += 2 * n.output_bytes, ws = std::max(ws, n.workspace_bytes);
    return std::max<std::int64_t>(1, sum + ws);
}

// The graph's join shape, or why join-dp cannot plan it.
Result<JoinShape> joinDpShape(const Graph& g) {
    auto shape = joinShape(g);
    if (!shape)
        return fail("join-dp plans join graphs (chains that merge at one node, then a chain to the loss): " +
                    shape.error());
    if (int(shape->branches.size()) > kMaxBranches)
        return fail("join-dp: node " + quoted(g, shape->join) + " merges " + std::to_string(shape->branches.size()) +
                    " branches (at most " + std::to_string(kMaxBranches) + ")");
    return shape;
}

} // namespace

Result<GraphPlan> joinDp(const Graph& g, std::int64_t limit, int slots, const std::atomic<bool>* cancel) {
    auto shape = joinDpShape(g);
    if (!shape) return shape.errorValue();
    // The tables grow with the square of each chain part's length times the slots: fewer slots on long parts.
    long long perSlot = 0;
    if (shape->branches.size() <= 1) {
        perSlot = (long long)(g.size() + 1) * (g.size() + 1);
    } else {
        for (const std::vector<int>& b : shape->branches)
            perSlot += (long long)(b.size() + 1) * (long long)(b.size() + 1);
        const long long t = (long long)shape->trunk.size();
        perSlot += (t + 1) * (t + 1) + (t + 2) * (t + 2);
    }
    const long long fitting = kMaxTableEntries / (4 * perSlot) - 1;
    if (fitting < 8)
        return overLimit("join-dp: a join of " + std::to_string(g.size()) + " nodes needs tables of more than " +
                         std::to_string(kMaxTableEntries) + " entries even at 8 memory slots");
    const int requested = slots;
    slots = int(std::min<long long>(slots, fitting));
    auto run = [&](std::int64_t bytes, int count) -> Result<Solved> {
        JoinSolver solver(g, *shape, slotsFor(bytes, count));
        return solver.solve(cancel);
    };
    const std::int64_t effective = limit > 0 ? limit : roomyLimit(g);
    auto solved = run(effective, slots);
    if (!solved) return solved.errorValue();
    if (solved->time == kInf) {
        // The least budget the class fits, to a slot of 64: bisection between this budget and one that surely fits.
        const int coarse = std::min(slots, 64);
        std::int64_t lo = effective, hi = std::max(effective, roomyLimit(g));
        for (int step = 0; step < 40 && hi - lo > std::max<std::int64_t>(1, hi / coarse); ++step) {
            const std::int64_t mid = lo + (hi - lo) / 2;
            auto r = run(mid, coarse);
            if (!r) return r.errorValue();
            (r->time == kInf ? lo : hi) = mid;
        }
        const ByteUnits units = unitsOf(double(effective));
        return infeasible("join-dp: no plan of its class fits " + formatBytes(double(effective), units) +
                          "; it needs about " + formatBytes(double(hi), units));
    }
    GraphPlan plan;
    plan.actions = std::move(solved->actions);
    plan.predicted_makespan_s = solved->time;
    plan.predicted_peak_bytes = limit > 0 ? limit : 0;
    plan.params["branches"] = std::to_string(shape->branches.size());
    if (shape->branches.size() > 1) {
        // The branches by their last nodes, in the order the plan reverses them.
        const std::vector<int> rank = branchReversalRank(g, *shape, plan.actions);
        std::string order;
        for (std::size_t r = 1; r <= rank.size(); ++r)
            for (std::size_t i = 0; i < rank.size(); ++i)
                if (rank[i] == int(r)) order += (order.empty() ? "" : ",") + g.node(shape->branches[i].back()).id;
        plan.params["branch_order"] = order;
    }
    plan.params["slot_bytes"] = std::to_string(slotsFor(effective, slots).unit);
    if (slots < requested) plan.params["slots_used"] = std::to_string(slots); // the tables' limit
    return plan;
}

GraphSchedulerInfo joinDpScheduler() {
    GraphSchedulerInfo s;
    s.name = "join-dp";
    s.description = "Join graphs (branches merging at one node, then a chain): the optimal branch order and "
                    "checkpoints, each chain part by rotor's recursion; never slower than checkmate when guarded";
    s.paper = "Beaumont, Herrmann, Pallez, Shilova 2020, \"Optimal memory-aware backpropagation of deep join "
              "networks\"";
    s.optimality = Optimality::Optimal;
    s.params = {{.name = "slots",
                 .description =
                     "memory is counted in this many slots of the budget (sizes rounded up, so plans always fit; fewer "
                     "on long chain parts, where the tables would pass " +
                     std::to_string(kMaxTableEntries) + " entries)",
                 .type = ParamType::Int,
                 .default_value = "500",
                 .min = 8,
                 .max = 2000},
                {.name = "guard",
                 .description =
                     "checkmate: also solve checkmate's MILP and return its plan when faster (a plan outside join-dp's "
                     "class: a checkpoint dropped and rebuilt, branches interleaved); auto: only up to " +
                     std::to_string(kAutoGuardNodes) + " nodes, where the MILP is quick; none: join-dp's class only",
                 .type = ParamType::Choice,
                 .default_value = "auto",
                 .choices = {"auto", "checkmate", "none"}},
                milpTimeLimitParam(),
                milpNodeLimitParam()};
    s.lacks = [](const Graph& g) {
        auto shape = joinDpShape(g);
        return shape ? std::string() : shape.error();
    };
    s.solve = [](const Graph& g, const Hardware& hw, const Params& p,
                 const GraphSolveContext& ctx) -> Result<GraphPlan> {
        const std::int64_t limit = levelZeroLimit(hw, ctx.budget);
        auto plan = joinDp(g, limit, int(p.integer("slots")), ctx.cancel);
        const std::string& guard = p.text("guard");
        if (guard == "none" || (guard == "auto" && g.size() > kAutoGuardNodes)) return plan;
        if (!plan && !plan.errorValue().infeasible) return plan; // not a join graph, or cancelled
        auto milp = checkmateWithin(g, limit, p, ctx);
        if (!milp) {
            if (plan) plan->params["guard"] = "checkmate found no plan (" + milp.error() + ")";
            return plan;
        }
        auto simulated = simulateGraph(g, milp->actions);
        if (!simulated) return fail("join-dp: checkmate's plan does not validate: " + simulated.error());
        if (plan && simulated->totals.makespan_s >= plan->predicted_makespan_s - 1e-12) {
            plan->params["guard"] = "checkmate is not faster (" + formatSeconds(simulated->totals.makespan_s) + ")";
            return plan;
        }
        GraphPlan out = std::move(*milp);
        out.params["guard"] =
            plan ? "checkmate's plan, faster than join-dp's class (" + formatSeconds(plan->predicted_makespan_s) + ")"
                 : "checkmate's plan; join-dp's class has none within the budget";
        return out;
    };
    return s;
}

} // namespace ckpt
