// What the user sees in the chart views and the window around them: charts in the window's (dark) style and exports
// on white, a hint instead of empty axes, no room for transfer lanes a plan never uses, no moiré in dense memory
// areas, tables as wide as their values, and a window that long parameter text does not widen.
#include "io/json_io.h"
#include "io/lesson_io.h"
#include "models/chaintablemodel.h"
#include "models/document.h"
#include "models/runcontroller.h"
#include "plots/chartexport.h"
#include "plots/ganttplottable.h"
#include "plots/printlayout.h"
#include "plots/schedulerstyle.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "run/budget.h"
#include "run/narrate.h"
#include "util/units.h"
#include "widgets/graphview.h"
#include "widgets/heldnowpanel.h"
#include "widgets/mainwindow.h"
#include "widgets/schedulerpanel.h"

#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QScreen>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <optional>
#include <qcustomplot.h>
#include <set>

using namespace ckpt;

namespace {

QString source(const QString& relative) {
    return QString(CKPT_SOURCE_DIR) + "/" + relative;
}

QPalette darkPalette() {
    QPalette p;
    for (auto role : {QPalette::Window, QPalette::Base, QPalette::Button, QPalette::AlternateBase})
        p.setColor(role, QColor(32, 33, 36));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(role, QColor(225, 225, 225));
    return p;
}

double luminance(const QColor& c) {
    auto lin = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}
double contrast(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// Every axis of every rect, the legends and the background in the palette's colours.
void checkChartColours(QCustomPlot* plot, const QPalette& palette) {
    const QColor bg = palette.color(QPalette::Base), fg = palette.color(QPalette::Text);
    QCOMPARE(plot->toPixmap(200, 150).toImage().pixelColor(1, 1), bg); // what is drawn behind everything
    for (QCPAxisRect* r : plot->axisRects())
        for (QCPAxis* a : r->axes()) {
            QCOMPARE(a->basePen().color(), fg);
            QCOMPARE(a->tickLabelColor(), fg);
            QCOMPARE(a->labelColor(), fg);
            QVERIFY(contrast(a->grid()->pen().color(), bg) > 1.2); // visible, but fainter than the axes
            QVERIFY(contrast(a->grid()->pen().color(), bg) < contrast(fg, bg));
        }
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true))
        if (auto* legend = qobject_cast<QCPLegend*>(e)) {
            QCOMPARE(legend->textColor(), fg);
            for (int i = 0; i < legend->itemCount(); ++i)
                if (legend->item(i)) QCOMPARE(legend->item(i)->textColor(), fg);
        }
}

// The visible text items of a chart (hints, labels).
QStringList visibleTexts(QCustomPlot* plot) {
    QStringList out;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->visible()) out << t->text();
    return out;
}

// Pixels of another colour than the background's in the middle band of the drawn chart (where a hint is).
int inkInTheMiddle(QCustomPlot* plot) {
    const QImage image = plot->toPixmap(600, 400).toImage();
    const QColor bg = image.pixelColor(1, 1);
    int ink = 0;
    for (int y = 140; y < 220; ++y)
        for (int x = 100; x < 500; ++x)
            ink += image.pixelColor(x, y) != bg;
    return ink;
}

bool anyAxisShown(QCustomPlot* plot) {
    for (QCPAxisRect* r : plot->axisRects())
        if (r->realVisibility())
            for (QCPAxis* a : r->axes())
                if (a->visible()) return true;
    return false;
}

std::vector<std::shared_ptr<const Run>> tradeoffRuns(const Chain& chain, const Hardware& hw) {
    CompareRequest req;
    req.schedulers = {"store-all", "periodic", "revolve", "rotor", "bptt-dp"};
    const std::int64_t full = storeAllPeak(chain, hw);
    req.budgets = {0, full / 2, full / 4};
    std::vector<std::shared_ptr<const Run>> out;
    for (Run& r : compare(Problem(chain), hw, req))
        out.push_back(std::make_shared<const Run>(std::move(r)));
    return out;
}

QTabWidget* problemTabs(MainWindow& w) {
    for (QDockWidget* d : w.findChildren<QDockWidget*>())
        if (auto* t = qobject_cast<QTabWidget*>(d->widget())) return t;
    return nullptr;
}

} // namespace

class TestViews : public QObject {
    Q_OBJECT
    std::optional<Chain> m_chainHolder;
    std::optional<Hardware> m_hwHolder;
    const Chain& chain() const { return *m_chainHolder; }
    const Hardware& hw() const { return *m_hwHolder; }

    // The 12-step example under revolve with 3 slots and no budget, solved and shown: the plan ckpt explain narrates
    // in docs/cli.md.
    static std::shared_ptr<const Run> showRevolve3(MainWindow& w) {
        w.setInteractive(false);
        if (!w.openFile(source("examples/small-hetero-12.ckpt-chain.json"))) return nullptr;
        w.document()->settings().params["revolve"] = {{"slots", "3"}};
        w.schedulerPanel()->setCurrentScheduler("revolve");
        w.schedulerPanel()->setBudgetBytes(0);
        auto run = w.runCurrentNow();
        QApplication::processEvents();
        return run && run->feasible ? run : nullptr;
    }

private slots:
    void initTestCase() {
        auto c = loadChain(source("examples/small-hetero-12.ckpt-chain.json").toStdString());
        auto h = loadHardware(source("resources/hardware/gpu-a100.ckpt-hardware.json").toStdString());
        QVERIFY(c && h);
        m_chainHolder = *c, m_hwHolder = *h;
    }

