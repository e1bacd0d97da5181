// Plan files ("ckpt-plan"): the scheduler, its parameters and the actions as short arrays, so that a plan of 500 000
// actions stays a few megabytes and reads in a fraction of a second.
#include "io/json_io.h"
#include "io/json_reader.h"

#include <limits>

namespace ckpt {

namespace {

using io::FieldReader;
using io::JsonPath;
using nlohmann::json;

constexpr const char* kFormat = "ckpt-plan";
constexpr const char* kAnyAction =
    "an action such as [\"F\", step, \"none\"|\"state\"|\"tape\"], [\"B\", step], [\"W\"|\"R\"|\"D\", state, level] "
    "or [\"WT\"|\"RT\"|\"DT\", step, level]";
constexpr long long kMaxIndex = std::numeric_limits<std::int32_t>::max();
constexpr long long kMaxLevel = std::numeric_limits<std::int16_t>::max();

// A non-negative integer up to `max` (a step, a state or a level).
bool toIndex(const json& v, long long max, long long& out) {
    if (v.is_number_unsigned()) {
        auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(max)) return false;
        out = static_cast<long long>(u);
        return true;
    }
    if (v.is_number_integer()) {
        out = v.get<std::int64_t>();
        return out >= 0 && out <= max;
    }
    return false;
}

bool toKeep(const json& v, Keep& keep) {
    if (!v.is_string()) return false;
    const auto& s = v.get_ref<const std::string&>();
    if (s == "none")
        keep = Keep::None;
    else if (s == "state")
        keep = Keep::State;
    else if (s == "tape")
        keep = Keep::Tape;
    else
        return false;
    return true;
}

// Reads actions[k]. The shape is checked first (what each element must be), then the numbers' ranges.
std::optional<Error> readAction(const json& a, std::size_t k, const JsonPath& actions, const std::string& source,
                                Action& out) {
    JsonPath path = actions.element(k);
    auto shape = [&](const char* form) { return io::expected(source, path, form, a); };
    auto range = [&](std::size_t i, const char* what, long long max) {
        JsonPath at = path.element(i);
        return io::expected(source, at, std::string(what) + " from 0 to " + std::to_string(max), a[i]);
    };
    if (!a.is_array() || a.empty() || !a[0].is_string()) return shape(kAnyAction);
    long long index = 0, level = 0;
    const std::string& code = a[0].get_ref<const std::string&>();
    if (code == "WT" || code == "RT" || code == "DT") {
        const std::string form = "[\"" + code + "\", step, level]";
        if (a.size() != 3 || !a[1].is_number_integer() || !a[2].is_number_integer()) return shape(form.c_str());
        if (!toIndex(a[1], kMaxIndex, index)) return range(1, "a step", kMaxIndex);
        if (!toIndex(a[2], kMaxLevel, level)) return range(2, "a level", kMaxLevel);
        int i = static_cast<int>(index), l = static_cast<int>(level);
        out = code == "WT" ? Action::writeTape(i, l) : code == "RT" ? Action::readTape(i, l) : Action::freeTape(i, l);
        return std::nullopt;
    }
    if (code.size() != 1) return shape(kAnyAction);
    switch (code[0]) {
    case 'F': {
        constexpr const char* form = "[\"F\", step, \"none\"|\"state\"|\"tape\"]";
        Keep keep = Keep::None;
        if (a.size() != 3 || !a[1].is_number_integer() || !toKeep(a[2], keep)) return shape(form);
        if (!toIndex(a[1], kMaxIndex, index)) return range(1, "a step", kMaxIndex);
        out = Action::forward(static_cast<int>(index), keep);
        return std::nullopt;
    }
    case 'B': {
        if (a.size() != 2 || !a[1].is_number_integer()) return shape("[\"B\", step]");
        if (!toIndex(a[1], kMaxIndex, index)) return range(1, "a step", kMaxIndex);
        out = Action::backward(static_cast<int>(index));
        return std::nullopt;
    }
    case 'W':
    case 'R':
    case 'D': {
        const char c = code[0];
        const char* form = c == 'W'   ? "[\"W\", state, level]"
                           : c == 'R' ? "[\"R\", state, level]"
                                      : "[\"D\", state, level]";
        if (a.size() != 3 || !a[1].is_number_integer() || !a[2].is_number_integer()) return shape(form);
        if (!toIndex(a[1], kMaxIndex, index)) return range(1, "a state", kMaxIndex);
        if (!toIndex(a[2], kMaxLevel, level)) return range(2, "a level", kMaxLevel);
        int j = static_cast<int>(index), l = static_cast<int>(level);
        out = c == 'W' ? Action::write(j, l) : c == 'R' ? Action::read(j, l) : Action::free(j, l);
        return std::nullopt;
    }
    default:
        return shape(kAnyAction);
    }
}

Result<Plan> readPlan(const json& doc, const std::string& source) {
    if (auto e = io::checkHeader(doc, kFormat, source)) return *e;
    JsonPath root;
    FieldReader top(doc, root, source);
    Plan plan;
    top.string("scheduler", plan.scheduler, false);
    top.bytes("budget_bytes", plan.budget_bytes, false);
    io::optionalSeconds(top, "predicted_makespan_s", plan.predicted_makespan_s);
    const json* params = top.find("params", false);
    const json* actions = top.find("actions", true);
    if (!top.ok()) return top.error();

    if (params) {
        JsonPath path = root.member("params");
        if (!params->is_object()) return io::expected(source, path, "an object of parameter values", *params);
        for (auto it = params->begin(); it != params->end(); ++it) {
            const json& v = it.value();
            if (v.is_string())
                plan.params[it.key()] = v.get<std::string>();
            else if (v.is_number() || v.is_boolean())
                plan.params[it.key()] = v.dump(); // "slots": 10 means "10"
            else {
                JsonPath at = path.member(it.key().c_str());
                return io::expected(source, at, "a string or a number", v);
            }
        }
    }

    JsonPath path = root.member("actions");
    if (!actions->is_array()) return io::expected(source, path, "an array of actions", *actions);
    plan.actions.resize(actions->size());
    for (std::size_t k = 0; k < actions->size(); ++k) {
        if (auto e = readAction((*actions)[k], k, path, source, plan.actions[k])) {
            e->index = static_cast<long long>(k);
            return *e;
        }
    }
    return plan;
}

json actionToJson(const Action& a) {
    json j(json::value_t::array);
    auto& v = j.get_ref<json::array_t&>();
    v.reserve(3);
    switch (a.kind) {
    case ActionKind::Forward:
        v.emplace_back("F");
        break;
    case ActionKind::Backward:
        v.emplace_back("B");
        break;
    case ActionKind::Write:
        v.emplace_back("W");
        break;
    case ActionKind::Read:
        v.emplace_back("R");
        break;
    case ActionKind::Free:
        v.emplace_back("D");
        break;
    case ActionKind::WriteTape:
        v.emplace_back("WT");
        break;
    case ActionKind::ReadTape:
        v.emplace_back("RT");
        break;
    case ActionKind::FreeTape:
        v.emplace_back("DT");
        break;
    }
    v.emplace_back(a.index);
    if (a.kind == ActionKind::Forward)
        v.emplace_back(keepName(a.keep));
    else if (a.kind != ActionKind::Backward)
        v.emplace_back(a.level);
    return j;
}

} // namespace

