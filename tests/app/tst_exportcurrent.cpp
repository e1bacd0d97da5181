// File ▸ Export ▸ (current tab) exports what the tab shows, never the Timeline in its place: the graph view's picture,
// Side by side's two timelines stacked, the Comparison table as CSV, a clear message for a tab with nothing drawn.
#include "models/comparisonmodel.h"
#include "models/document.h"
#include "plots/chartexport.h"
#include "plots/timelineview.h"
#include "widgets/graphview.h"
#include "widgets/mainwindow.h"
#include "widgets/schedulerpanel.h"

#include <QGraphicsScene>
#include <QGraphicsView>
#include <QImage>
#include <QMenu>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

namespace {
const QString kSmall = QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json";
const QString kGraph = QString(CKPT_SOURCE_DIR) + "/examples/linear-32.ckpt-graph.json";
QByteArray readAll(const QString& p) {
    QFile f(p);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
int pixelsOf(const QImage& image, QColor c) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += image.pixelColor(x, y).rgb() == c.rgb();
    return n;
}
QStringList exportItems(MainWindow& w) { // the visible items before the first separator, as the menu shows them
    emit w.exportMenu()->aboutToShow();
    QStringList out;
    for (QAction* a : w.exportMenu()->actions()) {
        if (a->isSeparator()) break;
        if (a->isVisible()) out << a->text();
    }
    return out;
}
} // namespace

