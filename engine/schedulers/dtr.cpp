// Kirisame et al., "Dynamic Tensor Rematerialization" (ICLR 2021), replayed on the graph simulator's model: held
// outputs + live gradients + the running operation's workspace must stay within the budget at every instant.
// The program is store-all (forwards in topological order, backwards in reverse); DTR only adds Free and recomputes.
#include "schedulers/dtr.h"

#include "schedulers/fit.h"
#include "util/units.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <string>

namespace ckpt {
namespace {

constexpr const char* kHeuristicNames[] = {"dtr", "eq-class", "local", "lru", "size", "msps"};

// Up to this many nodes every resident output is scored and e*(t) is exact. Beyond, each choice of victim would cost
// O(n) (a quadratic replay: minutes at 1e5 nodes), so the search is bounded as the paper's prototype bounds it: lru
// and size keep their order in a sorted set (still exact), the cost heuristics score a fixed-seed sample of the
// resident outputs, and e*(t) is the union-find approximation (eq-class's).
constexpr int kExactNodes = 4096;
constexpr int kSample = 64;

class Replay {
public:
    Replay(const Graph& graph, std::int64_t budget, DtrHeuristic heuristic, const std::atomic<bool>* stopFlag)
        : g(graph), n(graph.size()), limit(budget), h(heuristic), cancel(stopFlag) {
        const auto N = std::size_t(n);
        held.assign(N, 0), done.assign(N, 0), grad.assign(N, 0), computed.assign(N, 0);
        locks.assign(N, 0), pins.assign(N, 0), pending.assign(N, 0), element.assign(N, -1), component.assign(N, -1);
        last.assign(N, 0.0);
        // The program's references: each consumer's forward, each consumer's backward that reads its inputs, and the
        // node's own backward if it reads its output. At zero the program has dropped the output.
        for (int v = 0; v < n; ++v) {
            for (int c : g.consumers(v))
                pending[std::size_t(v)] += 1 + (g.node(c).needs_inputs ? 1 : 0);
            if (g.node(v).needs_output) ++pending[std::size_t(v)];
        }
        maxRecomputes = 1000LL * std::max(n, 1);
        exact = n <= kExactNodes;
        slot.assign(N, -1);
    }

    std::int64_t needed = 0; // after run() fails: what the operation that did not fit needed (0: none)

    Result<GraphPlan> run() {
        for (int v : g.topologicalOrder())
            if (!programForward(v)) return *err;
        const auto& order = g.topologicalOrder();
        for (auto it = order.rbegin(); it != order.rend(); ++it)
            if (!programBackward(*it)) return *err;
        plan.predicted_makespan_s = clock;
        plan.predicted_peak_bytes = peak;
        plan.params["evictions"] = std::to_string(evictions);
        plan.params["recomputed_steps"] = std::to_string(recomputes);
        if (!exact)
            plan.params["victim_search"] = h == DtrHeuristic::Lru || h == DtrHeuristic::Size
                                               ? "exact (sorted set)"
                                               : "bounded: " + std::to_string(kSample) +
                                                     " sampled resident outputs per eviction" +
                                                     (h == DtrHeuristic::Dtr ? ", e* by union-find" : "") + " (over " +
                                                     std::to_string(kExactNodes) + " nodes)";
        return std::move(plan);
    }

private:
    const Graph& g;
    const int n;
    const std::int64_t limit;
    const DtrHeuristic h;
    const std::atomic<bool>* cancel;
    std::vector<char> held, done, grad, computed;
    // locks: read by the operation about to run (never evicted); pins: read by an operation further up the chain
    // of rematerialisations, evicted only when nothing else is left (then rebuilt again before that operation).
    std::vector<int> locks, pins, pending;
    std::vector<double> last; // the replay clock when the output was last produced or read
    std::int64_t mem = 0, peak = 0;
    double clock = 0;
    long long recomputes = 0, evictions = 0, maxRecomputes = 0, operations = 0;
    bool exact = true;
    // The resident outputs (slot[v]: v's index in `resident`, -1 when not held), the outputs that may have become
    // unreferenced, and for lru and size beyond kExactNodes the resident outputs in the heuristic's order.
    std::vector<int> resident, slot, unreferenced;
    std::set<std::pair<double, int>> ranked;
    std::mt19937_64 rng{20210503};
    std::optional<Error> err;
    GraphPlan plan;
    // eq-class: a union-find element per eviction (element[v], -1 when resident); a class's cost is approximate,
    // since a rematerialised member leaves its class joined (union-find cannot split) and only its cost goes.
    std::vector<int> element, parent;
    std::vector<double> classCost;
    // dtr, msps: the exact evicted components, labelled afresh before each choice of victim.
    std::vector<int> component;
    std::vector<double> componentCost;

