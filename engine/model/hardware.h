#pragma once
// Memory levels from fastest to slowest. Compute runs on level 0; each slower level has its own transfer channel
// to level 0, and transfers overlap compute.
#include "util/result.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ckpt {

// The compute speed of a machine that does not give one: 15.7 TFLOP/s, the NVIDIA V100 (SXM2) fp32 peak, the rate the
// shipped examples' times were computed at (scripts/gen-examples.py), so a network imported without a machine compares
// with them directly.
constexpr double kDefaultFlopsPerSecond = 15.7e12;

struct MemoryLevel {
    std::string name;
    std::int64_t capacity_bytes = std::numeric_limits<std::int64_t>::max();
    double read_bytes_per_s = 0;  // level -> level 0
    double write_bytes_per_s = 0; // level 0 -> level
    double latency_s = 0;
    // Level 0 only: the compute speed in FLOP/s, what turns an operator's FLOPs into time (the ONNX import). 0 means
    // not given: Hardware::flopsPerSecond() then answers kDefaultFlopsPerSecond.
    double flops_per_s = 0;
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
    // Level 0's compute speed (FLOP/s), kDefaultFlopsPerSecond when the machine does not give one.
    double flopsPerSecond() const {
        return m_levels.front().flops_per_s > 0 ? m_levels.front().flops_per_s : kDefaultFlopsPerSecond;
    }

    double writeSeconds(int level, std::int64_t bytes) const;
    double readSeconds(int level, std::int64_t bytes) const;

    bool operator==(const Hardware&) const = default;

private:
    Hardware() = default;
    std::string m_name;
    std::vector<MemoryLevel> m_levels;
};

// The roofline: the larger of the compute time (FLOPs at the machine's flopsPerSecond()) and the memory time (bytes
// at level 0's read bandwidth; none when level 0 gives no bandwidth, as the unbounded machine does).
double rooflineSeconds(double flops, double bytes, const Hardware& hw);

} // namespace ckpt
