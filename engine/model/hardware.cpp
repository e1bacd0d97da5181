#include "model/hardware.h"

#include "util/bounds.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ckpt {

Result<Hardware> Hardware::make(std::string name, std::vector<MemoryLevel> levels) {
    if (levels.empty()) return fail("hardware needs at least level 0, where compute runs");
    for (std::size_t k = 0; k < levels.size(); ++k) {
        const MemoryLevel& l = levels[k];
        std::string where = "level " + std::to_string(k) + (l.name.empty() ? "" : " (" + l.name + ")") + ": ";
        if (l.capacity_bytes <= 0) return fail(where + "capacity_bytes must be > 0");
        // Nothing is transferred to level 0, so its rates are informational and may be 0.
        const double minRate = k > 0 ? kMinBytesPerSecond : 0;
        for (auto [field, rate] :
             {std::pair{"read_bytes_per_s", l.read_bytes_per_s}, {"write_bytes_per_s", l.write_bytes_per_s}})
            if (!std::isfinite(rate) || rate < minRate)
                return fail(
                    where + field +
                    (k > 0 ? " must be a finite number >= 1e-9 (bytes per second)" : " must be a finite number >= 0"));
        if (auto e = whyBadSeconds(l.latency_s); !e.empty()) return fail(where + "latency_s" + e);
        // Compute runs on level 0 only; 1e21 FLOP/s is a thousand times the fastest machine built.
        if (!std::isfinite(l.flops_per_s) || l.flops_per_s < 0 || l.flops_per_s > 1e21)
            return fail(where + "flops_per_s must be a finite number from 0 to 1e21 (FLOP/s; 0: not given)");
        if (k > 0 && l.flops_per_s != 0)
            return fail(where + "flops_per_s belongs to level 0, where compute runs; a slower level only stores");
    }
    Hardware h;
    h.m_name = std::move(name);
    h.m_levels = std::move(levels);
    return h;
}

Hardware Hardware::unbounded() {
    Hardware h;
    h.m_name = "unbounded";
    h.m_levels.push_back(MemoryLevel{"memory", std::numeric_limits<std::int64_t>::max(), 0, 0, 0});
    return h;
}

double Hardware::writeSeconds(int lvl, std::int64_t bytes) const {
    const MemoryLevel& l = level(lvl);
    return l.latency_s + static_cast<double>(bytes) / l.write_bytes_per_s;
}

double Hardware::readSeconds(int lvl, std::int64_t bytes) const {
    const MemoryLevel& l = level(lvl);
    return l.latency_s + static_cast<double>(bytes) / l.read_bytes_per_s;
}

double rooflineSeconds(double flops, double bytes, const Hardware& hw) {
    const double compute = flops / hw.flopsPerSecond();
    const double bandwidth = hw.level(0).read_bytes_per_s;
    return bandwidth > 0 ? std::max(compute, bytes / bandwidth) : compute;
}

} // namespace ckpt
