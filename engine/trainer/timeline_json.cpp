#include "trainer/timeline_json.h"

namespace ckpt::trainer {

nlohmann::json timelineToJson(const Timeline& tl) {
    nlohmann::json j;
    j["lanes"] = tl.lanes;
    nlohmann::json iv = nlohmann::json::array();
    for (const Interval& i : tl.intervals)
        iv.push_back({i.start, i.end, i.action, i.index, i.bytes, i.lane,
                      std::string(intervalKindName(i.kind)) + (i.tape ? " tape" : "")});
    j["intervals"] = std::move(iv);
    nlohmann::json mem = nlohmann::json::array();
    for (const auto& level : tl.memory) {
        nlohmann::json curve = nlohmann::json::array();
        for (const MemorySample& s : level)
            curve.push_back({s.time, s.bytes[0], s.bytes[1], s.bytes[2], s.bytes[3]});
        mem.push_back(std::move(curve));
    }
    j["memory"] = std::move(mem);
    const Totals& t = tl.totals;
    j["totals"] = {{"makespan_s", t.makespan_s},
                   {"compute_s", t.compute_s},
                   {"steps", t.steps},
                   {"forward_steps", t.forward_steps},
                   {"backward_steps", t.backward_steps},
                   {"recomputed_steps", t.recomputed_steps},
                   {"bytes_written", t.bytes_written},
                   {"bytes_read", t.bytes_read},
                   {"peak_bytes", t.peak_bytes},
                   {"peak_time_s", t.peak_time_s},
                   {"channel_busy_s", t.channel_busy_s}};
    return j;
}

namespace {

// "write" or "write tape" (a transfer of a step's tape).
std::optional<IntervalKind> kindOf(std::string s, bool& tape) {
    const std::string suffix = " tape";
    tape = s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (tape) s.resize(s.size() - suffix.size());
    for (IntervalKind k : {IntervalKind::Forward, IntervalKind::Recompute, IntervalKind::Backward, IntervalKind::Write,
                           IntervalKind::Read})
        if (s == intervalKindName(k) && (!tape || k == IntervalKind::Write || k == IntervalKind::Read)) return k;
    return std::nullopt;
}

} // namespace

Result<Timeline> timelineFromJson(const nlohmann::json& j, const std::string& where) {
    Timeline tl;
    try {
        if (!j.is_object()) return fail(where + ": expected an object");
        tl.lanes = j.at("lanes").get<std::vector<std::string>>();
        const auto& iv = j.at("intervals");
        for (std::size_t k = 0; k < iv.size(); ++k) {
            const auto& a = iv[k];
            bool tape = false;
            auto kind = a.size() == 7 && a[6].is_string() ? kindOf(a[6].get<std::string>(), tape) : std::nullopt;
            if (!kind)
                return fail(where + ": intervals[" + std::to_string(k) +
                            "]: expected [start, end, action, index, bytes, lane, kind]");
            tl.intervals.push_back(Interval{a[0].get<double>(), a[1].get<double>(), a[2].get<std::int32_t>(),
                                            a[3].get<std::int32_t>(), a[4].get<std::int64_t>(),
                                            a[5].get<std::int16_t>(), *kind, tape});
        }
        for (const auto& level : j.at("memory")) {
            std::vector<MemorySample> curve;
            for (const auto& s : level)
                curve.push_back(MemorySample{s.at(0).get<double>(),
                                             {s.at(1).get<std::int64_t>(), s.at(2).get<std::int64_t>(),
                                              s.at(3).get<std::int64_t>(), s.at(4).get<std::int64_t>()}});
            tl.memory.push_back(std::move(curve));
        }
        const auto& t = j.at("totals");
        Totals& o = tl.totals;
        o.makespan_s = t.at("makespan_s").get<double>();
        o.compute_s = t.at("compute_s").get<double>();
        o.steps = t.at("steps").get<long long>();
        o.forward_steps = t.at("forward_steps").get<long long>();
        o.backward_steps = t.at("backward_steps").get<long long>();
        o.recomputed_steps = t.at("recomputed_steps").get<long long>();
        o.bytes_written = t.at("bytes_written").get<long long>();
        o.bytes_read = t.at("bytes_read").get<long long>();
        o.peak_bytes = t.at("peak_bytes").get<std::vector<std::int64_t>>();
        o.peak_time_s = t.at("peak_time_s").get<std::vector<double>>();
        o.channel_busy_s = t.at("channel_busy_s").get<std::vector<double>>();
    } catch (const nlohmann::json::exception& e) {
        return fail(where + ": " + e.what());
    }
    return tl;
}

} // namespace ckpt::trainer
