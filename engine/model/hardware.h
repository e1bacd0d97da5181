#pragma once
// Memory levels from fastest to slowest. Compute runs on level 0; each slower level has its own transfer channel
// to level 0, and transfers overlap compute.
#include "util/result.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ckpt {

struct MemoryLevel {
    std::string name;
    std::int64_t capacity_bytes = std::numeric_limits<std::int64_t>::max();
    double read_bytes_per_s = 0;  // level -> level 0
    double write_bytes_per_s = 0; // level 0 -> level
    double latency_s = 0;
    bool operator==(const MemoryLevel&) const = default;
};

class Hardware {
public:
    static Result<Hardware> make(std::string name, std::vector<MemoryLevel> levels);
    // One level of unbounded capacity: what a missing hardware file means.
    static Hardware unbounded();

    const std::string& name() const { return m_name; }
    int levelCount() const { return static_cast<int>(m_levels.size()); }
    const MemoryLevel& level(int i) const { return m_levels[static_cast<std::size_t>(i)]; }
    const std::vector<MemoryLevel>& levels() const { return m_levels; }
    bool isUnbounded(int i) const { return level(i).capacity_bytes == std::numeric_limits<std::int64_t>::max(); }

    double writeSeconds(int level, std::int64_t bytes) const;
    double readSeconds(int level, std::int64_t bytes) const;

    bool operator==(const Hardware&) const = default;

private:
    Hardware() = default;
    std::string m_name;
    std::vector<MemoryLevel> m_levels;
};

} // namespace ckpt
