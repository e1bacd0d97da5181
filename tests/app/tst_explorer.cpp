// The explorer window as a user drives it, offscreen: open, run, read the charts, break a file, export.
#include "io/json_io.h"
#include "models/chaintablemodel.h"
#include "models/comparisonmodel.h"
#include "models/document.h"
#include "models/runcontroller.h"
#include "plots/layoutview.h"
#include "plots/pipelineview.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "run/budget.h"
#include "run/runner.h"
#include "schedulers/registry.h"
#include "schedulers/revolve.h"
#include "schedulers/store_all.h"
#include "sim/pipeline.h"
#include "widgets/chartpage.h"
#include "widgets/heldnowpanel.h"
#include "widgets/mainwindow.h"
#include "widgets/schedulerpanel.h"
#include "widgets/trainerpanel.h"

#include <QComboBox>
#include <QFontMetricsF>
#include <QSpinBox>
#include <QStatusBar>
#include <QThreadPool>

#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <qcustomplot.h>

using namespace ckpt;

namespace {
const QString kLstm = QString(CKPT_SOURCE_DIR) + "/examples/lstm-h512-b32-fp32-1000.ckpt-chain.json";
const QString kSmall = QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json";
QByteArray readAll(const QString& p) {
    QFile f(p);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

class TestExplorer : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    void openLstmWithRevolve10(MainWindow& w) {
        w.setInteractive(false);
        QVERIFY2(w.openFile(kLstm), qPrintable(w.lastError()));
        w.document()->settings().params["revolve"]["slots"] = "10";
        w.schedulerPanel()->setCurrentScheduler("revolve");
        w.schedulerPanel()->setBudgetBytes(0);
    }

private slots:
    // Issue 10: the Steps box at 100 000 with revolve (on the A100, with no budget: the fit on the machine's
    // capacity) ran the plan builder out of stack and killed the explorer. Now the plan validates with n + t(n, s)
    // forward steps.
    void hundredThousandStepsWithRevolve() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY2(w.openFile(kLstm), qPrintable(w.lastError()));
        const QString a100 = QString(CKPT_SOURCE_DIR) + "/resources/hardware/gpu-a100.ckpt-hardware.json";
        QVERIFY2(w.openFile(a100), qPrintable(w.lastError()));
        QVERIFY(!w.document()->hardware().isUnbounded(0));
        w.schedulerPanel()->setCurrentScheduler("revolve");
        w.schedulerPanel()->setBudgetBytes(0);
        QSpinBox* length = nullptr;
        for (QSpinBox* box : w.findChildren<QSpinBox*>())
            if (box->toolTip().startsWith("Length of the chain")) length = box;
        QVERIFY(length);
        length->setValue(100000);
        emit length->editingFinished();
        QCOMPARE(w.document()->chain().length(), 100000);
        auto run = w.runCurrentNow();
        QVERIFY2(run && run->feasible, run ? run->message.c_str() : "no run");
        const int s = std::stoi(run->params.at("slots"));
        QVERIFY2(s > 1000, run->params.at("slots").c_str()); // the fit, not the default sqrt(n)
        QCOMPARE(run->timeline->totals.forward_steps, (long long)(100000 + revolveAdvances(100000, s)));
        QCOMPARE(w.timelineView()->intervalCount(), int(run->plan->actionCount()));
    }

    void revolveRunMatchesTheCommandLine() {
        MainWindow w;
        openLstmWithRevolve10(w);
        auto run = w.runCurrentNow();
        QVERIFY(run && run->feasible);
        // The same request through the engine, as `ckpt solve --json` makes it.
        Run cli =
            runScheduler("revolve", *loadChain(kLstm.toStdString()), w.document()->hardware(), {{{"slots", "10"}}, 0});
        nlohmann::json a = summaryJson(*run), b = summaryJson(cli);
        for (auto* j : {&a, &b})
            j->erase("solve_ms"), j->erase("simulate_ms");
        QCOMPARE(QString::fromStdString(a.dump()), QString::fromStdString(b.dump()));
        QCOMPARE(a["forward_steps"].get<long long>(), 4636LL); // n + t(1000, 10)
        // The comparison row shows that run.
        QCOMPARE(w.comparisonModel()->rowCount(), 1);
        QCOMPARE(w.comparisonModel()->index(0, ComparisonModel::ForwardSteps).data().toLongLong(), 4636LL);
        // The Gantt holds one interval per timed action, the memory curve peaks at the plan's peak.
        QCOMPARE(w.timelineView()->intervalCount(), int(run->timeline->intervals.size()));
        QCOMPARE(w.timelineView()->intervalCount(), int(run->plan->actionCount()));
        QCOMPARE(w.timelineView()->memoryMaximum(), double(run->timeline->totals.peak_bytes[0]));
    }

