// Disk-Revolve: Aupy, Herrmann, Hovland, Robert, "Optimal multistage algorithm for adjoint computation", SIAM J. Sci.
// Comput. 38(3), 2016; nested level by level as in Herrmann & Pallez, "H-Revolve: a framework for adjoint computation
// on synchronous hierarchical platforms", ACM TOMS 46(2), 2020. Model A, synchronous costs (a transfer blocks compute).
//
// The papers' recurrences, restated for this project's vocabulary (plan/action.h): steps cost uf forward and ub
// backward, each backward preceded by a taped re-run; level 0 has s slots for states other than the working state
// (the one the last forward or read produced), so Revolve's "s slots, the input's included" is the memory-only case.
// A subproblem reverses l steps from x_a, which is the working state in level 0:
//   M(l, s)    memory only: Revolve, (l + t(l, s)) uf + l ub;
//   A(l, s, d) x_a on no slower level, d free slots on this level:
//                min { leaf: the inner levels alone on the whole segment (M for the innermost),
//                      write x_a:  wd + D(l, s, d - 1),
//                      keep x_a in level 0, advance i:  i uf + A(l - i, s - 1, d) + A(i, s, d) };
//   D(l, s, d) x_a also on this level (just read back, or written):
//                min { leaf,
//                      keep x_a in level 0:   i uf + A(l - i, s - 1, d) + D(i, s, d),
//                      let the sweep consume x_a and read it back afterwards:  i uf + A(l - i, s, d) + rd + D(i, s, d),
//                      free its copy on this level (bounded levels):  A(l, s, d + 1) without the write option }.
// With one slower level and d unbounded these are Disk-Revolve's Opt_inf (A) and its one-read-level Opt_1 (D), with
// Revolve's table as the sub-table; tests/engine/tst_multistage checks the optimum against exhaustive search. Nesting
// ("leaf" = the next inner level's A on the whole segment, its slots all free because the outer recursion stores
// states only on its own level and in level 0) is H-Revolve's level-by-level generalisation. For s >= l - 1 every
// table holds (2l - 1) uf + l ub, the least any model-A schedule needs.
#include "schedulers/hrevolve.h"

#include "schedulers/revolve.h"

#include <algorithm>
#include <limits>

namespace ckpt {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
enum Option : std::int32_t { Leaf = 0, KeepIt = 1, Consume = 2, Free = 3 };
constexpr std::int32_t why(Option o, int split) {
    return std::int32_t(o) << 24 | split;
}

} // namespace

HierarchicalRevolve::Effort HierarchicalRevolve::effort(int L, int S, const std::vector<StorageLevel>& levels) {
    Effort e;
    const double l = L, s = std::min(S, L);
    for (const auto& io : levels) {
        const double layers = io.capacity < 0 || io.capacity >= L ? 1.0 : io.capacity + 1.0;
        e.cells += layers * (l + 1) * (S + 1.0);
        e.operations += layers * 3 * (S >= L ? l * l * l / 3 : s * l * l / 2);
    }
    return e;
}

HierarchicalRevolve::HierarchicalRevolve(int maxLength, int maxMemory, double uf, double ub,
                                         std::vector<StorageLevel> levels)
    : m_L(std::max(1, maxLength)), m_S(std::max(0, maxMemory)), m_uf(uf), m_ub(ub) {
    for (const auto& io : levels) {
        Table t;
        t.io = io;
        if (t.io.capacity >= m_L) t.io.capacity = -1; // never more than the chain's states at once
        t.layers = t.io.capacity < 0 ? 1 : t.io.capacity + 1;
        m_t.push_back(std::move(t));
    }
    for (int k = 0; k < int(m_t.size()); ++k)
        fill(k);
}

std::size_t HierarchicalRevolve::bytes() const {
    std::size_t cells = 0;
    for (const Table& t : m_t)
        cells += t.A.size();
    return cells * (3 * sizeof(double) + 2 * sizeof(std::int32_t) + sizeof(std::uint8_t));
}

double HierarchicalRevolve::memoryOnly(int l, int s) const {
    if (s <= 0) return l == 1 ? m_uf + m_ub : kInf;
    return double(l + revolveAdvances(l, s)) * m_uf + double(l) * m_ub;
}

double HierarchicalRevolve::leaf(int k, int l, int s) const {
    if (k == 0) return memoryOnly(l, s);
    return m_t[std::size_t(k - 1)].A[at(full(k - 1), l, s)];
}

