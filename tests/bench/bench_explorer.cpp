// The explorer's two speed targets (a program, not a test; build in Release):
//  - replot of the Gantt after a zoom, for plans of 10 000, 100 000 and 1 000 000 actions (aim: < 30 ms at 1M);
//  - a budget-slider change to redrawn charts on the 1000-step LSTM example (aim: < 100 ms).
#include "io/json_io.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "schedulers/periodic.h"
#include "sim/simulator.h"
#include "widgets/mainwindow.h"
#include "widgets/schedulerpanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <qcustomplot.h>

using namespace ckpt;

namespace {
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}
} // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("DISPLAY")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::printf("Gantt replot after a zoom (1600x900, median of 10)\n");
    for (int n : {5000, 50000, 500000}) {
        // Periodic with ~sqrt(n) segments: about 2n actions.
        Chain chain = *Chain::uniform("bench", n, Step{1e-3, 2e-3, 1 << 20, 3 << 20, 0, 0});
        auto run = std::make_shared<Run>();
        run->scheduler = "periodic";
        run->plan = periodicPlan(chain, 2);
        auto tl = simulate(chain, Hardware::unbounded(), run->chainPlan()->actions);
        if (!tl) return std::fprintf(stderr, "%s\n", tl.error().c_str()), 1;
        run->timeline = std::move(*tl);
        run->feasible = true;
        run->baseline_makespan_s = chain.totalForward() + chain.totalBackward();
        TimelineView view;
        view.resize(1600, 900);
        view.setRun(run, Hardware::unbounded());
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        std::vector<double> full, zoomed;
        double span = run->timeline->totals.makespan_s;
        for (int k = 0; k < 10; ++k) {
            QElapsedTimer t;
            view.resetZoom();
            t.start();
            view.plot()->replot(QCustomPlot::rpImmediateRefresh);
            full.push_back(t.nsecsElapsed() / 1e6);
            view.zoomTo(span * (0.3 + 0.01 * k), span * (0.35 + 0.01 * k));
            t.restart();
            view.plot()->replot(QCustomPlot::rpImmediateRefresh);
            zoomed.push_back(t.nsecsElapsed() / 1e6);
        }
        std::printf("  %8d intervals: whole plan %7.2f ms, zoomed to 5%% %7.2f ms\n", view.intervalCount(),
                    median(full), median(zoomed));
    }

    std::printf("Budget slider on the 1000-step LSTM example (solve + simulate + redraw, 20 positions)\n");
    MainWindow w;
    w.setInteractive(false);
    w.resize(1600, 1000);
    w.show();
    w.openDefault();
    for (const char* name : {"revolve", "periodic", "rotor", "bptt-dp"}) {
        w.schedulerPanel()->setCurrentScheduler(name);
        std::vector<double> times;
        for (int k = 0; k < 20; ++k) {
            w.schedulerPanel()->budgetSlider()->blockSignals(true);
            w.schedulerPanel()->budgetSlider()->setValue(300 + 30 * k);
            w.schedulerPanel()->budgetSlider()->blockSignals(false);
            QElapsedTimer t;
            t.start();
            w.runCurrentNow();
            w.timelineView()->plot()->replot(QCustomPlot::rpImmediateRefresh);
            times.push_back(t.nsecsElapsed() / 1e6);
        }
        std::printf("  %-9s median %7.1f ms, max %7.1f ms\n", name, median(times),
                    *std::max_element(times.begin(), times.end()));
    }
    return 0;
}
