// The charts as an author uses them: a scheduler looks the same in every chart, in the explorer and in `ckpt render`.
#include "models/document.h"
#include "plots/memoryareagraph.h"
#include "plots/schedulerstyle.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "run/runner.h"
#include "schedulers/graph_registry.h"
#include "schedulers/registry.h"
#include "widgets/mainwindow.h"

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
            QVERIFY2(markers.insert(int(s.marker)).second, ("marker shared by " + n).c_str());
            QVERIFY2(looks.insert({s.color.rgb(), int(s.dash)}).second, ("colour and dash shared by " + n).c_str());
            // Contrast at least 2.2:1 against white, for lines with markers (the old yellow had 1.3:1).
            QVERIFY2(1.05 / (luminance(s.color) + 0.05) >= 2.2, ("too faint on white: " + n).c_str());
        }
        // Within one registry, colours differ too, so a legend can be read by colour alone.
        std::set<QRgb> chainColours;
        for (const auto& s : ckpt::schedulers())
            QVERIFY2(chainColours.insert(schedulerStyle(s.name).color.rgb()).second, s.name.c_str());
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

    // Memory that changes many times per pixel draws each column's peak in the category's full colour (the curve's
    // envelope), as a stretch that holds that memory does: the peak stays visible. QCustomPlot's own fill drew such
    // a stretch as a faint moiré of thin spikes, and took seconds a redraw on the dense plans of the LSTM example.
    void memoryChartDrawsEachColumnsPeak() {
        using namespace ckpt;
        constexpr int kDense = 40000; // samples in the first half, about 80 a pixel column
        constexpr double kDt = 1e-6;
        Timeline tl;
        tl.lanes = {"compute"};
        std::vector<MemorySample> curve;
        for (int k = 0; k < kDense; ++k) // states 1000 B; tapes 1000 B every other sample
            curve.push_back(MemorySample{k * kDt, {1000, k % 2 ? 1000 : 0, 0, 0}});
        curve.push_back(MemorySample{kDense * kDt, {1000, 1000, 0, 0}}); // then held for as long
        tl.memory = {curve};
        tl.totals.makespan_s = 2 * kDense * kDt;
        tl.totals.peak_bytes = {2000};
        auto run = std::make_shared<Run>();
        run->scheduler = "synthetic";
        run->feasible = true;
        run->baseline_makespan_s = tl.totals.makespan_s;
        run->timeline = std::move(tl);
        TimelineView view;
        view.resize(1000, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setRun(run, Hardware::unbounded());
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QImage image = view.plot()->toPixmap().toImage();
        QCPAxisRect* memory = view.plot()->axisRects().at(1);
        auto colourAt = [&](double time, double bytes) {
            return image.pixelColor(int(memory->axis(QCPAxis::atBottom)->coordToPixel(time)),
                                    int(memory->axis(QCPAxis::atLeft)->coordToPixel(bytes)));
        };
        const double held = 1.537 * kDense * kDt; // off the grid lines, which show through the fill
        const QColor tapes = colourAt(held, 1500), states = colourAt(held, 500);
        QVERIFY(tapes != states && tapes != QColor(Qt::white));
        auto near = [](const QColor& a, const QColor& b) {
            return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) <= 12;
        };
        for (int k = 1; k < 20; ++k) {
            const double t = kDense * kDt * (k + 0.37) / 20.0;
            for (double bytes : {1100.0, 1500.0, 1950.0})
                QVERIFY2(near(colourAt(t, bytes), tapes),
                         qPrintable(QString("at %1 s, %2 B: %3, the held tapes are %4")
                                        .arg(t)
                                        .arg(bytes)
                                        .arg(colourAt(t, bytes).name(), tapes.name())));
            QVERIFY(near(colourAt(t, 500), states));
            QVERIFY(!near(colourAt(t, 2100), tapes)); // nothing above the peak
        }
    }

    // The memory chart's fill as rectangles: disjoint, covering exactly each column's rows, and few where the columns
    // agree (one for a flat stretch, one per step of a staircase).
    void columnRectsCoverExactlyTheColumns() {
        std::mt19937 rng(5);
        for (int round = 0; round < 200; ++round) {
            const int columns = 1 + int(rng() % 40);
            std::vector<int> y0(static_cast<std::size_t>(columns), 0), y1(static_cast<std::size_t>(columns), 0);
            for (int c = 0; c < columns; ++c) {
                y0[std::size_t(c)] = int(rng() % 30);
                y1[std::size_t(c)] = round % 3 ? int(rng() % 30) : 29; // some with a flat bottom
            }
            std::vector<int> count(std::size_t(columns) * 30, 0);
            for (const QRect& r : columnRects(y0, y1)) {
                QVERIFY(!r.isEmpty());
                for (int x = r.left(); x <= r.right(); ++x)
                    for (int y = r.top(); y <= r.bottom(); ++y) {
                        QVERIFY(x >= 0 && x < columns && y >= 0 && y < 30);
                        ++count[std::size_t(x) * 30 + std::size_t(y)];
                    }
            }
            for (int c = 0; c < columns; ++c)
                for (int y = 0; y < 30; ++y)
                    QCOMPARE(count[std::size_t(c) * 30 + std::size_t(y)],
                             y0[std::size_t(c)] <= y && y < y1[std::size_t(c)] ? 1 : 0);
        }
        QCOMPARE(columnRects(std::vector<int>(500, 10), std::vector<int>(500, 90)).size(), 1);
        std::vector<int> stairs(100), floor(100, 200);
        for (int c = 0; c < 100; ++c)
            stairs[std::size_t(c)] = 100 - c / 10; // ten steps up
        QCOMPARE(columnRects(stairs, floor).size(), 10);
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
