#include "charts.h"

#include "plots/slotsview.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "run/chart_data.h"

#include <QStringList>

namespace ckpt::cli {

Chart oneRunChart(FigureChart kind, const std::shared_ptr<const Run>& run, const Problem& problem, const Hardware& hw,
                  bool csv) {
    Chart c;
    if (const Plan* plan = run->chainPlan()) c.actions = plan->actions.size();
    if (const GraphPlan* plan = run->graphPlan()) c.actions = plan->actions.size();
    if (kind == FigureChart::Sweep && problem.chain()) {
        auto* s = new SweepView;
        s->setRun(run, *problem.chain(), hw);
        c.view.reset(s), c.plot = s->plot();
        if (csv) c.csv = sweepCsv(*run);
        return c;
    }
    auto* t = new TimelineView;
    if (const Graph* graph = problem.graph()) {
        QStringList ids;
        for (const GraphNode& n : graph->nodes())
            ids << QString::fromStdString(n.id);
        t->setNodeNames(ids);
    }
    t->setRun(run, hw);
    if (kind == FigureChart::Memory) t->setMemoryOnly(true);
    c.view.reset(t), c.plot = t->plot();
    if (csv) c.csv = kind == FigureChart::Memory ? memoryCsv(*run, hw) : ganttCsv(*run, problem);
    return c;
}

Chart runsChart(FigureChart kind, const std::vector<Run>& runs, const std::vector<std::string>& series,
                const Hardware& hw, LogAxes log) {
    Chart c;
    c.csv = runsCsv(runs, hw, series);
    // The views name a series by its run's scheduler: runs carry the legend's names from here on.
    std::vector<std::shared_ptr<const Run>> shown;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        auto r = std::make_shared<Run>(runs[i]);
        if (i < series.size() && !series[i].empty()) r->scheduler = series[i];
        shown.push_back(std::move(r));
    }
    if (kind == FigureChart::StepsVsSlots) {
        auto* s = new SlotsView;
        s->setRuns(shown);
        c.view.reset(s), c.plot = s->plot();
    } else {
        auto* t = new TradeoffView;
        t->setLogAxes(log.memory, log.time);
        t->setRuns(shown);
        c.view.reset(t), c.plot = t->plot();
    }
    return c;
}

} // namespace ckpt::cli