Result<Plan> planFromJson(const nlohmann::json& doc, const std::string& source) {
    try {
        return readPlan(doc, source);
    } catch (const std::exception& e) {
        return fail(source + ": " + e.what());
    }
}

nlohmann::json planToJson(const Plan& plan) {
    json params = json::object();
    for (const auto& [key, value] : plan.params)
        params[key] = value;
    json actions(json::value_t::array);
    auto& list = actions.get_ref<json::array_t&>();
    list.reserve(plan.actions.size());
    for (const Action& a : plan.actions)
        list.push_back(actionToJson(a));
    json doc = {{"format", kFormat},
                {"version", 1},
                {"scheduler", plan.scheduler},
                {"budget_bytes", plan.budget_bytes},
                {"predicted_makespan_s", plan.predicted_makespan_s}};
    doc["params"] = std::move(params);
    doc["actions"] = std::move(actions);
    return doc;
}

nlohmann::json planToJson(const Plan& plan, const Chain& chain) {
    json doc = planToJson(plan);
    doc["chain"] = json{{"name", chain.name()}, {"length", chain.length()}};
    return doc;
}

Result<Plan> loadPlan(const std::string& path) {
    auto doc = loadJson(path);
    if (!doc) return doc.errorValue();
    return planFromJson(*doc, path);
}

Result<bool> savePlan(const std::string& path, const Plan& plan) {
    try {
        return saveJson(path, planToJson(plan));
    } catch (const std::exception& e) {
        return fail(path + ": " + e.what());
    }
}

Result<bool> savePlan(const std::string& path, const Plan& plan, const Chain& chain) {
    try {
        return saveJson(path, planToJson(plan, chain));
    } catch (const std::exception& e) {
        return fail(path + ": " + e.what());
    }
}

} // namespace ckpt
