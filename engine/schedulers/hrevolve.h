#pragma once
// The dynamic programme of Disk-Revolve (Aupy, Herrmann, Hovland, Robert 2016), nested level by level as H-Revolve
// (Herrmann & Pallez 2020), restated in this project's action vocabulary (model A, see hrevolve.cpp).
#include "model/chain.h"
#include "plan/plan.h"

#include <cstdint>
#include <vector>

namespace ckpt {

// A slower level as the programme sees it: a synchronous cost per state written or read, and how many states it can
// hold at once (-1: as many as needed).
struct StorageLevel {
    int level = 1; // the hardware level the actions name
    double write = 0;
    double read = 0;
    int capacity = -1;
    bool operator==(const StorageLevel&) const = default;
};

class HierarchicalRevolve {
public:
    // Tables for up to maxLength steps and maxMemory level-0 slots. `levels` are nested from the innermost (tried
    // inside the segments of the next) to the outermost; one level is Disk-Revolve. uf, ub: the cost of a forward
    // and a backward step. Check effort() before building a large one.
    HierarchicalRevolve(int maxLength, int maxMemory, double uf, double ub, std::vector<StorageLevel> levels);
    struct Effort {
        double cells = 0;      // table entries
        double operations = 0; // inner-loop evaluations
    };
    static Effort effort(int maxLength, int maxMemory, const std::vector<StorageLevel>& levels);

    // The synchronous optimum of reversing `length` steps from x_a held in level 0 (nowhere else), with `memory`
    // level-0 slots (x_a's included) and every level free; +infinity if impossible.
    double cost(int length, int memory) const;
    // The same with x_a just read back from the outermost level (it stays there, so it may be read again).
    double costStored(int length, int memory) const;
    // Appends that optimal schedule for steps a+1..a+length.
    void append(const Chain& chain, int a, int length, int memory, Schedule& out) const;
    void appendStored(const Chain& chain, int a, int length, int memory, Schedule& out) const;

    int memory() const { return m_S; }
    std::size_t bytes() const;

private:
    struct Table {
        StorageLevel io;
        int layers = 1;                  // free slots of this level, 0..capacity (1 layer when unbounded)
        std::vector<double> A, Ap, D;    // [layer][length][memory]
        std::vector<std::int32_t> ApWhy; // option << 24 | split
        std::vector<std::int32_t> DWhy;
        std::vector<std::uint8_t> AWrite;
    };
    int m_L, m_S;
    double m_uf, m_ub;
    std::vector<Table> m_t;

    std::size_t at(int layer, int l, int s) const {
        return (std::size_t(layer) * std::size_t(m_L + 1) + std::size_t(l)) * std::size_t(m_S + 1) + std::size_t(s);
    }
    double memoryOnly(int l, int s) const;
    double leaf(int k, int l, int s) const; // the whole segment with the levels inside level k only
    int full(int k) const { return m_t[std::size_t(k)].io.capacity < 0 ? 0 : m_t[std::size_t(k)].io.capacity; }
    void fill(int k);

    struct Emit;
};

// Disk-Revolve's synchronous optimum for n uniform steps: memory slots cm (x_0's included), disk slots cd (-1:
// unbounded), costs uf, ub per step and wd, rd per state written or read.
double diskRevolveOptimum(int n, int cm, int cd, double uf, double ub, double wd, double rd);

} // namespace ckpt
