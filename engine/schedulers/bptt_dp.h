#pragma once
#include "schedulers/registry.h"
#include "util/table_cache.h"

#include <optional>

namespace ckpt {

enum class BpttVariant { HSM, ISM, MSM };

// Gruslys et al.'s programme in slots: a hidden state (checkpoint) costs 1 slot, a stored internal state (tape)
// `alpha` slots; the start state counts, the working state and the tape consumed right away do not. Cost is the
// number of forward steps. Tables for every length <= n and slot count <= maxSlots.
class BpttTable {
public:
    BpttTable(int n, int maxSlots, int alpha, BpttVariant variant);
    // Least forward steps to reverse n steps with m slots; nullopt if none fits.
    std::optional<long long> forwardSteps(int n, int m) const;
    // The schedule for chain steps 1..n with m slots (feasible m only).
    Plan plan(const Chain& chain, int m) const;
    int slots() const { return m_slots; }
    std::size_t bytes() const { return (m_q.size() + m_w.size()) * sizeof(std::int32_t); }

private:
    int m_n, m_slots, m_alpha;
    BpttVariant m_variant;
    std::vector<std::int32_t> m_q, m_w;       // cost with a counted start state (Q) / a working start state (W)
    std::int32_t qChoice(int t, int m) const; // rebuilt from the table, as the programme chose it
    bool wKeeps(int t, int m) const;
    std::size_t at(int t, int m) const { return std::size_t(t) * std::size_t(m_slots + 1) + std::size_t(m); }
    void emit(int s, int t, int m, Plan& p, double& time, const Chain& c) const; // Q(t, m) from x_s
};

SchedulerInfo bpttDpScheduler();

// The scheduler keeps its tables between solves, keyed by length, alpha and variant (util/table_cache.h): what the
// cache holds, and emptying it (for tests).
TableCacheStats bpttCacheStats();
void clearBpttCache();

} // namespace ckpt