    // Under a dark palette every chart takes the palette's Base and Text; scheduler colours stay readable (3:1) and
    // distinct; back in a light palette they are exactly the scheduler styles again.
    void chartsFollowADarkPalette() {
        const QPalette dark = darkPalette(), light = QApplication::palette();
        TradeoffView t;
        t.setRuns(tradeoffRuns(chain(), hw()));
        t.setPalette(dark);
        checkChartColours(t.plot(), dark);
        std::set<QRgb> seen;
        for (int g = 0; g < t.plot()->graphCount(); ++g) {
            QCPGraph* graph = t.plot()->graph(g);
            const QColor c = graph->pen().color();
            QVERIFY2(contrast(c, dark.color(QPalette::Base)) >= 3.0, qPrintable(graph->name()));
            QVERIFY2(contrast(graph->scatterStyle().pen().color(), dark.color(QPalette::Base)) >= 3.0,
                     qPrintable(graph->name()));
            QVERIFY2(seen.insert(c.rgb()).second, qPrintable(graph->name()));
        }
        t.setPalette(light);
        checkChartColours(t.plot(), light);
        for (int g = 0; g < t.plot()->graphCount(); ++g) {
            QCPGraph* graph = t.plot()->graph(g);
            QCOMPARE(graph->pen().color(), schedulerStyle(graph->name().toStdString()).color);
        }

        auto run = std::make_shared<const Run>(runScheduler("revolve", Problem(chain()), hw(), {}));
        QVERIFY(run->feasible);
        TimelineView v;
        v.setPalette(dark);
        v.setRun(run, hw());
        checkChartColours(v.plot(), dark);
        SweepView s;
        s.setRun(run, chain(), hw());
        s.setPalette(dark);
        checkChartColours(s.plot(), dark);
        GraphView gv;
        gv.setPalette(dark);
        QCOMPARE(gv.view()->backgroundBrush().color(), dark.color(QPalette::Base));
    }

    // A narrow Sweep tab (a 1024 × 700 window leaves its diagram about 300 px) ran its time labels together
    // ("10 ms20 ms30 ms"): its ticks follow the axis's width, each label two characters clear of the next.
    void narrowSweepTimeLabelsStandApart() {
        auto run = std::make_shared<const Run>(runScheduler("revolve", Problem(chain()), hw(), {}));
        QVERIFY(run->feasible);
        for (int width : {300, 420, 900}) {
            SweepView s;
            s.resize(width, 500);
            s.show();
            QVERIFY(QTest::qWaitForWindowExposed(&s));
            s.setRun(run, chain(), hw());
            QCustomPlot* plot = s.plot();
            plot->replot();
            QCoreApplication::processEvents(); // the replot queued once the ticks fit the laid-out axis
            QCPAxis* x = plot->xAxis;
            const QVector<double> ticks = x->tickVector();
            const QVector<QString> labels = x->tickVectorLabels();
            QVERIFY2(ticks.size() >= 2, qPrintable(QString::number(width)));
            const QFontMetricsF fm(x->tickLabelFont());
            for (int i = 0; i + 1 < ticks.size(); ++i) {
                const double apart = x->coordToPixel(ticks[i + 1]) - x->coordToPixel(ticks[i]);
                const double needed = (fm.horizontalAdvance(labels[i]) + fm.horizontalAdvance(labels[i + 1])) / 2 +
                                      2 * fm.horizontalAdvance(QLatin1Char('0'));
                QVERIFY2(apart >= needed, qPrintable(QString("%1 px: %2 and %3 are %4 px apart, %5 needed")
                                                         .arg(width)
                                                         .arg(labels[i], labels[i + 1])
                                                         .arg(apart)
                                                         .arg(needed)));
            }
        }
    }

    // The memory chart's size labels stand half a line apart however short the chart: Side by side's two timelines in
    // a 1024 x 700 window drew "50 MiB", "40 MiB"... over each other.
    void shortMemoryChartLabelsStandApart() {
        auto run = std::make_shared<const Run>(runScheduler("revolve", Problem(chain()), hw(), {}));
        QVERIFY(run->feasible);
        for (int height : {280, 400, 600}) {
            TimelineView t;
            t.resize(600, height);
            t.show();
            QVERIFY(QTest::qWaitForWindowExposed(&t));
            t.setRun(run, hw());
            QCustomPlot* plot = t.plot();
            plot->replot();
            QCoreApplication::processEvents(); // the replot queued once the ticks fit the laid-out axis
            QCPAxis* memory = plot->axisRects().last()->axis(QCPAxis::atLeft);
            const QVector<double> ticks = memory->tickVector();
            QVERIFY2(ticks.size() >= 2, qPrintable(QString("%1 px: %2 ticks").arg(height).arg(ticks.size())));
            const double line = QFontMetricsF(memory->tickLabelFont()).height();
            for (int i = 0; i + 1 < ticks.size(); ++i) {
                const double apart = std::abs(memory->coordToPixel(ticks[i + 1]) - memory->coordToPixel(ticks[i]));
                QVERIFY2(apart >= 1.5 * line,
                         qPrintable(QString("%1 px: %2 and %3 are %4 px apart, %5 needed")
                                        .arg(height)
                                        .arg(memory->tickVectorLabels()[i], memory->tickVectorLabels()[i + 1])
                                        .arg(apart)
                                        .arg(1.5 * line)));
            }
            if (height == 600) QCOMPARE(memory->ticker()->tickCount(), 5); // where there is room, QCustomPlot's count
        }
    }

