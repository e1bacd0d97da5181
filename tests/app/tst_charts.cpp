// The charts as an author uses them: a scheduler looks the same in every chart, in the explorer and in `ckpt render`.
#include "io/json_io.h"
#include "models/document.h"
#include "plots/chartexport.h"
#include "plots/chartstyle.h"
#include "plots/legendplace.h"
#include "plots/memoryareaplottable.h"
#include "plots/printlayout.h"
#include "plots/schedulerstyle.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "run/budget.h"
#include "schedulers/graph_registry.h"
#include "schedulers/registry.h"
#include "widgets/mainwindow.h"

#include <QHashSeed>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>
#include <random>
#include <set>

namespace {

QCPGraph* series(QCustomPlot* plot, const QString& name) {
    for (int g = 0; g < plot->graphCount(); ++g)
        if (plot->graph(g)->name() == name) return plot->graph(g);
    return nullptr;
}

// WCAG relative luminance: 1 for white. A series colour near it vanishes on a white page.
double luminance(const QColor& c) {
    auto lin = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}

// The A100 preset, as resources/hardware has it.
ckpt::Hardware a100() {
    auto hw = ckpt::loadHardware(std::string(CKPT_SOURCE_DIR) + "/resources/hardware/gpu-a100.ckpt-hardware.json");
    if (!hw) qFatal("gpu-a100: %s", hw.error().c_str());
    return *hw;
}

// `scheduler` on examples/NAME.ckpt-chain.json on the A100 preset, within store-all's peak / `divisor`.
std::shared_ptr<const ckpt::Run> exampleRun(const char* name, const char* scheduler, std::int64_t divisor) {
    auto chain = ckpt::loadChain(std::string(CKPT_SOURCE_DIR) + "/examples/" + name + ".ckpt-chain.json");
    if (!chain) qFatal("%s: %s", name, chain.error().c_str());
    const ckpt::Hardware hw = a100();
    ckpt::SolveRequest req;
    req.budget_bytes = ckpt::storeAllPeak(*chain, hw) / divisor;
    return std::make_shared<const ckpt::Run>(ckpt::runScheduler(scheduler, ckpt::Problem(*chain), hw, req));
}

// Periodic and revolve on a small chain, and five schedulers n/a on it: a trade-off chart whose footnote is long.
std::vector<std::shared_ptr<const ckpt::Run>> longNoteRuns() {
    const ckpt::Chain chain = *ckpt::Chain::uniform("u", 20, ckpt::Step{1, 2, 100, 300, 0, 0});
    std::vector<std::shared_ptr<const ckpt::Run>> runs;
    for (const char* name : {"periodic", "revolve"}) {
        ckpt::SolveRequest req;
        req.params = {{std::string(name) == "revolve" ? "slots" : "segments", "4"}};
        runs.push_back(std::make_shared<ckpt::Run>(
            ckpt::runScheduler(name, ckpt::Problem(chain), ckpt::Hardware::unbounded(), req)));
    }
    for (const char* name : {"multistage", "async-multistage", "double-checkpointing", "offload-all", "offload-dp"}) {
        auto na = std::make_shared<ckpt::Run>();
        na->scheduler = name;
        na->available = false;
        na->message = "needs 2 memory levels (it writes states to a slower level); the machine 'x' has 1";
        runs.push_back(na);
    }
    return runs;
}

// The footnote's text element as drawn.
QString drawnFootnote(QCustomPlot* plot) {
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true))
        if (e && e->objectName() == "footnote") return qobject_cast<QCPTextElement*>(e)->text();
    return QString();
}

} // namespace