void HierarchicalRevolve::fill(int k) {
    Table& t = m_t[std::size_t(k)];
    const bool bounded = t.io.capacity >= 0;
    const std::size_t cells = std::size_t(t.layers) * std::size_t(m_L + 1) * std::size_t(m_S + 1);
    t.A.assign(cells, kInf), t.Ap.assign(cells, kInf), t.D.assign(cells, kInf);
    t.ApWhy.assign(cells, why(Leaf, 0)), t.DWhy.assign(cells, why(Leaf, 0)), t.AWrite.assign(cells, 0);
    const double wd = t.io.write, rd = t.io.read;
    for (int l = 1; l <= m_L; ++l) {
        const int hard = std::min(m_S, l - 2); // s <= hard needs the programme; above, the lower bound is reached
        const double least = double(2 * l - 1) * m_uf + double(l) * m_ub;
        for (int d = 0; d < t.layers; ++d)
            for (int s = std::max(0, hard + 1); s <= m_S; ++s) {
                const std::size_t c = at(d, l, s);
                t.A[c] = t.Ap[c] = t.D[c] = least;
            }
        if (hard < 0) continue;
        // A without the write option, then D (which may free into A' one layer up), then A.
        for (int d = 0; d < t.layers; ++d) {
            double* best = &t.Ap[at(d, l, 0)];
            std::int32_t* arg = &t.ApWhy[at(d, l, 0)];
            for (int s = 0; s <= hard; ++s)
                best[s] = leaf(k, l, s), arg[s] = why(Leaf, 0);
            for (int i = 1; i < l; ++i) {
                const double adv = double(i) * m_uf;
                const double* suffix = &t.A[at(d, l - i, 0)];
                const double* prefix = &t.A[at(d, i, 0)];
                for (int s = 1; s <= hard; ++s) {
                    const double v = adv + suffix[s - 1] + prefix[s];
                    if (v < best[s]) best[s] = v, arg[s] = why(KeepIt, i);
                }
            }
        }
        for (int d = 0; d < t.layers; ++d) {
            double* best = &t.D[at(d, l, 0)];
            std::int32_t* arg = &t.DWhy[at(d, l, 0)];
            for (int s = 0; s <= hard; ++s)
                best[s] = leaf(k, l, s), arg[s] = why(Leaf, 0);
            for (int i = 1; i < l; ++i) {
                const double adv = double(i) * m_uf;
                const double* suffix = &t.A[at(d, l - i, 0)];
                const double* prefix = &t.D[at(d, i, 0)];
                for (int s = 1; s <= hard; ++s) {
                    const double v = adv + suffix[s - 1] + prefix[s];
                    if (v < best[s]) best[s] = v, arg[s] = why(KeepIt, i);
                }
                for (int s = 0; s <= hard; ++s) {
                    const double v = adv + suffix[s] + rd + prefix[s];
                    if (v < best[s]) best[s] = v, arg[s] = why(Consume, i);
                }
            }
            if (bounded && d + 1 < t.layers) {
                const double* up = &t.Ap[at(d + 1, l, 0)];
                for (int s = 0; s <= hard; ++s)
                    if (up[s] < best[s]) best[s] = up[s], arg[s] = why(Free, 0);
            }
        }
        for (int d = 0; d < t.layers; ++d)
            for (int s = 0; s <= hard; ++s) {
                const std::size_t c = at(d, l, s);
                t.A[c] = t.Ap[c];
                if (bounded && d == 0) continue; // no free slot to write x_a to
                const double v = wd + t.D[at(bounded ? d - 1 : 0, l, s)];
                if (v < t.A[c]) t.A[c] = v, t.AWrite[c] = 1;
            }
    }
}

double HierarchicalRevolve::cost(int length, int memory) const {
    const int k = int(m_t.size()) - 1;
    if (memory >= length - 1) return double(2 * length - 1) * m_uf + double(length) * m_ub;
    return m_t.back().A[at(full(k), std::min(length, m_L), std::clamp(memory, 0, m_S))];
}

double HierarchicalRevolve::costStored(int length, int memory) const {
    const int k = int(m_t.size()) - 1;
    if (memory >= length - 1) return double(2 * length - 1) * m_uf + double(length) * m_ub;
    return m_t.back().D[at(full(k), std::min(length, m_L), std::clamp(memory, 0, m_S))];
}

// Replays the programme's choices. The sub-problems wait on an explicit stack, in the order the papers' recursion
// visits them (a recursion here would go as deep as the chain is long).
struct HierarchicalRevolve::Emit {
    const HierarchicalRevolve& h;
    const Chain& chain;
    Schedule& out;
    double ignored = 0;

    enum class Kind { A, Ap, D, Read };
    struct Task {
        Kind kind;
        int k, a, l, s, d; // Read: x_a from the level of table k
    };
    std::vector<Task> todo;

