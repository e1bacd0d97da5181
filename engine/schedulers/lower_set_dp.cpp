// Kusumoto et al. 2019's DP over lower sets, in the simulator's memory model: a label-setting search from ∅ to V in
// which each lower set keeps the Pareto front of (time, bytes of checkpoints kept so far) over its feasible prefixes.
#include "schedulers/lower_set_dp.h"

#include "schedulers/fit.h"
#include "schedulers/graph_fit.h"

#include <algorithm>

namespace ckpt {
namespace {

// Lower sets as bit rows, sorted by size, so that every strict superset comes later.
struct Family {
    int words = 0;
    std::vector<std::vector<std::uint64_t>> rows;
    std::vector<int> size;

    bool has(int set, int v) const { return (rows[std::size_t(set)][std::size_t(v >> 6)] >> (v & 63)) & 1u; }
    bool subset(int a, int b) const {
        for (int w = 0; w < words; ++w)
            if (rows[std::size_t(a)][std::size_t(w)] & ~rows[std::size_t(b)][std::size_t(w)]) return false;
        return true;
    }
    void finish() {
        auto count = [](const std::vector<std::uint64_t>& r) {
            int c = 0;
            for (std::uint64_t x : r)
                c += __builtin_popcountll(x);
            return c;
        };
        std::sort(rows.begin(), rows.end(), [&](const auto& x, const auto& y) {
            int cx = count(x), cy = count(y);
            return cx != cy ? cx < cy : x < y;
        });
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        size.clear();
        for (const auto& r : rows)
            size.push_back(count(r));
    }
};

// Every lower set: in topological order, each node is left out, or taken when all its inputs were taken.
// Returns their count; past kMaxLowerSets they are only counted (to kCountedLowerSets + 1, then it stops).
long long allLowerSets(const Graph& g, Family& f) {
    const int n = g.size();
    const auto& order = g.topologicalOrder();
    std::vector<std::uint64_t> row(std::size_t(f.words), 0);
    auto in = [&](int v) { return (row[std::size_t(v >> 6)] >> (v & 63)) & 1u; };
    auto set = [&](int v, bool on) {
        std::uint64_t bit = std::uint64_t(1) << (v & 63);
        row[std::size_t(v >> 6)] = on ? row[std::size_t(v >> 6)] | bit : row[std::size_t(v >> 6)] & ~bit;
    };
    std::vector<char> tried(std::size_t(n), 0); // 0: fresh, 1: taken, 2: left out
    long long count = 0;
    for (int p = 0; p >= 0;) {
        if (p == n) {
            if (++count > kCountedLowerSets) return count;
            if (count <= kMaxLowerSets) f.rows.push_back(row);
            --p;
            continue;
        }
        const int v = order[std::size_t(p)];
        if (tried[std::size_t(p)] == 0) {
            tried[std::size_t(p)] = 1;
            bool ready = true;
            for (int u : g.inputs(v))
                ready = ready && in(u);
            if (ready) {
                set(v, true), ++p;
                continue;
            }
        }
        if (tried[std::size_t(p)] == 1) {
            tried[std::size_t(p)] = 2, set(v, false), ++p;
            continue;
        }
        tried[std::size_t(p)] = 0, --p;
    }
    return count;
}

void ancestorClosures(const Graph& g, Family& f) {
    std::vector<std::vector<std::uint64_t>> anc(std::size_t(g.size()),
                                                std::vector<std::uint64_t>(std::size_t(f.words)));
    for (int v : g.topologicalOrder()) {
        auto& a = anc[std::size_t(v)];
        a[std::size_t(v >> 6)] |= std::uint64_t(1) << (v & 63);
        for (int u : g.inputs(v))
            for (int w = 0; w < f.words; ++w)
                a[std::size_t(w)] |= anc[std::size_t(u)][std::size_t(w)];
    }
    f.rows = std::move(anc);
    std::vector<std::uint64_t> all(std::size_t(f.words), 0);
    for (int v = 0; v < g.size(); ++v)
        all[std::size_t(v >> 6)] |= std::uint64_t(1) << (v & 63);
    f.rows.push_back(std::vector<std::uint64_t>(std::size_t(f.words), 0));
    f.rows.push_back(all);
}

// One transition L -> L' (segment V = L' \ L): its time, the checkpoint bytes it adds, and its peak over the phases it
// decides, without the checkpoints kept by earlier segments (at most the label's count, added by the DP).
struct Move {
    double time = 0;
    std::int64_t checkpoints = 0;
    std::int64_t peak = 0;
};

class Transitions {
public:
    Transitions(const Graph& graph, const Family& family) : g(graph), f(family), n(graph.size()) {
        const auto& order = g.topologicalOrder();
        pos.assign(std::size_t(n), 0), lastUse.assign(std::size_t(n), -1);
        for (int p = 0; p < n; ++p)
            pos[std::size_t(order[std::size_t(p)])] = p;
        for (int v = 0; v < n; ++v)
            for (int c : g.consumers(v))
                lastUse[std::size_t(v)] = std::max(lastUse[std::size_t(v)], pos[std::size_t(c)]);
        held.assign(std::size_t(n), 0), grad = done = computed = need = kept = where = held;
        cut.assign(std::size_t(n) + 1, 0);
    }

