#pragma once
// The charts `ckpt render` and `ckpt figure` draw, made from runs the same way by both, with the numbers behind them.
#include "io/figure_io.h"
#include "model/hardware.h"
#include "model/problem.h"
#include "run/runner.h"

#include <memory>
#include <string>
#include <vector>

class QWidget;
class QCustomPlot;

namespace ckpt::cli {

struct Chart {
    std::unique_ptr<QWidget> view; // owns the plot
    QCustomPlot* plot = nullptr;
    std::string csv;         // the numbers behind the chart (run/chart_data.h), when asked for
    std::size_t actions = 0; // the plan's actions (one run's charts)
};

// One feasible run: the Gantt chart (its memory below), the memory chart alone, or the sweep diagram (a chain's run).
// `csv`: with the numbers behind it (a line per interval: some 3 s and 200 MB for a plan of 3.8 million actions).
Chart oneRunChart(FigureChart kind, const std::shared_ptr<const Run>& run, const Problem& problem, const Hardware& hw,
                  bool csv);
// Runs as the trade-off chart or as forward steps against slots; series[i] names run i in the legend (empty or
// missing: its scheduler), and picks its look (schedulerstyle.h).
// A trade-off's axes are logarithmic as `log` says.
Chart runsChart(FigureChart kind, const std::vector<Run>& runs, const std::vector<std::string>& series,
                const Hardware& hw, LogAxes log = {});

} // namespace ckpt::cli
