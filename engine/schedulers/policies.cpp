#include "schedulers/policies.h"

#include "model/graph_shape.h"
#include "schedulers/chen.h"
#include "schedulers/fit.h"
#include "schedulers/graph_fit.h"
#include "sim/graph_simulator.h"
#include "util/units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>

namespace ckpt {

namespace {

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool isSource(const Graph& g, int v) {
    return g.inputs(v).empty();
}

double secondsOf(const Graph& g, const GraphSchedule& actions) {
    double t = 0;
    for (const GraphAction& a : actions)
        if (a.kind == GraphActionKind::Forward)
            t += g.node(a.node).forward;
        else if (a.kind == GraphActionKind::Backward)
            t += g.node(a.node).backward;
    return t;
}

// The words of a text separated by commas or white space: an operator list, or the names a user gives.
std::set<std::string> wordSet(const std::string& text) {
    std::set<std::string> out;
    std::string word;
    for (char c : text + " ") {
        if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
            if (!word.empty()) out.insert(word);
            word.clear();
        } else {
            word += c;
        }
    }
    return out;
}

} // namespace

OpKind opKind(const Graph& g, int v) {
    if (isSource(g, v)) return OpKind::Input;
    static const std::set<std::string> dots = wordSet(
        "matmul gemm batchmatmul conv convtranspose einsum attention attentionstats matmulinteger qlinearmatmul "
        "qlinearconv convinteger linear addmm bmm mm");
    static const std::set<std::string> random =
        wordSet("dropoutmask bernoulli randomuniform randomnormal randomuniformlike randomnormallike");
    // PyTorch's recomputable ops: pointwise, views, reductions, normalisations (and softmax, which the compiler
    // decomposes into them).
    static const std::set<std::string> cheap = wordSet(
        "add sub mul div pow sqrt reciprocal neg abs exp log erf tanh sigmoid relu leakyrelu gelu silu swish "
        "hardswish hardsigmoid clip where cast softmax logsoftmax layernorm layernormalization rmsnorm batchnorm "
        "batchnormalization instancenormalization groupnormalization dropout identity reshape transpose flatten "
        "squeeze unsqueeze slice split concat gather expand embedding reducemean reducesum reducemax "
        "globalaveragepool averagepool maxpool pad max min equal less greater not and or scale mish elu selu "
        "softplus hardtanh upsample resize tile shape constantofshape range cumsum");
    const std::string op = lower(g.node(v).op);
    if (dots.count(op)) return OpKind::Dot;
    if (random.count(op)) return OpKind::Random;
    if (cheap.count(op)) return OpKind::Recomputable;
    return OpKind::Other;
}

bool dotWithBatchDims(const Graph& g, int v) {
    const std::string op = lower(g.node(v).op);
    if (op == "batchmatmul" || op == "bmm" || op == "attention") return true;
    // An exported MatMul between two activations (weights are not nodes; a dropout mask kept for the backward is no
    // operand): attention's products.
    if (op != "matmul") return false;
    int operands = 0;
    for (int u : g.inputs(v))
        operands += opKind(g, u) != OpKind::Random;
    return operands >= 2;
}

std::vector<char> savedFrontier(const Graph& g, const std::vector<char>& saveable) {
    const int n = g.size();
    std::vector<char> keep(std::size_t(n), 0), recompute(std::size_t(n), 0);
    // From the last node back: v is needed if a backward reads it or a needed recomputed consumer does.
    const auto& order = g.topologicalOrder();
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const int v = *it;
        bool need = neededByBackward(g, v);
        for (int c : g.consumers(v))
            need = need || recompute[std::size_t(c)];
        if (!need) continue;
        if (saveable[std::size_t(v)] || isSource(g, v))
            keep[std::size_t(v)] = 1;
        else
            recompute[std::size_t(v)] = 1;
    }
    return keep;
}

namespace {

// The actions of savedSetSchedule, and what they leave: the outputs held in level 0 and on level 1, and the
// backwards run.
class SavedSetEmitter {
public:
    SavedSetEmitter(const Graph& g, const SavedSet& saved)
        : m_g(g), m_saved(saved), m_held(std::size_t(g.size()), 0), m_onL1(std::size_t(g.size()), 0),
          m_done(std::size_t(g.size()), 0), m_seen(std::size_t(g.size()), -1), m_pinned(std::size_t(g.size()), 0) {}

    GraphSchedule run() {
        forwardPhase();
        backwardPhase();
        return std::move(m_out);
    }

private:
    bool keepOf(int v) const { return m_saved.keep.empty() ? false : bool(m_saved.keep[std::size_t(v)]); }
    bool offOf(int v) const { return m_saved.offload.empty() ? false : bool(m_saved.offload[std::size_t(v)]); }
    // What the simulator releases by itself (graph_simulator.cpp): an output no consumer's backward and no own
    // backward can read any more.
    bool dead(int v) const {
        for (int c : m_g.consumers(v))
            if (!m_done[std::size_t(c)]) return false;
        return m_done[std::size_t(v)] || !m_g.node(v).needs_output;
    }
    void dropDead(int v) {
        if (dead(v)) m_held[std::size_t(v)] = 0, m_onL1[std::size_t(v)] = 0;
    }
    bool neededLater(int u) const {
        if (m_g.node(u).needs_output && !m_done[std::size_t(u)]) return true;
        for (int c : m_g.consumers(u))
            if (!m_done[std::size_t(c)] && m_g.node(c).needs_inputs) return true;
        return false;
    }
    // Whether some missing output that a later backward needs would be rebuilt through u's consumers.
    bool useful(int u) {
        ++m_stamp;
        std::vector<int> stack(m_g.consumers(u).begin(), m_g.consumers(u).end());
        while (!stack.empty()) {
            const int c = stack.back();
            stack.pop_back();
            if (m_seen[std::size_t(c)] == m_stamp) continue;
            m_seen[std::size_t(c)] = m_stamp;
            if (m_held[std::size_t(c)] || m_onL1[std::size_t(c)]) continue;
            if (neededLater(c)) return true;
            for (int d : m_g.consumers(c))
                stack.push_back(d);
        }
        return false;
    }
    // Inputs of a node about to be computed: not freed while its other inputs are brought in.
    void pin(int x, int by) {
        for (int u : m_g.inputs(x))
            m_pinned[std::size_t(u)] += by;
    }
    void freeIfIdle(int u) {
        if (!m_held[std::size_t(u)] || m_pinned[std::size_t(u)] || neededLater(u) || useful(u)) return;
        m_out.push_back(GraphAction::free(u));
        m_held[std::size_t(u)] = 0;
    }
    void forward(int v) {
        m_out.push_back(GraphAction::forward(v));
        m_held[std::size_t(v)] = 1;
        dropDead(v);
    }
    void releasePass() {
        for (int u = 0; u < m_g.size(); ++u)
            freeIfIdle(u);
    }
    int groupOf(int v) const { return m_saved.rerun.empty() ? -1 : m_saved.rerun[std::size_t(v)]; }