    // The phases of segment V mirror segmentPlan and the simulator: what is held at the start of its backward phase
    // (its checkpoints still alive, or in the last segment what a backward needs), the gradients of the nodes of L'
    // with a consumer outside it, the rebuild, then each backward with the gradients it creates. For the last
    // segment, the forward phase too (see forwardBound).
    Move move(int a, int b) {
        const bool last = f.size[std::size_t(b)] == n;
        for (int v = 0; v < n; ++v) // 0: after L', 1: in L, 2: in V
            where[std::size_t(v)] = char(f.has(b, v) ? (f.has(a, v) ? 1 : 2) : 0);
        auto inL = [&](int v) { return where[std::size_t(v)] == 1; };
        auto inLp = [&](int v) { return where[std::size_t(v)] != 0; };
        auto inV = [&](int v) { return where[std::size_t(v)] == 2; };
        const auto& order = g.topologicalOrder();
        std::fill(held.begin(), held.end(), 0), std::fill(done.begin(), done.end(), 0);
        Move m;
        std::int64_t cur = 0;
        for (int v = 0; v < n; ++v) {
            if (!inLp(v)) {
                done[std::size_t(v)] = 1; // reversed in an earlier phase
                continue;
            }
            const GraphNode& node = g.node(v);
            bool outside = false, inside = false;
            for (int c : g.consumers(v))
                (inLp(c) ? inside : outside) = true;
            grad[std::size_t(v)] = outside;
            if (outside) cur += node.output_bytes;
            if (!inV(v)) continue;
            m.time += node.forward + node.backward;
            if (outside) m.checkpoints += node.output_bytes;
            held[std::size_t(v)] = last ? neededByBackward(g, v) : outside && (node.needs_output || inside);
            if (held[std::size_t(v)]) cur += node.output_bytes;
        }
        m.peak = cur;
        auto dead = [&](int v) {
            for (int c : g.consumers(v))
                if (!done[std::size_t(c)]) return false;
            return done[std::size_t(v)] || !g.node(v).needs_output;
        };
        auto release = [&](int v) {
            if (held[std::size_t(v)]) held[std::size_t(v)] = 0, cur -= g.node(v).output_bytes;
        };
        if (last) {
            m.peak = std::max(m.peak, forwardBound(inL, inV));
        } else {
            // What the backward needs, from the end back, then rebuild the needed outputs that are not held.
            for (auto it = order.rbegin(); it != order.rend(); ++it) {
                const int v = *it;
                if (!inV(v)) continue;
                bool nv = g.node(v).needs_output;
                for (int c : g.consumers(v))
                    if (inV(c) && (g.node(c).needs_inputs || (need[std::size_t(c)] && !held[std::size_t(c)])))
                        nv = true;
                need[std::size_t(v)] = nv;
                computed[std::size_t(v)] = held[std::size_t(v)] || !nv;
            }
            for (int v : order) {
                if (!inV(v) || computed[std::size_t(v)]) continue;
                const GraphNode& node = g.node(v);
                m.time += node.forward;
                m.peak = std::max(m.peak, cur + node.output_bytes + node.workspace_bytes);
                cur += node.output_bytes, held[std::size_t(v)] = 1, computed[std::size_t(v)] = 1;
                if (dead(v)) release(v);
                for (int u : g.inputs(v)) {
                    if (!inV(u) || !held[std::size_t(u)] || neededByBackward(g, u)) continue;
                    bool unused = true, checkpoint = false;
                    for (int c : g.consumers(u))
                        unused = unused && (computed[std::size_t(c)] || !inV(c)), checkpoint = checkpoint || !inV(c);
                    if (unused && !checkpoint) release(u);
                }
            }
        }
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const int v = *it;
            if (!inV(v)) continue;
            const GraphNode& node = g.node(v);
            std::int64_t add = node.workspace_bytes + (g.consumers(v).empty() ? node.output_bytes : 0);
            for (int u : g.inputs(v))
                if (!grad[std::size_t(u)]) grad[std::size_t(u)] = 1, add += g.node(u).output_bytes;
            m.peak = std::max(m.peak, cur + add);
            cur += add - node.workspace_bytes - node.output_bytes;
            grad[std::size_t(v)] = 0, done[std::size_t(v)] = 1;
            release(v);
            for (int u : g.inputs(v))
                if (inV(u) && dead(u)) release(u);
        }
        return m;
    }

private:
    const Graph& g;
    const Family& f;
    const int n;
    std::vector<int> pos, lastUse;
    std::vector<char> held, grad, done, computed, need, kept, where;
    std::vector<std::int64_t> cut;