class TestCharts : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void everySchedulerHasItsOwnLook() {
        std::vector<std::string> names;
        for (const auto& s : ckpt::schedulers())
            names.push_back(s.name);
        for (const auto& s : ckpt::graphSchedulers())
            if (!ckpt::findScheduler(s.name)) names.push_back(s.name);
        std::set<int> markers;
        std::set<std::tuple<QRgb, int>> looks;
        for (const auto& n : names) {
            SchedulerStyle s = schedulerStyle(n);
            QVERIFY2(s.listed, ("no style for " + n + " in app/plots/schedulerstyle.cpp").c_str());
            QVERIFY2(markers.insert(int(s.marker) * 16 + s.custom).second, ("marker shared by " + n).c_str());
            QVERIFY2(looks.insert({s.color.rgb(), int(s.dash)}).second, ("colour and dash shared by " + n).c_str());
            // Contrast at least 2.2:1 against white, for lines with markers (the old yellow had 1.3:1).
            QVERIFY2(1.05 / (luminance(s.color) + 0.05) >= 2.2, ("too faint on white: " + n).c_str());
        }
        // Within one registry, colours differ too, so a legend can be read by colour alone.
        std::set<QRgb> chainColours;
        for (const auto& s : ckpt::schedulers())
            QVERIFY2(chainColours.insert(schedulerStyle(s.name).color.rgb()).second, s.name.c_str());
    }

    // On a dark chart (Fusion's dark grey, and near black) every scheduler's colour reads (3:1) and the chain
    // schedulers' colours still differ from each other, as on white.
    void everySchedulerReadsOnADarkStyle() {
        for (const QColor& background : {QColor(53, 53, 53), QColor(30, 30, 30), QColor(0, 0, 0)}) {
            std::set<QRgb> chainColours;
            for (const auto& s : ckpt::schedulers()) {
                const QColor shown = readableOn(schedulerStyle(s.name).color, background);
                QVERIFY2(contrastRatio(shown, background) >= 3.0, s.name.c_str());
                QVERIFY2(chainColours.insert(shown.rgb()).second, s.name.c_str());
            }
            for (const auto& s : ckpt::graphSchedulers())
                QVERIFY2(contrastRatio(readableOn(schedulerStyle(s.name).color, background), background) >= 3.0,
                         s.name.c_str());
        }
        // On white nothing changes.
        for (const auto& s : ckpt::schedulers())
            QCOMPARE(readableOn(schedulerStyle(s.name).color, Qt::white), schedulerStyle(s.name).color);
    }

    // The explorer runs rotor first, `ckpt render` second: the colour follows the name, not the run order.
    void sameColourInTheExplorerAndInRender() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json"));
        w.document()->settings().schedulers = {"rotor", "store-all", "revolve"};
        w.document()->settings().budgets = "none,60%";
        w.runAllNow();
        QCPGraph* gui = series(w.tradeoffView()->plot(), "rotor");
        QVERIFY(gui);
        const QColor rotor = gui->pen().color();
        QCOMPARE(rotor, schedulerStyle("rotor").color);
        QCOMPARE(gui->scatterStyle().shape(), schedulerStyle("rotor").marker);
        QVERIFY(rotor != series(w.tradeoffView()->plot(), "revolve")->pen().color());

        const QString svg = m_dir.filePath("t.svg");
        QProcess p;
        p.start(CKPT_CLI, {"render", QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json", "--chart",
                           "tradeoff", "--schedulers", "periodic,rotor", "--budgets", "none,60%", "--out", svg});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY2(text.contains(("stroke=\"" + rotor.name() + "\"").toUtf8()), qPrintable(rotor.name()));
        QVERIFY(text.contains(("stroke=\"" + schedulerStyle("periodic").color.name() + "\"").toUtf8()));
        // Store-all was not asked for: its black is the axes' too, so check the colour of one it did not draw.
        QVERIFY(!text.contains(("stroke=\"" + schedulerStyle("revolve").color.name() + "\"").toUtf8()));
    }

    // The 1000-step LSTM under a 5 % budget (the explorer's default view): thousands of memory samples reduced to at
    // most one step per pixel column, and the highest drawn total is the simulator's peak, to the byte.
    // Revolve at every slot count on the small chain: the line joins exactly the distinct points no other run beats
    // on both memory and time (checked pairwise here, not by the view's sweep), in falling time; the rest are faint
    // and out of the legend.
    void onlyTheBestTradeOffsAreJoined() {
        const QString root(CKPT_SOURCE_DIR);
        auto chain = ckpt::loadChain((root + "/examples/small-hetero-12.ckpt-chain.json").toStdString());
        QVERIFY(chain);
        std::vector<std::shared_ptr<const ckpt::Run>> runs;
        std::vector<std::pair<double, double>> points;
        for (int s = 1; s <= 14; ++s) {
            ckpt::SolveRequest req;
            req.params = {{"slots", std::to_string(s)}};
            auto run = std::make_shared<const ckpt::Run>(
                ckpt::runScheduler("revolve", ckpt::Problem(*chain), ckpt::Hardware::unbounded(), req));
            QVERIFY2(run->feasible, run->message.c_str());
            points.emplace_back(double(run->timeline->totals.peak_bytes[0]),
                                run->timeline->totals.makespan_s / run->baseline_makespan_s);
            runs.push_back(run);
        }
        std::set<std::pair<double, double>> best;
        for (const auto& p : points) {
            bool beaten = false;
            for (const auto& q : points)
                beaten |= q.first <= p.first && q.second <= p.second && q != p;
            if (!beaten) best.insert(p);
        }
        QVERIFY(best.size() >= 2 && best.size() < points.size()); // the case has both kinds
        TradeoffView v;
        v.setRuns(runs);
        QCPGraph* line = series(v.plot(), "revolve");
        QVERIFY(line);
        QCOMPARE(line->dataCount(), int(best.size()));
        for (int k = 0; k < line->dataCount(); ++k) {
            const auto d = line->data()->at(k);
            QVERIFY(best.count(std::make_pair(d->key, d->value)));
            if (k > 0) QVERIFY(d->value < line->data()->at(k - 1)->value);
        }
        QCOMPARE(v.seriesCount(), 1);
        QCOMPARE(v.dominatedCount(), int(points.size() - best.size()));
        for (int g = 0; g < v.plot()->graphCount(); ++g)
            if (v.plot()->graph(g) != line && v.plot()->graph(g)->dataCount() > 0) {
                QVERIFY(!v.plot()->legend->hasItemWithPlottable(v.plot()->graph(g)));
                QVERIFY(v.plot()->graph(g)->scatterStyle().pen().color().alpha() < 255);
            }
    }

    // Revolve (optimal by construction) and periodic segments (a heuristic) on a uniform 40-step chain: every
    // periodic point is hollow, every revolve point filled, and the footnote says what hollow means. Revolve with one
    // slot re-runs 820 forward steps (7.5× store-all's time, by the closed form n(n+1)/2): the linear time axis clips
    // it to an arrow instead of squashing the other points under a 7.5× range; a logarithmic one shows it.
    void unprovenPointsAreHollowAndOutliersClipped() {
        const ckpt::Chain chain = *ckpt::Chain::uniform("u", 40, ckpt::Step{1, 2, 100, 300, 0, 0});
        auto solve = [&](const char* name, const char* knob, int value) {
            ckpt::SolveRequest req;
            req.params = {{knob, std::to_string(value)}};
            auto run = std::make_shared<const ckpt::Run>(
                ckpt::runScheduler(name, ckpt::Problem(chain), ckpt::Hardware::unbounded(), req));
            return run;
        };
        std::vector<std::shared_ptr<const ckpt::Run>> runs;
        for (int s : {1, 4, 8, 16})
            runs.push_back(solve("revolve", "slots", s));
        for (int k : {4, 8})
            runs.push_back(solve("periodic", "segments", k));
        for (const auto& r : runs)
            QVERIFY2(r->feasible, r->message.c_str());
        const double outlier = runs[0]->timeline->totals.makespan_s / runs[0]->baseline_makespan_s;
        QCOMPARE(outlier, (40 * 41 / 2 + 2 * 40) / 120.0);
        double others = 0;
        for (std::size_t i = 1; i < runs.size(); ++i)
            others = std::max(others, runs[i]->timeline->totals.makespan_s / runs[i]->baseline_makespan_s);
        QVERIFY(others < 2.5);

        TradeoffView v;
        v.setRuns(runs);
        QCOMPARE(v.hollowCount(), 2); // the periodic points
        QVERIFY(v.footnote().contains("Hollow"));
        QCOMPARE(v.clippedCount(), 1);
        QVERIFY(v.plot()->yAxis->range().upper < outlier / 2); // not squashed
        QVERIFY(v.plot()->yAxis->range().upper >= others);     // every other point in view
        QVERIFY(v.footnote().contains("above the axis"));

        v.setLogAxes(false, true);
        QCOMPARE(v.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(v.clippedCount(), 0);
        QVERIFY(v.plot()->yAxis->range().contains(outlier));
        QVERIFY(!v.footnote().contains("above the axis"));
        v.setLogAxes(true, false);
        QCOMPARE(v.plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
        for (const auto& r : runs)
            QVERIFY(v.plot()->xAxis->range().contains(double(r->timeline->totals.peak_bytes[0])));

        // A series exactly on another (as bptt-dp's ISM on revolve when every step costs the same): the footnote says
        // so.
        std::vector<std::shared_ptr<const ckpt::Run>> twins(runs.begin() + 1, runs.begin() + 4);
        for (int i = 1; i < 4; ++i) {
            auto copy = std::make_shared<ckpt::Run>(*runs[std::size_t(i)]);
            copy->scheduler = "bptt-dp ism"; // a figure's series: a variant of an optimal scheduler, proven as well
            twins.push_back(copy);
        }
        v.setRuns(twins);
        QVERIFY2(v.footnote().contains("bptt-dp ism = revolve."), qPrintable(v.footnote()));
        QCOMPARE(v.hollowCount(), 0);
        // Only proven results: nothing hollow, no footnote about it.
        runs.resize(4);
        v.setRuns({runs.begin() + 1, runs.end()});
        QCOMPARE(v.hollowCount(), 0);
        QCOMPARE(v.clippedCount(), 0);
        QVERIFY(v.footnote().isEmpty());
        // Schedulers this machine cannot run: one footnote sentence per reason, and no legend lines (which kept a
        // printed legend to one column and a column-wide chart with no room for its data).
        std::vector<std::shared_ptr<const ckpt::Run>> some(runs.begin() + 1, runs.end());
        for (const char* name : {"multistage", "offload-all"}) {
            auto na = std::make_shared<ckpt::Run>();
            na->scheduler = name;
            na->available = false;
            na->message = "needs 2 memory levels (it writes states to a slower level); the machine 'x' has 1";
            some.push_back(na);
            some.push_back(na); // at another budget: named once
        }
        v.setRuns(some);
        QCOMPARE(v.footnote(), QString("n/a: multistage, offload-all (needs 2 memory levels)."));
        QCOMPARE(v.plot()->legend->itemCount(), v.seriesCount());
        for (int i = 0; i < v.plot()->legend->itemCount(); ++i) {
            auto* item = qobject_cast<QCPPlottableLegendItem*>(v.plot()->legend->item(i));
            QVERIFY(item && !item->plottable()->name().contains("n/a"));
        }
    }

    // On a column-wide page the footnote takes at most two lines: its reasons shortened and the schedulers that could
    // not run counted (five named, with the hollow note, took four lines at 8 pt and left the data 40 % of the page).
    // The screen keeps the whole note, and a later note replaces what the page printed.
    void aColumnWideFootnoteTakesTwoLines() {
        const auto runs = longNoteRuns();
        QVERIFY(runs.size() == 7 && runs[0]->feasible && runs[1]->feasible);
        TradeoffView v;
        v.setRuns(runs);
        QVERIFY(v.footnote().contains("offload-dp (needs 2 memory levels)."));
        PrintSize column;
        QVERIFY(printPreset("column", column));
        const QSize page = layoutSize(column);
        auto printed = [&] { return drawnFootnote(v.plot()); };
        QFont font = v.plot()->font();
        font.setPointSizeF(column.font_pt);
        // The whole note would take three lines or more.
        QVERIFY(QFontMetricsF(font).horizontalAdvance(v.footnote()) > 2 * page.width());
        fitForPrint(v.plot(), page.width(), page.height(), column.font_pt);
        QVERIFY2(printed().count('\n') <= 1, qPrintable(printed()));
        QVERIFY2(
            printed().simplified().contains("Hollow: not proven optimal. n/a (needs 2 memory levels): 5 schedulers."),
            qPrintable(printed()));
        // A note that fits is printed whole, and the new note is what prints next time (revolve proves its points).
        v.setRuns({runs[1], runs[2]});
        fitForPrint(v.plot(), page.width(), page.height(), column.font_pt);
        QCOMPARE(printed().simplified(), QString("n/a: multistage (needs 2 memory levels)."));
    }

    // On the screen the footnote is broken into lines as wide as the chart at most, again at each new width: whole on
    // one line, it ran past the chart's right edge (a window 1024 px wide cut "multistage = revolve" to "re").
    void theFootnoteWrapsToTheChartsWidth() {
        const auto runs = longNoteRuns();
        TradeoffView v;
        v.setRuns(runs);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const QFontMetricsF fm(v.plot()->font());
        for (int width : {900, 420}) {
            v.resize(width, 400);
            QCoreApplication::processEvents();
            const QString drawn = drawnFootnote(v.plot());
            for (const QString& line : drawn.split('\n'))
                QVERIFY2(fm.horizontalAdvance(line) <= v.plot()->width(), qPrintable(line));
            QVERIFY(!v.footnote().contains('\n'));
            if (width == 900) { // the whole note, every word of it, on two lines or more
                QVERIFY2(drawn.count('\n') >= 1, qPrintable(drawn));
                QCOMPARE(drawn.simplified(), v.footnote());
            } else { // more than two lines of it: the brief note instead
                QVERIFY2(drawn.count('\n') <= 1, qPrintable(drawn));
                QCOMPARE(drawn.simplified(),
                         QString("Hollow: not proven optimal. n/a (needs 2 memory levels): 5 schedulers."));
            }
        }
    }

    // A plan that keeps (nearly) nothing on level 0, as async-multistage on a two-level machine: its marker is drawn
    // whole inside the axis rectangle, not cut in half by the memory axis at 0 — at the explorer's size and at a
    // printed column's.
    void aPointAtNoMemoryIsDrawnWhole() {
        const ckpt::Chain chain = *ckpt::Chain::uniform("u", 20, ckpt::Step{1, 2, 100, 300, 0, 0});
        ckpt::SolveRequest req;
        auto all = std::make_shared<const ckpt::Run>(
            ckpt::runScheduler("store-all", ckpt::Problem(chain), ckpt::Hardware::unbounded(), req));
        req.params = {{"slots", "2"}};
        auto revolve = std::make_shared<ckpt::Run>(
            ckpt::runScheduler("revolve", ckpt::Problem(chain), ckpt::Hardware::unbounded(), req));
        QVERIFY(all->feasible && revolve->feasible);
        revolve->timeline->totals.peak_bytes[0] = 0;
        for (QSize size : {QSize(800, 500), QSize(330, 250)}) {
            TradeoffView v;
            v.resize(size);
            v.show();
            QVERIFY(QTest::qWaitForWindowExposed(&v));
            v.setRuns({all, revolve});
            v.plot()->replot();
            QCPGraph* g = series(v.plot(), "revolve");
            QVERIFY(g && g->dataCount() == 1);
            const double x = v.plot()->xAxis->coordToPixel(g->data()->at(0)->key);
            const double half = g->scatterStyle().size() / 2;
            QVERIFY2(x - half >= v.plot()->axisRect()->left(),
                     qPrintable(QString("marker from %1 px, axis from %2 px, %3 wide, widget %4")
                                    .arg(x - half)
                                    .arg(v.plot()->axisRect()->left())
                                    .arg(v.plot()->axisRect()->width())
                                    .arg(size.width())));
        }
    }

    void denseMemoryIsDecimatedToItsExactPeak() {
        const ckpt::Hardware hw = a100();
        const auto run = exampleRun("lstm-h512-b32-fp32-1000", "revolve", 20);
        QVERIFY2(run->feasible, run->message.c_str());
        TimelineView v;
        v.resize(800, 600);
        v.setRun(run, hw);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.plot()->replot();
        const auto& samples = run->timeline->memory[0];
        MemoryAreaPlottable* top = v.memoryLayer(ckpt::kMemoryCategories - 1);
        const std::vector<MemoryStep> steps = top->drawnSteps();
        const double width = top->keyAxis()->axisRect()->width();
        QVERIFY2(double(samples.size()) > 3 * width, "the plan is not dense at this width: the test shows nothing");
        QVERIFY2(double(steps.size()) <= width + 2,
                 qPrintable(QString("%1 steps on %2 px").arg(steps.size()).arg(width)));
        double peak = 0;
        for (std::size_t k = 0; k < steps.size(); ++k) {
            peak = std::max(peak, steps[k].tops.back());
            if (k > 0) QVERIFY(steps[k].start >= steps[k - 1].end - 1e-15); // in time order, never overlapping
        }
        QCOMPARE(peak, double(run->timeline->totals.peak_bytes[0]));
        QCOMPARE(v.memoryMaximum(), double(run->timeline->totals.peak_bytes[0]));
    }

    // The same chart gives the same SVG, byte for byte, whatever the seed of Qt's hashes (new in each process): the
    // timeline had put its axes on their layer in QCPAxisRect::axes()'s hash order, and `ckpt render` wrote one of
    // two files (one run in three the other). With the bug, 16 renders agree with odds of about 0.7^15.
    void theSameChartGivesTheSameSvg() {
        const ckpt::Hardware hw = a100();
        const auto run = exampleRun("small-hetero-12", "rotor", 2);
        QVERIFY2(run->feasible, run->message.c_str());
        QByteArray first;
        for (int k = 0; k < 16; ++k) {
            QHashSeed::resetRandomGlobalSeed(); // the hashes made from here on, as in a new process
            TimelineView v;
            v.setRun(run, hw);
            const QString svg = m_dir.filePath(QString("same-%1.svg").arg(k));
            QCOMPARE(exportChart(v.plot(), svg, 640, 400), QString());
            QFile f(svg);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            QVERIFY(bytes.size() > 1000);
            if (k == 0) first = bytes;
            QVERIFY2(bytes == first, qPrintable(QString("render %1 differs from the first").arg(k)));
        }
    }

    // A legend goes to the corner where it hides no data (top right when that is free), and where every corner hides
    // some, to the one hiding least, with a background that lets it show through. In a fixed corner (top right) the
    // legend hid a point of the trade-off chart at 1024 x 700, and curves of the sweep in presentation mode.
    void theLegendHidesTheLeastData() {
        QCustomPlot plot;
        plot.resize(600, 400);
        plot.legend->setVisible(true);
        keepLegendClear(&plot);
        QCPGraph* g = plot.addGraph();
        g->setName("points");
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
        plot.xAxis->setRange(0, 10);
        plot.yAxis->setRange(0, 10);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        // corner: 0 top right, 1 top left, 2 bottom right, 3 bottom left (legendCoverage's order).
        const Qt::Alignment corners[] = {Qt::AlignTop | Qt::AlignRight, Qt::AlignTop | Qt::AlignLeft,
                                         Qt::AlignBottom | Qt::AlignRight, Qt::AlignBottom | Qt::AlignLeft};
        auto check = [&](const QVector<double>& x, const QVector<double>& y, int corner, bool clear) {
            g->setData(x, y);
            plot.replot();
            const QList<int> cover = legendCoverage(&plot);
            const QString what = QString("cover %1 %2 %3 %4").arg(cover[0]).arg(cover[1]).arg(cover[2]).arg(cover[3]);
            QVERIFY2(legendCorner(&plot) == corners[corner], qPrintable(what));
            QCOMPARE(cover[corner], *std::min_element(cover.begin(), cover.end()));
            QCOMPARE(cover[corner] == 0, clear);
            QCOMPARE(plot.legend->brush().color().alpha() == 255, clear); // else the data shows through it
            // Drawn where it is said to be: its box in that corner of the axis rect.
            const QRect box = plot.legend->outerRect(), rect = plot.axisRect()->rect();
            const bool top = box.top() - rect.top() < rect.bottom() - box.bottom();
            const bool left = box.left() - rect.left() < rect.right() - box.right();
            QCOMPARE(top, corner < 2);
            QCOMPARE(left, corner % 2 == 1);
        };
        check({1, 2, 3}, {1, 2, 3}, 0, true);             // bottom left only: the top right is free
        check({9.8, 9.5}, {9.8, 9.6}, 1, true);           // points under the top right corner
        check({9.8, 0.2, 9.8}, {9.8, 9.8, 0.2}, 3, true); // three corners taken
        // Every corner taken, the top left least.
        check({9.8, 9.6, 0.2, 9.8, 9.6, 0.2, 0.4, 0.6}, {9.8, 9.6, 9.8, 0.2, 0.4, 0.2, 0.4, 0.6}, 1, false);
        // A line through a corner with no point in it hides data too.
        g->setLineStyle(QCPGraph::lsLine);
        g->setScatterStyle(QCPScatterStyle());
        check({0, 10}, {9.5, 9.5}, 2, true);
    }

    // Any visible range and width: every stacked total's highest drawn value is its highest over the samples in
    // force in that range (a column either side, as drawn), and the stack stays ordered.
    void decimationKeepsEveryMaximum() {
        std::mt19937 rng(7);
        std::vector<ckpt::MemorySample> curve;
        double t = 0;
        for (int i = 0; i < 5000; ++i) {
            ckpt::MemorySample s;
            s.time = t;
            for (auto& b : s.bytes)
                b = std::int64_t(rng() % 1000);
            curve.push_back(s);
            t += (rng() % 4 == 0) ? 0.0 : double(rng() % 100) * 1e-6; // zero-length samples too
        }
        auto memory = StackedMemory::of(curve, t + 1e-4);
        for (int trial = 0; trial < 200; ++trial) {
            double t0 = double(rng() % 1000) / 1000 * t, t1 = t0 + double(rng() % 1000 + 1) / 1000 * (t - t0 + 1e-4);
            const int columns = int(rng() % 900) + 1;
            const auto steps = decimateMemory(*memory, t0, t1, columns);
            const double w = (t1 - t0) / columns;
            std::array<double, ckpt::kMemoryCategories> want{}, got{};
            // From the sample in force at t0 to the last that starts by the column after t1.
            const auto& times = memory->times;
            std::size_t i = std::size_t(std::upper_bound(times.begin(), times.end(), t0) - times.begin());
            for (i = i > 0 ? i - 1 : 0; i < times.size() && times[i] <= t1 + w; ++i)
                for (std::size_t c = 0; c < want.size(); ++c)
                    want[c] = std::max(want[c], memory->tops[i][c]);
            for (const MemoryStep& st : steps)
                for (std::size_t c = 0; c < got.size(); ++c) {
                    got[c] = std::max(got[c], st.tops[c]);
                    if (c > 0) QVERIFY(st.tops[c] >= st.tops[c - 1]);
                }
            QVERIFY2(got == want, qPrintable(QString("trial %1").arg(trial)));
            QVERIFY(int(steps.size()) <= columns + 3);
        }
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
