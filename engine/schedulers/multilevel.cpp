#include "schedulers/multilevel.h"

#include "util/units.h"

#include <algorithm>
#include <limits>

namespace ckpt {

TransferClock::TransferClock(const Chain& chain, const Hardware& hw) : m_chain(chain), m_hw(hw) {
    const auto levels = static_cast<std::size_t>(hw.levelCount());
    m_channel.assign(levels, 0.0);
    m_ready.assign(levels, std::vector<double>(static_cast<std::size_t>(chain.length()) + 1, 0.0));
    m_tapeReady = m_ready;
}

void TransferClock::apply(const Action& a) {
    const auto j = static_cast<std::size_t>(a.index);
    const auto l = static_cast<std::size_t>(a.level);
    switch (a.kind) {
    case ActionKind::Forward: {
        const double f = m_chain.step(a.index).forward;
        m_clock = std::max(m_clock, m_ready[0][j - 1]) + f;
        m_ready[0][j] = m_tapeReady[0][j] = m_clock;
        m_sync += f;
        break;
    }
    case ActionKind::Backward: {
        const double b = m_chain.step(a.index).backward;
        m_clock = std::max(m_clock, m_tapeReady[0][j]) + b;
        m_sync += b;
        break;
    }
    case ActionKind::Write: {
        const double w = m_hw.writeSeconds(a.level, m_chain.stateBytes(a.index));
        m_channel[l] = std::max({m_clock, m_channel[l], m_ready[0][j]}) + w;
        m_ready[l][j] = m_channel[l];
        m_sync += w;
        break;
    }
    case ActionKind::Read: {
        const double r = m_hw.readSeconds(a.level, m_chain.stateBytes(a.index));
        m_channel[l] = std::max({m_clock, m_channel[l], m_ready[l][j]}) + r;
        m_ready[0][j] = m_channel[l];
        m_sync += r;
        break;
    }
    case ActionKind::WriteTape: {
        const double w = m_hw.writeSeconds(a.level, m_chain.step(a.index).tape_bytes);
        m_channel[l] = std::max({m_clock, m_channel[l], m_tapeReady[0][j]}) + w;
        m_tapeReady[l][j] = m_channel[l];
        m_sync += w;
        break;
    }
    case ActionKind::ReadTape: {
        const double r = m_hw.readSeconds(a.level, m_chain.step(a.index).tape_bytes);
        m_channel[l] = std::max({m_clock, m_channel[l], m_tapeReady[l][j]}) + r;
        m_tapeReady[0][j] = m_channel[l];
        m_sync += r;
        break;
    }
    case ActionKind::Free:
    case ActionKind::FreeTape:
        break;
    }
}

double TransferClock::makespan() const {
    double end = m_clock;
    for (double c : m_channel)
        end = std::max(end, c);
    return end;
}

double overlappedMakespan(const Chain& chain, const Hardware& hw, const Schedule& actions) {
    TransferClock clock(chain, hw);
    clock.apply(actions);
    return clock.makespan();
}

Result<int> slowerLevel(const std::string& scheduler, const Hardware& hw, long long level) {
    const int levels = hw.levelCount();
    if (levels < 2)
        return fail(scheduler + " writes states to a slower memory level, but the machine '" + hw.name() +
                    "' has only level 0: give a hardware model with a second level (e.g. host memory or a disk)");
    if (level < 1 || level >= levels)
        return fail(scheduler + ": parameter level: the machine '" + hw.name() + "' has slower levels 1.." +
                    std::to_string(levels - 1) + ", not " + std::to_string(level));
    return int(level);
}

std::int64_t largestState(const Chain& chain) {
    std::int64_t m = 0;
    for (int j = 0; j <= chain.length(); ++j)
        m = std::max(m, chain.stateBytes(j));
    return m;
}

double meanForward(const Chain& chain) {
    return chain.totalForward() / chain.length();
}
double meanBackward(const Chain& chain) {
    return chain.totalBackward() / chain.length();
}

long long levelSlots(const Hardware& hw, int level, std::int64_t bytes) {
    constexpr long long kMany = std::numeric_limits<int>::max() / 4;
    if (hw.isUnbounded(level) || bytes <= 0) return kMany;
    return std::min(kMany, static_cast<long long>(hw.level(level).capacity_bytes / bytes));
}

std::string levelOverflow(const std::string& scheduler, const Chain& chain, const Hardware& hw, int level,
                          const std::vector<int>& written) {
    if (hw.isUnbounded(level)) return {};
    std::int64_t need = 0;
    for (int j : written)
        need += chain.stateBytes(j);
    const std::int64_t cap = hw.level(level).capacity_bytes;
    if (need <= cap) return {};
    return scheduler + " keeps " + std::to_string(written.size()) + " states (" +
           formatBytes(double(need), unitsOf(double(cap))) + ") on level " + std::to_string(level) + " (" +
           hw.level(level).name + "), over its capacity of " + formatBytes(double(cap)) +
           ": use fewer or longer intervals";
}

} // namespace ckpt
