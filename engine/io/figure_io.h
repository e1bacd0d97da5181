#pragma once
// Figure specs ("ckpt-figure"): several charts in one file, so that a paper's figure is rebuilt from a checked-in
// spec by `ckpt figure SPEC.json --out FIG.pdf`.
//   {"format": "ckpt-figure", "version": 1,
//    "title": text (optional, above the panels),
//    "preset": "column" | "two-column" | "slide" (default column), "size": "7inx3in" (overrides the preset's size),
//    "font_size": points from 4 to 72 (default: the preset's),
//    "grid": {"rows": R, "cols": C} (default: one row, a column per panel),
//    "panels": [{
//       "chart": "gantt" | "memory" | "sweep" | "tradeoff" | "steps-vs-slots",
//       "problem": a ckpt-chain or ckpt-graph file, relative to the spec's folder,
//       "hardware": a ckpt-hardware file relative to the spec (a name with a "/" or ending in ".json"), or the name
//                   of a shipped preset ("gpu-a100": resources/hardware/gpu-a100.ckpt-hardware.json); absent: one
//                   unbounded level,
//       "title": text,
//       "schedulers": ["revolve", {"name": "bptt-dp", "params": {"variant": "hsm"}, "slots": [...]}, ...] (a series
//                     each; one for gantt, memory and sweep; "scheduler": NAME is the same as a list of one; a
//                     series' "slots" replace the panel's for it),
//       "params": {"checkmate": {"node_limit": 2000}} (per scheduler, under each series' own params),
//       "budgets": "5%,10%,none" or ["5%", "1 GiB", 1048576] (tradeoff; default 5%,10%,20%,35%,50%,75%,100%),
//       "budget": one budget (gantt, memory, sweep, steps-vs-slots, and a tradeoff over slots),
//       "slots": [2, 3, 4] or {"from": 2, "to": 40, "step": 2} (steps-vs-slots; a tradeoff may sweep slots instead
//                of budgets): each series at each count, as --slots sets it (the slots or segments parameter); in
//                a tradeoff, a scheduler with neither (store-all) is one point,
//       "cell": {"row": r, "col": c, "rows": 1, "cols": 1} (optional; by default the next free cell, row by row)}]}
// Parameter values are texts or numbers. Errors name the file and the JSON path ("panels[2].slots[4]") and say what
// was expected; the names of schedulers and parameters are checked once the problem is loaded (by the CLI).
#include "util/print_size.h"
#include "util/result.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

enum class FigureChart { Gantt, Memory, Sweep, Tradeoff, StepsVsSlots };
const char* figureChartName(FigureChart chart); // "gantt", ..., "steps-vs-slots"

// Which axes of a trade-off chart are logarithmic: "none", "memory", "time" or "both" (`ckpt render --log`, a
// panel's "log").
struct LogAxes {
    bool memory = false, time = false;
};
std::optional<LogAxes> parseLogAxes(const std::string& text);

struct FigureSeries {
    std::string scheduler;
    std::map<std::string, std::string> params; // the panel's params for the scheduler, then the series' own
    std::vector<long long> slot_counts;        // its own "slots", else the panel's; empty: no slot sweep
};

struct FigurePanel {
    FigureChart chart = FigureChart::Tradeoff;
    std::string title;
    std::string problem;  // as written: relative to the spec's folder unless absolute
    std::string hardware; // a file as written, or a preset name (hardware_is_preset); empty: one unbounded level
    bool hardware_is_preset = false;
    std::vector<FigureSeries> series;
    std::string budgets; // a budget list as --budgets reads it ("none,5%,1GiB"); one budget for most charts
    std::vector<long long> slot_counts;       // the slot counts swept (steps-vs-slots, or a tradeoff over slots)
    LogAxes log;                              // a trade-off's logarithmic axes
    int row = 0, col = 0, rows = 1, cols = 1; // the cells it covers, always set once loaded
};

struct FigureSpec {
    std::string title;
    PrintSize size; // points and font, as the preset and "size" give them
    int rows = 1, cols = 1;
    std::vector<FigurePanel> panels;
};

// Limits that keep a figure to what a page holds (and a spec's run time to what its author asked for).
constexpr int kMaxFigurePanels = 64;
constexpr int kMaxFigureGrid = 16;    // rows, and columns
constexpr int kMaxFigureSeries = 32;  // per panel
constexpr int kMaxFigureSweep = 1000; // budgets or slot counts per panel

Result<FigureSpec> figureFromJson(const nlohmann::json& doc, const std::string& source);
Result<FigureSpec> loadFigure(const std::string& path);

} // namespace ckpt
