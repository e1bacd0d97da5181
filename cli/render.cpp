// ckpt render: the explorer's charts from the shell, with no display needed.
#include "commands.h"
#include "common.h"
#include "plots/chartexport.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "util/units.h"

#include <QApplication>
#include <cstdlib>
#include <optional>
#include <sstream>

namespace ckpt::cli {

int cmdRender(int argc, char** argv) {
    Args args;
    if (!args.parse(
            argc, argv, 2, {},
            {"hardware", "scheduler", "slots", "budget", "param", "chart", "out", "size", "budgets", "schedulers"})) {
        complain("render: " + args.error() + " (see ckpt --help)");
        return BadInput;
    }
    if (args.positional().size() != 1 || !args.has("out") || !args.has("chart")) {
        complain("render: expected PROBLEM, --chart gantt|memory|sweep|tradeoff and --out FILE (see ckpt --help)");
        return BadInput;
    }
    std::string chart = args.value("chart");
    if (chart != "gantt" && chart != "memory" && chart != "sweep" && chart != "tradeoff") {
        complain("render: --chart: expected gantt, memory, sweep or tradeoff, got '" + chart + "'");
        return BadInput;
    }
    int width = 1600, height = 900;
    if (args.has("size")) {
        std::string s = args.value("size");
        auto x = s.find('x');
        width = x == std::string::npos ? 0 : std::atoi(s.substr(0, x).c_str());
        height = x == std::string::npos ? 0 : std::atoi(s.substr(x + 1).c_str());
        if (width < 16 || height < 16) {
            complain("render: --size: expected WIDTHxHEIGHT such as 1600x900, got '" + s + "'");
            return BadInput;
        }
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

    QWidget* view = nullptr;
    QCustomPlot* plot = nullptr;
    if (chart == "tradeoff") {
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
        std::vector<std::shared_ptr<const Run>> runs;
        for (Run& r : compare(*problem, *hw, req)) {
            if (r.bad_input) {
                complain(r.scheduler + ": " + r.message);
                return BadInput;
            }
            runs.push_back(std::make_shared<const Run>(std::move(r)));
        }
        auto* t = new TradeoffView;
        t->setRuns(runs);
        view = t, plot = t->plot();
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
        if (chart == "sweep") {
            auto* s = new SweepView;
            s->setRun(run, *problem->chain(), *hw);
            view = s, plot = s->plot();
        } else {
            auto* t = new TimelineView;
            if (const Graph* graph = problem->graph()) {
                QStringList ids;
                for (const GraphNode& n : graph->nodes())
                    ids << QString::fromStdString(n.id);
                t->setNodeNames(ids);
            }
            t->setRun(run, *hw);
            if (chart == "memory") t->setMemoryOnly(true);
            view = t, plot = t->plot();
        }
    }
    view->resize(width, height);
    QString err = exportChart(plot, QString::fromStdString(args.value("out")), width, height);
    delete view;
    if (!err.isEmpty()) {
        complain(err.toStdString());
        return BadInput;
    }
    return Done;
}

} // namespace ckpt::cli
