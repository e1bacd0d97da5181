#include "sim/memory_ledger.h"

#include "util/bounds.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace ckpt {

void MemoryLedger::begin(std::vector<std::int64_t> caps, bool curves, Timeline& tl, Describe describe,
                         std::size_t samples) {
    const std::size_t levels = caps.size();
    m_caps = std::move(caps);
    m_curves = curves;
    m_tl = &tl;
    m_describe = std::move(describe);
    m_now.assign(levels, std::array<std::int64_t, kMemoryCategories>{});
    m_total.assign(levels, 0);
    tl.totals.peak_bytes.assign(levels, 0);
    tl.totals.peak_time_s.assign(levels, 0.0);
    if (curves) {
        // Reserved at once: growing a curve of millions of samples by doubling copied each of them about twice.
        tl.memory.assign(levels, {});
        for (auto& curve : tl.memory)
            curve.reserve(samples);
    }
}

bool MemoryLedger::take(const Event& e) {
    auto l = static_cast<std::size_t>(e.level);
    auto& now = m_now[l][static_cast<std::size_t>(e.cat)];
    Totals& totals = m_tl->totals;
    // The model bounds keep real plans far from 2^63 bytes; a sum that still overflows is refused, not wrapped.
    if (!checkedAdd(now, e.delta, now) || !checkedAdd(m_total[l], e.delta, m_total[l])) {
        m_err = m_describe(e.action, int(l), -1, m_caps[l]);
        return false;
    }
    if (m_total[l] > totals.peak_bytes[l]) {
        totals.peak_bytes[l] = m_total[l];
        totals.peak_time_s[l] = e.time;
    }
    if (e.delta > 0 && m_caps[l] > 0 && m_total[l] > m_caps[l]) {
        m_err = m_describe(e.action, int(l), m_total[l], m_caps[l]);
        return false;
    }
    if (m_curves) {
        auto& curve = m_tl->memory[l];
        if (!curve.empty() && curve.back().time == e.time)
            curve.back().bytes = m_now[l];
        else
            curve.push_back(MemorySample{e.time, m_now[l]});
    }
    return true;
}

void MemoryLedger::stream(std::vector<std::int64_t> caps, bool curves, Timeline& tl, Describe describe,
                          std::size_t samples) {
    begin(std::move(caps), curves, tl, std::move(describe), samples);
    m_streaming = true;
}

long long MemoryLedger::sweep(long long limit, const std::vector<std::int64_t>& caps, bool curves, Timeline& tl,
                              const Describe& describe, std::string& err) {
    if (m_streaming) {
        // Events came in time order and only from actions before `limit`: a failing action adds none.
        if (m_overflowAt >= 0) err = m_err;
        return m_overflowAt;
    }
    auto before = [](const Event& a, const Event& b) { return a.time < b.time || (a.time == b.time && a.seq < b.seq); };
    // Without transfers the events come out in time order already.
    if (!std::is_sorted(m_events.begin(), m_events.end(), before))
        std::stable_sort(m_events.begin(), m_events.end(), before);
    begin(caps, curves, tl, describe, m_events.size() + 1); // a sample per event at most
    for (const Event& e : m_events) {
        if (e.action >= limit) continue;
        if (!take(e)) {
            err = m_err;
            return e.action;
        }
    }
    return -1;
}

std::int64_t MemoryLedger::heldBefore(long long action, int level) const {
    std::int64_t held = 0;
    for (const Event& e : m_events)
        if (e.action < action && e.level == level) held += e.delta; // sweep() found no sum past 2^63
    return held;
}

std::vector<TensorLife> MemoryLedger::lifetimes(int level, long long limit) const {
    std::vector<TensorLife> out;
    // Pending allocations by (category, object): the index into `out` of the one not yet released.
    std::unordered_map<std::int64_t, std::size_t> open;
    std::int64_t pos = 0;
    double lastTime = 0;
    for (const Event& e : m_events) {
        if (e.action >= limit || e.level != level) continue;
        ++pos;
        lastTime = std::max(lastTime, e.time);
        if (e.object < 0) continue;
        const std::int64_t key = std::int64_t(e.object) * kMemoryCategories + std::int64_t(e.cat);
        if (e.delta > 0) {
            open[key] = out.size();
            out.push_back(TensorLife{e.time, e.time, pos, -1, e.delta, e.cat, e.object});
        } else if (auto it = open.find(key); it != open.end()) {
            out[it->second].end = e.time;
            out[it->second].last = pos;
            open.erase(it);
        }
    }
    for (TensorLife& t : out)
        if (t.last < 0) t.end = lastTime, t.last = pos + 1;
    return out;
}

void finishTotals(Timeline& tl, int steps, int levels, double clock) {
    Totals& t = tl.totals;
    t.steps = steps;
    t.recomputed_steps = t.forward_steps - steps;
    t.channel_busy_s.assign(static_cast<std::size_t>(levels), 0.0);
    double makespan = clock;
    for (const Interval& iv : tl.intervals) {
        makespan = std::max(makespan, iv.end);
        if (iv.lane == 0)
            t.compute_s += iv.end - iv.start;
        else
            t.channel_busy_s[static_cast<std::size_t>(iv.lane)] += iv.end - iv.start;
    }
    t.makespan_s = makespan;
}

} // namespace ckpt
