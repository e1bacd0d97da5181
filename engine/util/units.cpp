#include "util/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ckpt {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

// Splits "12.5 MiB" into 12.5 and "MiB"; fails when there is no leading number.
bool splitNumber(std::string_view text, double& number, std::string& unit) {
    std::string s(trim(text));
    if (s.empty()) return false;
    char* end = nullptr;
    number = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || !std::isfinite(number)) return false;
    unit = std::string(trim(std::string_view(end)));
    return true;
}

} // namespace

Result<std::int64_t> parseBytes(std::string_view text) {
    double n = 0;
    std::string unit;
    if (!splitNumber(text, n, unit))
        return fail("expected a size such as 4096, 512KiB or 1.5GiB, got '" + std::string(text) + "'");
    struct Unit {
        const char* name;
        double factor;
    };
    static const Unit units[] = {{"", 1},
                                 {"B", 1},
                                 {"KiB", 1024.0},
                                 {"MiB", 1048576.0},
                                 {"GiB", 1073741824.0},
                                 {"TiB", 1099511627776.0},
                                 {"KB", 1e3},
                                 {"MB", 1e6},
                                 {"GB", 1e9},
                                 {"TB", 1e12},
                                 {"K", 1024.0},
                                 {"M", 1048576.0},
                                 {"G", 1073741824.0}};
    for (const auto& u : units) {
        if (unit == u.name) {
            double bytes = n * u.factor;
            if (bytes < 0) return fail("a size cannot be negative: '" + std::string(text) + "'");
            if (bytes > 9.0e18) return fail("size too large: '" + std::string(text) + "'");
            return static_cast<std::int64_t>(std::llround(bytes));
        }
    }
    return fail("unknown size unit '" + unit + "' in '" + std::string(text) +
                "' (use B, KiB, MiB, GiB, TiB, KB, MB, GB)");
}

Result<double> parseSeconds(std::string_view text) {
    double n = 0;
    std::string unit;
    if (!splitNumber(text, n, unit))
        return fail("expected a duration such as 0.5, 3ms or 12us, got '" + std::string(text) + "'");
    double factor = 0;
    if (unit.empty() || unit == "s")
        factor = 1;
    else if (unit == "ms")
        factor = 1e-3;
    else if (unit == "us" || unit == "\u00b5s")
        factor = 1e-6;
    else if (unit == "ns")
        factor = 1e-9;
    else if (unit == "min")
        factor = 60;
    else
        return fail("unknown time unit '" + unit + "' in '" + std::string(text) + "' (use s, ms, us, ns)");
    if (n < 0) return fail("a duration cannot be negative: '" + std::string(text) + "'");
    if (!std::isfinite(n * factor)) return fail("duration too large: '" + std::string(text) + "'");
    return n * factor;
}

std::string formatBytes(double bytes) {
    static const char* names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int i = 0;
    double v = bytes;
    while (std::fabs(v) >= 1024.0 && i < 5) {
        v /= 1024.0;
        ++i;
    }
    char buf[64];
    if (i == 0)
        std::snprintf(buf, sizeof buf, "%.0f B", v);
    else
        std::snprintf(buf, sizeof buf, "%.2f %s", v, names[i]);
    return buf;
}

std::string formatSeconds(double secs) {
    char buf[64];
    double a = std::fabs(secs);
    if (a == 0)
        std::snprintf(buf, sizeof buf, "0 s");
    else if (a < 1e-6)
        std::snprintf(buf, sizeof buf, "%.1f ns", secs * 1e9);
    else if (a < 1e-3)
        std::snprintf(buf, sizeof buf, "%.2f \u00b5s", secs * 1e6);
    else if (a < 1)
        std::snprintf(buf, sizeof buf, "%.2f ms", secs * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3f s", secs);
    return buf;
}

} // namespace ckpt