    const GraphNode& node(int v) const { return g.node(v); }
    std::int64_t out(int v) const { return node(v).output_bytes; }

    // As the simulator: an output nothing can read again (every consumer reversed, and v reversed or not needed).
    bool dead(int v) const {
        for (int c : g.consumers(v))
            if (!done[std::size_t(c)]) return false;
        return done[std::size_t(v)] || !node(v).needs_output;
    }
    bool evicted(int v) const { return computed[std::size_t(v)] && !held[std::size_t(v)] && !dead(v); }

    bool stop(Error e) {
        err = std::move(e);
        return false;
    }
    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    bool stopCancelled() {
        return stop(fail("dtr: cancelled after " + std::to_string(operations) + " of " + std::to_string(2 * n) +
                         " operations of the program (" + std::to_string(evictions) + " evictions, " +
                         std::to_string(recomputes) + " recomputations)"));
    }

    bool ranks() const { return !exact && (h == DtrHeuristic::Lru || h == DtrHeuristic::Size); }
    double rankKey(int v) const { return h == DtrHeuristic::Lru ? last[std::size_t(v)] : -double(out(v)); }
    void setHeld(int v) {
        held[std::size_t(v)] = 1;
        if (slot[std::size_t(v)] >= 0) return;
        slot[std::size_t(v)] = int(resident.size()), resident.push_back(v);
        if (ranks()) ranked.emplace(rankKey(v), v);
        if (pending[std::size_t(v)] == 0) unreferenced.push_back(v);
    }
    void clearHeld(int v) {
        held[std::size_t(v)] = 0;
        const int k = slot[std::size_t(v)];
        if (k < 0) return;
        const int moved = resident.back();
        resident[std::size_t(k)] = moved, slot[std::size_t(moved)] = k;
        resident.pop_back(), slot[std::size_t(v)] = -1;
        if (ranks()) ranked.erase({rankKey(v), v});
    }
    void touch(int v) {
        if (ranks() && held[std::size_t(v)]) ranked.erase({rankKey(v), v});
        last[std::size_t(v)] = clock;
        if (ranks() && held[std::size_t(v)]) ranked.emplace(rankKey(v), v);
    }

    std::string describe(const char* what, int v) const { return std::string(what) + " of '" + node(v).id + "'"; }

    int find(int x) {
        while (parent[std::size_t(x)] != x)
            x = parent[std::size_t(x)] = parent[std::size_t(parent[std::size_t(x)])];
        return x;
    }
    void classEvict(int v) {
        const int e = int(parent.size());
        parent.push_back(e), classCost.push_back(node(v).forward);
        for (int side = 0; side < 2; ++side)
            for (int w : side ? g.consumers(v) : g.inputs(v))
                if (element[std::size_t(w)] >= 0) {
                    int a = find(e), b = find(element[std::size_t(w)]);
                    if (a == b) continue;
                    parent[std::size_t(b)] = a, classCost[std::size_t(a)] += classCost[std::size_t(b)];
                }
        element[std::size_t(v)] = e;
    }
    void classLeave(int v) {
        if (element[std::size_t(v)] < 0) return;
        classCost[std::size_t(find(element[std::size_t(v)]))] -= node(v).forward;
        element[std::size_t(v)] = -1;
    }

