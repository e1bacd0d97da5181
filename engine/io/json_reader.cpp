#include "io/json_reader.h"

#include "util/units.h"
#include "util/utf8.h"

#include <cmath>
#include <limits>

namespace ckpt::io {

namespace {

constexpr std::int64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max();

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

} // namespace

std::string JsonPath::str() const {
    if (!parent) return {};
    std::string s = parent->str();
    if (key) {
        if (!s.empty()) s += '.';
        s += key;
    } else {
        s += '[' + std::to_string(index) + ']';
    }
    return s;
}

std::string nameFromSource(const std::string& source) {
    // A file name may be any bytes; the name is written into JSON, which must be UTF-8.
    std::string name = validUtf8(source.substr(source.find_last_of("/\\") + 1));
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) name.resize(name.size() - 5);
    if (auto dot = name.rfind(".ckpt-"); dot != std::string::npos && dot > 0) name.resize(dot);
    return name;
}

namespace {

// Like dump(), but stops once `limit` characters are written and descends at most a few levels: a bad value may be a
// whole plan or nested a million levels deep.
void briefInto(const json& v, std::string& out, std::size_t limit, int depth) {
    if (out.size() > limit) return;
    if ((v.is_object() || v.is_array()) && !v.empty() && depth >= 8) {
        out += v.is_object() ? "{...}" : "[...]";
        return;
    }
    if (v.is_object()) {
        out += '{';
        for (auto it = v.begin(); it != v.end() && out.size() <= limit; ++it) {
            if (it != v.begin()) out += ',';
            out += json(it.key()).dump(-1, ' ', false, json::error_handler_t::replace);
            out += ':';
            briefInto(it.value(), out, limit, depth + 1);
        }
        out += '}';
    } else if (v.is_array()) {
        out += '[';
        for (std::size_t i = 0; i < v.size() && out.size() <= limit; ++i) {
            if (i) out += ',';
            briefInto(v[i], out, limit, depth + 1);
        }
        out += ']';
    } else if (v.is_string() && v.get_ref<const std::string&>().size() > limit) {
        out +=
            json(v.get_ref<const std::string&>().substr(0, limit)).dump(-1, ' ', false, json::error_handler_t::replace);
    } else {
        out += v.dump(-1, ' ', false, json::error_handler_t::replace);
    }
}

} // namespace

std::string brief(const json& value) {
    constexpr std::size_t kMax = 60;
    std::string s;
    briefInto(value, s, kMax, 0);
    if (s.size() > kMax) {
        std::size_t cut = kMax - 3;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
            --cut; // keep UTF-8 whole
        s.resize(cut);
        s += "...";
    }
    return s;
}

Error pathError(const std::string& source, const JsonPath& path, const std::string& what) {
    std::string p = path.str();
    return fail(source + ": " + (p.empty() ? "" : p + ": ") + what);
}

Error expected(const std::string& source, const JsonPath& path, const std::string& what, const json& got) {
    return pathError(source, path, "expected " + what + ", got " + brief(got));
}

std::optional<Error> checkHeader(const json& doc, const char* format, const std::string& source) {
    const std::string want = std::string("\"format\": \"") + format + "\"";
    if (!doc.is_object()) return fail(source + ": expected a JSON object with " + want + ", got " + brief(doc));
    auto f = doc.find("format");
    if (f == doc.end()) return fail(source + ": missing \"format\" (expected " + want + ")");
    if (!f->is_string() || f->get_ref<const std::string&>() != format)
        return fail(source + ": expected " + want + ", got " + brief(*f));
    auto v = doc.find("version");
    if (v == doc.end()) return fail(source + ": missing \"version\" (this program reads " + format + " version 1)");
    if (!v->is_number_integer() || v->get<long long>() != 1)
        return fail(source + ": unsupported \"version\": " + brief(*v) + " (this program reads " + format +
                    " version 1)");
    return std::nullopt;
}

Result<double> toSeconds(const json& v, const JsonPath& path, const std::string& source) {
    if (v.is_number()) {
        double d = v.get<double>();
        if (!std::isfinite(d) || d < 0) return expected(source, path, "a number >= 0", v);
        return d;
    }
    if (v.is_string()) {
        auto r = parseSeconds(v.get_ref<const std::string&>());
        if (!r) return pathError(source, path, r.error());
        return *r;
    }
    return expected(source, path, "a number of seconds >= 0 or a duration such as \"3ms\"", v);
}

Result<std::int64_t> toBytes(const json& v, const JsonPath& path, const std::string& source) {
    if (v.is_number_unsigned()) {
        auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(kMaxInt64))
            return expected(source, path, "an integer from 0 to " + std::to_string(kMaxInt64), v);
        return static_cast<std::int64_t>(u);
    }
    if (v.is_number_integer()) {
        auto i = v.get<std::int64_t>();
        if (i < 0) return expected(source, path, "an integer >= 0", v);
        return i;
    }
    if (v.is_number_float()) { // 1e9 is written as a float, but it is a whole number of bytes
        double d = v.get<double>();
        if (!std::isfinite(d) || d < 0 || d != std::floor(d)) return expected(source, path, "an integer >= 0", v);
        if (d >= 9.2e18) return expected(source, path, "an integer from 0 to " + std::to_string(kMaxInt64), v);
        return static_cast<std::int64_t>(d);
    }
    if (v.is_string()) {
        auto r = parseBytes(v.get_ref<const std::string&>());
        if (!r) return pathError(source, path, r.error());
        return *r;
    }
    return expected(source, path, "an integer >= 0 or a size such as \"512 KiB\"", v);
}

