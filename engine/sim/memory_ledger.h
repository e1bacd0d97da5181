#pragma once
// Memory over time for the simulators: every allocation and release is an event (time, level, category, bytes, the
// action that caused it); transfers make events out of time order, so the ledger sorts them before it builds the
// curves and peaks and finds the first action that overflows a level. The chain and the graph simulators share it.
#include "sim/timeline.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ckpt {

class MemoryLedger {
public:
    // Words an overflow: (action, level, total, cap); a total of -1 means the level's bytes would add up past
    // INT64_MAX (what no cap can hold).
    using Describe = std::function<std::string(std::int32_t, int, std::int64_t, std::int64_t)>;

    // A chain action makes at most four events (a backward: gradients in and out, its tape, its input state), plus
    // temporaries when a step has them; the simulators reserve this many per action.
    static constexpr std::size_t kEventsPerAction = 4;
    static constexpr std::size_t kEventBytes = 32;
    void reserve(std::size_t n) { m_events.reserve(n); }
    // `object` names what is allocated or released within its category (a chain's state, tape or gradient index,
    // or the step of a temporary), so that lifetimes() can pair them; -1: not named.
    void add(double time, int level, std::int32_t action, MemoryCategory cat, std::int64_t delta,
             std::int32_t object = -1) {
        if (delta == 0) return;
        const Event e{time, m_seq++, action, std::int16_t(level), cat, object, delta};
        if (!m_streaming)
            m_events.push_back(e);
        else if (m_overflowAt < 0 && !take(e))
            m_overflowAt = e.action;
    }

    // Sweeps each event as it is added instead of keeping it, for a caller whose events come in time order (a chain
    // plan without transfers): the same peaks, curves and first overflow as sweep() gives, without 32 bytes per
    // event (486 MB for revolve's 3.8 million actions on 10^6 steps). sweep() then reports what was found, and
    // lifetimes() and heldBefore() have nothing to read. Call before the first add().
    // `samples`: about how many points a level's curve will take (memory is only reserved: pages untouched stay free).
    void stream(std::vector<std::int64_t> caps, bool curves, Timeline& tl, Describe describe, std::size_t samples);

    // After sweep(): every named allocation of `level` paired with its release, in the sweep's order (a tensor
    // still held at the end lives to the end). Only events of actions before `limit` count.
    std::vector<TensorLife> lifetimes(int level, long long limit) const;

    // Sorts the events, fills tl.memory (when `curves`) and the peaks, and returns the first action (in time) whose
    // allocation takes a level past its cap, or -1; only actions before `limit` count. `caps` is per level;
    // `describe(action, level, total, cap)` words the message; a total of -1 means the level's bytes would add up past
    // INT64_MAX (what no cap can hold).
    long long sweep(long long limit, const std::vector<std::int64_t>& caps, bool curves, Timeline& tl,
                    const Describe& describe, std::string& err);

    // What `level` holds once every event of the actions before `action` has happened, in whatever order.
    std::int64_t heldBefore(long long action, int level) const;

private:
    struct Event {
        double time;
        std::uint32_t seq; // generation order breaks ties, so a step's own release precedes the next allocation
        std::int32_t action;
        std::int16_t level;
        MemoryCategory cat;
        std::int32_t object;
        std::int64_t delta;
    };
    static_assert(sizeof(Event) == kEventBytes);
    // Starts a sweep; take() then counts one event after another and is false when the event overflows its level
    // (the message in m_err).
    void begin(std::vector<std::int64_t> caps, bool curves, Timeline& tl, Describe describe, std::size_t samples);
    bool take(const Event& e);

    std::vector<Event> m_events;
    std::uint32_t m_seq = 0;

    // The sweep under way.
    bool m_streaming = false;
    std::vector<std::int64_t> m_caps;
    bool m_curves = false;
    Timeline* m_tl = nullptr;
    Describe m_describe;
    std::vector<std::array<std::int64_t, kMemoryCategories>> m_now; // [level][category]
    std::vector<std::int64_t> m_total;                              // [level]
    long long m_overflowAt = -1;                                    // streaming: the first overflow's action
    std::string m_err;
};

// The totals both simulators derive from the intervals: steps and recomputations, compute and channel busy time,
// and the makespan (the last compute or transfer to end, at least `clock`).
void finishTotals(Timeline& tl, int steps, int levels, double clock);

} // namespace ckpt
