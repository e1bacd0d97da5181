#pragma once
// Internal to engine/io: walking a parsed document so that every message names the source, the JSON path of the bad
// value and what was expected. Paths are only turned into text when a message needs them (plans hold 500k actions).
#include "util/result.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ckpt::io {

using nlohmann::json;

// A JSON path as a chain of frames on the stack ("steps[3].forward"). Keep every level in a named local: a path built
// from a temporary would point to a dead frame.
struct JsonPath {
    const JsonPath* parent = nullptr; // nullptr: the document root
    const char* key = nullptr;        // member name; nullptr for an array element
    std::size_t index = 0;

    JsonPath member(const char* k) const { return JsonPath{this, k, 0}; }
    JsonPath element(std::size_t i) const { return JsonPath{this, nullptr, i}; }
    std::string str() const;
};

// The value dumped on one line and cut to a readable length, for "got ..." in messages.
std::string brief(const json& value);

// "source: path: what" (or "source: what" at the root).
Error pathError(const std::string& source, const JsonPath& path, const std::string& what);
// "source: path: expected <expected>, got <value>".
Error expected(const std::string& source, const JsonPath& path, const std::string& what, const json& got);

// The name a document gets when it has none: "runs/lstm.ckpt-chain.json" -> "lstm".
std::string nameFromSource(const std::string& source);

// Checks "format" and "version" (1) of a document.
std::optional<Error> checkHeader(const json& doc, const char* format, const std::string& source);

// Converts single values; `path` names the value itself.
Result<double> toSeconds(const json& v, const JsonPath& path, const std::string& source);
Result<std::int64_t> toBytes(const json& v, const JsonPath& path, const std::string& source);
// Bytes per second: a number, or a size string with an optional "/s" ("25 GB/s").
Result<double> toRate(const json& v, const JsonPath& path, const std::string& source, bool positive);

// Reads the members of one object; the first failure is kept and makes every later call a no-op, so a reader lists its
// fields in a row and checks ok() once.
class FieldReader {
public:
    // Fails at once when `obj` is not an object.
    FieldReader(const json& obj, const JsonPath& path, const std::string& source);

    // The member, or nullptr when absent; `required` records a "missing" error.
    const json* find(const char* key, bool required);
    void seconds(const char* key, double& out, bool required = true);
    void bytes(const char* key, std::int64_t& out, bool required = true);
    void rate(const char* key, double& out, bool required, bool positive);
    void string(const char* key, std::string& out, bool required);
    void integer(const char* key, long long& out, long long min, long long max, bool required = true);

    bool ok() const { return !m_error.has_value(); }
    const Error& error() const { return *m_error; }
    void setError(Error e) {
        if (!m_error) m_error = std::move(e);
    }

private:
    template <typename T, typename F> void convert(const char* key, T& out, bool required, F&& fn);
    const json& m_obj;
    const JsonPath& m_path;
    const std::string& m_source;
    std::optional<Error> m_error;
};

// Scheduler parameters {"name": value} into `out` as texts ("10", "hsm"; a whole number written as one), later
// keys replacing earlier ones.
std::optional<Error> readParamTexts(const json& v, const JsonPath& path, const std::string& source,
                                    std::map<std::string, std::string>& out);

// An informational time that may be absent or null (unknown): both leave `out` as it is.
void optionalSeconds(FieldReader& r, const char* key, double& out);

} // namespace ckpt::io
