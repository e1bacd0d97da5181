#include "util/units.h"

#include <algorithm>
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
                                 {"PiB", 1125899906842624.0},
                                 {"KB", 1e3},
                                 {"MB", 1e6},
                                 {"GB", 1e9},
                                 {"TB", 1e12},
                                 {"PB", 1e15},
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
                "' (use B, KiB, MiB, GiB, TiB, PiB, KB, MB, GB, TB, PB)");
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

namespace {

// True when `v` printed with `decimals` places is `v` itself, to 1e-9 relative: the digits shown are the value, so
// trailing zeros say nothing and a unit that needs fewer digits is as exact.
bool exactWith(double v, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return std::fabs(std::round(v * scale) / scale - v) <= 1e-9 * std::fabs(v);
}

// `v` with `decimals` places, trailing zeros (and a bare point) dropped when the value is exact: "128", "1.5".
std::string number(double v, int decimals, Zeros zeros) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (zeros == Zeros::Drop && exactWith(v, decimals) && s.find('.') != std::string::npos) {
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s;
}

} // namespace

namespace {

// `bytes` as the largest unit of the family that keeps it at 1 or more (1024 or 1000 apart).
std::string inFamily(double bytes, ByteUnits units, Zeros zeros) {
    static const char* binary[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    static const char* decimal[] = {"B", "KB", "MB", "GB", "TB", "PB"};
    const double step = units == ByteUnits::Binary ? 1024.0 : 1000.0;
    int i = 0;
    double v = bytes;
    while (std::fabs(v) >= step && i < 5) {
        v /= step;
        ++i;
    }
    if (i == 0) return number(std::round(v), 0, zeros) + " B";
    return number(v, 2, zeros) + " " + (units == ByteUnits::Binary ? binary : decimal)[i];
}

} // namespace

ByteUnits unitsOf(double bytes) {
    if (!std::isfinite(bytes)) return ByteUnits::Binary;
    // A binary multiple keeps its binary unit ("128 MiB", "1 GiB"). A value typed in decimal units ("1GB/s", 250 MB)
    // is an exact decimal multiple and not a binary one: it reads back in those units ("1 GB", not "953.67 MiB").
    int i = 0, k = 0;
    double v = bytes, w = bytes;
    while (std::fabs(v) >= 1024.0 && i < 5)
        v /= 1024.0, ++i;
    while (std::fabs(w) >= 1000.0 && k < 5)
        w /= 1000.0, ++k;
    return i > 0 && !exactWith(v, 2) && k > 0 && exactWith(w, 2) ? ByteUnits::Decimal : ByteUnits::Binary;
}

std::string formatBytes(double bytes, ByteUnits units, Zeros zeros) {
    if (!std::isfinite(bytes)) return std::to_string(bytes) + " B";
    return inFamily(bytes, units, zeros);
}

std::string formatBytes(double bytes, Zeros zeros) {
    return formatBytes(bytes, unitsOf(bytes), zeros);
}

std::string formatSeconds(double secs, Zeros zeros) {
    const double a = std::fabs(secs);
    if (a == 0) return "0 s";
    if (!std::isfinite(secs)) return std::to_string(secs) + " s";
    if (a < 1e-6) return number(secs * 1e9, 1, zeros) + " ns";
    if (a < 1e-3) return number(secs * 1e6, 2, zeros) + " \u00b5s";
    if (a < 1) return number(secs * 1e3, 2, zeros) + " ms";
    return number(secs, 3, zeros) + " s";
}

std::string formatNumber(double value, int significant) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", std::clamp(significant, 1, 17), value);
    return buf;
}

std::string formatParamValue(std::string_view key, std::string_view value) {
    const std::string text(value);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    const bool isNumber = !text.empty() && end == text.c_str() + text.size() && std::isfinite(v);
    if (!isNumber) return text;
    auto endsWith = [&](std::string_view suffix) {
        return key.size() >= suffix.size() && key.substr(key.size() - suffix.size()) == suffix;
    };
    if (endsWith("_s") || key == "time_limit") return formatSeconds(v);
    if (endsWith("_bytes")) return formatBytes(v);
    if (text.find_first_of(".eE") == std::string::npos) return text; // an integer, every digit meant
    return formatNumber(v);
}

std::string formatParams(const std::map<std::string, std::string>& params, std::string_view separator) {
    std::string out;
    for (const auto& [key, value] : params) {
        if (!out.empty()) out += separator;
        out += key + "=" + formatParamValue(key, value);
    }
    return out;
}

} // namespace ckpt
