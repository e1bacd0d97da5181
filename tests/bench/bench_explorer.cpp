// The explorer's two speed targets (a program, not a test; build in Release with the GUI, run with
// QT_QPA_PLATFORM=offscreen; `--slider [scheduler...]` runs the second part only, for the schedulers named):
//  - replot of the Gantt after a zoom, for plans of 10 000, 100 000 and 1 000 000 actions (aim: < 30 ms at 1M);
//  - a budget-slider change to redrawn charts on the 1000-step LSTM example on the A100 preset, for every chain
//    scheduler the machine can run (issues 11 and 35: median < 100 ms and max < 200 ms each; printed as PASS/FAIL,
//    the exit code stays 0;
//    CKPT_BENCH_VERBOSE=1 prints every position, where a table is built and where it is read). The schedulers that
//    keep tables have them built ahead first, as the window does when one is chosen (MainWindow::prepareSlider),
//    timed apart.
// --json: the table on stderr, and on stdout one JSON object of the figures (scripts/bench reads it).
#include "io/json_io.h"
#include "models/document.h"
#include "models/runcontroller.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "schedulers/periodic.h"
#include "schedulers/registry.h"
#include "sim/simulator.h"
#include "widgets/mainwindow.h"
#include "widgets/schedulerpanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <qcustomplot.h>
#include <string>

using namespace ckpt;

