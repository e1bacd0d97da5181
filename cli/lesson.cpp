// ckpt lesson: a lesson's scenes solved and told, for a teacher preparing a class (--check: every scene must solve).
#include "commands.h"
#include "common.h"
#include "io/lesson_io.h"
#include "progress.h"
#include "run/budget.h"
#include "util/units.h"

#include <cstdio>
#include <filesystem>

namespace ckpt::cli {

int cmdLesson(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "lesson")) return BadInput;
    if (args.positional().size() != 1) {
        complain("lesson: expected one LESSON file (see ckpt --help)");
        return BadInput;
    }
    const std::string file = args.positional()[0];
    auto lesson = loadLesson(file);
    if (!lesson) {
        complain(lesson.error());
        return BadInput;
    }
    const std::filesystem::path folder = std::filesystem::path(file).parent_path();
    auto near = [&](const std::string& p) {
        return std::filesystem::path(p).is_absolute() ? p : (folder / p).string();
    };
    std::printf("%s (%zu scenes)\n", lesson->title.c_str(), lesson->scenes.size());
    int failed = 0;
    Progress progress("lesson");
    for (std::size_t k = 0; k < lesson->scenes.size(); ++k) {
        const LessonScene& s = lesson->scenes[k];
        const std::string where = file + ": scenes[" + std::to_string(k) + "]";
        progress.set((long long)k, (long long)lesson->scenes.size(), "scenes",
                     "scenes[" + std::to_string(k) + "] (" + s.scheduler + ")");
        auto problem = loadChainOrGraph(near(s.problem), where + ".problem");
        if (!problem) return BadInput;
        // A file beside the lesson, or a preset's name ("gpu-a100") as figure specs take it.
        std::error_code ec;
        const bool preset = isPresetName(s.hardware) && !std::filesystem::exists(near(s.hardware), ec);
        auto hw = loadMachine(s.hardware.empty() || preset ? s.hardware : near(s.hardware), where + ".hardware");
        if (!hw) return BadInput;
        SolveRequest req;
        req.params = s.params;
        if (!s.budget.empty()) {
            auto b = parseBudgetList(s.budget, *problem, *hw);
            if (!b) {
                complain(where + ".budget: " + b.error());
                return BadInput;
            }
            req.budget_bytes = b->front();
        }
        const Run run = runScheduler(s.scheduler, *problem, *hw, req);
        if (run.bad_input) {
            complain(where + ": " + run.message);
            return BadInput;
        }
        std::printf("\n%zu. %s\n   %s on %s, %s", k + 1, s.title.empty() ? s.scheduler.c_str() : s.title.c_str(),
                    s.scheduler.c_str(), problem->name().c_str(), hw->name().c_str());
        std::printf(", budget %s: ", req.budget_bytes ? formatBytes(double(req.budget_bytes)).c_str() : "none");
        if (run.feasible && run.timeline) {
            const Totals& t = run.timeline->totals;
            std::printf("makespan %s (%.3f× store-all), peak L0 %s, %lld forward steps\n",
                        formatSeconds(t.makespan_s).c_str(), t.makespan_s / run.baseline_makespan_s,
                        formatBytes(double(t.peak_bytes[0])).c_str(), t.forward_steps);
        } else {
            ++failed;
            std::printf("%s: %s\n", run.available ? "infeasible" : "n/a", run.message.c_str());
        }
        std::printf("   %s\n", s.caption.c_str());
        std::fflush(stdout);
    }
    progress.finish();
    if (failed && args.has("check")) {
        complain("lesson: " + std::to_string(failed) + " of " + std::to_string(lesson->scenes.size()) +
                 " scenes do not solve");
        return Infeasible;
    }
    return Done;
}

} // namespace ckpt::cli
