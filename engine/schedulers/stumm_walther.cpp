// Stumm & Walther, "MultiStage approaches for optimal offline checkpointing", SIAM J. Sci. Comput. 31(3), 2009.
// Model A. Revolve's binomial schedule over c = c_RAM + c_disk slots, where each slot is a level of Revolve's
// recursion (x_0 at depth 0); the c_disk slots whose checkpoints cost least to move (writes x wd + restores x rd,
// counted on the all-memory schedule) live on disk. A disk checkpoint is written once when it is made, is consumed by
// the forward step that leaves it (so it takes no memory slot) and is read back before each later restart from it.
// Simplification: the paper derives the access counts of the binomial positions in closed form; here they are
// counted on the schedule itself, which gives the same ranking.
#include "schedulers/stumm_walther.h"

#include "schedulers/fit.h"
#include "schedulers/multilevel.h"
#include "schedulers/revolve.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace ckpt {
namespace {

// The same optimal split as revolve.cpp: the left part within r - 1 repetitions with s slots, the right within r
// with s - 1.
int binomialSplit(int n, int s) {
    int r = 0;
    while (revolveBeta(s, r) < n)
        ++r;
    const std::int64_t lo = n - revolveBeta(s - 1, r);
    const std::int64_t hi = std::min(revolveBeta(s, r - 1), n - revolveBeta(s - 1, r - 1));
    return int(std::clamp<std::int64_t>(std::max(lo, hi), 1, n - 1));
}

struct SplitRevolve {
    const Chain& chain;
    int S;                  // slots in all
    std::vector<char> disk; // per depth
    int level;
    Schedule& out;
    std::vector<long long> made, used; // per depth: checkpoints made there, restarts from them
    std::vector<char> inMemory;        // per state

    void fwd(int i, Keep keep) {
        out.push_back(Action::forward(i, keep));
        inMemory[std::size_t(i)] = 1;
        if (keep != Keep::State) inMemory[std::size_t(i) - 1] = 0;
    }
    void turn(int i) {
        fwd(i, Keep::Tape);
        out.push_back(Action::backward(i));
        inMemory[std::size_t(i)] = 0;
    }
    void make(int m, int depth) {
        ++made[std::size_t(depth)];
        if (disk[std::size_t(depth)]) out.push_back(Action::write(m, level));
    }
    void take(int a, int depth) {
        ++used[std::size_t(depth)];
        if (disk[std::size_t(depth)] && !inMemory[std::size_t(a)]) {
            out.push_back(Action::read(a, level));
            inMemory[std::size_t(a)] = 1;
        }
    }
    void advance(int a, int m, int depth) {
        take(a, depth);
        for (int i = a + 1; i <= m; ++i)
            fwd(i, i > a + 1 ? Keep::None : (disk[std::size_t(depth)] ? Keep::None : Keep::State));
    }
    // As revolve.cpp: the right part of each split first, the left parts waiting on an explicit stack (no recursion,
    // so long chains with many slots do not overflow the thread's stack).
    void reverse(int a, int b, int s) {
        struct Part {
            int a, b, s;
        };
        std::vector<Part> todo{{a, b, s}};
        while (!todo.empty()) {
            auto [from, to, slots] = todo.back();
            todo.pop_back();
            const int depth = S - slots;
            if (to - from == 1) {
                take(from, depth);
                turn(to);
                continue;
            }
            if (slots == 1) {
                for (int j = to; j > from; --j) {
                    if (j - 1 > from)
                        advance(from, j - 1, depth);
                    else
                        take(from, depth);
                    turn(j);
                }
                continue;
            }
            const int m = from + binomialSplit(to - from, slots);
            advance(from, m, depth);
            make(m, depth + 1);
            todo.push_back({from, m, slots});   // the left part, after the right one
            todo.push_back({m, to, slots - 1}); // the right part
        }
    }
    void run() {
        make(0, 0);
        reverse(0, chain.length(), S);
    }
};

} // namespace

Plan stummWaltherPlan(const Chain& chain, const Hardware& hw, int memorySlots, int diskSlots, int level,
                      double* synchronous) {
    const int n = chain.length();
    const int S = std::clamp(memorySlots + diskSlots, 1, n);
    const int onDisk = std::clamp(diskSlots, 0, S);
    const double wd = hw.writeSeconds(level, largestState(chain)), rd = hw.readSeconds(level, largestState(chain));
    Schedule scratch;
    SplitRevolve count{chain,
                       S,
                       std::vector<char>(std::size_t(S), 0),
                       level,
                       scratch,
                       std::vector<long long>(std::size_t(S), 0),
                       std::vector<long long>(std::size_t(S), 0),
                       std::vector<char>(std::size_t(n) + 1, 0)};
    count.inMemory[0] = 1;
    count.run();
    // A depth on disk costs a write per checkpoint made there and a read per restart but the first after each.
    std::vector<double> price(static_cast<std::size_t>(S));
    for (int k = 0; k < S; ++k)
        price[std::size_t(k)] = wd * double(count.made[std::size_t(k)]) +
                                rd * double(count.used[std::size_t(k)] - count.made[std::size_t(k)]);
    std::vector<int> order(static_cast<std::size_t>(S));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int x, int y) { return price[std::size_t(x)] < price[std::size_t(y)]; });
    std::vector<char> disk(std::size_t(S), 0);
    for (int k = 0; k < onDisk; ++k)
        disk[std::size_t(order[std::size_t(k)])] = 1;
    Plan p;
    SplitRevolve emit{chain,
                      S,
                      disk,
                      level,
                      p.actions,
                      std::vector<long long>(std::size_t(S), 0),
                      std::vector<long long>(std::size_t(S), 0),
                      std::vector<char>(std::size_t(n) + 1, 0)};
    emit.inMemory[0] = 1;
    emit.run();
    TransferClock clock(chain, hw);
    clock.apply(p.actions);
    p.predicted_makespan_s = clock.makespan();
    if (synchronous) *synchronous = clock.synchronous();
    return p;
}

int stummWaltherBestDisk(const Chain& chain, const Hardware& hw, int memorySlots, int level, std::int64_t limit) {
    const int n = chain.length();
    const long long room = std::min<long long>(n, levelSlots(hw, level, largestState(chain)));
    int best = 0;
    double bestCost = 0;
    for (int cd = 0; cd <= room; cd = cd < 32 ? cd + 1 : cd + cd / 4) {
        double sync = 0;
        Plan p = stummWaltherPlan(chain, hw, memorySlots, cd, level, &sync);
        if (cd == 0 || (sync < bestCost && (limit <= 0 || planPeak(chain, hw, p) <= limit))) best = cd, bestCost = sync;
        if (memorySlots + cd >= n) break; // more slots change nothing
    }
    return best;
}

} // namespace ckpt
