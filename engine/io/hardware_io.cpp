// Hardware files ("ckpt-hardware"): memory levels, level 0 (where compute runs) first.
#include "io/json_io.h"
#include "io/json_reader.h"

#include <cmath>
#include <limits>

namespace ckpt {

namespace {

using io::FieldReader;
using io::JsonPath;
using nlohmann::json;

constexpr const char* kFormat = "ckpt-hardware";
constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max();

Result<Hardware> readHardware(const json& doc, const std::string& source) {
    if (auto e = io::checkHeader(doc, kFormat, source)) return *e;
    JsonPath root;
    FieldReader top(doc, root, source);
    std::string name = io::nameFromSource(source);
    top.string("name", name, false);
    const json* levels = top.find("levels", true);
    if (!top.ok()) return top.error();
    JsonPath path = root.member("levels");
    if (!levels->is_array() || levels->empty())
        return io::expected(source, path, "an array of memory levels, level 0 first", *levels);

    std::vector<MemoryLevel> list;
    list.reserve(levels->size());
    for (std::size_t k = 0; k < levels->size(); ++k) {
        JsonPath at = path.element(k);
        FieldReader r((*levels)[k], at, source);
        MemoryLevel level;
        r.string("name", level.name, false);
        // null or absent: unbounded.
        if (const json* cap = r.find("capacity_bytes", false); cap && !cap->is_null()) {
            JsonPath capPath = at.member("capacity_bytes");
            auto bytes = io::toBytes(*cap, capPath, source);
            if (!bytes)
                r.setError(bytes.errorValue());
            else if (*bytes == 0)
                r.setError(io::expected(source, capPath, "a size > 0 (or null: unbounded)", *cap));
            else
                level.capacity_bytes = *bytes;
        }
        // Nothing is transferred to level 0, so its rates are informational.
        bool slow = k > 0;
        r.rate("read_bytes_per_s", level.read_bytes_per_s, slow, slow);
        r.rate("write_bytes_per_s", level.write_bytes_per_s, slow, slow);
        r.seconds("latency_s", level.latency_s, false);
        if (const json* f = r.find("flops_per_s", false); f && !f->is_null()) {
            JsonPath fPath = at.member("flops_per_s");
            if (k > 0)
                r.setError(io::pathError(source, fPath, "only level 0, where compute runs, has a compute speed"));
            else if (!f->is_number() || !std::isfinite(f->get<double>()) || f->get<double>() <= 0 ||
                     f->get<double>() > 1e21)
                r.setError(io::expected(source, fPath, "a number of FLOP/s > 0 and at most 1e21 (e.g. 19.5e12)", *f));
            else
                level.flops_per_s = f->get<double>();
        }
        if (!r.ok()) return r.error();
        list.push_back(std::move(level));
    }
    auto hw = Hardware::make(std::move(name), std::move(list));
    if (!hw) return fail(source + ": " + hw.error());
    return hw;
}

} // namespace

Result<Hardware> hardwareFromJson(const nlohmann::json& doc, const std::string& source) {
    try {
        return readHardware(doc, source);
    } catch (const std::exception& e) {
        return fail(source + ": " + e.what());
    }
}

nlohmann::json hardwareToJson(const Hardware& hw) {
    json levels = json::array();
    for (const MemoryLevel& l : hw.levels()) {
        json j = {{"name", l.name},
                  {"read_bytes_per_s", l.read_bytes_per_s},
                  {"write_bytes_per_s", l.write_bytes_per_s},
                  {"latency_s", l.latency_s}};
        if (l.capacity_bytes != kUnbounded) j["capacity_bytes"] = l.capacity_bytes;
        if (l.flops_per_s > 0) j["flops_per_s"] = l.flops_per_s;
        levels.push_back(std::move(j));
    }
    return json{{"format", kFormat}, {"version", 1}, {"name", hw.name()}, {"levels", std::move(levels)}};
}

Result<Hardware> loadHardware(const std::string& path) {
    auto doc = loadJson(path);
    if (!doc) return doc.errorValue();
    return hardwareFromJson(*doc, path);
}

Result<bool> saveHardware(const std::string& path, const Hardware& hw) {
    try {
        return saveJson(path, hardwareToJson(hw));
    } catch (const std::exception& e) {
        return fail(path + ": " + e.what());
    }
}

} // namespace ckpt