    // Every forward in topological order; an output is offloaded after its forward, freed after its last consumer's
    // unless kept.
    void forwardPhase() {
        std::vector<int> pending(std::size_t(m_g.size()), 0); // forward consumers not yet run in the forward phase
        for (int v = 0; v < m_g.size(); ++v)
            pending[std::size_t(v)] = int(m_g.consumers(v).size());
        for (int v : m_g.topologicalOrder()) {
            forward(v);
            if (offOf(v) && m_held[std::size_t(v)]) {
                m_out.push_back(GraphAction::write(v, 1));
                m_onL1[std::size_t(v)] = 1;
            }
            auto afterLastConsumer = [&](int u) {
                if (!m_held[std::size_t(u)] || (keepOf(u) && !offOf(u))) return;
                m_out.push_back(GraphAction::free(u));
                m_held[std::size_t(u)] = 0;
            };
            for (int u : m_g.inputs(v))
                if (--pending[std::size_t(u)] == 0) afterLastConsumer(u);
            if (pending[std::size_t(v)] == 0) afterLastConsumer(v);
        }
    }

    // Brings w into level 0: read back, or recomputed after its missing inputs (depth first, without recursion).
    void materialize(int w) {
        std::vector<std::pair<int, bool>> stack{{w, false}}; // node, its inputs pinned
        while (!stack.empty()) {
            const int x = stack.back().first;
            if (m_held[std::size_t(x)]) {
                if (stack.back().second) pin(x, -1);
                stack.pop_back();
                continue;
            }
            if (m_onL1[std::size_t(x)]) {
                m_out.push_back(GraphAction::read(x, 1));
                m_out.push_back(GraphAction::free(x, 1));
                m_onL1[std::size_t(x)] = 0;
                m_held[std::size_t(x)] = 1;
                stack.pop_back();
                continue;
            }
            if (!stack.back().second) pin(x, 1), stack.back().second = true;
            int missing = -1;
            for (int u : m_g.inputs(x))
                if (!m_held[std::size_t(u)]) {
                    missing = u;
                    break;
                }
            if (missing >= 0) {
                stack.push_back({missing, false});
                continue;
            }
            forward(x);
            pin(x, -1);
            stack.pop_back();
            for (int u : m_g.inputs(x))
                freeIfIdle(u);
        }
    }

    // Group k rerun whole (once), its members in topological order.
    void rerun(int k) {
        if (k < 0 || m_rerunDone[std::size_t(k)]) return;
        m_rerunDone[std::size_t(k)] = 1;
        for (int x : m_members[std::size_t(k)]) {
            if (m_held[std::size_t(x)] || m_done[std::size_t(x)]) continue;
            pin(x, 1);
            for (int u : m_g.inputs(x))
                materialize(u);
            pin(x, -1);
            forward(x);
            for (int u : m_g.inputs(x))
                freeIfIdle(u);
            freeIfIdle(x);
        }
    }

    // The backwards in reverse topological order, each after what it reads is brought back.
    void backwardPhase() {
        const auto& order = m_g.topologicalOrder();
        for (int v : order)
            if (const int k = groupOf(v); k >= 0) {
                if (std::size_t(k) >= m_members.size()) m_members.resize(std::size_t(k) + 1);
                m_members[std::size_t(k)].push_back(v);
            }
        m_rerunDone.assign(m_members.size(), 0);
        releasePass();
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const int v = *it;
            const GraphNode& node = m_g.node(v);
            rerun(groupOf(v));
            if (node.needs_inputs)
                for (int u : m_g.inputs(v))
                    rerun(groupOf(u));
            if (node.needs_inputs)
                for (int u : m_g.inputs(v))
                    materialize(u);
            if (node.needs_output) materialize(v);
            m_out.push_back(GraphAction::backward(v));
            m_done[std::size_t(v)] = 1;
            dropDead(v);
            for (int u : m_g.inputs(v))
                dropDead(u);
            releasePass();
        }
    }

    const Graph& m_g;
    const SavedSet& m_saved;
    std::vector<char> m_held, m_onL1, m_done;
    std::vector<int> m_seen; // per node: the last search of useful() that reached it
    int m_stamp = 0;
    std::vector<int> m_pinned;
    std::vector<std::vector<int>> m_members; // per rerun group, in topological order
    std::vector<char> m_rerunDone;
    GraphSchedule m_out;
};

} // namespace

GraphSchedule savedSetSchedule(const Graph& g, const SavedSet& saved) {
    return SavedSetEmitter(g, saved).run();
}

// ---------------------------------------------------------------------------------------------------------------------
// Minimum cut (Dinic's maximum flow).

