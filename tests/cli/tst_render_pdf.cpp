// `ckpt render` figures read back as a reader's PDF viewer sees them (poppler-utils): the page is the size asked
// for, no text is smaller than 6 pt, no two words overlap, and the legend lists what the chart draws, unclipped.
#include <QTemporaryDir>
#include <QtTest>

#include "common/ckpt_process.h"
#include "common/pdf_readback.h"

using ckpt::test::ckptRun;
using ckpt::test::pageSize;
using ckpt::test::tool;
using ckpt::test::Word;
using ckpt::test::words;

class TestRenderPdf : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString render(const QString& name, const QStringList& extra) {
        const QString out = m_dir.filePath(name);
        auto o = ckptRun(
            QStringList{"render", QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json", "--hardware",
                        QString(CKPT_SOURCE_DIR) + "/resources/hardware/gpu-a100.ckpt-hardware.json", "--out", out} +
            extra);
        if (o.code != 0) qWarning("%s", o.err.constData());
        return o.code == 0 ? out : QString();
    }

    void checkText(const QString& pdf, double pageW, double pageH) { ckpt::test::checkText(words(pdf), pageW, pageH); }

private slots:
    void initTestCase() {
        if (tool("pdftotext").isEmpty() || tool("pdfinfo").isEmpty())
            QSKIP("poppler-utils is not installed (scripts/setup-debian installs it)");
    }

    void defaultIsOneColumnAtEightPoints_data() {
        QTest::addColumn<QString>("chart");
        QTest::newRow("tradeoff") << "tradeoff";
        QTest::newRow("memory") << "memory";
    }
    void defaultIsOneColumnAtEightPoints() {
        QFETCH(QString, chart);
        const QString pdf = render(chart + ".pdf", {"--chart", chart, "--scheduler", "revolve", "--budget", "50%"});
        QVERIFY(!pdf.isEmpty());
        QCOMPARE(pageSize(pdf), QString("252 x 180"));
        checkText(pdf, 252, 180);
        QStringList text;
        for (const Word& w : words(pdf))
            text << w.text;
        if (chart == "memory") {
            // What the memory chart draws, the budget line included, and no Gantt kinds.
            QVERIFY(text.contains("budget") && text.contains("states"));
            QVERIFY(!text.contains("forward") && !text.contains("recompute"));
        } else {
            for (const char* s : {"store-all", "revolve", "rotor", "double-checkpointing", "async-multistage"})
                QVERIFY2(text.contains(s), s); // whole, not clipped
        }
    }

    // Every chain scheduler's trade-off at a column's width with a larger font: the legend takes as many columns as
    // fit (each as wide as its own names, filled down when that fits more), so its rows neither overlap nor push the
    // chart off the page, and the time axis's title breaks into lines instead of running off the page's top. (With one
    // column of eleven rows at 9 pt, the rows overlapped, and "store-all's" ran off the page's top.) At 12 pt the
    // legend would take most of the page even so: it steps down, and `render` says to what.
    void aLargerFontStillFitsAColumn_data() {
        QTest::addColumn<int>("font");
        QTest::newRow("8 pt") << 8;
        QTest::newRow("9 pt") << 9;
        QTest::newRow("10 pt") << 10;
        QTest::newRow("12 pt") << 12; // the legend steps down to leave the chart room, and the command says so
    }
    void aLargerFontStillFitsAColumn() {
        QFETCH(int, font);
        const QString pdf = m_dir.filePath(QString("font%1.pdf").arg(font));
        const auto o = ckptRun(
            {"render", QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json", "--hardware",
             QString(CKPT_SOURCE_DIR) + "/resources/hardware/gpu-a100.ckpt-hardware.json", "--out", pdf, "--chart",
             "tradeoff", "--scheduler", "revolve", "--budget", "50%", "--font-size", QString::number(font)});
        QCOMPARE(o.code, 0);
        const QRegularExpression note("the legend is set at ([0-9]+) pt, not " + QString::number(font),
                                      QRegularExpression::CaseInsensitiveOption);
        const auto shrunk = note.match(QString::fromUtf8(o.err));
        if (font == 8) QVERIFY2(!shrunk.hasMatch(), o.err.constData()); // the default size as asked
        if (font == 12) QVERIFY2(shrunk.hasMatch(), o.err.constData());
        const int legendPt = shrunk.hasMatch() ? shrunk.captured(1).toInt() : font;
        QVERIFY(legendPt >= 6 && legendPt <= font);
        QCOMPARE(pageSize(pdf), QString("252 x 180"));
        checkText(pdf, 252, 180);
        QStringList text;
        double legendTop = 180, legendLine = 0, titleLine = 0;
        for (const Word& w : words(pdf)) {
            text << w.text;
            if (w.text == "periodic") legendTop = w.box.top(), legendLine = w.box.height();
            if (w.text == "peak") titleLine = w.box.height(); // the memory axis's title, at the size asked
        }
        // The legend's text at the size the note gave (or the size asked), the axes' at the size asked.
        QVERIFY(titleLine > 0 && legendLine > 0);
        QVERIFY2(std::abs(legendLine / titleLine - double(legendPt) / font) < 0.05,
                 qPrintable(QString("legend line %1 pt, title line %2 pt").arg(legendLine).arg(titleLine)));
        QVERIFY(text.contains("time") && text.contains("store-all's"));
        for (const char* s : {"store-all", "periodic", "revolve", "rotor", "bptt-dp", "multistage", "async-multistage",
                              "double-checkpointing", "offload-all", "offload-dp"})
            QVERIFY2(text.contains(s), s);
        // The chart above the legend keeps over a third of the page.
        QVERIFY2(legendTop > 180 / 3.0, qPrintable(QString("the legend starts at %1 pt").arg(legendTop)));
    }

    // The Gantt and memory charts at a column's width and 16 pt: the legend steps down, and nothing runs into other
    // text or off the page. The lanes' title "lane", one word longer than the one lane is high, steps down too (at
    // 16 pt it ran off the page's top, where the PDF's text lost it). Much larger, the command says the chart does
    // not fit.
    void aGanttAtSixteenPointsKeepsToThePage() {
        const QString pdf = m_dir.filePath("gantt16.pdf");
        const QStringList args{
            "render",      QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json",
            "--hardware",  QString(CKPT_SOURCE_DIR) + "/resources/hardware/gpu-a100.ckpt-hardware.json",
            "--chart",     "gantt",
            "--scheduler", "revolve",
            "--budget",    "50%"};
        auto o = ckptRun(args + QStringList{"--out", pdf, "--font-size", "16"});
        QCOMPARE(o.code, 0);
        QVERIFY2(o.err.contains("legend is set at"), o.err.constData());
        checkText(pdf, 252, 180);
        QStringList text;
        for (const Word& w : words(pdf))
            text << w.text;
        QVERIFY(text.contains("compute") && text.contains("memory") && text.contains("time"));
        QVERIFY(text.contains("lane"));
        o = ckptRun(args + QStringList{"--out", m_dir.filePath("gantt40.pdf"), "--font-size", "40"});
        QCOMPARE(o.code, 0);
        QVERIFY2(o.err.contains("does not fit 252 × 180 pt"), o.err.constData());
    }

    // Two lanes (async-multistage writes to host DRAM) in a column-wide Gantt at 12 pt: the lanes are closer than a
    // line of 12 pt text, so their names step down instead of running into each other ("compute" over "host DRAM").
    void laneNamesStepDownWhenLanesAreThin() {
        const QString pdf = m_dir.filePath("lanes12.pdf");
        const auto o =
            ckptRun({"render", QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json", "--hardware",
                     QString(CKPT_SOURCE_DIR) + "/resources/hardware/gpu-a100.ckpt-hardware.json", "--chart", "gantt",
                     "--scheduler", "async-multistage", "--budget", "50%", "--out", pdf, "--font-size", "12"});
        QCOMPARE(o.code, 0);
        checkText(pdf, 252, 180);
        QStringList text;
        for (const Word& w : words(pdf))
            text << w.text;
        QVERIFY(text.contains("compute") && text.contains("host") && text.contains("DRAM"));
    }

    // The sweep diagram's kept checkpoints are markers without a pen of their own: printed, they keep the graph's
    // (black) instead of none, on the chart and in the legend.
    void sweepMarksArePrinted() {
        const QString pdf = render(
            "sweep.pdf", {"--chart", "sweep", "--scheduler", "revolve", "--slots", "3", "--preset", "two-column"});
        QVERIFY(!pdf.isEmpty());
        const QImage page = ckpt::test::pageImage(pdf, 288);
        int found = 0;
        const QList<Word> ws = words(pdf);
        for (int i = 0; i + 1 < ws.size(); ++i)
            if (const Word& w = ws[i]; w.text == "checkpoint" && ws[i + 1].text == "stored") {
                ++found;
                const QColor icon = ckpt::test::iconColour(page, 288, w.box, 8);
                QVERIFY2(icon.red() + icon.green() + icon.blue() < 200, qPrintable(icon.name()));
            }
        QCOMPARE(found, 1);
    }

    // Byte ticks at a page's width: no more labels than fit, so a label ends at least half a word's space (4 pt)
    // before the next begins, and none runs into the next ("MiB100.00").
    void byteTicksLeaveRoom() {
        const QString pdf = render(
            "wide.pdf", {"--chart", "tradeoff", "--schedulers", "store-all,revolve,rotor", "--preset", "two-column"});
        QVERIFY(!pdf.isEmpty());
        const QList<Word> ws = words(pdf);
        int labels = 0;
        for (const Word& a : ws) {
            QVERIFY2(!a.text.contains(QRegularExpression("MiB[0-9]")), qPrintable(a.text));
            if (!a.text.endsWith("MiB")) continue;
            ++labels;
            for (const Word& b : ws)
                if (std::abs(b.box.top() - a.box.top()) < 1 && b.box.left() > a.box.right() &&
                    b.box.left() - a.box.right() < 4)
                    QFAIL(qPrintable(a.text + " and " + b.text + " nearly touch"));
        }
        QVERIFY(labels >= 3);
    }

    // A legend row's text is whole on the page: the descender of the "g" in "gradients" (the Gantt legend's last row,
    // at the page's foot) is printed, not clipped by its cell.
    void legendDescendersArePrinted() {
        // One level, so the legend is two rows and "gradients" is on the last.
        const QString pdf = m_dir.filePath("g.pdf");
        QCOMPARE(ckptRun({"render", QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json", "--chart",
                          "gantt", "--scheduler", "revolve", "--slots", "3", "--out", pdf})
                     .code,
                 0);
        const QImage page = ckpt::test::pageImage(pdf, 288);
        const double s = 288.0 / 72;
        int found = 0;
        for (const Word& w : words(pdf))
            if (w.text == "gradients") {
                ++found;
                // The lowest ink under its first letter: the g's descender reaches past 90 % of the box's height
                // (cut by its cell, it stopped at 83 %).
                double lowest = 0;
                for (int y = int(w.box.top() * s); y < std::min(page.height(), int(w.box.bottom() * s) + 8); ++y)
                    for (int x = int(w.box.left() * s); x < int((w.box.left() + 4) * s); ++x)
                        if (qGray(page.pixel(x, y)) < 128) lowest = (y / s - w.box.top()) / w.box.height();
                QVERIFY2(lowest > 0.9, qPrintable(QString("the g's ink ends at %1 of the word's height").arg(lowest)));
            }
        QCOMPARE(found, 1);
    }

    // --at ACTION draws a line at that action's start on the Gantt and memory charts; --frames DIR writes one picture
    // per N actions, the line moving right as the plan goes on.
    void atAndFrames() {
        const QString example = QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json";
        auto lineAt = [](const QImage& img) { // the leftmost column holding the marker's colour, or -1
            for (int x = 0; x < img.width(); ++x)
                for (int y = 0; y < img.height(); ++y) {
                    const QColor c = img.pixelColor(x, y);
                    if (c.red() > 170 && c.green() < 40 && c.blue() > 90 && c.blue() < 150) return x;
                }
            return -1;
        };
        const QString dir = m_dir.filePath("frames");
        auto o = ckptRun({"render", example, "--scheduler", "revolve", "--slots", "3", "--chart", "gantt", "--frames",
                          dir, "--every", "4", "--size", "400pxx300px"});
        QCOMPARE(o.code, 0);
        // revolve with 3 slots on 12 steps: 45 actions, so frames at 0, 4, ..., 44.
        const QStringList frames = QDir(dir).entryList({"frame-*.png"}, QDir::Files, QDir::Name);
        QCOMPARE(frames.size(), 12);
        QCOMPARE(frames.first(), QString("frame-00000.png"));
        QCOMPARE(frames.last(), QString("frame-00044.png"));
        int last = -1;
        for (const QString& f : frames) {
            const int x = lineAt(QImage(QDir(dir).filePath(f)));
            QVERIFY2(x > last, qPrintable(f + ": the line at " + QString::number(x)));
            last = x;
        }
        const QString one = m_dir.filePath("at.png"), none = m_dir.filePath("none.png");
        QCOMPARE(ckptRun({"render", example, "--scheduler", "revolve", "--slots", "3", "--chart", "memory", "--at",
                          "20", "--out", one, "--size", "400pxx300px"})
                     .code,
                 0);
        QCOMPARE(ckptRun({"render", example, "--scheduler", "revolve", "--slots", "3", "--chart", "memory", "--out",
                          none, "--size", "400pxx300px"})
                     .code,
                 0);
        QVERIFY(lineAt(QImage(one)) > 0);
        QCOMPARE(lineAt(QImage(none)), -1);
        // Past the plan's end, a zero step, a trade-off (no one plan), --every without --frames: exit 2, said why.
        const QList<QStringList> bad = {{"--chart", "gantt", "--at", "45", "--out", one},
                                        {"--chart", "gantt", "--at", "-1", "--out", one},
                                        {"--chart", "sweep", "--frames", dir, "--every", "0"},
                                        {"--chart", "tradeoff", "--at", "3", "--out", one},
                                        {"--chart", "gantt", "--every", "3", "--out", one}};
        for (const QStringList& extra : bad) {
            auto b = ckptRun(QStringList{"render", example, "--scheduler", "revolve", "--slots", "3"} + extra);
            QCOMPARE(b.code, 2);
            QVERIFY2(b.err.contains("--at") || b.err.contains("--every"), b.err.constData());
        }
    }

    void sizesAndPresets() {
        QString pdf = render("s.pdf", {"--chart", "tradeoff", "--size", "3.5inx2.4in"});
        QCOMPARE(pageSize(pdf), QString("252 x 173")); // Qt writes whole points: 172.8 rounds to 173
        checkText(pdf, 252, 173);
        pdf = render("c.pdf", {"--chart", "tradeoff", "--size", "12cmx80mm", "--font-size", "9"});
        QCOMPARE(pageSize(pdf), QString("340 x 227"));
        checkText(pdf, 340, 227);
        pdf = render("p.pdf", {"--chart", "memory", "--scheduler", "revolve", "--preset", "two-column"});
        QCOMPARE(pageSize(pdf), QString("504 x 216"));
        checkText(pdf, 504, 216);
        auto bad = ckptRun({"render", QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json", "--chart",
                            "tradeoff", "--out", m_dir.filePath("x.pdf"), "--size", "800pxx600px"});
        QCOMPARE(bad.code, 2); // px is for PNG
        bad = ckptRun({"render", QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json", "--chart",
                       "tradeoff", "--out", m_dir.filePath("x.pdf"), "--preset", "poster"});
        QCOMPARE(bad.code, 2);
        // A PNG of 100 in at 300 dpi is 30000 px a side (3.4 GiB to draw): refused before drawing, with the pixels.
        bad = ckptRun({"render", QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json", "--chart",
                       "gantt", "--scheduler", "revolve", "--out", m_dir.filePath("x.png"), "--size", "100inx100in"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("a PNG of 30000 × 30000 px is more than 16384 px a side"), bad.err.constData());
        QVERIFY(!QFile::exists(m_dir.filePath("x.png")));
    }
};

QTEST_GUILESS_MAIN(TestRenderPdf)
#include "tst_render_pdf.moc"