    // Connected components of the evicted outputs (edges taken both ways) and their forward costs.
    void labelComponents() {
        std::fill(component.begin(), component.end(), -1);
        componentCost.clear();
        std::vector<int> stack;
        for (int s = 0; s < n; ++s) {
            if (component[std::size_t(s)] >= 0 || !evicted(s)) continue;
            const int id = int(componentCost.size());
            componentCost.push_back(0);
            component[std::size_t(s)] = id, stack.push_back(s);
            while (!stack.empty()) {
                int v = stack.back();
                stack.pop_back();
                componentCost[std::size_t(id)] += node(v).forward;
                for (int side = 0; side < 2; ++side)
                    for (int w : side ? g.consumers(v) : g.inputs(v))
                        if (component[std::size_t(w)] < 0 && evicted(w))
                            component[std::size_t(w)] = id, stack.push_back(w);
            }
        }
    }

    // Forward time of the evicted outputs that t's eviction would join to it: e*(t), a union of components.
    double neighbourhood(int t) {
        double sum = 0;
        std::vector<int> seen;
        for (int side = 0; side < 2; ++side)
            for (int w : side ? g.consumers(t) : g.inputs(t)) {
                const bool classes = h == DtrHeuristic::EqClass || !exact;
                int c = classes ? (element[std::size_t(w)] >= 0 ? find(element[std::size_t(w)]) : -1)
                                : component[std::size_t(w)];
                if (c < 0 || std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
                seen.push_back(c);
                sum += classes ? classCost[std::size_t(c)] : componentCost[std::size_t(c)];
            }
        return sum;
    }

    // MSPS (Capuchin's memory saved per second, as the DTR paper states it): the forward time of the evicted
    // ancestors t's recomputation would need, found through evicted inputs only; descendants do not count.
    std::vector<int> visit;
    int visitStamp = 0;
    double evictedAncestors(int t) {
        if (visit.empty()) visit.assign(std::size_t(n), 0);
        ++visitStamp;
        double sum = 0;
        std::vector<int> stack(g.inputs(t).begin(), g.inputs(t).end());
        while (!stack.empty()) {
            const int w = stack.back();
            stack.pop_back();
            if (visit[std::size_t(w)] == visitStamp || !evicted(w)) continue;
            visit[std::size_t(w)] = visitStamp;
            sum += node(w).forward;
            for (int u : g.inputs(w))
                stack.push_back(u);
        }
        return sum;
    }

    // The victim minimises the score; ties go to the lower node index.
    double score(int t) {
        const double size = double(out(t)), stale = clock - last[std::size_t(t)];
        switch (h) {
        case DtrHeuristic::Lru:
            return -stale;
        case DtrHeuristic::Size:
            return -size;
        case DtrHeuristic::Msps:
            return (node(t).forward + evictedAncestors(t)) / size;
        case DtrHeuristic::Local:
        case DtrHeuristic::Dtr:
        case DtrHeuristic::EqClass:
            break;
        }
        const double cost = node(t).forward + (h == DtrHeuristic::Local ? 0.0 : neighbourhood(t));
        if (cost <= 0) return 0;
        if (stale <= 0) return std::numeric_limits<double>::infinity();
        return cost / (size * stale);
    }

    void emit(GraphAction a) { plan.actions.push_back(a); }

    void release(int v) {
        emit(GraphAction::free(v));
        clearHeld(v), mem -= out(v);
        classEvict(v);
    }

    bool eligible(int t, int tier) const {
        return held[std::size_t(t)] && !locks[std::size_t(t)] && out(t) > 0 && (tier > 0 || !pins[std::size_t(t)]);
    }
    // The victim: the least score, ties to the lower node index; unpinned outputs first (tier 0).
    int chooseVictim() {
        if (exact) {
            if (h == DtrHeuristic::Dtr) labelComponents();
            return scan(0, n, [](int t) { return t; });
        }
        if (ranks()) {
            for (int tier = 0; tier < 2; ++tier)
                for (const auto& [key, t] : ranked)
                    if (eligible(t, tier)) return t;
            return -1;
        }
        std::uniform_int_distribution<std::size_t> pick(0, resident.empty() ? 0 : resident.size() - 1);
        std::vector<int> sample;
        for (int k = 0; k < kSample && !resident.empty(); ++k)
            sample.push_back(resident[pick(rng)]);
        std::sort(sample.begin(), sample.end());
        sample.erase(std::unique(sample.begin(), sample.end()), sample.end());
        int victim = scan(
            0, int(sample.size()), [&](int k) { return sample[std::size_t(k)]; }, 1);
        // A sample of pinned or locked outputs only: every resident output is looked at (rare).
        return victim >= 0 ? victim : scan(0, int(resident.size()), [&](int k) { return resident[std::size_t(k)]; });
    }
    template <class At> int scan(int from, int to, At at, int tiers = 2) {
        int victim = -1;
        double best = 0;
        for (int tier = 0; tier < tiers && victim < 0; ++tier)
            for (int k = from; k < to; ++k) {
                const int t = at(k);
                if (!eligible(t, tier)) continue;
                double s = score(t);
                if (victim < 0 || s < best || (s == best && t < victim)) victim = t, best = s;
            }
        return victim;
    }

    // Evicts until `extra` more bytes fit under the limit; `what` names the operation in the error.
    bool makeRoom(std::int64_t extra, const std::string& what) {
        if (limit <= 0) return true;
        while (mem + extra > limit) {
            if (cancelled()) return stopCancelled();
            const int victim = chooseVictim();
            if (victim < 0) {
                const std::int64_t need = mem + extra;
                needed = need;
                return stop(infeasible("dtr (" + std::string(kHeuristicNames[int(h)]) + "): the " + what + " needs " +
                                       formatBytes(double(need), unitsOf(double(limit))) + " (" + std::to_string(need) +
                                       " B) with every output it does not read evicted; the budget is " +
                                       formatBytes(double(limit)) + " (" + std::to_string(limit) + " B)"));
            }
            release(victim);
            ++evictions;
        }
        return true;
    }

    void runForward(int v) {
        emit(GraphAction::forward(v));
        peak = std::max(peak, mem + out(v) + node(v).workspace_bytes);
        mem += out(v);
        clock += node(v).forward;
        computed[std::size_t(v)] = 1;
        last[std::size_t(v)] = clock;
        setHeld(v);
        classLeave(v);
        if (dead(v)) clearHeld(v), mem -= out(v);
    }

    // Makes every output in `need` resident at once and locks it; unlock() undoes the locks. The resident ones are
    // pinned while the others are rebuilt; if a rebuild had to evict a pinned one, another round brings it back (the
    // cap on recomputations ends a round trip that never settles). A rebuild needs its own inputs first, and so on
    // up the graph: the pending acquisitions wait on an explicit stack, since a recursion would go as deep as the
    // chain of evicted outputs is long.
    bool acquire(const std::vector<int>& need) {
        struct Frame {
            const std::vector<int>* need;
            int rebuilding;           // the output whose rebuild needs these (-1: the caller's operation)
            std::vector<char> pinned; // per entry of need, in this round
            std::size_t next = 0;     // the entry to look at next
            bool inRound = false;
        };
        std::vector<Frame> stack;
        stack.push_back({&need, -1, {}, 0, false});
        while (!stack.empty()) {
            const std::size_t top = stack.size() - 1;
            const std::vector<int>& want = *stack[top].need;
            if (!stack[top].inRound) {
                for (int u : want)
                    if (held[std::size_t(u)]) ++pins[std::size_t(u)];
                stack[top].pinned.assign(want.size(), 0);
                for (std::size_t k = 0; k < want.size(); ++k)
                    stack[top].pinned[k] = held[std::size_t(want[k])];
                stack[top].next = 0;
                stack[top].inRound = true;
            }
            int rebuild = -1;
            for (; stack[top].next < want.size(); ++stack[top].next) {
                const std::size_t k = stack[top].next;
                if (stack[top].pinned[k]) continue;
                // A sibling's rebuild may have brought it back already.
                if (!held[std::size_t(want[k])]) {
                    rebuild = want[k];
                    break;
                }
                ++pins[std::size_t(want[k])], stack[top].pinned[k] = 1;
            }
            if (rebuild >= 0) {
                if (!startRecompute()) return false;
                stack.push_back({&g.inputs(rebuild), rebuild, {}, 0, false});
                continue;
            }
            bool all = true;
            for (std::size_t k = 0; k < want.size(); ++k) {
                if (stack[top].pinned[k]) --pins[std::size_t(want[k])];
                all = all && held[std::size_t(want[k])];
            }
            if (!all) {
                stack[top].inRound = false; // another round
                continue;
            }
            for (int u : want)
                ++locks[std::size_t(u)];
            const int v = stack[top].rebuilding;
            stack.pop_back();
            if (v < 0) continue;
            if (!finishRecompute(v)) return false;
            // Back in the acquisition that asked for v: it is resident now, pin it and go on.
            Frame& f = stack.back();
            ++pins[std::size_t(v)], f.pinned[f.next] = 1, ++f.next;
        }
        return true;
    }
    void unlock(const std::vector<int>& need) {
        for (int u : need)
            --locks[std::size_t(u)], touch(u);
    }

    // Rematerialising an evicted output: its evicted inputs first (acquire), then its forward.
    bool startRecompute() {
        if (++recomputes > maxRecomputes)
            return stop(infeasible("dtr (" + std::string(kHeuristicNames[int(h)]) + "): more than " +
                                   std::to_string(maxRecomputes) + " recomputations at a budget of " +
                                   formatBytes(double(limit)) + " (" + std::to_string(limit) +
                                   " B): the replay thrashes; a larger budget is needed"));
        if (cancelled()) return stopCancelled();
        return true;
    }
    bool finishRecompute(int v) {
        if (!makeRoom(out(v) + node(v).workspace_bytes, describe("recomputation", v))) return false;
        runForward(v);
        unlock(g.inputs(v));
        return true;
    }

    // Outputs the program no longer references go at once (the paper's eager eviction): still recomputable for a
    // rematerialisation that reads them, but no longer held for nothing. Every held output whose references are zero
    // is in `unreferenced` (setHeld and unreference put it there); they go in node order.
    void dropUnreferenced() {
        std::sort(unreferenced.begin(), unreferenced.end());
        unreferenced.erase(std::unique(unreferenced.begin(), unreferenced.end()), unreferenced.end());
        std::vector<int> kept;
        for (int v : unreferenced)
            if (held[std::size_t(v)] && pending[std::size_t(v)] == 0) {
                if (locks[std::size_t(v)])
                    kept.push_back(v);
                else
                    release(v);
            }
        unreferenced = std::move(kept);
    }
    void unreference(int u) {
        if (--pending[std::size_t(u)] == 0) unreferenced.push_back(u);
    }

    bool programForward(int v) {
        if (cancelled()) return stopCancelled();
        const std::vector<int>& in = g.inputs(v);
        if (!acquire(in) || !makeRoom(out(v) + node(v).workspace_bytes, describe("forward", v))) return false;
        runForward(v);
        unlock(in);
        for (int u : in)
            unreference(u);
        dropUnreferenced();
        ++operations;
        return true;
    }

    bool programBackward(int v) {
        if (cancelled()) return stopCancelled();
        std::vector<int> need;
        if (node(v).needs_inputs) need = g.inputs(v);
        if (node(v).needs_output) need.push_back(v);
        // What the backward adds while it runs: the loss gradient of a sink, the gradients its inputs do not have
        // yet, its workspace.
        std::int64_t grads = g.consumers(v).empty() ? out(v) : 0;
        for (int u : g.inputs(v))
            if (!grad[std::size_t(u)]) grads += out(u);
        if (!acquire(need) || !makeRoom(grads + node(v).workspace_bytes, describe("backward", v))) return false;
        emit(GraphAction::backward(v));
        peak = std::max(peak, mem + grads + node(v).workspace_bytes);
        mem += grads - out(v); // v's own gradient goes at the end
        for (int u : g.inputs(v))
            grad[std::size_t(u)] = 1;
        clock += node(v).backward;
        done[std::size_t(v)] = 1;
        unlock(need);
        for (int u : need)
            unreference(u);
        // The simulator releases what became dead; an evicted one leaves its class.
        std::vector<int> touched = g.inputs(v);
        touched.push_back(v);
        for (int u : touched)
            if (dead(u)) {
                if (held[std::size_t(u)]) clearHeld(u), mem -= out(u);
                classLeave(u);
            }
        dropUnreferenced();
        ++operations;
        return true;
    }
};

} // namespace

Result<GraphPlan> dtrPlan(const Graph& graph, std::int64_t limit, DtrHeuristic heuristic,
                          const std::atomic<bool>* cancel) {
    Replay r(graph, limit, heuristic, cancel);
    return r.run();
}

namespace {

// The replay, and where it fails for want of room, the least budget it runs at. The first operation that does not fit
// names only what it needed in this replay (ResNet-18 at 170 MiB: the forward of 'bn1', 196 MiB, where the replay
// runs from 318.5 MiB on): the budget is raised to each such need in turn (doubled where the replay thrashes instead)
// until the replay runs, then bisected down to the limit that failed. The named budget runs and one byte less does
// not. Each step is one replay (milliseconds on networks of hundreds of nodes); graphs past kSearchNodes keep the first
// need alone.
Result<GraphPlan> dtrNamingItsLeast(const Graph& g, std::int64_t limit, DtrHeuristic h,
                                    const std::atomic<bool>* cancel) {
    constexpr int kSearchNodes = 20000, kReplays = 96;
    Replay first(g, limit, h, cancel);
    Result<GraphPlan> plan = first.run();
    if (plan || limit <= 0 || !plan.errorValue().infeasible || g.size() > kSearchNodes) return plan;
    // Nothing is evicted at this budget: every output and every gradient held at once, and the largest workspace.
    std::int64_t top = 0, workspace = 0;
    for (const GraphNode& v : g.nodes())
        top += 2 * v.output_bytes, workspace = std::max(workspace, v.workspace_bytes);
    top += workspace;
    int replays = 0;
    auto runs = [&](std::int64_t budget, std::int64_t& needed) {
        ++replays;
        Replay r(g, budget, h, cancel);
        const bool ok = bool(r.run());
        needed = r.needed;
        return ok;
    };
    std::int64_t lo = limit, hi = -1, at = std::max(limit + 1, first.needed), needed = 0;
    while (hi < 0 && replays < kReplays && lo < top) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return fail("dtr: cancelled");
        if (runs(at, needed)) {
            hi = at;
            break;
        }
        lo = at;
        at = std::min(top, needed > at ? needed : 2 * at);
    }
    while (hi > lo + 1 && replays < kReplays) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return fail("dtr: cancelled");
        const std::int64_t mid = lo + (hi - lo) / 2;
        (runs(mid, needed) ? hi : lo) = mid;
    }
    if (hi != lo + 1) return plan;
    return infeasible(plan.error() + "; dtr needs at least " + formatBytes(double(hi), unitsOf(double(limit))) + " (" +
                      std::to_string(hi) + " B): it runs there and not one byte below");
}

} // namespace