    void turn(int i) {
        out.push_back(Action::forward(i, Keep::Tape));
        out.push_back(Action::backward(i));
    }
    // x_a to x_{a+i}; the first step keeps x_a or consumes it.
    void advance(int a, int i, Keep first) {
        for (int j = a + 1; j <= a + i; ++j)
            out.push_back(Action::forward(j, j == a + 1 ? first : Keep::None));
    }
    void leaf(int k, int a, int l, int s) {
        if (k == 0)
            appendRevolve(chain, a, a + l, s, out, ignored);
        else
            todo.push_back({Kind::A, k - 1, a, l, s, h.full(k - 1)});
    }
    void run(Kind kind, int k, int a, int l, int s, int d) {
        todo.push_back({kind, k, a, l, s, d});
        while (!todo.empty()) {
            const Task t = todo.back();
            todo.pop_back();
            switch (t.kind) {
            case Kind::A:
                A(t.k, t.a, t.l, t.s, t.d);
                break;
            case Kind::Ap:
                Ap(t.k, t.a, t.l, t.s, t.d);
                break;
            case Kind::D:
                D(t.k, t.a, t.l, t.s, t.d);
                break;
            case Kind::Read:
                out.push_back(Action::read(t.a, h.m_t[std::size_t(t.k)].io.level));
                break;
            }
        }
    }
    // Each step below emits what comes first and pushes the rest: the last pushed runs next.
    void A(int k, int a, int l, int s, int d) {
        const Table& t = h.m_t[std::size_t(k)];
        if (l == 1) return turn(a + 1);
        if (t.AWrite[h.at(d, l, s)]) {
            out.push_back(Action::write(a, t.io.level));
            return todo.push_back({Kind::D, k, a, l, s, t.io.capacity < 0 ? 0 : d - 1});
        }
        Ap(k, a, l, s, d);
    }
    void Ap(int k, int a, int l, int s, int d) {
        const Table& t = h.m_t[std::size_t(k)];
        if (l == 1) return turn(a + 1);
        const std::int32_t w = t.ApWhy[h.at(d, l, s)];
        const int i = w & 0xffffff;
        if ((w >> 24) == Leaf) return leaf(k, a, l, s);
        // Keep: the suffix from x_{a+i} with one slot less, then the prefix (which may write x_a first: A).
        advance(a, i, Keep::State);
        todo.push_back({Kind::A, k, a, i, s, d});
        todo.push_back({Kind::A, k, a + i, l - i, s - 1, d});
    }
    void D(int k, int a, int l, int s, int d) {
        const Table& t = h.m_t[std::size_t(k)];
        if (l == 1) return turn(a + 1);
        const std::int32_t w = t.DWhy[h.at(d, l, s)];
        const int i = w & 0xffffff;
        switch (Option(w >> 24)) {
        case Leaf:
            return leaf(k, a, l, s);
        case Free:
            out.push_back(Action::free(a, t.io.level));
            return todo.push_back({Kind::Ap, k, a, l, s, d + 1});
        case KeepIt:
            advance(a, i, Keep::State);
            todo.push_back({Kind::D, k, a, i, s, d});
            todo.push_back({Kind::A, k, a + i, l - i, s - 1, d});
            return;
        case Consume:
            advance(a, i, Keep::None);
            todo.push_back({Kind::D, k, a, i, s, d});
            todo.push_back({Kind::Read, k, a, 0, 0, 0});
            todo.push_back({Kind::A, k, a + i, l - i, s, d});
            return;
        }
    }
};

// Enough slots for every state: Revolve reaches the least possible cost without any transfer.
void HierarchicalRevolve::append(const Chain& chain, int a, int length, int memory, Schedule& out) const {
    const int k = int(m_t.size()) - 1;
    Emit e{*this, chain, out};
    if (memory >= length - 1) return e.leaf(0, a, length, memory);
    e.run(Emit::Kind::A, k, a, length, std::clamp(memory, 0, m_S), full(k));
}

void HierarchicalRevolve::appendStored(const Chain& chain, int a, int length, int memory, Schedule& out) const {
    const int k = int(m_t.size()) - 1;
    Emit e{*this, chain, out};
    if (memory >= length - 1) return e.leaf(0, a, length, memory);
    e.run(Emit::Kind::D, k, a, length, std::clamp(memory, 0, m_S), full(k));
}

double diskRevolveOptimum(int n, int cm, int cd, double uf, double ub, double wd, double rd) {
    HierarchicalRevolve h(n, cm, uf, ub, {StorageLevel{1, wd, rd, cd}});
    return h.cost(n, cm);
}

} // namespace ckpt
