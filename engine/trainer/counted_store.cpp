#include "trainer/counted_store.h"

namespace ckpt::trainer {

void CountedStore::reset(int levels) {
    std::lock_guard lock(m_mu);
    const auto L = std::size_t(levels);
    m_origin = Clock::now();
    m_now.assign(L, std::array<std::int64_t, kMemoryCategories>{});
    m_total.assign(L, 0);
    m_peak.assign(L, 0);
    m_peakTime.assign(L, 0.0);
    m_curves.assign(L, {});
}

double CountedStore::now() const {
    return std::chrono::duration<double>(Clock::now() - m_origin).count();
}

double CountedStore::add(int level, MemoryCategory cat, std::int64_t delta) {
    std::lock_guard lock(m_mu);
    // The time is taken under the lock, so events are in time order whatever thread counts them.
    const double t = now();
    if (delta == 0) return t;
    const auto l = std::size_t(level);
    m_now[l][std::size_t(cat)] += delta;
    m_total[l] += delta;
    if (m_total[l] > m_peak[l]) {
        m_peak[l] = m_total[l];
        m_peakTime[l] = t;
    }
    auto& curve = m_curves[l];
    if (!curve.empty() && curve.back().time == t)
        curve.back().bytes = m_now[l];
    else
        curve.push_back(MemorySample{t, m_now[l]});
    return t;
}

std::int64_t CountedStore::held(int level) const {
    std::lock_guard lock(m_mu);
    return m_total[std::size_t(level)];
}

std::int64_t CountedStore::held(int level, MemoryCategory cat) const {
    std::lock_guard lock(m_mu);
    return m_now[std::size_t(level)][std::size_t(cat)];
}

std::vector<std::int64_t> CountedStore::peaks() const {
    std::lock_guard lock(m_mu);
    return m_peak;
}

std::vector<double> CountedStore::peakTimes() const {
    std::lock_guard lock(m_mu);
    return m_peakTime;
}

std::vector<std::vector<MemorySample>> CountedStore::curves() const {
    std::lock_guard lock(m_mu);
    return m_curves;
}

} // namespace ckpt::trainer