namespace {

struct FlowNetwork {
    struct Arc {
        int to;
        std::int64_t cap;
    };
    std::vector<Arc> arcs;
    std::vector<std::vector<int>> out;
    explicit FlowNetwork(int nodes) : out(std::size_t(nodes)) {}
    void add(int a, int b, std::int64_t cap) {
        out[std::size_t(a)].push_back(int(arcs.size()));
        arcs.push_back({b, cap});
        out[std::size_t(b)].push_back(int(arcs.size()));
        arcs.push_back({a, 0});
    }
    std::vector<int> level, next;
    bool bfs(int s, int t) {
        level.assign(out.size(), -1);
        std::vector<int> queue{s};
        level[std::size_t(s)] = 0;
        for (std::size_t k = 0; k < queue.size(); ++k)
            for (int e : out[std::size_t(queue[k])]) {
                const Arc& a = arcs[std::size_t(e)];
                if (a.cap > 0 && level[std::size_t(a.to)] < 0) {
                    level[std::size_t(a.to)] = level[std::size_t(queue[k])] + 1;
                    queue.push_back(a.to);
                }
            }
        return level[std::size_t(t)] >= 0;
    }
    // One blocking-flow augmentation along the level graph, iteratively.
    std::int64_t augment(int s, int t) {
        std::vector<int> path; // arcs
        std::int64_t total = 0;
        int at = s;
        while (true) {
            if (at == t) {
                std::int64_t f = std::numeric_limits<std::int64_t>::max();
                for (int e : path)
                    f = std::min(f, arcs[std::size_t(e)].cap);
                for (int e : path) {
                    arcs[std::size_t(e)].cap -= f;
                    arcs[std::size_t(e ^ 1)].cap += f;
                }
                total += f;
                path.clear();
                at = s;
                continue;
            }
            bool advanced = false;
            for (int& k = next[std::size_t(at)]; k < int(out[std::size_t(at)].size()); ++k) {
                const int e = out[std::size_t(at)][std::size_t(k)];
                const Arc& a = arcs[std::size_t(e)];
                if (a.cap > 0 && level[std::size_t(a.to)] == level[std::size_t(at)] + 1) {
                    path.push_back(e);
                    at = a.to;
                    advanced = true;
                    break;
                }
            }
            if (advanced) continue;
            if (at == s) return total;
            level[std::size_t(at)] = -1; // a dead end: never again in this phase
            const int e = path.back();
            path.pop_back();
            at = arcs[std::size_t(e ^ 1)].to;
            ++next[std::size_t(at)];
        }
    }
    void maxFlow(int s, int t) {
        while (bfs(s, t)) {
            next.assign(out.size(), 0);
            augment(s, t);
        }
    }
    // Nodes reachable from s in the residual network.
    std::vector<char> sourceSide(int s) const {
        std::vector<char> seen(out.size(), 0);
        std::vector<int> stack{s};
        seen[std::size_t(s)] = 1;
        while (!stack.empty()) {
            const int x = stack.back();
            stack.pop_back();
            for (int e : out[std::size_t(x)]) {
                const Arc& a = arcs[std::size_t(e)];
                if (a.cap > 0 && !seen[std::size_t(a.to)]) seen[std::size_t(a.to)] = 1, stack.push_back(a.to);
            }
        }
        return seen;
    }
};

} // namespace

std::vector<char> minCutSaved(const Graph& g, const std::vector<char>& banned) {
    const int n = g.size();
    constexpr std::int64_t inf = std::int64_t(1) << 62;
    // v's output is the arc in(v) = 2v -> out(v) = 2v + 1, of its size: cutting it keeps the output.
    const int s = 2 * n, t = 2 * n + 1;
    FlowNetwork net(2 * n + 2);
    for (int v = 0; v < n; ++v) {
        net.add(2 * v, 2 * v + 1, g.node(v).output_bytes);
        for (int c : g.consumers(v))
            net.add(2 * v + 1, 2 * c, inf);
        if (isSource(g, v) || banned[std::size_t(v)]) net.add(s, 2 * v, inf);
        if (neededByBackward(g, v)) net.add(2 * v + 1, t, inf);
    }
    net.maxFlow(s, t);
    const std::vector<char> side = net.sourceSide(s);
    std::vector<char> keep(std::size_t(n), 0);
    for (int v = 0; v < n; ++v)
        keep[std::size_t(v)] = side[std::size_t(2 * v)] && !side[std::size_t(2 * v + 1)];
    return keep;
}

// ---------------------------------------------------------------------------------------------------------------------
// The knapsack.

