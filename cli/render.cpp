// ckpt render: the explorer's charts from the shell, with no display needed.
#include "charts.h"
#include "commands.h"
#include "common.h"
#include "plots/chartexport.h"
#include "plots/printlayout.h"
#include "plots/printsize.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "run/scheduler_lookup.h"
#include "schedulers/graph_registry.h"
#include "util/files.h"
#include "util/units.h"

#include <QApplication>
#include <QWidget>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>

namespace ckpt::cli {

constexpr long long kMaxFrames = 2000; // pictures one --frames may write

int cmdRender(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "render")) return BadInput;
    if (args.positional().size() != 1 || !(args.has("out") || args.has("frames")) || !args.has("chart")) {
        complain("render: expected PROBLEM, --chart gantt|memory|sweep|tradeoff and --out FILE or --frames DIR (see "
                 "ckpt --help)");
        return BadInput;
    }
    std::string chart = args.value("chart");
    if (chart != "gantt" && chart != "memory" && chart != "sweep" && chart != "tradeoff") {
        complain("render: --chart: expected gantt, memory, sweep or tradeoff, got '" + chart + "'");
        return BadInput;
    }
    if ((args.has("at") || args.has("frames")) && chart == "tradeoff") {
        complain("render: --at and --frames show one plan's actions: not for the tradeoff chart");
        return BadInput;
    }
    if (args.has("every") && !args.has("frames")) {
        complain("render: --every goes with --frames DIR");
        return BadInput;
    }
    // PDF and SVG default to one column at 8 pt; a PNG without a size keeps the screen's 1600 × 900 pixels.
    const std::string out = args.value("out");
    // Frames are PNG pictures; alone (no --out) they are sized like a PNG.
    const bool png = out.size() >= 4 ? out.compare(out.size() - 4, 4, ".png") == 0 : args.has("frames");
    PrintSize size;
    const bool screen = png && !args.has("size") && !args.has("preset");
    if (screen) size = {1600, 900, 9, true};
    if (args.has("preset") && !printPreset(args.value("preset"), size)) {
        complain("render: --preset: expected column, two-column or slide, got '" + args.value("preset") + "'");
        return BadInput;
    }
    if (args.has("size"))
        if (std::string err = parsePrintSize(args.value("size"), size, png); !err.empty()) {
            complain("render: --size: " + err);
            return BadInput;
        }
    if (size.pixels && !png) {
        complain("render: --size: px is for PNG; give a PDF or SVG size in in, cm, mm or pt (e.g. 3.5inx2.4in)");
        return BadInput;
    }
    if (args.has("font-size")) {
        auto f = parseSeconds(args.value("font-size")); // a plain positive number
        if (!f || *f < 4 || *f > 72) {
            complain("render: --font-size: expected points between 4 and 72, got '" + args.value("font-size") + "'");
            return BadInput;
        }
        size.font_pt = *f;
    }
    double dpi = 300;
    if (args.has("dpi")) {
        auto v = parseSeconds(args.value("dpi"));
        if (!v || *v < 36 || *v > 2400) {
            complain("render: --dpi: expected 36 to 2400, got '" + args.value("dpi") + "'");
            return BadInput;
        }
        dpi = *v;
    }
    LogAxes log;
    if (args.has("log")) {
        auto axes = parseLogAxes(args.value("log"));
        if (!axes) {
            complain("render: --log: expected none, memory, time or both, got '" + args.value("log") + "'");
            return BadInput;
        }
        if (chart != "tradeoff" && (axes->memory || axes->time)) {
            complain("render: --log: only the tradeoff chart has logarithmic axes");
            return BadInput;
        }
        log = *axes;
    }
    // A graph renders like a chain (the sweep diagram needs a chain's steps: a graph that is a chain has them).
    auto problem = loadChainOrGraph(args.positional()[0]);
    if (!problem) return BadInput;
    if (chart == "sweep" && !problem->chain()) {
        complain("render: the sweep diagram draws a chain's steps; " + problem->name() + " is not a chain");
        return BadInput;
    }
    if (chart == "sweep") problem = Problem(*problem->chain());
    auto hw = loadMachine(args.value("hardware"));
    if (!hw) return BadInput;
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) qputenv("QT_QPA_PLATFORM", "offscreen");
    int qargc = 1;
    char* qargv[] = {argv[0], nullptr};
    QApplication app(qargc, qargv);

    const FigureChart kind = chart == "gantt"    ? FigureChart::Gantt
                             : chart == "memory" ? FigureChart::Memory
                             : chart == "sweep"  ? FigureChart::Sweep
                                                 : FigureChart::Tradeoff;
    Chart drawn;
    if (kind == FigureChart::Tradeoff) {
        CompareRequest req;
        std::stringstream ss(args.value("schedulers"));
        for (std::string item; std::getline(ss, item, ',');)
            if (!item.empty()) req.schedulers.push_back(item);
        const std::string list = args.value("budgets", "5%,10%,20%,35%,50%,75%,100%");
        auto budgets = parseBudgetList(list, *problem, *hw);
        if (!budgets) {
            complain("render: --budgets: " + budgets.error());
            return BadInput;
        }
        req.budgets = *budgets;
        // Refuse an unknown name before solving anything (a sweep can take a while).
        for (const auto& s : req.schedulers)
            if (auto found = findSchedulerFor(s, *problem); !found) {
                complain("render: --schedulers: " + found.error());
                return BadInput;
            }
        std::vector<Run> all = compare(*problem, *hw, req);
        reportUnavailable(all);
        for (const Run& r : all)
            if (r.bad_input) {
                complain(r.scheduler + ": " + r.message);
                return BadInput;
            }
        drawn = runsChart(kind, all, {}, *hw, log);
    } else {
        if (!args.has("scheduler")) {
            complain("render: --scheduler NAME is required for the " + chart + " chart");
            return BadInput;
        }
        std::string name = args.value("scheduler");
        SolveRequest req;
        if (!readSolveRequest(args, name, *problem, *hw, req)) return BadInput;
        auto run = std::make_shared<const Run>(runScheduler(name, *problem, *hw, req));
        if (!run->feasible) {
            complain(run->message);
            return exitCodeOf(*run);
        }
        drawn = oneRunChart(kind, run, *problem, *hw, args.has("data"));
    }
    drawn.view->resize(int(size.width_pt), int(size.height_pt));
    // One action marked (--at), or one picture per action (--frames): for handouts and slides.
    const long long actions = kind == FigureChart::Tradeoff ? 0 : (long long)drawn.actions;
    auto actionArg = [&](const char* key, long long lowest, long long& value) {
        char* end = nullptr;
        const std::string v = args.value(key);
        value = std::strtoll(v.c_str(), &end, 10);
        if (v.empty() || *end || value < lowest || value >= std::max(actions, lowest + 1)) {
            complain(std::string("render: --") + key + ": expected " +
                     (std::string(key) == "every" ? "a whole number from 1"
                                                  : "an action index from 0 to " + std::to_string(actions - 1)) +
                     ", got '" + v + "'");
            return false;
        }
        return true;
    };
    auto mark = [&](long long action) {
        if (auto* t = dynamic_cast<TimelineView*>(drawn.view.get())) t->markAction(int(action));
        if (auto* s = dynamic_cast<SweepView*>(drawn.view.get())) s->setCursor(int(action));
    };
    if (args.has("at")) {
        long long at = 0;
        if (!actionArg("at", 0, at)) return BadInput;
        mark(at);
    }
    if (args.has("frames")) {
        long long every = 1;
        if (args.has("every") && !actionArg("every", 1, every)) return BadInput;
        if (actions / every > kMaxFrames) {
            complain("render: --frames: " + std::to_string(actions / every + 1) + " pictures, over the limit of " +
                     std::to_string(kMaxFrames) + "; give --every N (one picture per N actions)");
            return BadInput;
        }
        const std::string dir = args.value("frames");
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (ec) {
            complain("render: --frames: " + dir + ": cannot create the folder (" + ec.message() + ")");
            return BadInput;
        }
        int written = 0;
        for (long long k = 0; k < actions; k += every) {
            mark(k);
            char name[32];
            std::snprintf(name, sizeof name, "frame-%05lld.png", k);
            const QString file = QString::fromStdString((std::filesystem::path(dir) / name).string());
            if (QString err = exportChart(drawn.plot, file, size, dpi); !err.isEmpty()) {
                complain(err.toStdString());
                return BadInput;
            }
            ++written;
        }
        std::printf("render: wrote %d frames to %s\n", written, dir.c_str());
        if (!args.has("out")) return Done;
    }
    PrintFit fit;
    QString err = exportChart(drawn.plot, QString::fromStdString(out), size, dpi, &fit);
    if (!err.isEmpty()) {
        complain(err.toStdString());
        return BadInput;
    }
    // Written either way; the note says what the page made of the text.
    if (QString note = printFitNote(fit, size); !note.isEmpty()) complain("render: note: " + note.toStdString());
    if (args.has("data"))
        if (auto saved = writeTextFileAtomic(args.value("data"), drawn.csv); !saved) {
            complain("render: --data: " + saved.error());
            return BadInput;
        }
    return Done;
}

} // namespace ckpt::cli
