#pragma once
// Lessons ("ckpt-lesson"): a list of scenes a teacher steps through, each a problem, a machine, a scheduler with its
// parameters, a budget and a caption for students. `ckpt lesson` solves and prints them; examples/lessons/ ships one.
//
//   {"format": "ckpt-lesson", "version": 1, "title": "...",
//    "scenes": [{"title": "...", "problem": "../small-hetero-12.ckpt-chain.json",
//                "hardware": "../../resources/hardware/gpu-a100.ckpt-hardware.json",
//                "scheduler": "revolve", "params": {"slots": 3}, "budget": "40%", "caption": "..."}]}
//
// Paths are relative to the lesson's folder; "hardware" is optional (one unbounded level), "budget" too (none), as
// are "params" and a scene's "title". Messages name the file, the JSON path and what was expected.
#include "util/result.h"

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace ckpt {

struct LessonScene {
    std::string title;
    std::string problem;  // as written
    std::string hardware; // as written; empty: one unbounded level
    std::string scheduler;
    std::map<std::string, std::string> params;
    std::string budget; // as --budget reads it ("40%", "64MiB", "none")
    std::string caption;
    std::string tab; // the view the explorer shows the scene on (one of kLessonTabs); empty: the Timeline
};

// The views a scene may name as its "tab": the explorer's chart tabs.
inline constexpr const char* kLessonTabs[] = {"timeline", "graph",  "sweep",    "tradeoff", "comparison",
                                              "side",     "layout", "pipeline", "trainer"};

struct Lesson {
    std::string title;
    std::vector<LessonScene> scenes;
};

constexpr int kMaxLessonScenes = 200;

Result<Lesson> lessonFromJson(const nlohmann::json& doc, const std::string& source);
Result<Lesson> loadLesson(const std::string& path);

} // namespace ckpt