KnapsackResult solveKnapsack(const std::vector<double>& size, const std::vector<double>& runtime, double capacity,
                             const std::string& solver, long long nodeLimit) {
    const std::size_t m = size.size();
    KnapsackResult r;
    r.keep.assign(m, 0);
    capacity = std::max(0.0, capacity);
    std::vector<std::size_t> byDensity(m);
    std::iota(byDensity.begin(), byDensity.end(), std::size_t(0));
    auto density = [&](std::size_t i) { return size[i] > 0 ? runtime[i] / size[i] : INFINITY; };
    std::stable_sort(byDensity.begin(), byDensity.end(),
                     [&](std::size_t a, std::size_t b) { return density(a) > density(b); });
    if (solver == "greedy") {
        double used = 0;
        for (std::size_t i : byDensity)
            if (used + size[i] <= capacity) used += size[i], r.keep[i] = 1;
        return r;
    }
    if (solver == "dp") {
        constexpr double scale = 10000; // PyTorch's dp_knapsack quantises to 10^-4
        const long long cap = std::llround(capacity * scale);
        std::vector<long long> w(m);
        for (std::size_t i = 0; i < m; ++i)
            w[i] = std::llround(size[i] * scale);
        // A table too large for memory (a capacity of over 10^4 size units times many items) is not built: the
        // capacity is clamped to what all items need together.
        const long long all = std::accumulate(w.begin(), w.end(), 0LL);
        const long long C = std::min(cap, all);
        std::vector<double> best(std::size_t(C + 1), 0.0);
        std::vector<std::vector<char>> took(m, std::vector<char>(std::size_t(C + 1), 0));
        for (std::size_t i = 0; i < m; ++i)
            for (long long c = C; c >= w[i]; --c)
                if (best[std::size_t(c - w[i])] + runtime[i] > best[std::size_t(c)]) {
                    best[std::size_t(c)] = best[std::size_t(c - w[i])] + runtime[i];
                    took[i][std::size_t(c)] = 1;
                }
        long long c = C;
        for (std::size_t i = m; i-- > 0;)
            if (took[i][std::size_t(c)]) r.keep[i] = 1, c -= w[i];
        return r;
    }
    // "ilp": depth-first branch and bound on the items by density, bounded by the fractional relaxation.
    std::vector<char> cur(m, 0), bestKeep(m, 0);
    double bestValue = -1;
    long long nodes = 0;
    auto bound = [&](std::size_t k, double room, double value) {
        for (; k < m; ++k) {
            const std::size_t i = byDensity[k];
            if (size[i] <= room)
                room -= size[i], value += runtime[i];
            else
                return value + runtime[i] * room / size[i];
        }
        return value;
    };
    struct Frame {
        std::size_t k;
        double room, value;
        int branch; // 0: take next, 1: skip next, 2: done
    };
    std::vector<Frame> stack{{0, capacity, 0.0, 0}};
    while (!stack.empty()) {
        Frame& f = stack.back();
        if (f.k == m) {
            if (f.value > bestValue) bestValue = f.value, bestKeep = cur;
            stack.pop_back();
            continue;
        }
        if (f.branch == 0 && ++nodes > nodeLimit) {
            r.proven = false;
            break;
        }
        if (f.branch == 0 && bound(f.k, f.room, f.value) <= bestValue) {
            stack.pop_back();
            continue;
        }
        const std::size_t i = byDensity[f.k];
        if (f.branch == 0) {
            f.branch = 1;
            if (size[i] <= f.room) {
                cur[i] = 1;
                stack.push_back({f.k + 1, f.room - size[i], f.value + runtime[i], 0});
            }
            continue;
        }
        if (f.branch == 1) {
            f.branch = 2;
            cur[i] = 0;
            stack.push_back({f.k + 1, f.room, f.value, 0});
            continue;
        }
        stack.pop_back();
    }
    if (bestValue < 0) { // the node limit before any leaf: the greedy answer
        double used = 0;
        for (std::size_t i : byDensity)
            if (used + size[i] <= capacity) used += size[i], bestKeep[i] = 1;
    }
    r.keep = bestKeep;
    return r;
}

// ---------------------------------------------------------------------------------------------------------------------
// The schedulers.

namespace {

// Block of each node (-1: none) numbered in topological order of first appearance: GraphNode::block, or, when no node
// names one, the segments between articulation points (a chain: every node its own block).
struct Blocks {
    std::vector<int> of;
    int count = 0;
    bool named = true;
};

Blocks blocksOf(const Graph& g) {
    Blocks b;
    b.of.assign(std::size_t(g.size()), -1);
    std::map<std::string, int> index;
    for (int v : g.topologicalOrder()) {
        const std::string& name = g.node(v).block;
        if (name.empty()) continue;
        auto [it, fresh] = index.emplace(name, b.count);
        if (fresh) ++b.count;
        b.of[std::size_t(v)] = it->second;
    }
    if (b.count > 0) return b;
    b.named = false;
    b.of = segmentsAt(g, graphSeparators(g, true));
    for (int s : b.of)
        b.count = std::max(b.count, s + 1);
    return b;
}

// A plan from what it keeps, simulated.
struct Built {
    GraphPlan plan;
    std::int64_t peak = 0;
};

// A plan that writes to level 1 is judged on the machine's levels with their capacities lifted (only the budget and
// level 0 count, as for every scheduler), its time the simulated one: a read it waits for costs time.
Built build(const Graph& g, const Hardware& hw, const SavedSet& saved) {
    Built b;
    b.plan.actions = savedSetSchedule(g, saved);
    b.plan.predicted_makespan_s = secondsOf(g, b.plan.actions);
    if (std::find(saved.offload.begin(), saved.offload.end(), 1) == saved.offload.end()) {
        b.peak = graphPlanPeak(g, b.plan.actions);
        return b;
    }
    std::vector<MemoryLevel> levels = hw.levels();
    for (MemoryLevel& l : levels)
        l.capacity_bytes = std::numeric_limits<std::int64_t>::max();
    auto relaxed = Hardware::make(hw.name(), levels);
    SimOptions opt;
    opt.memory_curve = false;
    auto tl = relaxed ? simulateGraph(g, *relaxed, b.plan.actions, opt) : Result<Timeline>(relaxed.errorValue());
    b.peak = tl ? tl->totals.peak_bytes[0] : -1;
    if (tl) b.plan.predicted_makespan_s = tl->totals.makespan_s;
    return b;
}

// The checkpointing of groups of blocks: `group[v]` the group of v (-1: none), `recomputed[k]` whether group k is
// rebuilt in the backward. A node of a recomputed group keeps nothing unless another group or the rest reads it.
std::vector<char> groupSaveable(const Graph& g, const std::vector<int>& group, const std::vector<char>& recomputed) {
    std::vector<char> saveable(std::size_t(g.size()), 1);
    for (int v = 0; v < g.size(); ++v) {
        const int k = group[std::size_t(v)];
        if (k < 0 || !recomputed[std::size_t(k)]) continue;
        bool leaves = false;
        for (int c : g.consumers(v))
            leaves = leaves || group[std::size_t(c)] != k;
        saveable[std::size_t(v)] = leaves;
    }
    return saveable;
}

Error cancelled(const std::string& name) {
    return fail(name + ": cancelled");
}

// The first candidate (what the parameters say) when it fits; else, searching, the fastest of the others that fits
// (the lower peak among equals), or with `firstFit` the first that fits; infeasible with the least peak of them all
// otherwise.
template <class Make>
Result<GraphPlan> bestOf(const std::string& name, const Hardware& hw, const GraphSolveContext& ctx, int count,
                         bool search, Make make, bool firstFit = false) {
    const std::int64_t limit = levelZeroLimit(hw, ctx.budget);
    std::optional<Built> best;
    std::int64_t leanest = -1;
    for (int k = 0; k < (search ? count : 1); ++k) {
        if (ctx.cancelled()) return cancelled(name);
        Result<Built> b = make(k);
        if (!b) return b.errorValue();
        if (b->peak < 0) return fail(name + ": internal error: its plan does not validate");
        if (leanest < 0 || b->peak < leanest) leanest = b->peak;
        if (limit > 0 && b->peak > limit) continue;
        if (k == 0 || firstFit) {
            best = std::move(*b);
            break;
        }
        if (!best || b->plan.predicted_makespan_s < best->plan.predicted_makespan_s * (1 - 1e-12) ||
            (b->plan.predicted_makespan_s <= best->plan.predicted_makespan_s * (1 + 1e-12) && b->peak < best->peak))
            best = std::move(*b);
        if (!search) break;
    }
    if (!best) return needsBudget(name, leanest, limit);
    best->plan.predicted_peak_bytes = best->peak;
    return std::move(best->plan);
}

ParamSpec searchParam(const std::string& what) {
    return {.name = "search",
            .description = "on: when the plan does not fit the budget, " + what,
            .type = ParamType::Choice,
            .default_value = "on",
            .choices = {"on", "off"}};
}

} // namespace

