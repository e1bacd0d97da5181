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
    }
};

QTEST_GUILESS_MAIN(TestRenderPdf)
#include "tst_render_pdf.moc"