    void zoomBackRestoresTheRange() {
        MainWindow w;
        openLstmWithRevolve10(w);
        w.runCurrentNow();
        QCPRange full = w.timelineView()->timeRange();
        w.timelineView()->zoomTo(full.lower + full.size() * 0.25, full.lower + full.size() * 0.5);
        QVERIFY(w.timelineView()->timeRange().size() < full.size() * 0.3);
        w.timelineView()->zoomBack();
        QCOMPARE(w.timelineView()->timeRange().lower, full.lower);
        QCOMPARE(w.timelineView()->timeRange().upper, full.upper);
    }

    void malformedProjectLeavesTheWindowUsable() {
        MainWindow w;
        openLstmWithRevolve10(w);
        const QString bad = m_dir.filePath("broken.ckpt-project.json");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"ckpt-project\",\n \"version\": 1,\n \"chain\": {\"format\": \"ckpt-chain\" oops}\n}\n");
        f.close();
        const int steps = int(w.document()->steps().size());
        QVERIFY(!w.openFile(bad));
        QVERIFY2(w.lastError().contains("broken.ckpt-project.json:3:"), qPrintable(w.lastError()));
        QCOMPARE(int(w.document()->steps().size()), steps); // nothing the user had is lost
        const QString small = QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json";
        QVERIFY(w.openFile(small));
        QCOMPARE(int(w.document()->steps().size()), 12);
        QVERIFY(w.runCurrentNow()->feasible);
    }

    // A FIFO with no writer is refused at once (it used to freeze the window) and a format of the wrong type is a
    // message, not an abort.
    void hostileFilesAreRefused() {
        MainWindow w;
        openLstmWithRevolve10(w);
        const int steps = int(w.document()->steps().size());
        const QString fifo = m_dir.filePath("fifo.ckpt-project.json");
        QCOMPARE(QProcess::execute("mkfifo", {fifo}), 0);
        QVERIFY(!w.openFile(fifo));
        QVERIFY2(w.lastError().contains("not a regular file"), qPrintable(w.lastError()));
        const QString numeric = m_dir.filePath("numeric.json");
        QFile f(numeric);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": 1, \"version\": 1}");
        f.close();
        QVERIFY(!w.openFile(numeric));
        QVERIFY2(w.lastError().contains("numeric.json: expected a \"format\""), qPrintable(w.lastError()));
        QCOMPARE(int(w.document()->steps().size()), steps);
    }

    void projectsRoundTrip() {
        MainWindow w;
        openLstmWithRevolve10(w);
        const QString p = m_dir.filePath("saved.ckpt-project.json");
        QVERIFY(w.saveProjectTo(p));
        MainWindow v;
        v.setInteractive(false);
        QVERIFY2(v.openFile(p), qPrintable(v.lastError()));
        QVERIFY(v.document()->steps() == w.document()->steps());
        QVERIFY(v.document()->levels() == w.document()->levels());
        QCOMPARE(v.document()->settings().params["revolve"]["slots"], std::string("10"));
    }

    // The chain tab's memory-model box: choosing the rotor paper's model changes the chain every view uses, a
    // project saves it, and opening that project shows it chosen.
    void memoryModelBoxSwitchesTheChain() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY2(w.openFile(kSmall), qPrintable(w.lastError()));
        QComboBox* box = nullptr;
        for (QComboBox* b : w.findChildren<QComboBox*>())
            if (b->count() == 2 && b->itemText(1).contains("rotor paper")) box = b;
        QVERIFY(box);
        QCOMPARE(box->currentIndex(), 0);
        QCOMPARE(w.document()->chain().memoryModel(), MemoryModel::Standard);
        const auto steps = w.document()->steps();
        box->setCurrentIndex(1);
        emit box->activated(1);
        QCOMPARE(w.document()->chain().memoryModel(), MemoryModel::RotorPaper);
        QVERIFY(w.document()->steps() == steps); // nothing the user made is lost
        const QString p = m_dir.filePath("paper.ckpt-project.json");
        QVERIFY(w.saveProjectTo(p));
        MainWindow v;
        v.setInteractive(false);
        QVERIFY2(v.openFile(p), qPrintable(v.lastError()));
        QCOMPARE(v.document()->chain().memoryModel(), MemoryModel::RotorPaper);
        QComboBox* shown = nullptr;
        for (QComboBox* b : v.findChildren<QComboBox*>())
            if (b->count() == 2 && b->itemText(1).contains("rotor paper")) shown = b;
        QVERIFY(shown);
        QCOMPARE(shown->currentIndex(), 1);
    }

    // Every chart tab is a page (widgets/chartpage.h), in chartTabNames' order: the window finds, shows, disables and
    // exports each through that one interface. A chain disables the Graph tab, a graph the Sweep and the Trainer.
    void everyTabIsAPage() {
        MainWindow w;
        w.setInteractive(false);
        w.openDefault();
        const QStringList names = MainWindow::chartTabNames();
        QCOMPARE(w.chartTabs()->count(), names.size());
        for (int i = 0; i < names.size(); ++i) {
            auto* page = qobject_cast<ChartPage*>(w.chartTabs()->widget(i));
            QVERIFY2(page, qPrintable(names[i]));
            QCOMPARE(page->name(), names[i]);
            QCOMPARE(w.chartTabs()->isTabEnabled(i), names[i] != "graph");
            if (names[i] == "graph") continue;
            QVERIFY(w.showChartTab(names[i]));
            QCOMPARE(w.currentChartTab(), names[i]);
            QCOMPARE(w.chartTabs()->tabToolTip(i), page->description());
        }
        QVERIFY(w.openFile(QString(CKPT_SOURCE_DIR) + "/examples/unet-small-b8-128.ckpt-graph.json"));
        for (int i = 0; i < names.size(); ++i)
            QCOMPARE(w.chartTabs()->isTabEnabled(i), names[i] != "sweep" && names[i] != "trainer");
        QCOMPARE(w.currentChartTab(), QString("graph")); // the Trainer was current: the graph takes its place
    }

    // The Layout tab: the shown plan's tensors at addresses, the ideal peak the run's own, the packed one at least
    // that; it exports like the other charts, and a graph plan says why it has no layout.
    void layoutTabPlacesTheShownPlan() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY2(w.openFile(kSmall), qPrintable(w.lastError()));
        w.schedulerPanel()->setCurrentScheduler("rotor");
        w.schedulerPanel()->setBudgetBytes(50 << 20);
        auto run = w.runCurrentNow();
        QVERIFY(run && run->feasible);
        QVERIFY(w.showChartTab("layout"));
        QCOMPARE(w.currentChartTab(), QString("layout"));
        LayoutView* view = w.findChild<LayoutView*>();
        QVERIFY(view);
        QVERIFY(view->layout());
        QCOMPARE(view->layout()->ideal_peak, run->timeline->totals.peak_bytes[0]);
        QVERIFY(view->layout()->packed_peak >= view->layout()->ideal_peak);
        QVERIFY2(view->summary().contains("fragmentation"), qPrintable(view->summary()));
        const QString png = m_dir.filePath("layout.png");
        QCOMPARE(w.exportCurrentTab(png, 800, 500), QString());
        QVERIFY(!QImage(png).isNull());
        // A hidden page does no work (widgets/chartpage.h): another plan shown while the Timeline is current leaves the
        // layout as it was until the Layout tab is chosen again.
        QVERIFY(w.showChartTab("timeline"));
        w.schedulerPanel()->setBudgetBytes(40 << 20);
        auto tighter = w.runCurrentNow();
        QVERIFY(tighter && tighter->feasible);
        QVERIFY(tighter->timeline->totals.peak_bytes[0] != run->timeline->totals.peak_bytes[0]);
        QCOMPARE(view->layout()->ideal_peak, run->timeline->totals.peak_bytes[0]);
        QVERIFY(w.showChartTab("layout"));
        QCOMPARE(view->layout()->ideal_peak, tighter->timeline->totals.peak_bytes[0]);
        QVERIFY2(w.openFile(QString(CKPT_SOURCE_DIR) + "/examples/unet-small-b8-128.ckpt-graph.json"),
                 qPrintable(w.lastError()));
        w.schedulerPanel()->setCurrentScheduler("dtr");
        auto graphRun = w.runCurrentNow();
        QVERIFY(graphRun && graphRun->feasible);
        QVERIFY(w.showChartTab("layout"));
        // A graph plan is laid out too: its outputs, gradients and workspaces.
        QVERIFY(view->layout());
        QCOMPARE(view->layout()->ideal_peak, graphRun->timeline->totals.peak_bytes[0]);
        QCOMPARE(w.exportCurrentTab(m_dir.filePath("graph-layout.png"), 800, 500), QString());
        // Nothing to lay out: an infeasible run says why, and there is nothing to export.
        w.schedulerPanel()->setCurrentScheduler("store-all");
        w.schedulerPanel()->setBudgetBytes(1 << 20);
        auto none = w.runCurrentNow();
        QVERIFY(none && !none->feasible);
        QVERIFY(!view->layout());
        QVERIFY(!w.exportCurrentTab(m_dir.filePath("none.png"), 800, 500).isEmpty());
    }

    // Twelve stages make 23 lanes (devices and the links between them), closer than a line of text in the window:
    // the names go on every few lanes, each named lane at least a line from the next, instead of over each other.
    // Four stages (7 lanes) name every lane.
    void thinLanesShareTheirNames() {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 800);
        QVERIFY(w.openFile(QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json"));
        QVERIFY(w.showChartTab("pipeline"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        PipelineView* view = w.pipelineView();
        TimelineView* t = view->timeline();
        PipelineSetup s;
        s.stages = 12, s.micro_batches = 8;
        view->setSetup(s);
        QCOMPARE(int(view->run()->timeline.lanes.size()), 23);
        t->plot()->replot();
        QTRY_VERIFY(t->laneNameStep() > 1);
        QCPAxis* lanes = t->plot()->axisRect(0)->axis(QCPAxis::atLeft);
        auto names = lanes->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(names);
        const double line = QFontMetricsF(lanes->tickLabelFont()).height();
        double last = -1;
        int named = 0;
        for (auto it = names->ticks().cbegin(); it != names->ticks().cend(); ++it) {
            if (it.value().isEmpty()) continue;
            const double at = lanes->coordToPixel(it.key());
            if (last >= 0) QVERIFY2(std::abs(at - last) >= line, qPrintable(QString("%1 px apart").arg(at - last)));
            last = at, ++named;
        }
        QVERIFY(named >= 4);
        QCOMPARE(names->ticks().first(), QString("device 0"));
        s.stages = 4;
        view->setSetup(s);
        t->plot()->replot();
        QTRY_COMPARE(t->laneNameStep(), 1);
    }

    void pipelineTabCutsTheChain() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY2(w.openFile(QString(CKPT_SOURCE_DIR) + "/examples/vgg16-b32-224.ckpt-chain.json"),
                 qPrintable(w.lastError()));
        QVERIFY(w.showChartTab("pipeline"));
        QCOMPARE(w.currentChartTab(), QString("pipeline"));
        PipelineView* view = w.pipelineView();
        QVERIFY(view->run());
        // The default: 4 stages, 8 micro-batches; a lane per device and per link, every micro-batch on each device.
        QCOMPARE(int(view->run()->stages.size()), 4);
        QCOMPARE(int(view->run()->timeline.lanes.size()), 7);
        QCOMPARE(view->timeline()->intervalCount(), int(view->run()->timeline.intervals.size()));
        QVERIFY2(view->summary().contains("bubble") && view->summary().contains("27.3 %"), qPrintable(view->summary()));
        // The same numbers as ckpt pipeline would give.
        PipelineSetup s;
        s.stages = 4, s.micro_batches = 8;
        auto direct = runPipeline(w.document()->chain(), s);
        QVERIFY(direct.ok());
        QCOMPARE(view->run()->timeline.totals.makespan_s, direct->timeline.totals.makespan_s);
        QVERIFY2(view->summary().contains("faster than one device"), qPrintable(view->summary()));
        // One stage re-runs each micro-batch's forward: slower than one device, and said so (not "0.75× faster").
        s.stages = 1;
        view->setSetup(s);
        const double single = w.document()->chain().totalForward() + w.document()->chain().totalBackward();
        QVERIFY(view->run()->timeline.totals.makespan_s > single);
        QVERIFY2(
            view->summary().contains(
                QString("%1× slower than one device").arg(view->run()->timeline.totals.makespan_s / single, 0, 'f', 2)),
            qPrintable(view->summary()));
        // Fewer stages, through the controls: the run follows.
        s.stages = 2;
        view->setSetup(s);
        QCOMPARE(int(view->run()->timeline.lanes.size()), 3);
        const QString png = m_dir.filePath("pipeline.png");
        QCOMPARE(w.exportCurrentTab(png, 900, 500), QString());
        QVERIFY(!QImage(png).isNull());
        // A device too small: the reason, in place of the charts, and nothing to export.
        s.device_bytes = {64 << 20};
        view->setSetup(s);
        QVERIFY(!view->run());
        QVERIFY2(view->summary().contains("leanest cut needs"), qPrintable(view->summary()));
        QVERIFY2(view->timeline()->emptyHint().contains("No pipeline"), qPrintable(view->timeline()->emptyHint()));
        QVERIFY(!w.exportCurrentTab(m_dir.filePath("none.png"), 800, 500).isEmpty());
        // An edit of the chain runs it again.
        s.device_bytes.clear();
        view->setSetup(s);
        const double before = view->run()->timeline.totals.makespan_s;
        QVERIFY(w.chainModel()->setData(w.chainModel()->index(0, ChainTableModel::Forward), "1s"));
        QVERIFY(view->run() && view->run()->timeline.totals.makespan_s > before + 0.4);
        QCOMPARE(view->timeline()->levelNames(), QStringList({"L0 device 0", "L1 device 1"}));
        // A graph that is not a chain has no pipeline, and says so; its level picker offers nothing (the chain's
        // devices were left in it).
        QVERIFY(w.openFile(QString(CKPT_SOURCE_DIR) + "/examples/unet-small-b8-128.ckpt-graph.json"));
        QVERIFY(w.showChartTab("pipeline"));
        QVERIFY(!view->run());
        QVERIFY2(view->summary().contains("cuts a chain"), qPrintable(view->summary()));
        QCOMPARE(view->timeline()->levelNames(), QStringList());
    }

    void exportsParse() {
        MainWindow w;
        openLstmWithRevolve10(w);
        w.runCurrentNow();
        const QString pdf = m_dir.filePath("t.pdf"), svg = m_dir.filePath("t.svg"), png = m_dir.filePath("t.png");
        QCOMPARE(w.exportChart("timeline", pdf, 1200, 700), QString());
        QVERIFY(readAll(pdf).startsWith("%PDF"));
        QCOMPARE(w.exportChart("sweep", svg, 1000, 600), QString());
        QXmlStreamReader xml(readAll(svg));
        while (!xml.atEnd() && !xml.isStartElement())
            xml.readNext();
        QCOMPARE(xml.name().toString(), QString("svg"));
        QCOMPARE(w.exportChart("timeline", png, 1234, 567), QString());
        QCOMPARE(QImage(png).size(), QSize(1234, 567));
        QVERIFY(!w.exportChart("timeline", m_dir.filePath("t.bmp"), 100, 100).isEmpty());
        const QString plan = m_dir.filePath("p.ckpt-plan.json"), csv = m_dir.filePath("p.csv"),
                      trace = m_dir.filePath("p.trace.json");
        QCOMPARE(w.exportPlan(plan, "json"), QString());
        auto loaded = loadPlan(plan.toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().c_str());
        QCOMPARE(loaded->actions.size(), w.shownRun()->plan->actionCount());
        QCOMPARE(w.exportPlan(csv, "csv"), QString());
        QCOMPARE(readAll(csv).count('\n'), qsizetype(w.shownRun()->timeline->intervals.size() + 1));
        QCOMPARE(w.exportPlan(trace, "trace"), QString());
        QVERIFY(QJsonDocument::fromJson(readAll(trace)).object().contains("traceEvents"));
    }

    void comparisonFeedsTheTradeoff() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json"));
        w.document()->settings().schedulers = {"store-all", "periodic", "revolve"};
        w.document()->settings().budgets = "none,60%";
        w.runAllNow();
        QCOMPARE(w.comparisonModel()->rowCount(), 6);
        QCOMPARE(w.tradeoffView()->seriesCount(), 3); // store-all is infeasible at 60 % but feasible without a budget
    }
    void sideBySideSharesTheAxisAndSaysTheDifference() {
        MainWindow w;
        openLstmWithRevolve10(w);
        auto a = w.runCurrentNow();
        QVERIFY2(w.pinnedView()->emptyHint().startsWith("Nothing pinned"), qPrintable(w.pinnedView()->emptyHint()));
        w.pinShownRun();
        QCOMPARE(w.pinnedView()->emptyHint(), QString());
        w.schedulerPanel()->setCurrentScheduler("store-all");
        auto b = w.runCurrentNow();
        QVERIFY(a->feasible && b->feasible);
        QCOMPARE(w.pinnedView()->intervalCount(), int(a->timeline->intervals.size()));
        QCOMPARE(w.sideView()->intervalCount(), int(b->timeline->intervals.size()));
        QCOMPARE(w.sideView()->timeRange().upper, w.pinnedView()->timeRange().upper);
        w.sideView()->zoomTo(0.001, 0.002);
        QCOMPARE(w.pinnedView()->timeRange().lower, 0.001);
        QCOMPARE(w.pinnedView()->timeRange().upper, 0.002);
        // store-all does 1000 forward steps, revolve with 10 slots 4636.
        QVERIFY2(w.sideBySideSummary().contains("forward steps 1000 vs 4636 (Δ -3636)"),
                 qPrintable(w.sideBySideSummary()));
        // One legend for both (the pinned revolve names all that store-all draws): two left each chart too short
        // for its own in a 1024 x 700 window.
        for (const QString& entry : w.sideView()->legendEntries())
            QVERIFY2(w.pinnedView()->legendEntries().contains(entry), qPrintable(entry));
        QCOMPARE(w.sideView()->plot()->plotLayout()->rowCount(), 2);
        QCOMPARE(w.pinnedView()->plot()->plotLayout()->rowCount(), 3);
        // Where the shown plan draws what the pinned one does not (offload-all's copies beside store-all), each keeps
        // its own.
        QVERIFY2(w.openFile(QString(CKPT_SOURCE_DIR) + "/resources/hardware/gpu-a100.ckpt-hardware.json"),
                 qPrintable(w.lastError()));
        w.schedulerPanel()->setCurrentScheduler("store-all");
        QVERIFY(w.runCurrentNow()->feasible);
        w.pinShownRun();
        w.schedulerPanel()->setCurrentScheduler("offload-all");
        const auto offloaded = w.runCurrentNow();
        QVERIFY2(offloaded->feasible, offloaded->message.c_str());
        QVERIFY(w.sideView()->legendEntries().size() > w.pinnedView()->legendEntries().size());
        QCOMPARE(w.sideView()->plot()->plotLayout()->rowCount(), 3);
        QCOMPARE(w.pinnedView()->plot()->plotLayout()->rowCount(), 3);
    }

    // Issue 35: a slider move redrew every chart of the window, the hidden tabs' too (75-260 ms of a move). Now each
    // chart the user sees is replotted once per move and the hidden ones not at all; a hidden tab's chart is drawn
    // for the last plan when its tab is chosen.
    void aSliderMoveRedrawsOnlyWhatIsShown() {
        MainWindow w;
        openLstmWithRevolve10(w);
        w.resize(1400, 900);
        w.show();
        auto drain = [] {
            for (int i = 0; i < 3; ++i) {
                QCoreApplication::sendPostedEvents();
                QCoreApplication::processEvents();
            }
        };
        QVERIFY(w.showChartTab("timeline"));
        w.runCurrentNow();
        drain();
        QMap<QCustomPlot*, int> replots;
        const QList<QCustomPlot*> plots = w.findChildren<QCustomPlot*>();
        for (QCustomPlot* p : plots)
            connect(p, &QCustomPlot::afterReplot, this, [&replots, p] { ++replots[p]; });
        auto name = [&w](QCustomPlot* p) {
            for (QWidget* v = p; v; v = v->parentWidget())
                if (int i = w.chartTabs()->indexOf(v); i >= 0) return w.chartTabs()->tabText(i).remove('&');
            return p->parentWidget() ? QString(p->parentWidget()->metaObject()->className()) : QString("?");
        };
        int visible = 0, hidden = 0;
        const std::int64_t peak = storeAllPeakBytes(w.document()->chain());
        std::shared_ptr<const Run> last;
        // The first move also lays the window out again (the status bar's message): counted from the second.
        for (double share : {0.25, 0.3, 0.45, 0.6}) {
            replots.clear();
            w.schedulerPanel()->setBudgetBytes(std::int64_t(share * double(peak)));
            last = w.runCurrentNow();
            QVERIFY2(last && last->feasible, last ? last->message.c_str() : "no run");
            drain();
            if (share == 0.25) continue;
            for (QCustomPlot* p : plots) {
                const int n = replots.value(p);
                if (p->isVisible())
                    QVERIFY2(n == 1, qPrintable(QString("%1: %2 replots of a shown chart").arg(name(p)).arg(n)));
                else
                    QVERIFY2(n == 0, qPrintable(QString("%1: %2 replots of a hidden chart").arg(name(p)).arg(n)));
                (p->isVisible() ? visible : hidden) += 1;
            }
        }
        QVERIFY2(visible >= 3 && hidden >= 3 * 3, "the Timeline's charts shown, the Sweep's and Side by side's hidden");
        // The Sweep tab, chosen, draws the last plan at once (its lifetimes up to the end of the plan).
        replots.clear();
        QVERIFY(w.showChartTab("sweep"));
        QVERIFY(w.sweepView()->isVisible());
        QCOMPARE(replots.value(w.sweepView()->plot()), 1);
        QCOMPARE(w.sweepView()->actionCount(), int(last->chainPlan()->actions.size()));
        QVERIFY(w.sweepView()->lifetimeCount() > 0);
        QVERIFY2(w.heldNowPanel()->sentence().contains(QString::number(last->chainPlan()->actions.size())),
                 qPrintable(w.heldNowPanel()->sentence()));
    }

    // Issue 35: moving from a budget with no plan back to one with a plan took 250 ms where 130 would do: the line
    // above the charts went from one line (the refusal) to two (the plan's summary), which resized every chart. The
    // charts keep their size across a refusal.
    void aRefusalDoesNotResizeTheCharts() {
        MainWindow w;
        openLstmWithRevolve10(w);
        // The A100's three levels make the plan's summary two lines at this width.
        auto a100 = loadHardware(CKPT_SOURCE_DIR "/resources/hardware/gpu-a100.ckpt-hardware.json");
        QVERIFY(a100);
        w.document()->setHardware(*a100);
        w.resize(1600, 1000);
        w.show();
        auto drain = [] {
            for (int i = 0; i < 3; ++i) {
                QCoreApplication::sendPostedEvents();
                QCoreApplication::processEvents();
            }
        };
        const std::int64_t peak = storeAllPeakBytes(w.document()->chain());
        w.schedulerPanel()->setBudgetBytes(peak / 4);
        QVERIFY(w.runCurrentNow()->feasible);
        drain();
        const QSize before = w.timelineView()->plot()->size();
        w.schedulerPanel()->setBudgetBytes(1); // the slider's floor: revolve's 10 slots need more
        auto refused = w.runCurrentNow();
        QVERIFY(refused && !refused->feasible && !refused->message.empty());
        drain();
        QCOMPARE(w.timelineView()->plot()->size(), before);
        w.schedulerPanel()->setBudgetBytes(peak / 3);
        QVERIFY(w.runCurrentNow()->feasible);
        drain();
        QCOMPARE(w.timelineView()->plot()->size(), before);
    }

    // Issue 35: a slider move that had to build a table took up to 2.3 s (offload-dp) or 0.4 s (rotor, bptt-dp) on
    // the 1000-step LSTM. Choosing a scheduler now builds its tables for every position of the slider ahead, in the
    // background: afterwards a solve at any position reads a kept table. With 10 slots, the 12-step example's budgets
    // past 40 slots of its common unit each round to a unit of their own: rotor and offload-dp keep several tables.
    void theSlidersTablesAreBuiltAhead() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        auto a100 = loadHardware(CKPT_SOURCE_DIR "/resources/hardware/gpu-a100.ckpt-hardware.json");
        QVERIFY(a100 && a100->levelCount() >= 2); // offload-dp runs
        w.document()->setHardware(*a100);
        for (const std::string name : {"rotor", "offload-dp", "bptt-dp", "multistage"}) {
            if (name == "rotor" || name == "offload-dp") w.document()->settings().params[name]["slots"] = "10";
            w.schedulerPanel()->setCurrentScheduler(name);
            w.prepareSlider();
            const PreparedTables prepared = w.runController()->waitForPrepared();
            QVERIFY2(prepared.complete && prepared.solved == prepared.tables, name.c_str());
            QVERIFY2(prepared.tables >= (name == "rotor" || name == "offload-dp" ? 3 : 1),
                     qPrintable(QString("%1: %2 tables").arg(name.c_str()).arg(prepared.tables)));
            const SchedulerInfo* info = findScheduler(name);
            // Where no plan fits, offload-dp searches for its least feasible budget (at other units): not counted.
            int feasible = 0, built = 0;
            const long long hits = info->table_stats().hits;
            for (std::int64_t b : w.schedulerPanel()->sliderBudgets()) {
                SolveRequest req;
                req.params = w.schedulerPanel()->currentParams();
                req.budget_bytes = b;
                const long long misses = info->table_stats().misses;
                if (!solve(name, w.document()->chain(), w.document()->hardware(), req)) continue;
                ++feasible;
                built += int(info->table_stats().misses - misses);
            }
            QVERIFY2(feasible > 500, name.c_str());
            QVERIFY2(built == 0,
                     qPrintable(QString("%1: %2 tables built at slider positions").arg(name.c_str()).arg(built)));
            QVERIFY(info->table_stats().hits > hits);
        }
    }

    // Issue 11: "Run all" replaced the shown plan by the compared run nearest the slider (65 % on the slider, a plan
    // against 75 % shown). The shown plan stays the solve for the slider's budget.
    // Opening a chain kept the window's budget in bytes: the LSTM example's 5 % (12.5 MiB) is under any plan of the
    // 12-step example, so a teacher opening it saw "revolve needs at least 40 MiB" before anything else. The budget is
    // now the tightest of 5, 10, 20, 35 and 50 % of this chain's store-all peak that revolve meets: 50 % (35 % is
    // 35 MiB, under revolve's 40 MiB with one slot).
    void openingAChainGivesABudgetItsSchedulerMeets() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kLstm));
        w.schedulerPanel()->setCurrentScheduler("revolve");
        const std::int64_t before = w.document()->settings().budget_bytes;
        QVERIFY(w.openFile(kSmall));
        const Problem small(w.document()->chain());
        SolveRequest old;
        old.budget_bytes = before;
        QVERIFY(before > 0 && !runScheduler("revolve", small, w.document()->hardware(), old).feasible);
        const std::int64_t peak = storeAllPeak(w.document()->chain(), w.document()->hardware());
        QCOMPARE(w.document()->settings().scheduler, std::string("revolve"));
        QCOMPARE(w.document()->settings().budget_bytes, std::int64_t(double(peak) * 0.5));
        auto shown = w.runCurrentNow();
        QVERIFY(shown && shown->feasible);
        QVERIFY(summaryJson(*shown)["recomputed_steps"].get<int>() > 0);
    }

    void runAllKeepsTheSlidersPlan() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        w.document()->settings().schedulers = {"store-all", "rotor"};
        w.document()->settings().budgets = "none,75%";
        w.schedulerPanel()->setCurrentScheduler("rotor");
        const std::int64_t peak = storeAllPeak(w.document()->chain(), w.document()->hardware());
        w.schedulerPanel()->setBudgetBytes(peak * 65 / 100);
        auto shown = w.runCurrentNow();
        QVERIFY(shown && shown->feasible);
        QCOMPARE(shown->budget_bytes, w.schedulerPanel()->budgetBytes());
        w.runAllNow();
        QCOMPARE(w.comparisonModel()->rowCount(), 4);
        QVERIFY(w.shownRun() == shown);
        QCOMPARE(w.shownRun()->budget_bytes, w.schedulerPanel()->budgetBytes());
    }

    // Issue 11: after an edit the comparison kept its numbers as if current (store-all still read 55.70 ms after
    // step 1 took a second). Its rows are greyed and say they are out of date.
    void anEditMarksTheComparisonOutOfDate() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        w.document()->settings().schedulers = {"store-all"};
        w.document()->settings().budgets = "none";
        w.runAllNow();
        QCOMPARE(w.comparisonModel()->rowCount(), 1);
        const QModelIndex makespan = w.comparisonModel()->index(0, ComparisonModel::Makespan);
        QCOMPARE(makespan.data().toString(), QString("55.7 ms"));
        QVERIFY(!makespan.data(Qt::ToolTipRole).toString().contains("Out of date"));
        auto steps = w.document()->steps();
        steps[0].forward = 1.0;
        QCOMPARE(w.document()->editSteps(steps, "slow step 1"), QString());
        QVERIFY2(makespan.data(Qt::ToolTipRole).toString().contains("Out of date"),
                 qPrintable(makespan.data(Qt::ToolTipRole).toString()));
        QVERIFY(makespan.data(Qt::ForegroundRole).isValid()); // greyed
        // Undone or not, a new Run all is current again.
        w.runAllNow();
        QVERIFY(!w.comparisonModel()->index(0, ComparisonModel::Makespan).data(Qt::ToolTipRole).isValid());
        QVERIFY(w.comparisonModel()->index(0, ComparisonModel::Makespan).data().toString() != "55.70 ms");
    }

    // Issue 11: a result that arrives after its inputs changed is not shown (it used to be when it was delivered
    // before the re-solve the edit started).
    void aSolveOfTheOldChainIsNotShown() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        w.schedulerPanel()->setCurrentScheduler("store-all");
        w.schedulerPanel()->setBudgetBytes(0);
        w.runCurrent();
        QThreadPool::globalInstance()->waitForDone(); // solved on the old chain, not yet delivered
        auto steps = w.document()->steps();
        steps[0].forward = 1.0;
        QCOMPARE(w.document()->editSteps(steps, "slow step 1"), QString());
        QCoreApplication::processEvents();
        auto isNew = [&w] { return w.shownRun() && w.shownRun()->timeline->totals.makespan_s > 1.0; };
        QVERIFY(!w.shownRun() || isNew());
        QTRY_VERIFY_WITH_TIMEOUT(isNew(), 20000); // the solve the edit started
    }

    // Issue 11: a pinned plan survived opening another problem (ResNet-18 compared with an LSTM plan).
    void openingAnotherProblemUnpins() {
        MainWindow w;
        openLstmWithRevolve10(w);
        QVERIFY(w.runCurrentNow()->feasible);
        w.pinShownRun();
        QVERIFY(w.pinnedView()->intervalCount() > 0);
        QVERIFY(w.openFile(kSmall));
        QVERIFY2(w.statusBar()->currentMessage().contains("Unpinned revolve"),
                 qPrintable(w.statusBar()->currentMessage()));
        QCOMPARE(w.pinnedView()->intervalCount(), 0);
        QVERIFY(w.runCurrentNow()->feasible);
        QVERIFY2(!w.sideBySideSummary().contains("(pinned)"), qPrintable(w.sideBySideSummary()));
    }

    // The trainer tab trains for real: the measured Gantt has the plan's actions and the counted store peaks where
    // the simulator said it would.
    void trainerPanelTrainsAndMeasures() {
        MainWindow w;
        w.setInteractive(false);
        TrainerPanel* t = w.trainerPanel();
        t->hiddenBox()->setValue(8);
        t->lengthBox()->setValue(20);
        t->iterationsBox()->setValue(3);
        t->schedulerBox()->setCurrentText("revolve");
        QSignalSpy done(t, &TrainerPanel::finished);
        t->start();
        QVERIFY(done.wait(120000));
        QCOMPARE(t->iterationsDone(), 3);
        QVERIFY2(t->status().contains("iteration 3"), qPrintable(t->status()));
        QVERIFY(t->predictedView()->intervalCount() > 0);
        QCOMPARE(t->measuredView()->intervalCount(), t->predictedView()->intervalCount());
        QCOMPARE(t->measuredView()->memoryMaximum(), t->predictedView()->memoryMaximum());
    }
};

QTEST_MAIN(TestExplorer)
#include "tst_explorer.moc"