GraphSchedulerInfo fullAcScheduler() {
    GraphSchedulerInfo s;
    s.name = "full-ac";
    s.description = "Full activation checkpointing: keep each group's input, rebuild the group in the backward "
                    "(Megatron-LM --recompute-granularity full, PyTorch torch.utils.checkpoint per block)";
    s.paper = "Megatron-LM (Korthikanti et al. 2022, section 5); PyTorch torch.utils.checkpoint; Chen et al. 2016";
    s.optimality = Optimality::Heuristic;
    s.params = {
        {.name = "method",
         .description =
             "uniform: every group of `layers` blocks checkpointed (PyTorch per block with 1); block: only the first "
             "`layers` blocks, each on its own, the rest keep everything (Megatron's --recompute-method)",
         .type = ParamType::Choice,
         .default_value = "uniform",
         .choices = {"uniform", "block"}},
        {.name = "layers",
         .description = "blocks per group (uniform) or blocks recomputed (block): Megatron's --recompute-num-layers",
         .type = ParamType::Int,
         .default_value = "1",
         .min = 0,
         .max = 1e6},
        searchParam("the fastest other number of layers that fits (uniform: 1 to all blocks; block: more blocks)")};
    s.solve = [](const Graph& g, const Hardware& hw, const Params& p,
                 const GraphSolveContext& ctx) -> Result<GraphPlan> {
        const Blocks blocks = blocksOf(g);
        const bool uniform = p.text("method") == "uniform";
        const int given = int(std::min<long long>(p.integer("layers"), blocks.count));
        if (uniform && given < 1) return fail("full-ac: the uniform method needs layers >= 1");
        std::vector<int> candidates{given};
        if (uniform) {
            for (int k = 1; k <= blocks.count; ++k)
                if (k != given) candidates.push_back(k);
        } else {
            for (int k = given + 1; k <= blocks.count; ++k)
                candidates.push_back(k);
        }
        auto make = [&](int c) -> Result<Built> {
            const int k = candidates[std::size_t(c)];
            std::vector<int> group(std::size_t(g.size()), -1);
            std::vector<char> recomputed;
            if (uniform) {
                recomputed.assign(std::size_t((blocks.count + k - 1) / k), 1);
                for (int v = 0; v < g.size(); ++v)
                    if (blocks.of[std::size_t(v)] >= 0) group[std::size_t(v)] = blocks.of[std::size_t(v)] / k;
            } else {
                recomputed.assign(std::size_t(blocks.count), 0);
                for (int b = 0; b < k && b < blocks.count; ++b)
                    recomputed[std::size_t(b)] = 1;
                group = blocks.of;
            }
            std::vector<int> rerunGroup(group.size(), -1);
            for (std::size_t v = 0; v < group.size(); ++v)
                if (group[v] >= 0 && recomputed[std::size_t(group[v])]) rerunGroup[v] = group[v];
            Built b = build(g, hw, {savedFrontier(g, groupSaveable(g, group, recomputed)), {}, rerunGroup});
            b.plan.params["layers"] = std::to_string(k);
            return b;
        };
        auto plan = bestOf("full-ac", hw, ctx, int(candidates.size()), p.text("search") == "on", make);
        if (!plan) return plan;
        plan->params["blocks"] = std::to_string(blocks.count) + (blocks.named ? "" : " (between articulation points)");
        return plan;
    };
    return s;
}

