// The charts as an author uses them: a scheduler looks the same in every chart, in the explorer and in `ckpt render`.
#include "models/document.h"
#include "plots/schedulerstyle.h"
#include "plots/tradeoffview.h"
#include "schedulers/graph_registry.h"
#include "schedulers/registry.h"
#include "widgets/mainwindow.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>
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
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