    // The forward phase runs the whole graph in topological order, segments interleaved. When node p runs, memory
    // holds the checkpoints computed so far (at most C, which the DP adds), the last segment's outputs that a backward
    // needs computed so far (LN, kept to its backward), the other outputs computed before p with a consumer at p or
    // later, and p's output and workspace. Of those others, the nodes of K0 = (L's nodes with a consumer in V) + LN
    // are known to be counted already; the rest may be checkpoints too, counted twice: an upper bound, exact for one
    // segment (L = ∅).
    template <typename InL, typename InV> std::int64_t forwardBound(const InL& inL, const InV& inV) {
        std::vector<char>& needed = need;
        for (int v = 0; v < n; ++v) {
            bool boundary = false;
            if (inL(v))
                for (int c : g.consumers(v))
                    boundary = boundary || !inL(c);
            needed[std::size_t(v)] = inV(v) && held[std::size_t(v)];
            kept[std::size_t(v)] = boundary || needed[std::size_t(v)];
        }
        std::fill(cut.begin(), cut.end(), 0);
        for (int u = 0; u < n; ++u)
            if (!kept[std::size_t(u)] && lastUse[std::size_t(u)] >= 0) {
                cut[std::size_t(pos[std::size_t(u)] + 1)] += g.node(u).output_bytes;
                cut[std::size_t(lastUse[std::size_t(u)] + 1)] -= g.node(u).output_bytes;
            }
        std::int64_t running = 0, ln = 0, worst = 0;
        const auto& order = g.topologicalOrder();
        for (int p = 0; p < n; ++p) {
            const int v = order[std::size_t(p)];
            const GraphNode& node = g.node(v);
            running += cut[std::size_t(p)];
            if (needed[std::size_t(v)]) ln += node.output_bytes;
            const std::int64_t own = kept[std::size_t(v)] ? 0 : node.output_bytes;
            worst = std::max(worst, ln + running + own + node.workspace_bytes);
        }
        return worst;
    }
};

// The search's estimated work over `sets` lower sets of which `nested` pairs are nested (see kMaxSearchSteps).
double pairSteps(const Graph& g, double sets, double nested) {
    return sets * (sets - 1) / 2 + nested * (double(g.size()) + double(g.edges().size()));
}

// The same over the family as built, its nested pairs counted. Every lower set: pair by pair. Ancestor closures (after
// finish, ∅ first and V last): the closure of u lies in a lower set exactly when u does, so a closure holds ∅ and the
// closures of its other nodes, size-many, and V holds ∅ and the n closures (n - 1 others when V is one of them).
double searchSteps(const Graph& g, const Family& f, LowerSetFamily family) {
    const std::size_t count = f.rows.size();
    double nested = 0;
    if (family == LowerSetFamily::Approximate) {
        for (std::size_t b = 1; b + 1 < count; ++b)
            nested += f.size[b];
        nested += count == std::size_t(g.size()) + 2 ? double(g.size()) + 1 : double(g.size());
    } else {
        for (std::size_t a = 0; a < count; ++a)
            for (std::size_t b = a + 1; b < count; ++b)
                nested += f.size[a] < f.size[b] && f.subset(int(a), int(b));
    }
    return pairSteps(g, double(count), nested);
}

struct Label {
    double time = 0;
    std::int64_t checkpoints = 0;
    std::int64_t peak = 0;       // the largest modelled peak along the path (the objective when minimising memory)
    int prevSet = -1, prev = -1; // the label this one extends: its lower set and its place in that set's front
};

enum class Goal { Time, Peak };

// Each lower set's front, sorted by the goal with the checkpoint bytes strictly falling. A set's front is final once
// the search reaches it (every subset is smaller, so searched before): a label refers to its predecessor by place,
// and a label dropped from a front that is not final yet is gone for good. Memory is the fronts' size, not every
// label ever made (which took 2.2 GB on DenseNet-121).
struct Search {
    std::vector<std::vector<Label>> front;
    int best = -1; // in the front of V, or -1
    bool cancelled = false;
};

double primary(const Label& l, Goal goal) {
    return goal == Goal::Time ? l.time : double(l.peak);
}

// Label-setting over the family in order of size. A label is dropped when another at the same lower set is no worse
// in the goal and keeps no more checkpoint bytes: every continuation costs the same time and adds the same bytes.
// With a grain, "no more" allows `grain` bytes more, both ways: the fronts then hold at most (their range of
// checkpoint bytes) / grain labels, where exact fronts grow with the budget (DenseNet-121's took 93 s at 90 % of
// store-all's peak); a plan may lose what a label at most `grain` leaner would have reached.
Search search(const Graph& g, const Family& f, std::int64_t limit, Goal goal, std::int64_t grain,
              const std::atomic<bool>* cancel) {
    Search s;
    const int count = int(f.rows.size());
    s.front.assign(std::size_t(count), {});
    Transitions tr(g, f);
    s.front[0].push_back(Label{});
    for (int a = 0; a + 1 < count; ++a) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            s.cancelled = true;
            return s;
        }
        const auto& fa = s.front[std::size_t(a)];
        if (fa.empty()) continue;
        std::int64_t leanest = fa.front().checkpoints;
        for (const Label& l : fa)
            leanest = std::min(leanest, l.checkpoints);
        for (int b = a + 1; b < count; ++b) {
            if (f.size[std::size_t(b)] == f.size[std::size_t(a)] || !f.subset(a, b)) continue;
            const Move m = tr.move(a, b);
            if (limit > 0 && leanest + m.peak > limit) continue;
            auto& fb = s.front[std::size_t(b)];
            for (std::size_t i = 0; i < fa.size(); ++i) {
                const Label& from = fa[i];
                const std::int64_t peak = from.checkpoints + m.peak;
                if (limit > 0 && peak > limit) continue;
                const Label next{from.time + m.time, from.checkpoints + m.checkpoints, std::max(from.peak, peak), a,
                                 int(i)};
                // The label before the insertion point is the only one that may dominate; those after it that it
                // dominates come first.
                const double key = primary(next, goal);
                auto after = std::upper_bound(fb.begin(), fb.end(), key,
                                              [&](double k, const Label& l) { return k < primary(l, goal); });
                if (after != fb.begin() && (after - 1)->checkpoints <= next.checkpoints + grain) continue;
                auto lo = std::lower_bound(fb.begin(), fb.end(), key,
                                           [&](const Label& l, double k) { return primary(l, goal) < k; });
                auto hi = lo;
                while (hi != fb.end() && hi->checkpoints >= next.checkpoints - grain)
                    ++hi;
                *fb.insert(fb.erase(lo, hi), Label{}) = next;
            }
        }
    }
    const auto& all = s.front[std::size_t(count - 1)];
    for (std::size_t j = 0; j < all.size(); ++j) {
        const Label& l = all[j];
        if (s.best < 0 || primary(l, goal) < primary(all[std::size_t(s.best)], goal) ||
            (primary(l, goal) == primary(all[std::size_t(s.best)], goal) && l.peak < all[std::size_t(s.best)].peak))
            s.best = int(j);
    }
    return s;
}

} // namespace