namespace {

// Megatron's core attention: each softmax, the scaling and the batched product of queries and keys before it (each
// read by nothing else), its dropout and the dropout's mask after it.
std::vector<char> coreAttention(const Graph& g) {
    std::vector<char> core(std::size_t(g.size()), 0);
    static const std::set<std::string> scale = {"mul", "div", "add", "sub", "where", "cast", "scale"};
    for (int v = 0; v < g.size(); ++v) {
        if (lower(g.node(v).op) != "softmax") continue;
        core[std::size_t(v)] = 1;
        int u = g.inputs(v).empty() ? -1 : g.inputs(v).front();
        while (u >= 0 && g.consumers(u).size() == 1 && scale.count(lower(g.node(u).op))) {
            core[std::size_t(u)] = 1;
            int next = -1;
            for (int w : g.inputs(u))
                if (opKind(g, w) != OpKind::Input) next = w;
            u = next;
        }
        if (u >= 0 && g.consumers(u).size() == 1 && opKind(g, u) == OpKind::Dot) core[std::size_t(u)] = 1;
        for (int c : g.consumers(v)) {
            const std::string op = lower(g.node(c).op);
            if (op == "dropoutmask") core[std::size_t(c)] = 1;
            if (op != "dropout") continue;
            core[std::size_t(c)] = 1;
            for (int m : g.inputs(c))
                if (lower(g.node(m).op) == "dropoutmask") core[std::size_t(m)] = 1;
        }
    }
    return core;
}

} // namespace

constexpr const char* kNoAttention =
    "selective-ac recomputes attention, and the graph has none (no node whose op is Softmax)";

GraphSchedulerInfo selectiveAcScheduler() {
    GraphSchedulerInfo s;
    s.name = "selective-ac";
    s.description = "Selective activation recomputation: the core attention (QK^T, softmax, its dropout) rebuilt in "
                    "the backward, everything else kept (Megatron-LM --recompute-granularity selective)";
    s.paper = "Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models";
    s.optimality = Optimality::Heuristic;
    s.lacks = [](const Graph& g) -> std::string {
        const auto core = coreAttention(g);
        if (std::find(core.begin(), core.end(), 1) != core.end()) return {};
        return std::string(kNoAttention);
    };
    s.solve = [](const Graph& g, const Hardware& hw, const Params&, const GraphSolveContext& ctx) -> Result<GraphPlan> {
        const auto core = coreAttention(g);
        const long long count = std::count(core.begin(), core.end(), 1);
        if (count == 0) return fail(kNoAttention);
        std::vector<char> saveable(core.size());
        for (std::size_t v = 0; v < core.size(); ++v)
            saveable[v] = !core[v];
        auto plan = bestOf("selective-ac", hw, ctx, 1, false, [&](int) -> Result<Built> {
            return build(g, hw, {savedFrontier(g, saveable), {}});
        });
        if (plan) plan->params["recomputed_nodes"] = std::to_string(count);
        return plan;
    };
    return s;
}

namespace {

// PyTorch's partitioner bans from recomputation what its allowlist does not name (default), or, more aggressive, only
// random and compute-intensive operations; either way reductions whose output is under a quarter of their inputs.
std::vector<char> bannedBy(const Graph& g, bool allowlist) {
    std::vector<char> banned(std::size_t(g.size()), 0);
    for (int v = 0; v < g.size(); ++v) {
        const OpKind k = opKind(g, v);
        if (k == OpKind::Input) continue;
        bool ban = allowlist ? k != OpKind::Recomputable : (k == OpKind::Dot || k == OpKind::Random);
        double in = 0;
        for (int u : g.inputs(v))
            in += double(g.node(u).output_bytes);
        if (double(g.node(v).output_bytes) * 4 < in) ban = true;
        banned[std::size_t(v)] = ban;
    }
    return banned;
}

double bytesOf(const Graph& g, const std::vector<char>& set) {
    double sum = 0;
    for (int v = 0; v < g.size(); ++v)
        if (set[std::size_t(v)]) sum += double(g.node(v).output_bytes);
    return sum;
}

// Which outputs PyTorch's compiler saves at activation_memory_budget `budget` (choose_saved_values_set): the default
// min cut at 1, the graph's inputs at 0, between them the aggressive min cut if it is under the budget, else a knapsack
// over the outputs the aggressive cut bans (the budget in units of the range between the two extremes' bytes) deciding
// which of them to keep, the rest allowed to be recomputed.
struct BudgetChoice {
    std::vector<char> keep;
    std::string stage;
    bool proven = true;
};

BudgetChoice budgetSaved(const Graph& g, double budget, const std::string& solver, const std::string& estimator) {
    const int n = g.size();
    std::vector<char> inputs(std::size_t(n), 0);
    for (int v = 0; v < n; ++v)
        inputs[std::size_t(v)] = isSource(g, v) && neededByBackward(g, v);
    const std::vector<char> runtimeOptimal = minCutSaved(g, bannedBy(g, true));
    if (budget >= 1) return {runtimeOptimal, "default partitioner"};
    if (budget <= 0) return {savedFrontier(g, std::vector<char>(std::size_t(n), 0)), "inputs only"};
    const double lo = bytesOf(g, inputs), hi = bytesOf(g, runtimeOptimal);
    if (hi <= lo) return {runtimeOptimal, "default partitioner"};
    const std::vector<char> aggressiveBan = bannedBy(g, false);
    const std::vector<char> aggressive = minCutSaved(g, aggressiveBan);
    if ((bytesOf(g, aggressive) - lo) / (hi - lo) < budget) return {aggressive, "aggressive min cut"};
    // The knapsack's items: banned outputs that some backward needs, directly or through what it recomputes.
    std::vector<char> toBackward(std::size_t(n), 0);
    const auto& order = g.topologicalOrder();
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        bool need = neededByBackward(g, *it);
        for (int c : g.consumers(*it))
            need = need || toBackward[std::size_t(c)];
        toBackward[std::size_t(*it)] = need;
    }
    std::vector<int> items;
    for (int v = 0; v < n; ++v)
        if (aggressiveBan[std::size_t(v)] && toBackward[std::size_t(v)] && !isSource(g, v)) items.push_back(v);
    if (items.empty()) return {inputs, "inputs only"};
    std::stable_sort(items.begin(), items.end(),
                     [&](int a, int b) { return g.node(a).output_bytes > g.node(b).output_bytes; });
    bool anyFlops = false;
    for (const GraphNode& node : g.nodes())
        anyFlops = anyFlops || node.flops > 0;
    std::vector<double> size, runtime;
    for (int v : items) {
        size.push_back(double(g.node(v).output_bytes) / (hi - lo));
        // FlopCounterMode counts matmuls, convolutions and attention only; every other op counts 1.
        if (estimator == "flops" && anyFlops)
            runtime.push_back(opKind(g, v) == OpKind::Dot ? std::max(g.node(v).flops, 1.0) : 1.0);
        else
            runtime.push_back(g.node(v).forward);
    }
    const KnapsackResult chosen = solveKnapsack(size, runtime, budget, solver);
    std::vector<char> ban = aggressiveBan;
    for (std::size_t k = 0; k < items.size(); ++k)
        if (!chosen.keep[k]) ban[std::size_t(items[k])] = 0;
    return {minCutSaved(g, ban), "knapsack", chosen.proven};
}

} // namespace