GraphSchedulerInfo dtrScheduler() {
    GraphSchedulerInfo s;
    s.name = "dtr";
    s.description = "Replays store-all and, when memory would pass the budget, evicts outputs by a heuristic and "
                    "recomputes them on demand (online, greedy)";
    s.paper = "Kirisame, Lyubomirsky, Haan, Brennan, He, Roesch, Chen, Tatlock, \"Dynamic Tensor Rematerialization\", "
              "ICLR 2021";
    s.optimality = Optimality::Heuristic;
    ParamSpec p;
    p.name = "heuristic";
    p.description = "eviction score: dtr = cost with evicted neighbourhood / (size x staleness); eq-class = the same "
                    "with the union-find approximation; local = own cost only; lru; size = largest first; msps = "
                    "memory saved per second of recomputation, counting the evicted ancestors a recomputation needs; "
                    "ties evict the lowest node index";
    p.type = ParamType::Choice;
    p.default_value = "dtr";
    p.choices = std::vector<std::string>(std::begin(kHeuristicNames), std::end(kHeuristicNames));
    s.params = {p};
    s.solve = [](const Graph& g, const Hardware& hw, const Params& params,
                 const GraphSolveContext& ctx) -> Result<GraphPlan> {
        const std::string& name = params.text("heuristic");
        int k = 0;
        while (k < 6 && name != kHeuristicNames[k])
            ++k;
        if (k == 6) return fail("dtr: unknown heuristic '" + name + "'");
        return dtrNamingItsLeast(g, levelZeroLimit(hw, ctx.budget), DtrHeuristic(k), ctx.cancel);
    };
    return s;
}

} // namespace ckpt