Result<GraphPlan> lowerSetDp(const Graph& g, std::int64_t limit, LowerSetFamily family,
                             const std::atomic<bool>* cancel) {
    const int n = g.size();
    const char* name = family == LowerSetFamily::Exact ? "lower-set-dp (exact)" : "lower-set-dp (approximate)";
    if (n == 0) return GraphPlan{};
    // One segment, nothing rebuilt: the fastest plan there is, and the answer whenever it fits (no budget, or one
    // past its modelled peak), found without the family's search, so a larger budget never costs more time.
    Family f;
    f.words = (n + 63) / 64;
    f.rows = {std::vector<std::uint64_t>(std::size_t(f.words), 0), std::vector<std::uint64_t>(std::size_t(f.words))};
    for (int v = 0; v < n; ++v)
        f.rows[1][std::size_t(v >> 6)] |= std::uint64_t(1) << (v & 63);
    f.finish();
    Search s = search(g, f, limit, Goal::Time, 0, cancel);
    if (s.best < 0 && limit > 0) {
        f = Family{};
        f.words = (n + 63) / 64;
        // Refused before the family is built: the approximate family's closures take n^2 / 8 bytes, and a graph has
        // at least n + 1 lower sets, the prefixes of a topological order, all nested.
        const std::string hint = "try dtr or chen-greedy, which scale to 1e5 nodes";
        if (family == LowerSetFamily::Approximate && n > kMaxClosureNodes)
            return overLimit(std::string(name) + ": the graph has " + std::to_string(n) + " nodes, over its limit of " +
                             std::to_string(kMaxClosureNodes) + " (its ancestor closures take n^2 / 8 bytes); " + hint);
        if (const double least = double(n) + 1, steps = pairSteps(g, least, least * (least - 1) / 2);
            family == LowerSetFamily::Exact && steps > kMaxSearchSteps)
            return tooLarge(name, steps, kMaxSearchSteps,
                            "steps of its search over at least " + std::to_string(n + 1) + " lower sets", hint);
        if (family == LowerSetFamily::Exact) {
            if (long long count = allLowerSets(g, f); count > kMaxLowerSets)
                return overLimit(std::string(name) + ": the graph has " +
                                 (count > kCountedLowerSets ? "more than " + std::to_string(kCountedLowerSets)
                                                            : std::to_string(count)) +
                                 " lower sets, over the exact variant's limit of " + std::to_string(kMaxLowerSets) +
                                 " (its work grows with their square); use variant=approximate");
        } else {
            ancestorClosures(g, f);
        }
        f.finish();
        if (const double steps = searchSteps(g, f, family); steps > kMaxSearchSteps)
            return tooLarge(name, steps, kMaxSearchSteps,
                            "steps of its search over " + std::to_string(f.rows.size()) + " lower sets", hint);
        // Approximate fronts keep labels a 1/kFrontLabels of the budget apart (see search).
        const std::int64_t grain = family == LowerSetFamily::Exact ? 0 : limit / kFrontLabels;
        s = search(g, f, limit, Goal::Time, grain, cancel);
        if (s.cancelled) return fail("lower-set-dp: cancelled");
        if (s.best < 0) {
            Search lean = search(g, f, 0, Goal::Peak, grain, cancel);
            if (lean.cancelled) return fail("lower-set-dp: cancelled");
            const std::int64_t need = lean.front.back()[std::size_t(lean.best)].peak;
            return needsBudget(name, need, limit);
        }
    }
    // The chain of lower sets, from V back to ∅; the nodes each step adds form its segment.
    std::vector<int> sets;
    for (int set = int(s.front.size()) - 1, i = s.best; set >= 0;) {
        sets.push_back(set);
        const Label& l = s.front[std::size_t(set)][std::size_t(i)];
        set = l.prevSet, i = l.prev;
    }
    std::reverse(sets.begin(), sets.end());
    std::vector<int> segment(std::size_t(n), 0);
    for (std::size_t k = 1; k < sets.size(); ++k)
        for (int v = 0; v < n; ++v)
            if (f.has(sets[k], v) && !f.has(sets[k - 1], v)) segment[std::size_t(v)] = int(k) - 1;
    GraphPlan plan;
    plan.actions = segmentPlan(g, segment).actions;
    const Label& best = s.front.back()[std::size_t(s.best)];
    plan.predicted_makespan_s = best.time;
    plan.predicted_peak_bytes = best.peak;
    plan.params["segments"] = std::to_string(sets.size() - 1);
    plan.params["lower_sets"] = std::to_string(f.rows.size());
    return plan;
}

GraphSchedulerInfo lowerSetDpScheduler() {
    GraphSchedulerInfo s;
    s.name = "lower-set-dp";
    s.description = "DP over increasing lower sets (segments), fastest within the budget; approximate: ancestor "
                    "closures only";
    s.paper = "Kusumoto, Inoue, Watanabe, Akiba, Koyama 2019, \"A Graph Theoretic Framework of Recomputation "
              "Algorithms for Memory-Efficient Backpropagation\"";
    s.optimality = Optimality::Approximate;
    s.params = {{.name = "variant",
                 .description = "exact: every lower set (up to " + std::to_string(kMaxLowerSets) +
                                "); approximate: the empty set, all nodes and each node's ancestor closure",
                 .type = ParamType::Choice,
                 .default_value = "approximate",
                 .choices = {"exact", "approximate"}}};
    s.solve = [](const Graph& g, const Hardware& hw, const Params& p,
                 const GraphSolveContext& ctx) -> Result<GraphPlan> {
        return lowerSetDp(g, levelZeroLimit(hw, ctx.budget),
                          p.text("variant") == "exact" ? LowerSetFamily::Exact : LowerSetFamily::Approximate,
                          ctx.cancel);
    };
    return s;
}

} // namespace ckpt