GraphSchedulerInfo memoryBudgetScheduler() {
    GraphSchedulerInfo s;
    s.name = "memory-budget";
    s.description = "PyTorch's compiler with torch._functorch.config.activation_memory_budget: a knapsack over which "
                    "matmul outputs to keep, the rest recomputed by the min-cut partitioner";
    s.paper = "PyTorch 2.4 torch/_functorch/partitioners.py (choose_saved_values_set, knapsack solvers)";
    s.optimality = Optimality::Heuristic;
    s.params = {
        {.name = "budget",
         .description =
             "activation_memory_budget: 1 the default partitioner, 0 recompute everything recomputable, between a "
             "knapsack over the outputs it would otherwise never recompute",
         .type = ParamType::Real,
         .default_value = "1",
         .min = 0,
         .max = 1},
        {.name = "solver",
         .description = "activation_memory_budget_solver: greedy, dp (PyTorch's default) or ilp",
         .type = ParamType::Choice,
         .default_value = "dp",
         .choices = {"greedy", "dp", "ilp"}},
        {.name = "estimator",
         .description =
             "activation_memory_budget_runtime_estimator: flops (matmuls by their FLOPs, other ops 1) or profile (each "
             "node's forward time)",
         .type = ParamType::Choice,
         .default_value = "flops",
         .choices = {"flops", "profile"}},
        searchParam("the largest of budget, budget - 0.05, ... 0 whose plan fits, as a user of the compiler would "
                    "lower it by hand (the peak need not fall with the budget)")};
    s.solve = [](const Graph& g, const Hardware& hw, const Params& p,
                 const GraphSolveContext& ctx) -> Result<GraphPlan> {
        const double given = p.real("budget");
        std::vector<double> budgets{given};
        for (int k = int(std::floor(given * 20 + 1e-9)); k >= 0; --k)
            if (k / 20.0 < given - 1e-9) budgets.push_back(k / 20.0);
        const std::string solver = p.text("solver"), estimator = p.text("estimator");
        auto make = [&](int c) -> Result<Built> {
            const BudgetChoice choice = budgetSaved(g, budgets[std::size_t(c)], solver, estimator);
            Built b = build(g, hw, {choice.keep, {}});
            b.plan.params["budget"] = formatNumber(budgets[std::size_t(c)], 12);
            b.plan.params["stage"] = choice.stage + (choice.proven ? "" : " (ilp node limit: best found)");
            b.plan.params["kept_bytes"] = std::to_string(std::int64_t(bytesOf(g, choice.keep)));
            return b;
        };
        // Unlike the other searches, the first budget that fits wins: a user lowers it until the model fits.
        return bestOf("memory-budget", hw, ctx, int(budgets.size()), p.text("search") == "on", make, true);
    };
    return s;
}

GraphSchedulerInfo minCutScheduler() {
    GraphSchedulerInfo s;
    s.name = "min-cut";
    s.description = "PyTorch's default partitioner (min_cut_rematerialization_partition): the fewest bytes to keep "
                    "when only cheap operations (pointwise, normalisation, views) may be recomputed";
    s.paper = "PyTorch torch/_functorch/partitioners.py; He (2022), \"Min-cut optimal(*) recomputation\"";
    s.optimality = Optimality::Heuristic;
    s.solve = [](const Graph& g, const Hardware& hw, const Params&, const GraphSolveContext& ctx) -> Result<GraphPlan> {
        return bestOf("min-cut", hw, ctx, 1, false, [&](int) -> Result<Built> {
            const std::vector<char> keep = minCutSaved(g, bannedBy(g, true));
            Built b = build(g, hw, {keep, {}});
            b.plan.params["kept_bytes"] = std::to_string(std::int64_t(bytesOf(g, keep)));
            return b;
        });
    };
    return s;
}

namespace {

// A node's name for save_only_these_names: its id, or its id without the block prefix ("l3.qkv" -> "qkv").
bool named(const Graph& g, int v, const std::set<std::string>& names) {
    const GraphNode& node = g.node(v);
    if (names.count(node.id)) return true;
    if (!node.block.empty() && node.id.size() > node.block.size() + 1 && node.id.rfind(node.block + ".", 0) == 0)
        return names.count(node.id.substr(node.block.size() + 1)) > 0;
    return false;
}

} // namespace