Result<double> toRate(const json& v, const JsonPath& path, const std::string& source, bool positive) {
    const char* bound = positive ? "a number > 0" : "a number >= 0";
    if (v.is_number()) {
        double d = v.get<double>();
        if (!std::isfinite(d) || d < 0 || (positive && d == 0)) return expected(source, path, bound, v);
        return d;
    }
    if (v.is_string()) {
        std::string_view text = trimmed(v.get_ref<const std::string&>());
        if (text.size() > 2 && text.substr(text.size() - 2) == "/s") text.remove_suffix(2);
        auto r = parseBytes(text);
        if (!r) return pathError(source, path, r.error());
        if (positive && *r == 0) return expected(source, path, bound, v);
        return static_cast<double>(*r);
    }
    return expected(source, path, std::string(bound) + " of bytes per second or a rate such as \"25 GB/s\"", v);
}

FieldReader::FieldReader(const json& obj, const JsonPath& path, const std::string& source)
    : m_obj(obj), m_path(path), m_source(source) {
    if (!obj.is_object()) setError(expected(source, path, "an object", obj));
}

const json* FieldReader::find(const char* key, bool required) {
    if (!ok()) return nullptr;
    auto it = m_obj.find(key);
    if (it == m_obj.end()) {
        if (required) setError(pathError(m_source, m_path, std::string("missing \"") + key + "\""));
        return nullptr;
    }
    return &*it;
}

template <typename T, typename F> void FieldReader::convert(const char* key, T& out, bool required, F&& fn) {
    const json* v = find(key, required);
    if (!v) return;
    JsonPath p = m_path.member(key);
    auto r = fn(*v, p);
    if (!r)
        setError(r.errorValue());
    else
        out = *r;
}

void FieldReader::seconds(const char* key, double& out, bool required) {
    convert(key, out, required, [&](const json& v, const JsonPath& p) { return toSeconds(v, p, m_source); });
}

void FieldReader::bytes(const char* key, std::int64_t& out, bool required) {
    convert(key, out, required, [&](const json& v, const JsonPath& p) { return toBytes(v, p, m_source); });
}

void FieldReader::rate(const char* key, double& out, bool required, bool positive) {
    convert(key, out, required, [&](const json& v, const JsonPath& p) { return toRate(v, p, m_source, positive); });
}

void FieldReader::string(const char* key, std::string& out, bool required) {
    convert(key, out, required, [&](const json& v, const JsonPath& p) -> Result<std::string> {
        if (!v.is_string()) return expected(m_source, p, "a string", v);
        return v.get<std::string>();
    });
}

void FieldReader::integer(const char* key, long long& out, long long min, long long max, bool required) {
    convert(key, out, required, [&](const json& v, const JsonPath& p) -> Result<long long> {
        std::string range = max == std::numeric_limits<long long>::max()
                                ? "an integer >= " + std::to_string(min)
                                : "an integer from " + std::to_string(min) + " to " + std::to_string(max);
        if (v.is_number_unsigned()) {
            auto u = v.get<unsigned long long>();
            if (u > static_cast<unsigned long long>(max)) return expected(m_source, p, range, v);
            auto i = static_cast<long long>(u);
            if (i < min) return expected(m_source, p, range, v);
            return i;
        }
        if (v.is_number_integer()) {
            auto i = v.get<long long>();
            if (i < min || i > max) return expected(m_source, p, range, v);
            return i;
        }
        return expected(m_source, p, range, v);
    });
}

void optionalSeconds(FieldReader& r, const char* key, double& out) {
    if (const json* v = r.find(key, false); v && !v->is_null()) r.seconds(key, out, false);
}

std::optional<Error> readParamTexts(const json& v, const JsonPath& path, const std::string& source,
                                    std::map<std::string, std::string>& out) {
    if (!v.is_object()) return expected(source, path, "an object of {parameter: value}", v);
    for (const auto& [name, value] : v.items()) {
        JsonPath at = path.member(name.c_str());
        if (name.empty()) return pathError(source, path, "a parameter with an empty name (expected {\"slots\": 3})");
        if (value.is_string()) {
            out[name] = value.get<std::string>();
        } else if (value.is_number_integer() || value.is_number_unsigned()) {
            out[name] = value.dump();
        } else if (value.is_number_float()) {
            const double d = value.get<double>();
            out[name] = std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9e15 ? std::to_string((long long)d)
                                                                                     : value.dump();
        } else {
            return expected(source, at, "a text or a number", value);
        }
    }
    return std::nullopt;
}

} // namespace ckpt::io