namespace {
constexpr double kSliderTargetMs = 100; // issue 11: a slider move to redrawn charts, median
constexpr double kSliderMaxMs = 200;    // issue 35: and the slowest move
constexpr int kPositions = 20;

// The table goes to stdout, or to stderr with --json, which prints the figures as one JSON object on stdout
// (scripts/bench reads it).
FILE* g_out = stdout;
std::vector<std::pair<std::string, double>> g_figures;
void figure(const std::string& key, double value) {
    g_figures.emplace_back(key, value);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t h = v.size() / 2;
    return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

// CPU time of the whole process (every thread), in ms: on a busy machine it varies less than the wall clock.
double cpuMs() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Runs what a slider move queues: QCustomPlot's queued replots, then the window's paint that they request.
void drainEvents() {
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
}

int benchGantt() {
    std::fprintf(g_out, "Gantt replot after a zoom (1600x900, median of 10)\n");
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
        std::fprintf(g_out, "  %8d intervals: whole plan %7.2f ms, zoomed to 5%% %7.2f ms\n", view.intervalCount(),
                     median(full), median(zoomed));
        figure("gantt_" + std::to_string(n) + "_steps_whole_ms", median(full));
        figure("gantt_" + std::to_string(n) + "_steps_zoomed_ms", median(zoomed));
    }
    return 0;
}

void benchSlider(const std::vector<std::string>& only) {
    std::fprintf(g_out,
                 "Budget slider on the 1000-step LSTM example, A100 preset: solve + simulate + every view's redraw\n"
                 "(20 slider positions per scheduler, each a fresh solve; target: median < %.0f ms, max < %.0f ms)\n",
                 kSliderTargetMs, kSliderMaxMs);
    MainWindow w;
    w.setInteractive(false);
    w.resize(1600, 1000);
    w.show();
    w.openDefault();
    drainEvents();
    // Replots of every chart in the window, to show that each move redrew what the user sees.
    int replots = 0, timelineReplots = 0, moves = 0;
    for (QCustomPlot* plot : w.findChildren<QCustomPlot*>())
        QObject::connect(plot, &QCustomPlot::afterReplot, [&replots] { ++replots; });
    QObject::connect(w.timelineView()->plot(), &QCustomPlot::afterReplot, [&timelineReplots] { ++timelineReplots; });
    std::fprintf(g_out, "  %-22s %8s %8s %8s %8s %8s %8s %9s %7s %12s\n", "scheduler", "median", "max", "cpu", "solve",
                 "simulate", "redraw", "feasible", "target", "tables");
    bool allPass = true;
    for (const SchedulerInfo& info : schedulers()) {
        const std::string& name = info.name;
        if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
        if (!machineLacks(info, w.document()->hardware()).empty()) continue; // n/a on this machine: never solved
        // Blocked: the panel would queue a background solve of its own, which would run during the timings.
        w.schedulerPanel()->blockSignals(true);
        w.schedulerPanel()->setCurrentScheduler(name);
        w.schedulerPanel()->blockSignals(false);
        drainEvents();
        // What the window does half a second after a scheduler is chosen: its tables for the slider's positions built
        // in the background. Timed apart: the moves below start once it is done, as a user's drag a moment later.
        w.schedulerPanel()->budgetSlider()->blockSignals(true);
        w.schedulerPanel()->budgetSlider()->setValue(300);
        w.schedulerPanel()->budgetSlider()->blockSignals(false);
        w.prepareSlider();
        const PreparedTables prepared = w.runController()->waitForPrepared();
        std::vector<double> total, cpu, solve, simulate, redraw;
        int feasible = 0, undrawn = 0;
        for (int k = 0; k < kPositions; ++k) {
            w.schedulerPanel()->budgetSlider()->blockSignals(true);
            w.schedulerPanel()->budgetSlider()->setValue(300 + 30 * k);
            w.schedulerPanel()->budgetSlider()->blockSignals(false);
            const int before = timelineReplots;
            ++moves;
            QElapsedTimer t;
            const double cpu0 = cpuMs();
            t.start();
            auto run = w.runCurrentNow(); // the solve and the simulator's validation (runScheduler)
            const double ran = t.nsecsElapsed() / 1e6;
            drainEvents(); // the queued replots of every view, and the window's paint
            const double ms = t.nsecsElapsed() / 1e6;
            total.push_back(ms);
            cpu.push_back(cpuMs() - cpu0);
            solve.push_back(run->solve_ms);
            simulate.push_back(run->simulate_ms);
            redraw.push_back(ms - run->solve_ms - run->simulate_ms);
            feasible += run->feasible ? 1 : 0;
            if (run->feasible && timelineReplots == before) ++undrawn;
            if (std::getenv("CKPT_BENCH_VERBOSE"))
                std::fprintf(g_out, "    %s position %d: %.1f ms (solve %.1f, simulate %.1f, shown %.1f)\n",
                             name.c_str(), k, ms, run->solve_ms, run->simulate_ms, ran);
        }
        const double m = median(total);
        const bool runs = feasible > 0;
        const bool pass = m < kSliderTargetMs && *std::max_element(total.begin(), total.end()) < kSliderMaxMs;
        if (runs) allPass = allPass && pass;
        const char* verdict = !runs ? "n/a" : pass ? "PASS" : "FAIL";
        if (runs) {
            figure("slider_" + name + "_median_ms", m);
            figure("slider_" + name + "_max_ms", *std::max_element(total.begin(), total.end()));
            figure("slider_" + name + "_solve_median_ms", median(solve));
            if (prepared.tables > 0) figure("slider_" + name + "_prepare_ms", prepared.ms);
        }
        char ready[48] = "-";
        if (prepared.tables > 0)
            std::snprintf(ready, sizeof ready, "%.2f s/%d%s", prepared.ms / 1e3, prepared.tables,
                          prepared.complete ? "" : "!");
        std::fprintf(g_out, "  %-22s %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %6d/%-2d %7s %12s%s\n", name.c_str(), m,
                     *std::max_element(total.begin(), total.end()), median(cpu), median(solve), median(simulate),
                     median(redraw), feasible, kPositions, verdict, ready, undrawn ? "  (timeline not redrawn!)" : "");
    }
    std::fprintf(
        g_out,
        "  (ms of wall clock, median and max; cpu: median CPU time of the process; solve and simulate as the run "
        "records them, redraw = the rest; %.1f chart replots a move; tables: the time to build the slider's tables "
        "ahead when the scheduler is chosen, and how many, '!' when not all could be kept)\n",
        double(replots) / std::max(1, moves));
    std::fprintf(g_out,
                 "Slider target (median < %.0f ms and max < %.0f ms for every scheduler that finds a plan): %s\n",
                 kSliderTargetMs, kSliderMaxMs, allPass ? "PASS" : "FAIL");
}

} // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("DISPLAY")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::vector<std::string> args(argv + 1, argv + argc);
    if (auto j = std::find(args.begin(), args.end(), "--json"); j != args.end()) {
        g_out = stderr;
        args.erase(j);
    }
    const bool sliderOnly = !args.empty() && args[0] == "--slider";
    if (!sliderOnly)
        if (int rc = benchGantt()) return rc;
    std::vector<std::string> only; // `--slider name...`: those schedulers only (for a profiler)
    for (std::size_t i = 1; sliderOnly && i < args.size(); ++i)
        only.push_back(args[i]);
    benchSlider(only);
    if (g_out == stderr) {
        std::printf("{");
        for (std::size_t i = 0; i < g_figures.size(); ++i)
            std::printf("%s\"%s\": %.3f", i ? ", " : "", g_figures[i].first.c_str(), g_figures[i].second);
        std::printf("}\n");
    }
    return 0;
}