GraphSchedulerInfo jaxPolicyScheduler() {
    GraphSchedulerInfo s;
    s.name = "jax-policy";
    s.description = "jax.checkpoint on every block with a policy from jax.checkpoint_policies: what it may save "
                    "is kept (or offloaded to level 1), the rest of the block rebuilt in its backward";
    s.paper = "JAX jax.checkpoint / jax.checkpoint_policies (jax/_src/ad_checkpoint.py)";
    s.optimality = Optimality::Heuristic;
    s.params = {
        {.name = "policy",
         .description = "nothing_saveable, everything_saveable, dots_saveable (checkpoint_dots), "
                        "dots_with_no_batch_dims_saveable, save_only_these_names, offload_dot_with_no_batch_dims, "
                        "save_and_offload_only_these_names",
         .type = ParamType::Choice,
         .default_value = "dots_with_no_batch_dims_saveable",
         .choices = {"nothing_saveable", "everything_saveable", "dots_saveable", "dots_with_no_batch_dims_saveable",
                     "save_only_these_names", "offload_dot_with_no_batch_dims", "save_and_offload_only_these_names"}},
        {.name = "names",
         .description = "for save_only_these_names and save_and_offload_only_these_names: the node names it may save, "
                        "separated by commas (an id, or an id without its block: qkv,fc1)",
         .type = ParamType::Text,
         .default_value = "",
         .min = 0,
         .max = 4096},
        {.name = "offload_names",
         .description = "for save_and_offload_only_these_names: the names it offloads to level 1",
         .type = ParamType::Text,
         .default_value = "",
         .min = 0,
         .max = 4096}};
    s.solve = [](const Graph& g, const Hardware& hw, const Params& p,
                 const GraphSolveContext& ctx) -> Result<GraphPlan> {
        const std::string policy = p.text("policy");
        const bool offloads = policy.rfind("offload", 0) == 0 || policy == "save_and_offload_only_these_names";
        if (offloads && hw.levelCount() < 2)
            return fail("jax-policy: " + policy + " offloads to a second memory level, which the machine lacks");
        const std::set<std::string> names = wordSet(p.text("names")), offloadNames = wordSet(p.text("offload_names"));
        if ((policy == "save_only_these_names" || policy == "save_and_offload_only_these_names") && names.empty() &&
            offloadNames.empty())
            return fail("jax-policy: " + policy + " needs names (the node names it may save)");
        const Blocks blocks = blocksOf(g);
        std::vector<char> recomputed(std::size_t(blocks.count), 1);
        std::vector<char> saveable = groupSaveable(g, blocks.of, recomputed), toLevel1(std::size_t(g.size()), 0);
        for (int v = 0; v < g.size(); ++v) {
            if (saveable[std::size_t(v)]) continue;
            const bool dot = opKind(g, v) == OpKind::Dot;
            bool save = false, off = false;
            if (policy == "everything_saveable") save = true;
            if (policy == "dots_saveable") save = dot;
            if (policy == "dots_with_no_batch_dims_saveable") save = dot && !dotWithBatchDims(g, v);
            if (policy == "save_only_these_names") save = named(g, v, names);
            if (policy == "offload_dot_with_no_batch_dims") off = dot && !dotWithBatchDims(g, v);
            if (policy == "save_and_offload_only_these_names") {
                save = named(g, v, names);
                off = !save && named(g, v, offloadNames);
            }
            saveable[std::size_t(v)] = save || off;
            toLevel1[std::size_t(v)] = off;
        }
        return bestOf("jax-policy", hw, ctx, 1, false, [&](int) -> Result<Built> {
            SavedSet set{savedFrontier(g, saveable), {}};
            set.offload.assign(set.keep.size(), 0);
            for (std::size_t v = 0; v < set.keep.size(); ++v)
                set.offload[v] = set.keep[v] && toLevel1[v];
            return build(g, hw, set);
        });
    };
    return s;
}

GraphSchedulerInfo deepspeedOffloadScheduler() {
    GraphSchedulerInfo s;
    s.name = "deepspeed-offload";
    s.description = "DeepSpeed activation checkpointing with cpu_checkpointing: each block's checkpointed input "
                    "written to level 1, read back when its block is rebuilt in the backward";
    s.paper = "DeepSpeed deepspeed.runtime.activation_checkpointing (cpu_checkpointing); Rajbhandari et al. 2021, "
              "ZeRO-Infinity";
    s.optimality = Optimality::Heuristic;
    s.params = {{.name = "layers",
                 .description = "blocks per checkpointed group",
                 .type = ParamType::Int,
                 .default_value = "1",
                 .min = 1,
                 .max = 1e6}};
    s.min_levels = 2;
    s.solve = [](const Graph& g, const Hardware& hw, const Params& p,
                 const GraphSolveContext& ctx) -> Result<GraphPlan> {
        const Blocks blocks = blocksOf(g);
        const int k = int(std::min<long long>(p.integer("layers"), std::max(1, blocks.count)));
        std::vector<int> group(std::size_t(g.size()), -1);
        for (int v = 0; v < g.size(); ++v)
            if (blocks.of[std::size_t(v)] >= 0) group[std::size_t(v)] = blocks.of[std::size_t(v)] / k;
        std::vector<char> recomputed(std::size_t(blocks.count / k + 1), 1);
        const std::vector<char> keep = savedFrontier(g, groupSaveable(g, group, recomputed));
        // The checkpoints: kept outputs read by a recomputed group other than their own.
        std::vector<char> offload(keep.size(), 0);
        for (int v = 0; v < g.size(); ++v) {
            if (!keep[std::size_t(v)]) continue;
            for (int c : g.consumers(v))
                if (group[std::size_t(c)] >= 0 && group[std::size_t(c)] != group[std::size_t(v)])
                    offload[std::size_t(v)] = 1;
        }
        auto plan = bestOf("deepspeed-offload", hw, ctx, 1, false, [&](int) -> Result<Built> {
            return build(g, hw, {keep, offload, group});
        });
        if (plan) plan->params["blocks"] = std::to_string(blocks.count);
        return plan;
    };
    return s;
}

} // namespace ckpt