class TestExportCurrent : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void chartTabsExportAsBefore() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        w.runCurrentNow();
        for (const QString tab : {"timeline", "sweep", "tradeoff"}) {
            QVERIFY(w.showChartTab(tab));
            QCOMPARE(w.currentChartTab(), tab);
            const QString a = m_dir.filePath(tab + "-tab.png"), b = m_dir.filePath(tab + "-chart.png");
            QCOMPARE(w.exportCurrentTab(a, 640, 400), QString());
            QCOMPARE(w.exportChart(tab, b, 640, 400), QString());
            QCOMPARE(QImage(a), QImage(b));
        }
        QVERIFY(w.showChartTab("timeline"));
        QCOMPARE(exportItems(w),
                 QStringList({"Timeline as &PDF…", "Timeline as &SVG…", "Timeline as P&NG…", "&All charts…"}));
    }

    void graphTabExportsTheGraphPicture() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kGraph));
        w.runCurrentNow();
        QVERIFY(w.showChartTab("graph"));
        QCOMPARE(exportItems(w).front(), QString("Graph as &PDF…"));
        const QString png = m_dir.filePath("graph.png"), svg = m_dir.filePath("graph.svg"),
                      pdf = m_dir.filePath("graph.pdf"), timeline = m_dir.filePath("timeline.svg");
        QCOMPARE(w.exportCurrentTab(png, 900, 700), QString());
        const QImage image(png);
        QCOMPARE(image.size(), QSize(900, 700));
        // The nodes' fill (what the plan does with each output) is in the picture: it is the graph, not a chart.
        QVERIFY2(pixelsOf(image, w.graphView()->nodeColor(0)) > 200, "no node drawn");
        QCOMPARE(w.exportCurrentTab(svg, 900, 700), QString());
        QCOMPARE(w.exportChart("timeline", timeline, 900, 700), QString());
        for (const char* id : {"s1", "s17", "s32"}) { // node ids, drawn as text
            QVERIFY2(readAll(svg).contains(QByteArray(">") + id + "<"), id);
            QVERIFY(!readAll(timeline).contains(QByteArray(">") + id + "<"));
        }
        QCOMPARE(w.exportCurrentTab(pdf, 900, 700), QString());
        QVERIFY(readAll(pdf).startsWith("%PDF"));
        QVERIFY(w.exportCurrentTab(m_dir.filePath("graph.bmp"), 900, 700).contains("unknown picture format"));
        // Proposed at the view's unzoomed scale, where the labels read (not squeezed into a chart's 1600x900).
        const QSize proposed = w.exportSize();
        const QRectF scene = w.graphView()->view()->scene()->itemsBoundingRect();
        QCOMPARE(proposed, QSize(int(scene.width() + 24), int(scene.height() + 24)));
        QVERIFY(proposed != QSize(1600, 900));
    }

    void sideBySideStacksBothTimelines() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        QVERIFY(w.showChartTab("side"));
        const QString out = m_dir.filePath("side.png");
        QVERIFY(w.exportCurrentTab(out, 800, 600).contains("pin a plan first"));
        QVERIFY(!QFileInfo::exists(out));
        w.schedulerPanel()->setCurrentScheduler("revolve");
        w.runCurrentNow();
        w.pinShownRun();
        w.schedulerPanel()->setCurrentScheduler("store-all");
        w.runCurrentNow();
        QCOMPARE(w.exportCurrentTab(out, 800, 600), QString());
        const QImage both(out);
        QCOMPARE(both.size(), QSize(800, 600));
        // The shown plan above, the pinned one below, each as its own chart export draws it at half the height.
        const QString top = m_dir.filePath("top.png"), bottom = m_dir.filePath("bottom.png");
        QCOMPARE(exportChart(w.sideView()->plot(), top, 800, 300), QString());
        QCOMPARE(exportChart(w.pinnedView()->plot(), bottom, 800, 300), QString());
        QCOMPARE(both.copy(0, 0, 800, 300).convertToFormat(QImage::Format_RGB32),
                 QImage(top).convertToFormat(QImage::Format_RGB32));
        QCOMPARE(both.copy(0, 300, 800, 300).convertToFormat(QImage::Format_RGB32),
                 QImage(bottom).convertToFormat(QImage::Format_RGB32));
        QVERIFY(QImage(top) != QImage(bottom));
        const QString svg = m_dir.filePath("side.svg");
        QCOMPARE(w.exportCurrentTab(svg, 800, 600), QString());
        QVERIFY(readAll(svg).contains("<svg"));
    }

    void comparisonTabExportsCsv() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        QVERIFY(w.showChartTab("comparison"));
        QVERIFY(w.exportCurrentTab(m_dir.filePath("empty.csv"), 0, 0).contains("empty"));
        w.document()->settings().schedulers = {"store-all", "revolve"};
        w.document()->settings().budgets = "none,60%";
        w.runAllNow();
        // The menu offers the table as CSV and no picture of it.
        QCOMPARE(exportItems(w), QStringList({"Co&mparison table as CSV…", "&All charts…"}));
        QVERIFY(w.exportCurrentTab(m_dir.filePath("c.png"), 800, 600).contains("export it as CSV"));
        QVERIFY(!QFileInfo::exists(m_dir.filePath("c.png")));
        const QString csv = m_dir.filePath("c.csv");
        QCOMPARE(w.exportCurrentTab(csv, 0, 0), QString());
        const QList<QByteArray> lines = readAll(csv).trimmed().split('\n');
        QCOMPARE(lines.size(), w.comparisonModel()->rowCount() + 1);
        QVERIFY(lines[0].startsWith("scheduler,parameters,budget_bytes,feasible,"));
        // A chart tab refuses CSV instead of writing a picture under that name.
        QVERIFY(w.showChartTab("timeline"));
        QVERIFY(w.exportCurrentTab(m_dir.filePath("t.csv"), 800, 600).contains("CSV is for the Comparison table"));
    }

    void trainerWithoutAChartSaysSo() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        w.runCurrentNow();
        QVERIFY(w.showChartTab("trainer"));
        const QString out = m_dir.filePath("trainer.png");
        QVERIFY(w.exportCurrentTab(out, 800, 600).contains("no chart yet: train first"));
        QVERIFY(!QFileInfo::exists(out));
    }
};

QTEST_MAIN(TestExportCurrent)
#include "tst_exportcurrent.moc"
