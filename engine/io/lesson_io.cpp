// Lessons ("ckpt-lesson"): scenes for teaching, read with the same path-naming messages as every other file.
#include "io/lesson_io.h"

#include "io/json_io.h"
#include "io/json_reader.h"
#include "util/budget_list.h"

#include <algorithm>

namespace ckpt {

namespace {

using io::FieldReader;
using io::JsonPath;
using nlohmann::json;

Result<LessonScene> readScene(const json& v, const JsonPath& path, const std::string& source) {
    FieldReader r(v, path, source);
    LessonScene s;
    r.string("title", s.title, false);
    r.string("problem", s.problem, true);
    r.string("hardware", s.hardware, false);
    r.string("scheduler", s.scheduler, true);
    r.string("caption", s.caption, true);
    r.string("tab", s.tab, false);
    const json* params = r.find("params", false);
    const json* budget = r.find("budget", false);
    if (!r.ok()) return r.error();
    for (const char* key : {"problem", "scheduler", "caption"})
        if (v.at(key).get<std::string>().empty()) {
            JsonPath at = path.member(key);
            return io::expected(source, at, "a text that is not empty", v.at(key));
        }
    if (!s.tab.empty() && std::find(std::begin(kLessonTabs), std::end(kLessonTabs), s.tab) == std::end(kLessonTabs)) {
        std::string names;
        for (const char* t : kLessonTabs)
            names += (names.empty() ? "" : ", ") + std::string(t);
        JsonPath at = path.member("tab");
        return io::expected(source, at, "one of " + names, v.at("tab"));
    }
    if (params) {
        JsonPath at = path.member("params");
        if (auto e = io::readParamTexts(*params, at, source, s.params)) return *e;
    }
    if (budget) {
        JsonPath at = path.member("budget");
        if (budget->is_string())
            s.budget = budget->get<std::string>();
        else if (budget->is_number_integer() && budget->get<long long>() >= 0)
            s.budget = budget->dump();
        else
            return io::expected(source, at, "a budget such as \"40%\", \"64MiB\" or \"none\"", *budget);
        // Checked now, against a stand-in for store-all's peak; solving checks it against the problem's.
        auto list = checkBudgets(s.budget);
        if (!list || list->size() != 1)
            return io::pathError(source, at, list ? "one budget, not a list" : list.error());
    }
    return s;
}

Result<Lesson> readLesson(const json& doc, const std::string& source) {
    if (auto e = io::checkHeader(doc, "ckpt-lesson", source)) return *e;
    const JsonPath root;
    FieldReader top(doc, root, source);
    Lesson lesson;
    top.string("title", lesson.title, true);
    const json* scenes = top.find("scenes", true);
    if (!top.ok()) return top.error();
    JsonPath list = root.member("scenes");
    if (!scenes->is_array() || scenes->empty() || scenes->size() > std::size_t(kMaxLessonScenes))
        return io::expected(source, list, "an array of 1 to " + std::to_string(kMaxLessonScenes) + " scenes", *scenes);
    for (std::size_t k = 0; k < scenes->size(); ++k) {
        JsonPath at = list.element(k);
        auto s = readScene((*scenes)[k], at, source);
        if (!s) return s.errorValue();
        lesson.scenes.push_back(std::move(*s));
    }
    return lesson;
}

} // namespace

Result<Lesson> lessonFromJson(const json& doc, const std::string& source) {
    try {
        return readLesson(doc, source);
    } catch (const std::exception& e) {
        return fail(source + ": " + e.what());
    }
}

Result<Lesson> loadLesson(const std::string& path) {
    auto doc = loadJson(path);
    if (!doc) return doc.errorValue();
    return lessonFromJson(*doc, path);
}

} // namespace ckpt