    // An export is for a paper: white behind black axes, whatever the window's style; the view stays dark.
    void exportsStayWhiteUnderADarkStyle() {
        QTemporaryDir dir;
        TradeoffView t;
        t.setRuns(tradeoffRuns(chain(), hw()));
        t.setPalette(darkPalette());
        const QString png = dir.filePath("t.png");
        QCOMPARE(exportChart(t.plot(), png, 400, 300), QString());
        QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.pixelColor(3, 3), QColor(Qt::white));
        QCOMPARE(image.pixelColor(image.width() - 3, image.height() - 3), QColor(Qt::white));
        checkChartColours(t.plot(), darkPalette());
    }

    // Before any run: a line saying what to do, and no "0 B … 1 B" axes.
    void emptyChartsShowAHint() {
        TradeoffView t;
        QVERIFY(visibleTexts(t.plot()).contains("Run all (Shift+F5) to fill the trade-off"));
        QVERIFY(!anyAxisShown(t.plot()));
        QVERIFY(inkInTheMiddle(t.plot()) > 100); // drawn, not only there
        t.setRuns(tradeoffRuns(chain(), hw()));
        QVERIFY(visibleTexts(t.plot()).isEmpty());
        QVERIFY(anyAxisShown(t.plot()));

        TimelineView v;
        QVERIFY(visibleTexts(v.plot()).contains("Run a scheduler (F5) to see its plan"));
        QVERIFY(!anyAxisShown(v.plot()));
        QVERIFY(inkInTheMiddle(v.plot()) > 100);
        auto run = std::make_shared<const Run>(runScheduler("revolve", Problem(chain()), hw(), {}));
        v.setRun(run, hw());
        // No hint; only the label that says the level's capacity (40 GiB) is far above the axis.
        QCOMPARE(visibleTexts(v.plot()), QStringList{"↑ capacity 40 GiB"});
        QVERIFY(anyAxisShown(v.plot()));
        v.setRun(nullptr, hw());
        QVERIFY(visibleTexts(v.plot()).contains("Run a scheduler (F5) to see its plan"));
        // A view that another action fills says which (the pinned plan, the trainer's).
        v.setEmptyText("Nothing pinned");
        QCOMPARE(v.emptyHint(), QString("Nothing pinned"));
        QVERIFY(visibleTexts(v.plot()).contains("Nothing pinned"));
        v.setRun(run, hw());
        QCOMPARE(v.emptyHint(), QString());
        v.setRun(nullptr, hw());
        QCOMPARE(v.emptyHint(), QString("Nothing pinned"));

        SweepView s;
        QVERIFY(visibleTexts(s.plot()).contains("Run a scheduler (F5) to see its plan"));
        QVERIFY(!anyAxisShown(s.plot()));
    }

    // A plan that never transfers has one lane (compute); one that writes to a level has a row for that channel.
    // A budget far above the plan's peak is left out of the memory axis (the data would be a sliver); a label at the
    // top of the chart says where it is, so that the legend's "budget" names something one can find.
    void aBudgetAboveTheAxisSaysWhereItIs() {
        TimelineView v;
        const std::int64_t peak = storeAllPeak(chain(), hw());
        QCPAxis* memory = v.plot()->axisRects().last()->axis(QCPAxis::atLeft);
        SolveRequest req;
        req.budget_bytes = peak * 3 / 2; // drawn
        v.setRun(std::make_shared<const Run>(runScheduler("store-all", Problem(chain()), hw(), req)), hw());
        QVERIFY(memory->range().contains(double(req.budget_bytes)));
        for (const QString& t : visibleTexts(v.plot()))
            QVERIFY2(!t.contains("budget"), qPrintable(t));
        req.budget_bytes = peak * 10; // far above
        v.setRun(std::make_shared<const Run>(runScheduler("store-all", Problem(chain()), hw(), req)), hw());
        QVERIFY(!memory->range().contains(double(req.budget_bytes)));
        const QString above = QString("↑ budget %1").arg(QString::fromStdString(formatBytes(double(req.budget_bytes))));
        QVERIFY2(visibleTexts(v.plot()).contains(above), qPrintable(visibleTexts(v.plot()).join(" | ")));
        // The label stays above the data, on the screen and on a column-wide page (where it covered the top of the
        // memory: `ckpt figure` of examples/figures/revolve-async-a100.ckpt-figure.json).
        QCPItemText* label = nullptr;
        for (int i = 0; i < v.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(v.plot()->item(i)); t && t->text() == above) label = t;
        QVERIFY(label);
        for (const QSize size : {QSize(600, 400), QSize(252, 180), QSize(252, 120)}) {
            if (size.width() < 300) fitForPrint(v.plot(), size.width(), size.height(), 8);
            v.plot()->toPixmap(size.width(), size.height()); // laid out and drawn at that size
            const double peakAt = memory->coordToPixel(double(v.memoryMaximum()));
            QVERIFY2(label->bottom->pixelPosition().y() <= peakAt + 0.5,
                     qPrintable(QString("%1x%2: label to %3, peak at %4")
                                    .arg(size.width())
                                    .arg(size.height())
                                    .arg(label->bottom->pixelPosition().y())
                                    .arg(peakAt)));
            QVERIFY(!memory->range().contains(double(req.budget_bytes)));
        }
        v.setRun(nullptr, hw());
        QVERIFY(!visibleTexts(v.plot()).contains(above));
    }

    void lanesWithoutActionsTakeNoRoom() {
        TimelineView v;
        auto storeAll = std::make_shared<const Run>(runScheduler("store-all", Problem(chain()), hw(), {}));
        QVERIFY(storeAll->feasible);
        QCOMPARE(int(storeAll->timeline->lanes.size()), 3); // compute, host DRAM, NVMe
        v.setRun(storeAll, hw());
        QCOMPARE(v.gantt()->laneCount(), 1);
        QCPAxis* lanes = v.plot()->axisRects().front()->axis(QCPAxis::atLeft);
        QVERIFY(lanes->range().size() <= 1.0 + 1e-9);

        // Multistage under a small budget offloads checkpoints: compute plus the channels its intervals use.
        SolveRequest req;
        req.budget_bytes = storeAllPeak(chain(), hw()) / 2;
        auto offload = std::make_shared<const Run>(runScheduler("multistage", Problem(chain()), hw(), req));
        QVERIFY2(offload->feasible, offload->message.c_str());
        std::set<int> used = {0};
        for (const Interval& iv : offload->timeline->intervals)
            used.insert(iv.lane);
        QVERIFY(used.size() >= 2);
        v.setRun(offload, hw());
        QCOMPARE(v.gantt()->laneCount(), int(used.size()));
    }

    // Bars wide enough carry their step: on store-all over the 12-step example at 1600 px most of the 24 compute bars
    // are labelled (a bar narrower than its number is not); squeezed to 300 px, fewer.
    void ganttBarsCarryTheirStep() {
        TimelineView v;
        auto storeAll = std::make_shared<const Run>(runScheduler("store-all", Problem(chain()), hw(), {}));
        QVERIFY(storeAll->feasible);
        v.setRun(storeAll, hw());
        const QImage wide = v.plot()->toPixmap(1600, 700).toImage(); // drawn at that size
        const int wideLabels = v.gantt()->labelsDrawn();
        QVERIFY2(wideLabels > chain().length() && wideLabels <= 2 * chain().length(),
                 qPrintable(QString::number(wideLabels)));
        v.plot()->toPixmap(300, 700);
        QVERIFY(v.gantt()->labelsDrawn() < wideLabels);
        // White text on a dark bar: the forward of step 5 holds white pixels; the plain bar before labels had none.
        const Interval* fifth = nullptr;
        for (const Interval& iv : storeAll->timeline->intervals)
            if (iv.kind == IntervalKind::Forward && iv.index == 5) fifth = &iv;
        QVERIFY(fifth);
        v.plot()->toPixmap(1600, 700); // the layout of the wide picture again, for its pixel coordinates
        QCPAxisRect* g = v.plot()->axisRects().front();
        const int x0 = int(g->axis(QCPAxis::atBottom)->coordToPixel(fifth->start)) + 1;
        const int x1 = int(g->axis(QCPAxis::atBottom)->coordToPixel(fifth->end)) - 1;
        int white = 0;
        for (int x = x0; x < x1; ++x)
            for (int y = g->top(); y < g->bottom(); ++y)
                white += wide.pixelColor(x, y).lightness() > 200;
        QVERIFY2(white > 5, qPrintable(QString::number(white)));
    }

    // Dense memory areas are filled without antialiasing (the seams between thin steps were the moiré).
    void memoryAreasAreNotAntialiased() {
        TimelineView v;
        auto run = std::make_shared<const Run>(runScheduler("revolve", Problem(chain()), hw(), {}));
        v.setRun(run, hw());
        QCPAxisRect* memory = v.plot()->axisRects().back();
        int areas = 0;
        for (int i = 0; i < v.plot()->plottableCount(); ++i) {
            QCPAbstractPlottable* p = v.plot()->plottable(i);
            if (p->keyAxis()->axisRect() != memory || p->brush().style() == Qt::NoBrush) continue;
            QVERIFY2(!p->antialiasedFill(), qPrintable(p->name()));
            ++areas;
        }
        QCOMPARE(areas, int(kMemoryCategories));
    }

    // Every column of the chain table is as wide as the values it shows (no "128.0…"), which drop useless zeros.
    void chainTableFitsItsValues() {
        MainWindow w;
        w.setInteractive(false);
        w.openDefault();
        w.resize(1600, 1000);
        w.show();
        problemTabs(w)->setCurrentIndex(0);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QApplication::processEvents();
        QTableView* table = w.chainTable();
        QVERIFY(table->isVisible());
        QCOMPARE(table->model()->index(0, ChainTableModel::State).data().toString(), QString("128 KiB"));
        // The widest values the units give ("1023.99 KiB", "999.99 µs") in the first row.
        QVERIFY(w.chainModel()->setData(w.chainModel()->index(0, ChainTableModel::Tape), "1048566"));
        QVERIFY(w.chainModel()->setData(w.chainModel()->index(0, ChainTableModel::Forward), "999.99us"));
        QApplication::processEvents();
        for (int c = 0; c < table->model()->columnCount(); ++c)
            QVERIFY2(table->columnWidth(c) >= static_cast<QAbstractItemView*>(table)->sizeHintForColumn(c),
                     qPrintable(QString("column %1: %2 px for %3 px of text")
                                    .arg(c)
                                    .arg(table->columnWidth(c))
                                    .arg(static_cast<QAbstractItemView*>(table)->sizeHintForColumn(c))));
    }

    // Checkmate's parameter text (solver sizes, bounds, why it stopped) is long: the window still fits a small
    // screen, and the numbers in it read like numbers.
    void longParametersDoNotWidenTheWindow() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(source("examples/linear-32.ckpt-graph.json")));
        w.resize(1600, 1000);
        w.show();
        w.document()->settings().params["checkmate"] = {{"mode", "lp-rounding"}};
        w.schedulerPanel()->setCurrentScheduler("checkmate");
        auto run = w.runCurrentNow();
        QVERIFY(run && run->feasible);
        QApplication::processEvents();
        QString summary;
        for (QLabel* l : w.findChildren<QLabel*>())
            if (l->text().contains("checkmate") && l->text().contains("makespan")) summary = l->text();
        QVERIFY2(summary.contains("lp_bound_s="), qPrintable(summary));
        QVERIFY2(w.minimumSizeHint().width() < 1000, qPrintable(QString::number(w.minimumSizeHint().width())));
        QVERIFY2(w.width() <= 1600, qPrintable(QString::number(w.width())));
        QVERIFY2(!summary.contains(QRegularExpression("\\d\\.\\d{6}")), qPrintable(summary)); // no raw doubles
    }

    // View ▸ Presentation mode (F11): docks and toolbars hidden, the window's text 1.5 times larger, the Gantt's
    // tick labels 1.5 times and its series' lines twice as wide, also on a plan run while it is on; F11 again gives
    // every size back exactly.
    void presentationModeScalesAndRestores() {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 800);
        w.show();
        QVERIFY(w.runCurrentNow());
        QApplication::processEvents();
        QAction* present = nullptr;
        for (QAction* a : w.actions())
            if (a->shortcut() == QKeySequence(Qt::Key_F11)) present = a;
        QVERIFY(present);
        QCustomPlot* plot = w.timelineView()->plot();
        auto widths = [&] {
            QList<double> out;
            for (int i = 0; i < plot->plottableCount(); ++i)
                if (plot->plottable(i)->pen().style() != Qt::NoPen) out << plot->plottable(i)->pen().widthF();
            return out;
        };
        auto tickSize = [&] {
            const QFont f = plot->xAxis->tickLabelFont();
            return f.pointSizeF() > 0 ? f.pointSizeF() : f.pixelSize();
        };
        const double windowText = w.font().pointSizeF(), ticks = tickSize();
        const QList<double> pens = widths();
        QVERIFY(!pens.isEmpty());
        present->trigger();
        plot->replot();
        QVERIFY(present->isChecked());
        for (QDockWidget* d : w.findChildren<QDockWidget*>())
            QVERIFY(!d->isVisible());
        QCOMPARE(w.font().pointSizeF(), windowText * 1.5);
        QCOMPARE(tickSize(), ticks * 1.5);
        const QList<double> wide = widths();
        QCOMPARE(wide.size(), pens.size());
        for (int i = 0; i < pens.size(); ++i)
            QCOMPARE(wide[i], std::max(pens[i], 1.0) * 2);
        // A run while presenting is drawn at the same scale.
        QVERIFY(w.runCurrentNow());
        QApplication::processEvents();
        plot->replot();
        QCOMPARE(widths(), wide);
        present->trigger();
        plot->replot();
        QCOMPARE(w.font().pointSizeF(), windowText);
        QCOMPARE(tickSize(), ticks);
        QCOMPARE(widths(), pens);
        bool docked = false;
        for (QDockWidget* d : w.findChildren<QDockWidget*>())
            docked |= d->isVisible();
        QVERIFY(docked);
    }

    // The Sweep tab's Held now panel follows the diagram: at each position it tells the last action shown, in the
    // narration's words, with what is held; stepping back then forward gives the same text again.
    void heldNowFollowsTheSweep() {
        MainWindow w;
        auto run = showRevolve3(w);
        QVERIFY(run);
        auto told = ckpt::narrate(w.document()->chain(), w.document()->hardware(), *run->chainPlan());
        QVERIFY(told);
        HeldNowPanel* panel = w.heldNowPanel();
        QCOMPARE(panel->action(), w.sweepView()->cursor()); // all shown: the last action
        QCOMPARE(panel->action(), int(run->chainPlan()->actions.size()) - 1);
        int k = -1, computed = 0; // the 14th compute action
        for (const ckpt::Interval& iv : run->timeline->intervals)
            if (iv.lane == 0 && ++computed == 14) k = iv.action;
        w.sweepView()->setCursor(k);
        QCOMPARE(panel->action(), k);
        QVERIFY2(
            panel->sentence().contains(QString::fromStdString(told->actions[std::size_t(k)].sentence).toHtmlEscaped()),
            qPrintable(panel->sentence()));
        const QString held = panel->heldText();
        QVERIFY2(held.contains("checkpoints: x0 x6 x9 (3 of 3 slots)"), qPrintable(held));
        w.sweepView()->stepBack();
        QCOMPARE(panel->action(), k - 1);
        QVERIFY(panel->heldText() != held);
        w.sweepView()->stepForward();
        QCOMPARE(panel->action(), k);
        QCOMPARE(panel->heldText(), held);
        w.sweepView()->setCursor(-1);
        QVERIFY(panel->sentence().startsWith("Before the first action"));
    }

    // One cursor for every view. On revolve with 3 slots over the 12-step example, action 13 is "Recompute step 10
    // from the checkpoint x9 (run 2 of step 10)" (ckpt explain, docs/cli.md): the sweep stops there, the timeline draws
    // its line where it ends, Held now tells it, and the chain table marks x0, x6 and x9 as checkpoints and step 10
    // as run twice. A click on the memory chart or the sweep moves the cursor for all of them; the keys step,
    // jump and go back to the same state.
    void oneCursorForEveryView() {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        auto run = showRevolve3(w);
        QVERIFY(run);
        SweepView* sweep = w.sweepView();
        const ckpt::Plan& plan = *run->chainPlan();
        QCOMPARE(sweep->actionCount(), int(plan.actions.size()));
        QCOMPARE(w.timelineView()->markedAction(), -1); // a new plan: no cursor drawn on the timeline

        sweep->setCursor(13);
        QCOMPARE(w.timelineView()->markedAction(), 13);
        QCOMPARE(w.heldNowPanel()->action(), 13);
        QVERIFY2(w.heldNowPanel()->sentence().contains("Recompute step 10 from the checkpoint x9 (run 2 of step 10)"),
                 qPrintable(w.heldNowPanel()->sentence()));
        ChainTableModel* table = w.chainModel();
        auto coloured = [&](int column) {
            std::set<int> rows;
            for (int r = 0; r < table->rowCount(); ++r)
                if (table->data(table->index(r, column), Qt::BackgroundRole).isValid()) rows.insert(r);
            return rows;
        };
        QCOMPARE(coloured(ChainTableModel::State), (std::set<int>{0, 6, 9}));
        QCOMPARE(coloured(ChainTableModel::Forward), (std::set<int>{9})); // only step 10 has run twice
        QCOMPARE(table->cursorMarks().runs[9], 2);
        QVERIFY(table->data(table->index(9, 0), Qt::FontRole).value<QFont>().bold()); // the cursor's step
        const auto marksAt13 = table->cursorMarks();

        // Keys, on the diagram: Right, Left, Home, End; B and R jump to the next backward and recomputation. Choosing
        // the Sweep tab gives the diagram the keyboard.
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.showChartTab("sweep");
        QApplication::processEvents();
        QVERIFY(sweep->hasFocus() || sweep->isAncestorOf(QApplication::focusWidget()));
        QTest::keyClick(sweep, Qt::Key_Right);
        QCOMPARE(sweep->cursor(), 14);
        QTest::keyClick(sweep, Qt::Key_Left);
        QCOMPARE(sweep->cursor(), 13);
        QCOMPARE(table->cursorMarks().checkpoint, marksAt13.checkpoint); // back to the same state
        QCOMPARE(table->cursorMarks().runs, marksAt13.runs);
        QCOMPARE(table->cursorMarks().tape, marksAt13.tape);
        QTest::keyClick(sweep, Qt::Key_B);
        int next = 14;
        while (plan.actions[std::size_t(next)].kind != ckpt::ActionKind::Backward)
            ++next;
        QCOMPARE(sweep->cursor(), next);
        QTest::keyClick(sweep, Qt::Key_R);
        int rec = -1;
        for (const ckpt::Interval& iv : run->timeline->intervals)
            if (iv.kind == ckpt::IntervalKind::Recompute && iv.action > next) {
                rec = iv.action;
                break;
            }
        QCOMPARE(sweep->cursor(), rec);
        QTest::keyClick(sweep, Qt::Key_T); // no transfers in this plan: the cursor stays
        QCOMPARE(sweep->cursor(), rec);
        QTest::keyClick(sweep, Qt::Key_Home);
        QCOMPARE(sweep->cursor(), -1);
        QVERIFY(w.heldNowPanel()->sentence().startsWith("Before the first action"));
        QTest::keyClick(sweep, Qt::Key_End);
        QCOMPARE(sweep->cursor(), int(plan.actions.size()) - 1);
        QTest::keyClick(sweep, Qt::Key_Space);
        QVERIFY(sweep->playing()); // from the start again
        QVERIFY(sweep->cursor() < int(plan.actions.size()) - 1);
        QTest::keyClick(sweep, Qt::Key_Space);
        QVERIFY(!sweep->playing());

        // A click on the memory chart: the compute action running at that time, for every view.
        w.showChartTab("timeline");
        QApplication::processEvents();
        const ckpt::Interval* target = nullptr;
        for (const ckpt::Interval& iv : run->timeline->intervals)
            if (iv.lane == 0 && iv.action == 20) target = &iv;
        QVERIFY(target);
        QCustomPlot* plot = w.timelineView()->plot();
        QCPAxisRect* memory = plot->axisRects().last();
        const double t = (target->start + target->end) / 2;
        const QPoint at(int(memory->axis(QCPAxis::atBottom)->coordToPixel(t)), memory->rect().center().y());
        QTest::mouseClick(plot, Qt::LeftButton, {}, at);
        QCOMPARE(sweep->cursor(), 20);
        QCOMPARE(w.heldNowPanel()->action(), 20);
        QCOMPARE(w.timelineView()->markedAction(), 20);
        // And on the sweep diagram.
        w.showChartTab("sweep");
        QApplication::processEvents();
        const ckpt::Interval* other = nullptr;
        for (const ckpt::Interval& iv : run->timeline->intervals)
            if (iv.lane == 0 && iv.action == 7) other = &iv;
        QVERIFY(other);
        QCustomPlot* sp = sweep->plot();
        const QPoint there(int(sp->xAxis->coordToPixel((other->start + other->end) / 2)),
                           sp->axisRect()->rect().center().y());
        QTest::mouseClick(sp, Qt::LeftButton, {}, there);
        QCOMPARE(sweep->cursor(), 7);
        QCOMPARE(w.timelineView()->markedAction(), 7);
        // And on the chain table: step 10's row takes the cursor to step 10's next compute action after 7, then the
        // one after that.
        std::vector<int> tens;
        for (int k = 8; k < int(plan.actions.size()); ++k)
            if (const auto& a = plan.actions[std::size_t(k)];
                (a.kind == ckpt::ActionKind::Forward || a.kind == ckpt::ActionKind::Backward) && a.index == 10)
                tens.push_back(k);
        QVERIFY(tens.size() >= 2);
        QTableView* rows = w.chainTable();
        auto clickRow = [&](int row) {
            const QRect cell = rows->visualRect(table->index(row, 0));
            QTest::mouseClick(rows->viewport(), Qt::LeftButton, {}, cell.center());
        };
        rows->scrollTo(table->index(9, 0));
        clickRow(9);
        QCOMPARE(sweep->cursor(), tens[0]);
        clickRow(9);
        QCOMPARE(sweep->cursor(), tens[1]);
        QCOMPARE(w.heldNowPanel()->action(), tens[1]);
        // The status bar says the cursor's action, and says nothing of it once another plan is shown (it used to
        // say "Action 14 of 24" under a plan of 34 actions).
        QVERIFY2(w.statusBar()->currentMessage().startsWith(
                     QString("Action %1 of %2: ").arg(tens[1]).arg(plan.actions.size())),
                 qPrintable(w.statusBar()->currentMessage()));
        w.schedulerPanel()->setCurrentScheduler("store-all");
        QVERIFY(w.runCurrentNow()->feasible);
        QCOMPARE(w.statusBar()->currentMessage(), QString());
        QVERIFY(table->cursorMarks().runs.empty()); // the new plan is shown whole: no step marked
        QCOMPARE(table->cursorMarks().current, -1);
        // Home: before the first action, no sentence either.
        sweep->setCursor(3);
        QVERIFY(w.statusBar()->currentMessage().startsWith("Action 3 of"));
        sweep->setCursor(-1);
        QCOMPARE(w.statusBar()->currentMessage(), QString());
    }

    // The sweep draws each checkpoint's life as a bar from its store to its free, a diamond where it is stored and
    // a ring where a recomputation starts again from it. For revolve every recomputation sweep starts from a
    // checkpoint, so the rings are the runs of consecutive recompute intervals; each store ends in a free, so the
    // whole plan has as many bars as diamonds. The LSTM example's plan stores too many to mark: bars alone.
    void sweepDrawsLifetimesAndRestores() {
        MainWindow w;
        auto run = showRevolve3(w);
        QVERIFY(run);
        int sweeps = 0;
        bool inRecompute = false;
        for (const ckpt::Interval& iv : run->timeline->intervals) {
            if (iv.lane != 0) continue;
            const bool r = iv.kind == ckpt::IntervalKind::Recompute;
            sweeps += r && !inRecompute;
            inRecompute = r;
        }
        SweepView* sweep = w.sweepView();
        QVERIFY(sweeps >= 3);
        QCOMPARE(sweep->restoreMarkCount(), sweeps);
        QVERIFY(sweep->storeMarkCount() >= 3);
        QCOMPARE(sweep->lifetimeCount(), sweep->storeMarkCount());
        sweep->setCursor(13); // x0 x6 x9 held: three bars, each open, and none closed yet (revolve frees from the top)
        QCOMPARE(sweep->lifetimeCount(), 3);
        QCOMPARE(sweep->storeMarkCount(), 3);

        QVERIFY(w.openFile(source("examples/lstm-h512-b32-fp32-1000.ckpt-chain.json")));
        w.schedulerPanel()->setCurrentScheduler("revolve");
        w.schedulerPanel()->setBudgetBytes(0);
        w.document()->settings().params["revolve"] = {{"slots", "300"}};
        auto dense = w.runCurrentNow();
        QVERIFY(dense && dense->feasible);
        QApplication::processEvents();
        QVERIFY2(sweep->lifetimeCount() > 200, qPrintable(QString::number(sweep->lifetimeCount())));
        QCOMPARE(sweep->storeMarkCount(), 0);
        QCOMPARE(sweep->restoreMarkCount(), 0);
    }

    // Playing at a chosen speed reaches the end and stops; the speed is what the box says.
    void playsAtTheChosenSpeed() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(source("examples/small-hetero-12.ckpt-chain.json")));
        auto run = w.runCurrentNow();
        QVERIFY(run && run->feasible);
        QApplication::processEvents();
        SweepView* sweep = w.sweepView();
        auto* speed = sweep->findChild<QComboBox*>();
        QVERIFY(speed);
        QCOMPARE(sweep->speed(), std::max(1.0, sweep->actionCount() / 10.0)); // the default: the whole plan in 10 s
        speed->setCurrentIndex(speed->findData(100));
        QCOMPARE(sweep->speed(), 100.0);
        std::vector<int> seen;
        connect(sweep, &SweepView::cursorChanged, this, [&](int a) { seen.push_back(a); });
        sweep->play();
        QTRY_VERIFY_WITH_TIMEOUT(!sweep->playing(), 20000);
        QCOMPARE(sweep->cursor(), sweep->actionCount() - 1);
        QCOMPARE(seen.front(), -1); // from the start
        for (std::size_t i = 1; i < seen.size(); ++i)
            QVERIFY(seen[i] - seen[i - 1] == 2 || seen[i] == sweep->actionCount() - 1); // 100/s at 50 frames a second
    }

    // The shipped lesson, end to end with the keyboard: File ▸ Open takes it, each Page Down sets the next scene's
    // problem, machine, scheduler, parameters and budget, shows its caption, and the scene's plan solves; Page Up
    // goes back; opening another file ends the lesson.
    void aLessonStepsWithTheKeyboard() {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        const QString file = source("examples/lessons/intro.ckpt-lesson.json");
        QVERIFY(w.openFile(file));
        auto lesson = ckpt::loadLesson(file.toStdString());
        QVERIFY(lesson);
        for (int k = 0; k < int(lesson->scenes.size()); ++k) {
            if (k > 0) QTest::keyClick(&w, Qt::Key_PageDown);
            QCOMPARE(w.sceneIndex(), k);
            const ckpt::LessonScene& s = lesson->scenes[std::size_t(k)];
            QCOMPARE(w.document()->settings().scheduler, s.scheduler);
            QVERIFY(w.lessonCaption().contains(QString("scene %1 of 7").arg(k + 1)));
            QVERIFY(w.lessonCaption().contains(QString::fromStdString(s.caption).left(40).toHtmlEscaped()));
            auto run = w.runCurrentNow();
            QVERIFY2(run && run->feasible, run ? run->message.c_str() : "no run");
            QCOMPARE(run->scheduler, s.scheduler);
            if (!s.budget.empty()) QVERIFY(run->budget_bytes > 0);
        }
        QTest::keyClick(&w, Qt::Key_PageDown); // past the last scene: stays
        QCOMPARE(w.sceneIndex(), 6);
        QTest::keyClick(&w, Qt::Key_PageUp);
        QCOMPARE(w.sceneIndex(), 5);
        QCOMPARE(w.document()->settings().scheduler, std::string("dtr"));
        QVERIFY(w.openFile(source("examples/small-hetero-12.ckpt-chain.json")));
        QCOMPARE(w.sceneIndex(), -1);
        QVERIFY(w.lessonCaption().isEmpty());
    }

    // What stays put under the pointer: the summary is two lines whatever the plan (a checkmate run's long parameters
    // are cut, numbers shortened, the whole list in its tooltip), the tab bar does not move when the stale banner or
    // a lesson caption appears, and the budget slider does not move when a scheduler's parameters change.
    void theTabBarAndTheSliderStayPut() {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(source("examples/linear-32.ckpt-graph.json")));
        QTabBar* tabs = w.chartTabs()->tabBar();
        auto tabsAt = [&] {
            QApplication::processEvents();
            return tabs->mapTo(&w, QPoint(0, 0)).y();
        };
        w.schedulerPanel()->setCurrentScheduler("store-all");
        QVERIFY(w.runCurrentNow());
        QLabel* summary = nullptr;
        for (QLabel* l : w.findChildren<QLabel*>())
            if (l->text() == w.summary()) summary = l;
        QVERIFY(summary && !w.summary().isEmpty());
        const int y = tabsAt(), height = summary->height();
        w.schedulerPanel()->setCurrentScheduler("checkmate");
        w.schedulerPanel()->setBudgetBytes(w.runController()->budgetRange().ceiling / 2);
        auto run = w.runCurrentNow();
        QVERIFY2(run && run->feasible, run ? run->message.c_str() : "no run");
        QCOMPARE(tabsAt(), y);
        QCOMPARE(summary->height(), height);
        QVERIFY2(!w.summary().contains(QString::fromStdString(run->params.at("lp_bound_s"))), qPrintable(w.summary()));
        QVERIFY2(summary->toolTip().contains(QString::fromStdString(run->params.at("optimal"))),
                 qPrintable(summary->toolTip() + " // " + QString::fromStdString(run->params.at("optimal"))));
        for (const auto& [key, value] : run->params)
            if (value.size() > 28) QVERIFY2(!w.summary().contains(QString::fromStdString(value)), key.c_str());
        // One unit family in the line: a budget typed in decimal units gives the peaks in them too.
        w.document()->settings().schedulers = {"dtr"};
        w.document()->settings().budgets =
            QString("%1MB").arg(w.runController()->budgetRange().ceiling * 6 / 10 / 1000000).toStdString();
        w.runAllNow();
        QCOMPARE(int(w.runController()->comparison().size()), 1);
        emit w.tradeoffView()->runClicked(0);
        QVERIFY2(w.summary().contains(" MB") && !w.summary().contains("iB"), qPrintable(w.summary()));
        // The stale banner on the Trade-off tab, then a lesson's caption.
        w.document()->settings().schedulers = {"store-all"};
        w.document()->settings().budgets = "none";
        w.runAllNow();
        w.showChartTab("tradeoff");
        const int onTradeoff = tabsAt();
        auto nodes = w.document()->nodes();
        nodes[0].forward *= 2;
        QCOMPARE(w.document()->editGraph(nodes, w.document()->edges(), "slower"), QString());
        QVERIFY(!w.staleBanner().isEmpty());
        QCOMPARE(tabsAt(), onTradeoff);
        QVERIFY(w.openFile(source("examples/lessons/intro.ckpt-lesson.json")));
        const int inLesson = tabsAt();
        QVERIFY(w.showScene(4)); // the longest caption
        QCOMPARE(tabsAt(), inLesson);
        QCOMPARE(inLesson, y);
        // The slider, with and without parameters above... below it.
        SchedulerPanel* panel = w.schedulerPanel();
        QSlider* slider = panel->findChild<QSlider*>();
        QVERIFY(slider);
        panel->setCurrentScheduler("store-all");
        QApplication::processEvents();
        const QPoint at = slider->mapTo(panel, QPoint(0, 0));
        panel->setCurrentScheduler("bptt-dp");
        QApplication::processEvents();
        QCOMPARE(slider->mapTo(panel, QPoint(0, 0)), at);
    }

    // Presentation mode enlarges the lesson's caption with the rest of the window's text (its style sheet kept it
    // at the normal size), and gives its size back.
    void presentationEnlargesTheCaption() {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(w.openFile(source("examples/lessons/intro.ckpt-lesson.json")));
        QLabel* caption = w.findChild<QLabel*>("lessonBanner");
        QVERIFY(caption && caption->isVisible());
        QAction* present = nullptr;
        for (QAction* a : w.actions())
            if (a->shortcut() == QKeySequence(Qt::Key_F11)) present = a;
        QVERIFY(present);
        const double normal = QFontInfo(caption->font()).pointSizeF();
        present->trigger();
        QApplication::processEvents();
        QCOMPARE(QFontInfo(caption->font()).pointSizeF(), QFontInfo(w.font()).pointSizeF());
        QVERIFY(QFontInfo(caption->font()).pointSizeF() > 1.4 * normal);
        present->trigger();
        QApplication::processEvents();
        QCOMPARE(QFontInfo(caption->font()).pointSizeF(), normal);
    }

    // Input the panel refuses says so at once: a budget list that does not read turns red with the reason and stays
    // out of the project; a slot count typed below its range is named, not silently made positive.
    void refusedInputIsNamed() {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(source("examples/small-hetero-12.ckpt-chain.json")));
        SchedulerPanel* panel = w.schedulerPanel();
        const std::string before = w.document()->settings().budgets;
        QLineEdit* budgets = panel->budgetsField();
        budgets->setFocus();
        budgets->selectAll();
        QTest::keyClicks(budgets, "abc,-5%");
        QVERIFY2(panel->budgetsError().contains("abc"), qPrintable(panel->budgetsError()));
        QVERIFY(budgets->toolTip().startsWith(panel->budgetsError()));
        QTest::keyClick(budgets, Qt::Key_Return);
        QCOMPARE(w.document()->settings().budgets, before);
        budgets->selectAll();
        QTest::keyClicks(budgets, "5%,1GiB");
        QCOMPARE(panel->budgetsError(), QString());
        QTest::keyClick(budgets, Qt::Key_Return);
        QCOMPARE(w.document()->settings().budgets, std::string("5%,1GiB"));

        panel->setCurrentScheduler("revolve");
        QApplication::processEvents();
        QSpinBox* slotsBox = nullptr;
        for (QSpinBox* s : panel->findChildren<QSpinBox*>())
            if (s->isVisible() && s->toolTip().contains("slot", Qt::CaseInsensitive)) slotsBox = s;
        QVERIFY(slotsBox);
        const int value = slotsBox->value();
        slotsBox->setFocus();
        slotsBox->selectAll();
        QTest::keyClicks(slotsBox, "-3");
        QTest::keyClick(slotsBox, Qt::Key_Return);
        QCOMPARE(slotsBox->value(), value);
        QVERIFY2(panel->paramMessage().startsWith("slots: -3 is not between 0 and "),
                 qPrintable(panel->paramMessage()));
    }

    // A scene opens on the view it names ("tab"), the Timeline when it names none, whatever tab was shown before.
    // The window opens within the screen's free area (a 1280 × 800 display showed a 1600 × 1000 window cut at its
    // right and bottom edges, the lesson's caption out of sight), and at 1600 × 1000 where that fits.
    void theWindowFitsTheScreen() {
        MainWindow w;
        w.setInteractive(false);
        w.fitToScreen();
        const QSize room = w.screen()->availableGeometry().size();
        // (Never narrower than its least size: the offscreen platform's screen is 800 px wide, the window's least 975.)
        QVERIFY2(
            w.width() <= std::max(room.width(), w.minimumSizeHint().width()) && w.height() <= room.height(),
            qPrintable(QString("%1x%2 on %3x%4").arg(w.width()).arg(w.height()).arg(room.width()).arg(room.height())));
    }

    void aLessonSceneChoosesItsTab() {
        QTemporaryDir dir;
        const QString file = dir.filePath("tabs.ckpt-lesson.json");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QString chain = source("examples/small-hetero-12.ckpt-chain.json");
        f.write(QString(R"({"format":"ckpt-lesson","version":1,"title":"t","scenes":[
            {"problem":"%1","scheduler":"revolve","caption":"the trade-off","tab":"tradeoff"},
            {"problem":"%1","scheduler":"rotor","caption":"the memory chart"},
            {"problem":"%1","scheduler":"rotor","caption":"the sweep","tab":"sweep"}]})")
                    .arg(chain)
                    .toUtf8());
        f.close();
        MainWindow w;
        w.setInteractive(false);
        w.showChartTab("comparison");
        QVERIFY2(w.openFile(file), qPrintable(w.lastError()));
        QCOMPARE(w.currentChartTab(), QString("tradeoff"));
        QVERIFY(w.showScene(1));
        QCOMPARE(w.currentChartTab(), QString("timeline"));
        QVERIFY(w.showScene(2));
        QCOMPARE(w.currentChartTab(), QString("sweep"));
    }

    // Another document ends the lesson, an imported model too: no banner, and Page Down no longer replaces it with
    // the next scene.
    void importingAModelEndsTheLesson() {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(w.openFile(source("examples/lessons/intro.ckpt-lesson.json")));
        QCOMPARE(w.sceneIndex(), 0);
        QVERIFY2(w.openFile(source("examples/onnx/lstm2.onnx")), qPrintable(w.lastError()));
        QCOMPARE(w.sceneIndex(), -1);
        QVERIFY(w.lessonCaption().isEmpty());
        QVERIFY(w.document()->isGraph());
        const int nodes = int(w.document()->nodes().size());
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(w.sceneIndex(), -1);
        QVERIFY(w.document()->isGraph());
        QCOMPARE(int(w.document()->nodes().size()), nodes);
    }

    // A scene's machine may be a shipped preset's name, as in ckpt lesson and figure specs.
    void aLessonSceneTakesAPresetByName() {
        QTemporaryDir dir;
        // A lesson of one scene on the small chain, its machine named `hardware`.
        auto lesson = [&](const QString& name, const QString& hardware) {
            const QString file = dir.filePath(name);
            QFile f(file);
            if (!f.open(QIODevice::WriteOnly)) return QString();
            f.write(QString(R"({"format":"ckpt-lesson","version":1,"title":"t","scenes":[{"problem":"%1",
                "hardware":"%2","scheduler":"revolve","caption":"c"}]})")
                        .arg(source("examples/small-hetero-12.ckpt-chain.json"), hardware)
                        .toUtf8());
            return file;
        };
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(lesson("preset.ckpt-lesson.json", "gpu-a100")));
        QCOMPARE(w.sceneIndex(), 0);
        QVERIFY2(QString::fromStdString(w.document()->hardware().name()).startsWith("NVIDIA A100"),
                 w.document()->hardware().name().c_str());

        // A name no preset has is named as such, with the presets there are, as ckpt lesson says it.
        const QString unknown = lesson("unknown.ckpt-lesson.json", "gpu-z9");
        MainWindow v;
        v.setInteractive(false);
        QVERIFY(!v.openFile(unknown));
        QVERIFY2(v.lastError().startsWith(unknown + ": scenes[0].hardware: no preset named 'gpu-z9' (presets: "),
                 qPrintable(v.lastError()));
        QVERIFY2(v.lastError().contains("gpu-a100") && v.lastError().endsWith("; or give a file ending in .json)"),
                 qPrintable(v.lastError()));
    }
};

QTEST_MAIN(TestViews)
#include "tst_views.moc"
