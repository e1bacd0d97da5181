// File ▸ Export's dialog for a chart tab: physical sizes and presets as `ckpt render` has them, a preview drawn by
// the code that writes the file, and the window's own charts left as they are on screen.
#include "common/pdf_readback.h"
#include "models/document.h"
#include "plots/printsize.h"
#include "plots/timelineview.h"
#include "widgets/exportdialog.h"
#include "widgets/mainwindow.h"

#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace ckpt::test;

class TestExportDialog : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    static PrintSize preset(const char* name) {
        PrintSize s;
        printPreset(name, s);
        return s;
    }

private slots:
    void initTestCase() {
        if (!haveTools()) QSKIP("poppler-utils (pdfinfo, pdftotext) is not installed");
    }

    // PDF starts at one column, 8 pt; a preset sets the size and the font; a change of unit keeps the size.
    void defaultsPresetsAndUnits() {
        MainWindow w;
        ExportDialog d(w.chartCopies("timeline"), "x-timeline.pdf");
        QCOMPARE(d.format(), QString("pdf"));
        QCOMPARE(d.preset(), QString("column"));
        QCOMPARE(d.printSize().width_pt, preset("column").width_pt);
        QCOMPARE(d.printSize().height_pt, preset("column").height_pt);
        QCOMPARE(d.printSize().font_pt, 8.0);
        d.setPreset("slide");
        QCOMPARE(d.printSize().width_pt, preset("slide").width_pt);
        QCOMPARE(d.printSize().font_pt, preset("slide").font_pt);
        QCOMPARE(d.preset(), QString("slide"));
        d.setSize(8.9, 6, "cm");
        QCOMPARE(d.preset(), QString("custom"));
        QVERIFY(std::abs(d.printSize().width_pt - 8.9 / 2.54 * 72) < 1e-9);
        // Bad values disable Export and say why.
        QPushButton* exportButton = nullptr;
        for (QPushButton* b : d.findChildren<QPushButton*>())
            if (b->text().contains("Export")) exportButton = b;
        QVERIFY(exportButton && exportButton->isEnabled());
        d.setSize(0, 6, "cm");
        QVERIFY(!d.problem().isEmpty());
        QVERIFY(!exportButton->isEnabled());
        d.setSize(8.9, 6, "cm");
        d.setFontSize(2);
        QVERIFY(d.problem().contains("font"));
        d.setFontSize(9);
        d.setSize(1600, 900, "px");
        QVERIFY(d.problem().contains("px is for PNG"));
        d.setFormat("png");
        QVERIFY(d.problem().isEmpty());
        // A poster-sized PNG at 300 dpi would take gigabytes: refused with its pixels, until the dpi comes down.
        d.setSize(60, 40, "in");
        d.setDpi(300);
        QVERIFY2(d.problem().contains("18000 × 12000 px is more than 16384 px a side"), qPrintable(d.problem()));
        QVERIFY(!exportButton->isEnabled());
        d.setDpi(150);
        QVERIFY(d.problem().isEmpty());
    }

    // The preview says when the page made the text smaller than asked, or is too small for the chart: a column at
    // 8 pt says nothing; at 16 pt the trade-off's names step down; at 24 pt the Timeline's two charts and their
    // axes do not fit at all.
    void thePreviewSaysWhenTheTextDoesNotFit() {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 800);
        QVERIFY(w.openFile(QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json"));
        w.document()->settings().schedulers = {"store-all", "periodic", "revolve", "rotor", "bptt-dp", "offload-dp"};
        w.document()->settings().budgets = "none,50%";
        w.runAllNow();
        ExportDialog tradeoff(w.chartCopies("tradeoff"), "x-tradeoff.pdf");
        tradeoff.refreshPreview();
        QVERIFY2(tradeoff.fitNote().isEmpty(), qPrintable(tradeoff.fitNote()));
        tradeoff.setFontSize(16);
        tradeoff.refreshPreview();
        QVERIFY2(tradeoff.fitNote().contains("legend is set at"), qPrintable(tradeoff.fitNote()));
        QVERIFY(w.runCurrentNow());
        ExportDialog timeline(w.chartCopies("timeline"), "x-timeline.pdf");
        timeline.setFontSize(24);
        timeline.refreshPreview();
        QVERIFY2(timeline.fitNote().contains("does not fit"), qPrintable(timeline.fitNote()));
        timeline.setFontSize(8);
        timeline.refreshPreview();
        QVERIFY2(timeline.fitNote().isEmpty(), qPrintable(timeline.fitNote()));
    }

    // A plan's Timeline exported through the dialog: the PDF's page is the size asked (in whole points, as Qt
    // writes it), no text under 6 pt and none overlapping; the preview has the page's shape; the window's chart keeps
    // its screen fonts and its legend (a print layout of the window's own chart would have changed both).
    void exportsTheSizeAskedAndLeavesTheWindowAlone() {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 800);
        QVERIFY(w.runCurrentNow());
        QCustomPlot* onScreen = w.timelineView()->plot();
        const QFont screenFont = onScreen->xAxis->tickLabelFont();
        const int screenRows = onScreen->plotLayout()->rowCount();
        ExportDialog d(w.chartCopies("timeline"), "x-timeline.pdf");
        d.setSize(3.3, 2.4, "in");
        d.refreshPreview();
        QVERIFY(!d.preview().isNull());
        QVERIFY(std::abs(double(d.preview().width()) / d.preview().height() - 3.3 / 2.4) < 0.02);
        const QString pdf = m_dir.filePath("timeline.pdf");
        QCOMPARE(d.exportTo(pdf), QString());
        QCOMPARE(pageSize(pdf), QString("%1 x %2").arg(std::lround(3.3 * 72)).arg(std::lround(2.4 * 72)));
        checkText(words(pdf), std::lround(3.3 * 72), std::lround(2.4 * 72));
        QCOMPARE(onScreen->xAxis->tickLabelFont(), screenFont);
        QCOMPARE(onScreen->plotLayout()->rowCount(), screenRows);
    }

    // Side by side exports both timelines stacked on one page of the preset's size.
    void sideBySideStacksTwoCharts() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.runCurrentNow());
        const auto views = w.chartCopies("side")();
        QCOMPARE(int(views.size()), 2);
        QVERIFY(!w.chartCopies("graph"));
        QVERIFY(!w.chartCopies("comparison"));
    }
};

QTEST_MAIN(TestExportDialog)
#include "tst_exportdialog.moc"
