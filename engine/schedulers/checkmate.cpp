// Jain et al., "Checkmate: Breaking the Memory Wall with Optimal Tensor Rematerialization" (MLSys 2020): stages in a
// fixed order of the forward and backward operations, each computing one operation for the first time after any
// recomputations it chooses; the MILP (checkmate_milp.cpp) picks them, or its LP relaxation is rounded (section 5).
#include "schedulers/checkmate.h"

#include "schedulers/checkmate_milp.h"
#include "schedulers/fit.h"
#include "schedulers/graph_registry.h"
#include "sim/graph_simulator.h"
#include "util/units.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <optional>
#include <random>

namespace ckpt {
namespace checkmate {

Stages::Stages(const Graph& g) : graph(g), n(g.size()), T(2 * g.size()), order(g.topologicalOrder()) {
    const auto N = std::size_t(n);
    pos.assign(N, 0);
    for (int k = 0; k < n; ++k)
        pos[std::size_t(order[std::size_t(k)])] = k;
    inputs.assign(N, {}), consumers.assign(N, {});
    for (int k = 0; k < n; ++k) {
        for (int u : g.inputs(order[std::size_t(k)]))
            inputs[std::size_t(k)].push_back(pos[std::size_t(u)]);
        for (int c : g.consumers(order[std::size_t(k)]))
            consumers[std::size_t(k)].push_back(pos[std::size_t(c)]);
        std::sort(inputs[std::size_t(k)].begin(), inputs[std::size_t(k)].end());
        std::sort(consumers[std::size_t(k)].begin(), consumers[std::size_t(k)].end());
    }
    // Position p is reversed from stage 2n - p on; its consumers all from stage 2n - (its first consumer).
    m_deadFrom.assign(N, 0);
    for (int p = 0; p < n; ++p) {
        const auto& cs = consumers[std::size_t(p)];
        int consumersDone = cs.empty() ? 0 : 2 * n - cs.front();
        m_deadFrom[std::size_t(p)] =
            graph.node(order[std::size_t(p)]).needs_output ? std::max(consumersDone, 2 * n - p) : consumersDone;
    }
    // Position p holds a gradient while the backward frontier b runs over [p, its last consumer): a difference array
    // over b keeps this linear in the graph's size.
    std::vector<std::int64_t> gradsAt(N + 1, 0);
    for (int p = 0; p < n; ++p)
        if (!consumers[std::size_t(p)].empty())
            gradsAt[std::size_t(p)] += bytes(p), gradsAt[std::size_t(consumers[std::size_t(p)].back())] -= bytes(p);
    for (int b = 1; b < n; ++b)
        gradsAt[std::size_t(b)] += gradsAt[std::size_t(b - 1)];
    m_grads.assign(std::size_t(T), 0), m_extra.assign(std::size_t(T), 0);
    for (int t = n; t < T; ++t) {
        const int b = last(t);
        m_grads[std::size_t(t)] = gradsAt[std::size_t(b)];
        std::int64_t extra = workspace(b) + (consumers[std::size_t(b)].empty() ? bytes(b) : 0);
        for (int u : inputs[std::size_t(b)])
            if (consumers[std::size_t(u)].back() == b) extra += bytes(u);
        m_extra[std::size_t(t)] = extra;
    }
}

bool Stages::needed(int t, int p) const {
    if (t < n) return false;
    const int b = last(t);
    const GraphNode& node = graph.node(order[std::size_t(b)]);
    if (p == b) return node.needs_output;
    return node.needs_inputs && std::binary_search(inputs[std::size_t(b)].begin(), inputs[std::size_t(b)].end(), p);
}

StagePlan buildPlan(const Stages& st, const StageSets& compute, const StageSets& keep) {
    const int n = st.n;
    StagePlan plan;
    std::vector<char> held(std::size_t(n), 0), done(std::size_t(n), 0);
    auto node = [&](int p) { return st.order[std::size_t(p)]; };
    // The simulator releases dead outputs by itself; the plan must not free them again.
    auto dead = [&](int p) {
        for (int c : st.consumers[std::size_t(p)])
            if (!done[std::size_t(c)]) return false;
        return done[std::size_t(p)] || !st.graph.node(node(p)).needs_output;
    };
    for (int t = 0; t < st.T; ++t) {
        const auto& C = compute[std::size_t(t)];
        const auto& K = keep[std::size_t(t + 1)];
        std::vector<int> lastUse(std::size_t(n), -1);
        for (int q = 0; q <= st.last(t); ++q)
            if (C[std::size_t(q)])
                for (int u : st.inputs[std::size_t(q)])
                    lastUse[std::size_t(u)] = std::max(lastUse[std::size_t(u)], q);
        auto release = [&](int p) {
            if (!held[std::size_t(p)] || K[std::size_t(p)] || st.needed(t, p)) return;
            plan.actions.push_back(GraphAction::free(node(p)));
            held[std::size_t(p)] = 0;
        };
        for (int p = 0; p < n; ++p)
            if (lastUse[std::size_t(p)] < 0) release(p);
        for (int q = 0; q <= st.last(t); ++q) {
            if (!C[std::size_t(q)]) continue;
            plan.actions.push_back(GraphAction::forward(node(q)));
            plan.makespan_s += st.forward(q);
            held[std::size_t(q)] = !dead(q);
            for (int u : st.inputs[std::size_t(q)])
                if (lastUse[std::size_t(u)] == q) release(u);
            if (lastUse[std::size_t(q)] < 0) release(q);
        }
        if (t >= st.n) {
            const int b = st.last(t);
            plan.actions.push_back(GraphAction::backward(node(b)));
            plan.makespan_s += st.graph.node(node(b)).backward;
            done[std::size_t(b)] = 1;
            if (dead(b)) held[std::size_t(b)] = 0;
            for (int u : st.inputs[std::size_t(b)])
                if (dead(u)) held[std::size_t(u)] = 0;
        }
        for (int p = 0; p < n; ++p)
            if (held[std::size_t(p)] && !K[std::size_t(p)])
                plan.actions.push_back(GraphAction::free(node(p))), held[std::size_t(p)] = 0;
    }
    return plan;
}

} // namespace checkmate

namespace {

using namespace checkmate;

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string number(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// The paper's necessary condition: every operation must fit alone, with the tensors it reads and writes, its
// workspace and (in the fixed backward order) the gradients alive at that point.
std::pair<std::int64_t, std::string> largestFootprint(const Stages& st) {
    std::pair<std::int64_t, std::string> best{0, ""};
    for (int p = 0; p < st.n; ++p) {
        std::int64_t f = st.bytes(p) + st.workspace(p);
        for (int u : st.inputs[std::size_t(p)])
            f += st.bytes(u);
        if (f > best.first) best = {f, "forward of '" + st.graph.node(st.order[std::size_t(p)]).id + "'"};
    }
    for (int t = st.n; t < st.T; ++t) {
        std::int64_t f = st.grads(t) + st.backwardExtra(t);
        const int b = st.last(t);
        if (st.needed(t, b)) f += st.bytes(b);
        for (int p : st.inputs[std::size_t(b)])
            if (st.needed(t, p)) f += st.bytes(p);
        if (f > best.first) best = {f, "backward of '" + st.graph.node(st.order[std::size_t(st.last(t))]).id + "'"};
    }
    return best;
}

// Stage sets from wanted keep decisions (rounded S): each stage computes what it must (its first computation, what
// its backward reads, and optionally what it should keep but does not hold) closed over missing inputs, and keeps
// what it wanted among what it holds.
std::pair<StageSets, StageSets> repair(const Stages& st, const StageSets& wanted, bool computeToKeep) {
    const auto N = std::size_t(st.n);
    StageSets compute(std::size_t(st.T), std::vector<char>(N, 0)), keep(std::size_t(st.T + 1), std::vector<char>(N, 0));
    for (int t = 0; t < st.T; ++t) {
        const auto& held = keep[std::size_t(t)];
        auto& C = compute[std::size_t(t)];
        std::vector<char> want(N, 0);
        for (int p = 0; p <= st.last(t); ++p)
            want[std::size_t(p)] =
                st.forced(t, p) || st.needed(t, p) ||
                (computeToKeep && wanted[std::size_t(t + 1)][std::size_t(p)] && st.canHold(t + 1, p));
        for (int p = st.last(t); p >= 0; --p)
            if (want[std::size_t(p)] && !held[std::size_t(p)]) {
                C[std::size_t(p)] = 1;
                for (int u : st.inputs[std::size_t(p)])
                    want[std::size_t(u)] = 1;
            }
        for (int p = 0; p < st.n; ++p)
            keep[std::size_t(t + 1)][std::size_t(p)] = wanted[std::size_t(t + 1)][std::size_t(p)] &&
                                                       st.canHold(t + 1, p) &&
                                                       (held[std::size_t(p)] || C[std::size_t(p)]);
    }
    // An output kept into a stage that neither uses it nor keeps it further is dropped, latest stage first: the MILP
    // counts it through that whole stage, and a MIP start must fit in the MILP's accounting.
    for (int t = st.T - 1; t > 0; --t)
        for (int p = 0; p < st.n; ++p) {
            if (!keep[std::size_t(t)][std::size_t(p)] || keep[std::size_t(t + 1)][std::size_t(p)] || st.needed(t, p))
                continue;
            bool used = false;
            for (int q : st.consumers[std::size_t(p)])
                used = used || (q <= st.last(t) && compute[std::size_t(t)][std::size_t(q)]);
            if (!used) keep[std::size_t(t)][std::size_t(p)] = 0;
        }
    return {std::move(compute), std::move(keep)};
}

struct Rounded {
    bool found = false;
    StagePlan plan;
    StageSets compute, keep;
    int tried = 0;                                 // roundings
    long long polished = 0;                        // local-search changes tried (polish)
    bool stopped = false;                          // the deadline or a cancel ended the roundings early
    std::string source = "the LP rounding's plan"; // where the plan came from, for the plan's `optimal` note
};

// A plan as checkmate's stage sets, when it runs in checkmate's order (first forwards in topological position order,
// backwards in the reverse order, only forwards, backwards and frees); nothing otherwise. compute: what each stage
// computes; keep: what the plan holds at the start of each stage, which starts at the first computation after the
// previous stage's own one (so the frees that follow an operation belong to it).
std::optional<std::pair<StageSets, StageSets>> stagesOf(const Stages& st, const GraphSchedule& actions) {
    const auto N = std::size_t(st.n);
    StageSets wanted(std::size_t(st.T + 1), std::vector<char>(N, 0));
    StageSets compute(std::size_t(st.T), std::vector<char>(N, 0));
    std::vector<char> held(N, 0), computed(N, 0), done(N, 0);
    auto dead = [&](int p) {
        for (int c : st.consumers[std::size_t(p)])
            if (!done[std::size_t(c)]) return false;
        return done[std::size_t(p)] || !st.graph.node(st.order[std::size_t(p)]).needs_output;
    };
    int t = 0;             // the stage whose own operation comes next
    bool settling = false; // between a stage's own operation and the next computation: frees still count
    for (const GraphAction& a : actions) {
        if (a.node < 0 || a.node >= st.n) return std::nullopt;
        const int p = st.pos[std::size_t(a.node)];
        if (a.kind == GraphActionKind::Free) {
            held[std::size_t(p)] = 0;
            if (settling) wanted[std::size_t(t)][std::size_t(p)] = 0;
            continue;
        }
        if (t >= st.T) return std::nullopt;
        settling = false;
        if (a.kind == GraphActionKind::Forward) compute[std::size_t(t)][std::size_t(p)] = 1;
        if (a.kind == GraphActionKind::Forward) {
            if (!computed[std::size_t(p)]) {
                if (p != t) return std::nullopt;
                computed[std::size_t(p)] = 1;
                ++t, settling = true;
            } else if (p > st.last(t)) {
                return std::nullopt;
            }
            held[std::size_t(p)] = !dead(p);
        } else if (a.kind == GraphActionKind::Backward) {
            if (t < st.n || p != st.last(t)) return std::nullopt;
            done[std::size_t(p)] = 1;
            if (dead(p)) held[std::size_t(p)] = 0;
            for (int u : st.inputs[std::size_t(p)])
                if (dead(u)) held[std::size_t(u)] = 0;
            ++t, settling = true;
        } else {
            return std::nullopt;
        }
        if (settling)
            for (int q = 0; q < st.n; ++q)
                wanted[std::size_t(t)][std::size_t(q)] = held[std::size_t(q)] && st.canHold(t, q);
    }
    if (t != st.T) return std::nullopt;
    return std::pair{std::move(compute), std::move(wanted)};
}

// Deterministic rounding at several thresholds and randomized rounding (S = 1 with the LP's probability), each
// repaired two ways; the fastest plan within the limit wins. A fixed seed keeps the result reproducible. Each rounding
// costs O(n^2): `stop` is asked before each.
template <class Stop>
Rounded roundLp(const Graph& g, const Stages& st, const std::vector<std::vector<double>>& s, std::int64_t limit,
                Stop stop) {
    Rounded best;
    auto consider = [&](const StageSets& wanted) {
        for (bool computeToKeep : {true, false}) {
            if (best.stopped || (best.stopped = stop())) return;
            auto [compute, keep] = repair(st, wanted, computeToKeep);
            StagePlan plan = buildPlan(st, compute, keep);
            ++best.tried;
            if (best.found && plan.makespan_s >= best.plan.makespan_s) continue;
            if (!simulateGraph(g, plan.actions, SimOptions{limit, false})) continue;
            best.found = true, best.plan = std::move(plan), best.compute = std::move(compute);
            best.keep = std::move(keep);
        }
    };
    StageSets wanted(s.size(), std::vector<char>(std::size_t(st.n), 0));
    for (double threshold : {0.5, 0.3, 0.7, 0.1, 0.9, 0.01, 0.99, 2.0}) {
        for (std::size_t t = 0; t < s.size(); ++t)
            for (std::size_t p = 0; p < s[t].size(); ++p)
                wanted[t][p] = s[t][p] >= threshold;
        consider(wanted);
    }
    std::mt19937_64 rng(20200302);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    for (int sample = 0; sample < 16; ++sample) {
        for (std::size_t t = 0; t < s.size(); ++t)
            for (std::size_t p = 0; p < s[t].size(); ++p)
                wanted[t][p] = coin(rng) < s[t][p];
        consider(wanted);
    }
    return best;
}

// A local search from a plan that fits (the paper's rounding leaves recomputations a little memory would save): one
// recomputation at a time, slowest first, is replaced by keeping its output from where it was last available, and the
// stage sets are repaired around it (the inputs recomputed only for it go too). Where that overshoots the limit, the
// same change is tried together with dropping one run of stages that holds a faster-to-recompute output, the fastest
// first (a swap), and then with dropping several such runs at once while they cost less than the recomputation saved.
// A change that makes the plan faster and still fits stays. Each try costs O(T n) and a simulation;
// `stop` is asked before each.
template <class Stop> void polish(const Graph& g, const Stages& st, std::int64_t limit, Rounded& r, Stop stop) {
    if (!r.found) return;
    // At most kPolishCells stage cells repaired per call (each try repairs T x n of them): about 16,000 tries on
    // ResNet-50 (175 nodes), 2,600 on DenseNet-121 (435), a few seconds either way; the same on any machine.
    constexpr double kPolishCells = 1e9;
    const long long maxTries = std::max(100LL, (long long)(kPolishCells / (double(st.T) * double(st.n))));
    const long long firstTry = r.polished;
    auto stopped = [&] { return r.polished - firstTry >= maxTries || stop(); };
    constexpr int kSwapsPerMove = 12;
    auto at = [](StageSets& v, int t, int p) -> char& { return v[std::size_t(t)][std::size_t(p)]; };
    auto tryWanted = [&](const StageSets& wanted) {
        auto [compute, keep] = repair(st, wanted, true);
        StagePlan plan = buildPlan(st, compute, keep);
        ++r.polished;
        if (plan.makespan_s >= r.plan.makespan_s * (1 - 1e-12)) return false;
        if (!simulateGraph(g, plan.actions, SimOptions{limit, false})) return false;
        r.plan = std::move(plan), r.compute = std::move(compute), r.keep = std::move(keep);
        if (r.source.find(", polished") == std::string::npos) r.source += ", polished";
        return true;
    };
    for (int phase : {0, 1, 2})
        for (bool improved = true; improved;) {
            const bool swaps = phase > 0, cumulative = phase == 2;
            improved = false;
            std::vector<std::pair<int, int>> recomputed; // (t, p)
            for (int t = 0; t < st.T; ++t)
                for (int p = 0; p <= st.last(t); ++p)
                    if (at(r.compute, t, p) && !st.forced(t, p)) recomputed.push_back({t, p});
            std::stable_sort(recomputed.begin(), recomputed.end(),
                             [&](auto a, auto b) { return st.forward(a.second) > st.forward(b.second); });
            for (const auto& [t, p] : recomputed) {
                if (!at(r.compute, t, p)) continue; // an earlier change removed it
                int from = t - 1;
                while (from >= 0 && !at(r.compute, from, p) && !at(r.keep, from, p))
                    --from;
                bool holdable = from >= 0;
                for (int s = from + 1; s <= t && holdable; ++s)
                    holdable = st.canHold(s, p);
                if (!holdable) continue;
                if (stopped()) return;
                StageSets wanted = r.keep;
                for (int s = from + 1; s <= t; ++s)
                    at(wanted, s, p) = 1;
                if (!swaps) {
                    improved = tryWanted(wanted) || improved;
                    continue;
                }
                // Outputs held somewhere in (from, t] that are faster to recompute than p, fastest first.
                std::vector<std::pair<double, int>> drops;
                for (int q = 0; q < st.n; ++q) {
                    if (q == p || st.forward(q) >= st.forward(p)) continue;
                    for (int s = from + 1; s <= t; ++s)
                        if (at(r.keep, s, q)) {
                            drops.push_back({st.forward(q), q * st.T + s});
                            break;
                        }
                }
                std::sort(drops.begin(), drops.end());
                if (drops.size() > std::size_t(kSwapsPerMove * (1 + cumulative)))
                    drops.resize(std::size_t(kSwapsPerMove * (1 + cumulative)));
                StageSets swapped = wanted;
                double dropped = 0;
                for (const auto& [time, code] : drops) {
                    if (stopped()) return;
                    const int q = code / st.T, s0 = code % st.T;
                    if (!cumulative) swapped = wanted;
                    dropped += time;
                    if (cumulative && dropped >= st.forward(p)) break;
                    for (int s = s0; s <= st.T && at(r.keep, s, q); ++s)
                        at(swapped, s, q) = 0;
                    for (int s = s0 - 1; s >= 0 && at(r.keep, s, q); --s)
                        at(swapped, s, q) = 0;
                    if (tryWanted(swapped)) {
                        improved = true;
                        break;
                    }
                }
            }
        }
}

// Large neighbourhood search from a plan that fits: the MILP of a window of consecutive stages, the rest of the plan
// fixed (checkmate_milp.h, Window), window after window across the stages, each overlapping the last by half. A
// window's optimum is never slower than the plan there (the plan is its MIP start); a faster plan that the simulator
// accepts replaces it. A window has at most kWindowBinaries binaries at first; when a sweep improves nothing, twice as
// many, up to kWindowBinariesMost or the whole MILP. Each window's CBC stops after kWindowNodes nodes (the same on any
// machine); `stop` is asked before each.
struct WindowSearch {
    long long windows = 0, improved = 0;
    int width = 0; // stages in the last window tried
};
constexpr long long kWindowNodes = 200;
constexpr double kWindowBinaries = 1500, kWindowBinariesMost = 6000;

// The binaries of each stage of the MILP (its R and S).
std::vector<double> stageBinaries(const Stages& st) {
    std::vector<double> count(std::size_t(st.T), 0.0);
    for (int t = 0; t < st.T; ++t)
        for (int p = 0; p <= st.last(t); ++p)
            count[std::size_t(t)] += st.canCompute(t, p) + st.canHold(t, p);
    return count;
}

// One window's MILP; true when it made the plan faster.
bool improveWindow(const Graph& g, const Stages& st, const MilpOptions& base, double seconds, int first, int last,
                   Rounded& r) {
    const Window w{first, last, &r.compute, &r.keep};
    MilpOptions o = base;
    o.relax = false, o.window = &w, o.solved_lp = nullptr, o.margin_bytes = 0, o.nodes = kWindowNodes;
    o.seconds = std::max(0.01, seconds);
    o.start_compute = &r.compute, o.start_keep = &r.keep;
    MilpOutcome solved = solveMilp(st, o);
    if (solved.status != MilpOutcome::Status::Optimal && solved.status != MilpOutcome::Status::Incumbent) return false;
    StagePlan plan = buildPlan(st, solved.compute, solved.keep);
    if (plan.makespan_s >= r.plan.makespan_s * (1 - 1e-9)) return false;
    if (!simulateGraph(g, plan.actions, SimOptions{base.limit, false})) return false;
    r.plan = std::move(plan), r.compute = std::move(solved.compute), r.keep = std::move(solved.keep);
    return true;
}

template <class Stop, class Left>
WindowSearch searchWindows(const Graph& g, const Stages& st, const MilpOptions& base, Rounded& r, Stop stop,
                           Left secondsLeft) {
    WindowSearch out;
    if (!r.found || st.T < 2) return out;
    const std::vector<double> binaries = stageBinaries(st);
    for (double most = kWindowBinaries;;) {
        bool better = false, whole = false;
        for (int first = 0; first < st.T;) {
            if (stop()) return out;
            int last = first;
            for (double sum = binaries[std::size_t(first)];
                 last + 1 < st.T && sum + binaries[std::size_t(last + 1)] <= most;)
                sum += binaries[std::size_t(++last)];
            whole = first == 0 && last == st.T - 1;
            out.width = last - first + 1, ++out.windows;
            if (improveWindow(g, st, base, secondsLeft(), first, last, r)) ++out.improved, better = true;
            if (last == st.T - 1) break;
            first = std::max(first + 1, (first + last + 1) / 2);
        }
        if (better) continue;
        if (whole || most >= kWindowBinariesMost) return out;
        most *= 2;
    }
}

// The fast graph schedulers' plans at the same budget. `start` is the fastest that runs in checkmate's order and, as
// stage sets (its own, or repaired both ways as a rounding is), fits: CBC's first incumbent. `raw` is the fastest of
// their plans as they are, returned when the MILP ends with nothing better, so checkmate never returns a plan slower
// than theirs. A plan in another order (lower-set-dp may reverse nodes differently) is neither.
struct FastPlans {
    Rounded start, raw;
    Rounded any; // the fastest plan that fits, in checkmate's order or not: the answer when the MILP gives none
};
// Without `tables`, the plans are taken as they are (`any`), never turned into stage sets: those take 2 n^2 bytes each
// (a million nodes: 2 TB).
FastPlans fastStart(const Graph& g, const Stages& st, std::int64_t budget, std::int64_t limit,
                    const GraphSolveContext& ctx, std::map<std::string, std::string>& params, bool tables) {
    FastPlans best;
    std::string notInOrder;
    auto consider = [&](const char* name, StageSets compute, StageSets keep) {
        StagePlan plan = buildPlan(st, compute, keep);
        if (best.start.found && plan.makespan_s >= best.start.plan.makespan_s) return;
        if (!simulateGraph(g, plan.actions, SimOptions{limit, false})) return;
        best.start.found = true, best.start.plan = std::move(plan), best.start.compute = std::move(compute);
        best.start.keep = std::move(keep), best.start.source = std::string(name) + "'s plan";
    };
    for (const char* name : {"dtr", "chen-greedy", "chen-sqrt", "lower-set-dp"}) {
        if (ctx.cancelled()) break;
        SolveRequest request;
        request.budget_bytes = budget, request.cancel = ctx.cancel;
        auto fast = solveGraph(name, g, Hardware::unbounded(), request);
        if (!fast) continue;
        auto sets = tables ? stagesOf(st, fast->actions) : std::nullopt;
        if ((!best.any.found || fast->predicted_makespan_s < best.any.plan.makespan_s) &&
            simulateGraph(g, fast->actions, SimOptions{limit, false})) {
            best.any.found = true;
            best.any.source = std::string(name) + "'s plan" + (sets ? "" : " (not in checkmate's order)");
            best.any.plan = StagePlan{fast->actions, fast->predicted_makespan_s};
        }
        if (!sets) {
            notInOrder += std::string(notInOrder.empty() ? "" : ", ") + name;
            continue;
        }
        if ((!best.raw.found || fast->predicted_makespan_s < best.raw.plan.makespan_s) &&
            simulateGraph(g, fast->actions, SimOptions{limit, false})) {
            best.raw.found = true, best.raw.source = std::string(name) + "'s plan";
            best.raw.plan = StagePlan{fast->actions, fast->predicted_makespan_s};
        }
        consider(name, sets->first, sets->second);
        for (bool computeToKeep : {true, false}) {
            auto [compute, keep] = repair(st, sets->second, computeToKeep);
            consider(name, std::move(compute), std::move(keep));
        }
    }
    if (!tables)
        params["mip_start_skipped"] = "every fast plan (their stage tables are over max_memory_mb)";
    else if (!notInOrder.empty())
        params["mip_start_skipped"] = notInOrder + " (not in checkmate's order)";
    return best;
}

Error milpError(MilpOutcome::Status status, const std::string& stoppedBy, std::int64_t limit, std::int64_t footprint) {
    switch (status) {
    case MilpOutcome::Status::Cancelled:
        return fail("checkmate: cancelled");
    case MilpOutcome::Status::Infeasible:
        return infeasible("checkmate: the budget of " + formatBytes(double(limit)) + " (" + std::to_string(limit) +
                          " B) is too small: the solver proved that no schedule in Checkmate's stage order fits "
                          "(the MILP, or already its LP relaxation, is infeasible), although every operation alone "
                          "fits, needing at most " +
                          std::to_string(footprint) + " B)");
    case MilpOutcome::Status::Stopped:
        return infeasible("checkmate: no schedule found and no proof of infeasibility within " + stoppedBy +
                          "; raise that limit or the budget");
    default:
        return fail("checkmate: CBC failed to solve the MILP");
    }
}

// The MILP, started from the best rounding. Exact at first (whole bytes); CBC's tolerances may let a solution overshoot
// by a few bytes per million, which the simulator refuses: then once more with rows a hundred-thousandth under the
// limit. At the time limit, the better of CBC's incumbent and the rounding. When CBC proves the MILP infeasible, the
// fast plan in another order, if any, and `bound` (the LP's) is reset: it bounds no plan outside checkmate's order.
Result<StagePlan> milpPlan(const Graph& g, const Stages& st, MilpOptions opt, Rounded& start, Rounded& raw,
                           std::map<std::string, std::string>& params, std::optional<double>& bound, double lpSeconds,
                           const std::string& limitText, double totalSeconds) {
    const auto started = std::chrono::steady_clock::now();
    // The plan to return when the MILP ends with nothing better: the start, or a fast plan as it is when faster.
    Rounded& r = raw.found && (!start.found || raw.plan.makespan_s < start.plan.makespan_s) ? raw : start;
    const double seconds = opt.seconds;
    // CBC's root solves the LP again and cannot be interrupted inside it: when that would overrun the time limit,
    // the rounding stands.
    // With the LP's basis, CBC still takes seconds to copy and set up a large model before it looks at its clock: with
    // less than a twentieth of the limit left, the start stands. So it does with less than the LP's time left, and CBC
    // gets that less half the LP's time: a node's LP after a branch can take a good part of the root's, and CBC looks
    // at its clock between nodes (it ran 12 s past the limit on ResNet-50 at 30 % and 17 s on MobileNetV2 at 25 %;
    // on ResNet-50 it found nothing better than the polished rounding in 900 s).
    if (r.found && opt.solved_lp && seconds < 0.05 * totalSeconds) {
        params["optimal"] = "no: " + limitText + " was reached; " + r.source;
        return std::move(r.plan);
    }
    if (r.found && opt.solved_lp && seconds < lpSeconds) {
        params["optimal"] =
            "no: too little time left for CBC after the LP (" + formatSeconds(lpSeconds) + "); " + r.source;
        return std::move(r.plan);
    }
    if (r.found && !opt.solved_lp && 2 * lpSeconds > seconds) {
        params["optimal"] =
            "no: too little time left for CBC after the LP (" + formatSeconds(lpSeconds) + "); " + r.source;
        return std::move(r.plan);
    }
    opt.relax = false;
    if (start.found) opt.start_compute = &start.compute, opt.start_keep = &start.keep;
    MilpOutcome solved;
    StagePlan plan;
    // CBC stops that much early: it looks at its clock between nodes only (see above).
    const double reserve = opt.solved_lp ? 0.5 * lpSeconds : 0;
    for (double margin : {0.0, 1e-5 * double(opt.limit)}) {
        opt.margin_bytes = margin;
        opt.seconds = std::max(0.01, seconds - secondsSince(started) - reserve);
        solved = solveMilp(st, opt);
        // The user's time limit, not what was left of it for CBC.
        if (solved.stopped_by.rfind("the time limit of ", 0) == 0) solved.stopped_by = limitText;
        if (solved.status != MilpOutcome::Status::Optimal && solved.status != MilpOutcome::Status::Incumbent) break;
        plan = buildPlan(st, solved.compute, solved.keep);
        auto check = simulateGraph(g, plan.actions, {opt.limit, false});
        if (check || !check.errorValue().infeasible) break;
    }
    const bool found = solved.status == MilpOutcome::Status::Optimal || solved.status == MilpOutcome::Status::Incumbent;
    if (found && (!r.found || plan.makespan_s <= r.plan.makespan_s)) {
        const bool exact = opt.margin_bytes == 0;
        if (exact) params["milp_bound_s"] = number(std::max(solved.bound_s + g.totalBackward(), bound.value_or(0)));
        params["optimal"] = solved.status != MilpOutcome::Status::Optimal
                                ? "no: " + solved.stopped_by + " was reached; the best incumbent"
                            : exact ? "yes"
                                    : "yes, for a budget a hundred-thousandth smaller (solver tolerances)";
        return plan;
    }
    if (r.found && solved.status != MilpOutcome::Status::Cancelled) {
        // CBC proved that no plan in checkmate's order fits (its LP relaxation does): r is a fast plan in another
        // order (random-dag-22 seed 9 at 40 %: this said "the time limit of 60 s was reached" after 0.3 s, and a gap
        // of 15.4 % over the LP bound).
        if (solved.status == MilpOutcome::Status::Infeasible && opt.margin_bytes == 0) {
            params["optimal"] = "no: no plan in checkmate's order fits (CBC proved its MILP infeasible); " + r.source +
                                ", in another order";
            bound.reset();
            return std::move(r.plan);
        }
        if (solved.status == MilpOutcome::Status::Infeasible) { // the second try, a hundred-thousandth under
            params["optimal"] = "no: the MILP's plan overshot the budget by CBC's tolerances, and none fits a "
                                "hundred-thousandth under it; " +
                                r.source;
            return std::move(r.plan);
        }
        params["optimal"] = found ? "no: " + r.source + " is faster than the MILP's (" +
                                        (solved.status == MilpOutcome::Status::Optimal
                                             ? "optimal for recomputations in position order within a stage)"
                                             : "incumbent at " + solved.stopped_by + ")")
                                  : "no: " + solved.stopped_by + " was reached; " + r.source;
        return std::move(r.plan);
    }
    return milpError(solved.status, solved.stopped_by, opt.limit, largestFootprint(st).first);
}

// Without a budget every output stays until its backward: the forwards in order, then the backwards in reverse (the
// simulator releases what dies), with no stage tables.
StagePlan storeAll(const Stages& st) {
    StagePlan plan;
    for (int p = 0; p < st.n; ++p)
        plan.actions.push_back(GraphAction::forward(st.order[std::size_t(p)])), plan.makespan_s += st.forward(p);
    for (int p = st.n - 1; p >= 0; --p) {
        plan.actions.push_back(GraphAction::backward(st.order[std::size_t(p)]));
        plan.makespan_s += st.graph.node(st.order[std::size_t(p)]).backward;
    }
    return plan;
}

// A plan within this fraction of the LP bound meets it: the LP's own tolerances put its bound a hair above a plan that
// meets it (-1.15e-13 % on lstm2).
constexpr double kMeetsBound = 1e-9;

// The least bytes a binary variable of the model takes: it has at least one nonzero (see countMilp).
constexpr double kMinBytesPerBinary = 400;

std::string thousands(long long v) {
    std::string digits = std::to_string(v), out;
    for (std::size_t k = 0; k < digits.size(); ++k) {
        if (k && (digits.size() - k) % 3 == 0) out += ',';
        out += digits[k];
    }
    return out;
}

// A solve within a budget: the fast schedulers' plans, the LP relaxation and its roundings, then the MILP. What it
// finds out goes to `info`, the plan's params.
class BudgetSolve {
public:
    BudgetSolve(const Graph& g, const Stages& st, const Params& params, const GraphSolveContext& ctx,
                std::int64_t limit, std::chrono::steady_clock::time_point started,
                std::map<std::string, std::string>& info)
        : m_g(g), m_st(st), m_params(params), m_ctx(ctx), m_limit(limit), m_started(started), m_info(info),
          m_seconds(params.real("time_limit")), m_rounding(params.text("mode") == "lp-rounding"),
          m_search(!m_rounding && params.text("local_search") == "on"),
          m_maxBytes(double(params.integer("max_memory_mb")) * 1024 * 1024) {}

    Result<StagePlan> run() {
        const auto largest = largestFootprint(m_st);
        m_footprint = largest.first;
        const std::string& op = largest.second;
        if (m_footprint > m_limit)
            return infeasible("checkmate: the largest single-operation footprint, the " + op + ", is " +
                              formatBytes(double(m_footprint), unitsOf(double(m_limit))) + " (" +
                              std::to_string(m_footprint) +
                              " B with its inputs, output, workspace and live gradients), over the budget of " +
                              formatBytes(double(m_limit)) + " (" + std::to_string(m_limit) + " B)");
        // The fast schedulers' plans first (milliseconds): the MIP start, and the answer whenever the MILP gives none
        // (too large to build, the time limit inside the LP relaxation, no plan in checkmate's order), marked not
        // proven, so checkmate answers wherever any of them does.
        // Stage sets take 2 n^2 bytes each, and the fast plans' conversion and polish hold about eight.
        const bool tables = 16.0 * double(m_st.n) * double(m_st.n + 1) <= m_maxBytes;
        if (!m_rounding) m_fast = fastStart(m_g, m_st, m_ctx.budget, m_limit, m_ctx, m_info, tables);
        // The MILP's start and fallback improved by local search (milliseconds to seconds, a tenth of the limit at
        // most: the LP needs the rest); lp-rounding stays the paper's heuristic.
        if (m_search) {
            polish(m_g, m_st, m_limit, m_fast.start,
                   [&] { return m_ctx.cancelled() || secondsSince(m_started) > 0.1 * m_seconds; });
            m_info["polish_tries"] = std::to_string(m_fast.start.polished);
        }
        if (m_ctx.cancelled()) return fail("checkmate: cancelled");
        auto solved = answer();
        if (!solved) return solved.errorValue();
        // Not proven optimal: how far the plan may be from the optimum, when the LP gave a bound.
        if (m_bound && *m_bound > 0 && m_info["optimal"].rfind("yes", 0) != 0)
            // The LP's tolerances can put its bound a hair above a plan that meets it (-1.15e-13 % on lstm2): 0.
            m_info["gap"] = formatNumber(std::max(0.0, 100 * (solved->makespan_s - *m_bound) / *m_bound), 3) +
                            "% over the LP bound";
        return solved;
    }

private:
    bool timeUp() const { return m_ctx.cancelled() || secondsSince(m_started) > m_seconds; }

    // A plan found whose time meets the LP bound: optimal, nothing can beat it.
    bool meetsBound(const Rounded& r) const {
        return r.found && m_bound && r.plan.makespan_s <= *m_bound * (1 + kMeetsBound);
    }

    // The fastest of these plans that was found, or null.
    static Rounded* fastest(std::initializer_list<Rounded*> plans) {
        Rounded* best = nullptr;
        for (Rounded* r : plans)
            if (r->found && (!best || r->plan.makespan_s < best->plan.makespan_s)) best = r;
        return best;
    }

    // The fastest fast plan, marked not proven optimal for `reason`, or `why` when there is none.
    Result<StagePlan> fallback(const Error& why, const std::string& reason) {
        Rounded* best = fastest({&m_fast.start, &m_fast.raw, &m_fast.any});
        if (!best || m_ctx.cancelled()) return why;
        m_info["optimal"] = "no: " + reason + "; " + best->source;
        return std::move(best->plan);
    }

    // The model grows as n^2 and faster (stages x positions, and per stage the releases after each use): refuse one
    // that would not fit in memory before building it. The binaries alone bound it from below in O(n); below that
    // bound, a dry run of the build counts it (in time proportional to the limit).
    MilpSize modelSize() const {
        const long long binaries = milpBinaries(m_st);
        MilpSize size;
        size.binaries = binaries;
        size.bytes = kMinBytesPerBinary * double(binaries);
        if (size.bytes <= m_maxBytes) size = countMilp(m_st, m_limit, m_ctx.cancel);
        return size;
    }

    Result<StagePlan> refuseModel(const MilpSize& size) {
        const std::string what = "the MILP for " + std::to_string(m_st.n) + " nodes would have " +
                                 thousands(size.binaries) + " binary variables" +
                                 (size.nonzeros ? ", " + thousands(size.columns) + " columns and " +
                                                      thousands(size.nonzeros) + " nonzeros: about "
                                                : ": at least ") +
                                 formatBytes(size.bytes, ByteUnits::Binary) +
                                 " to build and solve, over max_memory_mb (" + formatBytes(m_maxBytes) + ")";
        return fallback(overLimit("checkmate: " + what + "; use dtr or chen-greedy on a graph this large"), what);
    }

    Result<StagePlan> answer() {
        const MilpSize size = modelSize();
        if (m_ctx.cancelled()) return fail("checkmate: cancelled");
        if (size.bytes > m_maxBytes) return refuseModel(size);
        m_columns = size.columns;
        m_info["milp_size"] = thousands(size.binaries) + " binaries, " + thousands(size.columns) + " columns, " +
                              thousands(size.nonzeros) + " nonzeros";
        // The LP relaxation, in both modes: its rounding is lp-rounding's plan, and the MILP's first incumbent.
        MilpOptions opt;
        opt.limit = m_limit, opt.relax = true, opt.cancel = m_ctx.cancel;
        opt.seconds = std::max(0.01, m_seconds - secondsSince(m_started));
        opt.limit_seconds = m_seconds;
        opt.nodes = m_params.integer("node_limit"), opt.iterations = m_params.integer("iteration_limit");
        // The LP starts from the basis of the fastest fast plan, about half the simplex iterations of the slack basis
        // (see solveMilp).
        if (m_fast.start.found) opt.start_compute = &m_fast.start.compute, opt.start_keep = &m_fast.start.keep;
        MilpOutcome lp = solveMilp(m_st, opt);
        opt.start_compute = nullptr, opt.start_keep = nullptr;
        if (lp.status == MilpOutcome::Status::Stopped)
            return fallback(milpError(lp.status, lp.stopped_by + " (in the LP relaxation)", m_limit, m_footprint),
                            lp.stopped_by + " was reached in the LP relaxation, before any bound");
        if (lp.status == MilpOutcome::Status::Infeasible)
            return fallback(milpError(lp.status, "", m_limit, m_footprint),
                            "no plan in checkmate's order fits (its LP relaxation is infeasible)");
        if (lp.status != MilpOutcome::Status::Optimal)
            return milpError(lp.status, lp.stopped_by + " (in the LP relaxation)", m_limit, m_footprint);
        if (lp.binaries != size.binaries)
            return fail("checkmate: the model has " + std::to_string(lp.binaries) + " binaries, its count said " +
                        std::to_string(size.binaries) + " (a bug)");
        m_bound = lp.objective_s + m_g.totalBackward();
        m_info["lp_bound_s"] = number(*m_bound);
        m_info["lp_iterations"] =
            std::to_string(lp.iterations) + (lp.warm         ? " (from the LP basis of another budget)"
                                             : lp.from_start ? " (from the basis of " + m_fast.start.source + ")"
                                                             : "");
        double lpSeconds = 0;
        Rounded r = roundings(lp, opt, lpSeconds);
        if (m_ctx.cancelled())
            return fail("checkmate: cancelled after the LP relaxation and " + std::to_string(r.tried) + " roundings");
        takeFasterStart(r);
        return afterRoundings(r, lp, opt, lpSeconds);
    }

    // The LP's rounding, improved by local search. Then the paper's budget search: roundings of the LP at a smaller
    // budget overshoot it less, so they fit the real one more often. Each try costs one more LP: from scratch, only
    // while three more fit in the time left; from this one's basis (the model is the same, its right-hand sides lower)
    // while a tenth of the time is left, each stopping at the limit. The time taken until the search goes to
    // lpSeconds.
    Rounded roundings(const MilpOutcome& lp, const MilpOptions& opt, double& lpSeconds) {
        auto timeUp = [this] { return this->timeUp(); };
        Rounded r = roundLp(m_g, m_st, lp.keep_value, m_limit, timeUp);
        if (m_search) polish(m_g, m_st, m_limit, r, timeUp);
        lpSeconds = secondsSince(m_started);
        for (double factor : {0.9, 0.75, 0.6, 0.45}) {
            const double left = m_seconds - secondsSince(m_started);
            if (r.stopped || m_ctx.cancelled() || left < 0.1 * m_seconds || (!lp.lp && lpSeconds * 3 > left)) break;
            if (meetsBound(r) || meetsBound(m_fast.start)) break; // optimal already (afterRoundings)
            MilpOptions tighter = opt;
            tighter.margin_bytes = (1 - factor) * double(m_limit);
            // A stopped LP still unwinds its presolve (seconds on ResNet-50): it stops a twentieth early.
            tighter.seconds = m_seconds - secondsSince(m_started) - 0.05 * m_seconds;
            MilpOutcome lower = solveMilp(m_st, tighter);
            if (lower.status != MilpOutcome::Status::Optimal) break;
            Rounded more = roundLp(m_g, m_st, lower.keep_value, m_limit, timeUp);
            if (m_search) polish(m_g, m_st, m_limit, more, timeUp);
            more.tried += r.tried, more.polished += r.polished;
            if (more.found && (!r.found || more.plan.makespan_s < r.plan.makespan_s)) {
                r = std::move(more);
                m_info["lp_rounding_budget_factor"] = number(factor);
            } else {
                r.tried = more.tried, r.polished = more.polished, r.stopped = more.stopped;
            }
        }
        return r;
    }

    // The MIP start: the best rounding, or the fastest fast plan when that is faster.
    void takeFasterStart(Rounded& r) {
        const long long polishTries = r.polished + m_fast.start.polished;
        if (m_fast.start.found && (!r.found || m_fast.start.plan.makespan_s < r.plan.makespan_s)) {
            m_fast.start.tried = r.tried, m_fast.start.stopped = r.stopped;
            r = std::move(m_fast.start);
            m_fast.start.found = false;
        }
        if (!m_rounding && r.found) m_info["mip_start"] = r.source + " (" + formatSeconds(r.plan.makespan_s) + ")";
        m_info["roundings_tried"] = std::to_string(r.tried);
        if (m_search) m_info["polish_tries"] = std::to_string(polishTries);
        if (r.stopped) m_info["roundings_stopped"] = "the time limit of " + formatSeconds(m_seconds) + " was reached";
    }

    // lp-rounding's plan, when a rounding fits; else the MILP from the start `r`.
    Result<StagePlan> afterRoundings(Rounded& r, const MilpOutcome& lp, MilpOptions& opt, double lpSeconds) {
        if (m_rounding && r.found) {
            m_info["optimal"] = "unknown (rounded)";
            return std::move(r.plan);
        }
        if (!r.found && !m_fast.raw.found && !lp.lp && 2 * lpSeconds > m_seconds - secondsSince(m_started))
            // CBC's root solves the LP again and cannot be interrupted inside it: it would overrun the limit.
            return fallback(infeasible("checkmate: no plan within the time limit of " + formatSeconds(m_seconds) +
                                       ": the LP relaxation took " + formatSeconds(lpSeconds) + ", none of its " +
                                       std::to_string(r.tried) +
                                       " roundings fits the budget, and too little time is left for CBC; raise "
                                       "time_limit or the budget"),
                            "too little time left for CBC after the LP relaxation (" + formatSeconds(lpSeconds) + ")");
        if (m_rounding) m_info["rounding"] = "no rounding fit the budget; the MILP's plan";
        // A plan whose time meets the LP bound is optimal: the MILP's optimum lies between the two. CBC would only
        // spend the time limit failing to prove it (LSTM imported at 50 %: 55 s, then "not proven" at a 0 % gap).
        if (Rounded* best = fastest({&r, &m_fast.raw}); best && !m_rounding && meetsBound(*best)) {
            m_info["optimal"] = "yes";
            m_info["proof"] = "its time meets the LP bound";
            return std::move(best->plan);
        }
        // With a node limit the user asked for a deterministic solve: CBC's whole tree, as many nodes as that.
        if (m_search && r.found && m_columns > kLargeModelColumns && opt.nodes == 0) return windowPlan(r, opt);
        opt.seconds = m_seconds - secondsSince(m_started);
        opt.solved_lp = lp.lp; // CBC's root starts at the LP's optimum
        auto solved = milpPlan(m_g, m_st, opt, r, m_fast.raw, m_info, m_bound, lpSeconds,
                               "the time limit of " + formatSeconds(m_seconds), m_seconds);
        if (!solved && !solved.errorValue().infeasible) return solved.errorValue();
        if (!solved) return fallback(solved.errorValue(), "the MILP found no plan");
        return solved;
    }

    // A model this large gets CBC's whole search in vain (ResNet-50 at 30 %: nothing better than the start in 1800 s,
    // each node's LP taking seconds): its windows' MILPs instead, until the time limit.
    Result<StagePlan> windowPlan(Rounded& r, const MilpOptions& opt) {
        const WindowSearch found = searchWindows(
            m_g, m_st, opt, r, [&] { return timeUp(); }, [&] { return m_seconds - secondsSince(m_started); });
        m_info["window_search"] = std::to_string(found.improved) + " of " + std::to_string(found.windows) +
                                  " windows improved the plan (last " + std::to_string(found.width) + " stages wide)";
        if (m_ctx.cancelled()) return fail("checkmate: cancelled");
        if (found.improved) r.source += ", improved in windows";
        Rounded& best = m_fast.raw.found && m_fast.raw.plan.makespan_s < r.plan.makespan_s ? m_fast.raw : r;
        m_info["optimal"] = "no: the time limit of " + formatSeconds(m_seconds) + " was reached; " + best.source;
        return std::move(best.plan);
    }

    const Graph& m_g;
    const Stages& m_st;
    const Params& m_params;
    const GraphSolveContext& m_ctx;
    const std::int64_t m_limit;
    const std::chrono::steady_clock::time_point m_started;
    std::map<std::string, std::string>& m_info;
    const double m_seconds;
    const bool m_rounding, m_search;
    const double m_maxBytes;
    std::int64_t m_footprint = 0; // the largest single-operation footprint
    long long m_columns = 0;      // the MILP's
    FastPlans m_fast;
    std::optional<double> m_bound; // the LP's lower bound on the makespan, once solved
};

Result<GraphPlan> solveCheckmate(const Graph& g, const Hardware& hw, const Params& params,
                                 const GraphSolveContext& ctx) {
    if (ctx.cancelled()) return fail("checkmate: cancelled");
    const auto started = std::chrono::steady_clock::now();
    const std::int64_t limit = levelZeroLimit(hw, ctx.budget);
    const Stages st(g);
    GraphPlan out;
    StagePlan plan;
    if (limit <= 0) {
        plan = storeAll(st);
        out.params["optimal"] = "yes";
    } else {
        auto solved = BudgetSolve(g, st, params, ctx, limit, started, out.params).run();
        if (!solved) return solved.errorValue();
        plan = std::move(*solved);
    }
    SimOptions sim{limit, false};
    auto tl = simulateGraph(g, plan.actions, sim);
    if (!tl) return fail("checkmate: the plan does not validate (a bug): " + tl.error(), tl.errorIndex());
    out.actions = std::move(plan.actions);
    out.predicted_makespan_s = plan.makespan_s;
    out.predicted_peak_bytes = tl->totals.peak_bytes[0];
    return out;
}

} // namespace

Result<GraphPlan> checkmateWithin(const Graph& graph, std::int64_t limit, const Params& limits,
                                  const GraphSolveContext& ctx) {
    SolveRequest req;
    req.budget_bytes = limit;
    for (const char* name : {"time_limit", "node_limit", "max_memory_mb"})
        if (auto it = limits.values.find(name); it != limits.values.end()) req.params.emplace(name, it->second);
    req.cancel = ctx.cancel;
    return solveGraph("checkmate", graph, Hardware::unbounded(), req);
}

ParamSpec milpTimeLimitParam() {
    ParamSpec limit;
    limit.name = "time_limit";
    limit.description = "seconds for the solver; at the limit the best plan found so far is returned, marked not "
                        "proven optimal";
    limit.type = ParamType::Real;
    limit.default_value = "60";
    limit.min = 0.01;
    limit.max = 1e6;
    return limit;
}

ParamSpec milpNodeLimitParam() {
    ParamSpec nodes;
    nodes.name = "node_limit";
    nodes.description =
        "CBC's branch-and-bound nodes at most (0: no limit); unlike time_limit it gives the same plan on "
        "any machine";
    nodes.type = ParamType::Int;
    nodes.default_value = "0";
    nodes.min = 0;
    nodes.max = 2e9;
    return nodes;
}

ParamSpec milpMemoryParam() {
    ParamSpec variables;
    variables.name = "max_memory_mb";
    variables.description = "MiB that building and solving the model may take (it grows as n^2 and more); a larger "
                            "model is refused with its size before it is built";
    variables.type = ParamType::Int;
    variables.default_value = "2048";
    variables.min = 1;
    variables.max = 1e9;
    return variables;
}

GraphSchedulerInfo checkmateScheduler() {
    GraphSchedulerInfo s;
    s.name = "checkmate";
    s.description =
        "MILP over which outputs each stage recomputes and keeps, in a fixed forward/backward order, solved "
        "with CBC (or its LP relaxation rounded); optimal within that order only (lower-set-dp may reverse nodes in "
        "another order and be faster); started from the fastest fast-scheduler plan in that order";
    s.paper = "Jain et al., Checkmate: Breaking the Memory Wall with Optimal Tensor Rematerialization, MLSys 2020";
    s.optimality = Optimality::Optimal;
    ParamSpec mode;
    mode.name = "mode";
    mode.description = "milp: the exact MILP within the time limit; lp-rounding: the LP relaxation's keep decisions "
                       "rounded (deterministic thresholds and randomized), the fastest that fits";
    mode.type = ParamType::Choice;
    mode.default_value = "milp";
    mode.choices = {"milp", "lp-rounding"};
    ParamSpec search;
    search.name = "local_search";
    search.description = "on: in milp mode, the fast schedulers' plans and the LP's roundings are improved by a local "
                         "search (keep what is recomputed, or swap it for faster recomputations) before CBC starts; "
                         "off: the paper's roundings as they are";
    search.type = ParamType::Choice;
    search.default_value = "on";
    search.choices = {"on", "off"};
    ParamSpec iterations = milpNodeLimitParam();
    iterations.name = "iteration_limit";
    iterations.description = "simplex iterations at most for the LP relaxation (0: no limit); at the limit no plan";
    s.params = {mode, milpTimeLimitParam(), milpNodeLimitParam(), iterations, milpMemoryParam(), search};
    s.solve = solveCheckmate;
    return s;
}

} // namespace ckpt
