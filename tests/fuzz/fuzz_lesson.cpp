// Lessons (lessonFromJson). A lesson that loads has a title and 1 to kMaxLessonScenes scenes, each naming a problem, a
// scheduler and a caption (none empty), with one budget that parses (or none) and parameters as text.
#include "fuzz_target.h"
#include "io/lesson_io.h"
#include "run/budget.h"

using namespace ckpt;
using namespace ckpt::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto lesson = loadInput(data, size, [](const auto& doc) { return lessonFromJson(doc, kSource); });
    if (!lesson) return 0;
    check(!lesson->scenes.empty() && lesson->scenes.size() <= std::size_t(kMaxLessonScenes),
          "a scene count out of range");
    for (std::size_t k = 0; k < lesson->scenes.size(); ++k) {
        const LessonScene& s = lesson->scenes[k];
        const std::string what = "scenes[" + std::to_string(k) + "]";
        check(!s.problem.empty() && !s.scheduler.empty() && !s.caption.empty(), what + ": an empty required text");
        if (!s.budget.empty()) {
            auto budgets = parseBudgets(s.budget, [] { return std::int64_t(1) << 30; });
            check(budgets.ok() && budgets->size() == 1, what + ": a budget that is not one readable budget");
        }
        for (const auto& [key, value] : s.params)
            check(!key.empty(), what + ": a parameter without a name");
    }
    return 0;
}
