// `ckpt render` figures read back as a reader's PDF viewer sees them (poppler-utils): the page is the size asked
// for, no text is smaller than 6 pt, no two words overlap, and the legend lists what the chart draws, unclipped.
#include <QProcess>
#include <QRectF>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "common/ckpt_process.h"

using ckpt::test::ckptRun;

namespace {

QString tool(const char* name) {
    return QStandardPaths::findExecutable(name);
}

QByteArray runTool(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(30000) || p.exitCode() != 0) return {};
    return p.readAllStandardOutput();
}

struct Word {
    QRectF box;
    QString text;
};

QList<Word> words(const QString& pdf) {
    const QString xml = QString::fromUtf8(runTool(tool("pdftotext"), {"-bbox", pdf, "-"}));
    static const QRegularExpression re(
        "<word xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" xMax=\"([0-9.]+)\" yMax=\"([0-9.]+)\">([^<]*)</word>");
    QList<Word> out;
    for (auto it = re.globalMatch(xml); it.hasNext();) {
        auto m = it.next();
        QRectF r(QPointF(m.captured(1).toDouble(), m.captured(2).toDouble()),
                 QPointF(m.captured(3).toDouble(), m.captured(4).toDouble()));
        out << Word{r, m.captured(5)};
    }
    return out;
}

QString pageSize(const QString& pdf) {
    static const QRegularExpression re("Page size:\\s+([0-9.]+ x [0-9.]+) pts");
    return re.match(QString::fromUtf8(runTool(tool("pdfinfo"), {pdf}))).captured(1);
}

} // namespace

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

    // Every word at least 6 pt (poppler's box is about 1.16 times the font size across the line), inside the page
    // and clear of every other word.
    void checkText(const QString& pdf, double pageW, double pageH) {
        const QList<Word> ws = words(pdf);
        QVERIFY(ws.size() > 5);
        for (int i = 0; i < ws.size(); ++i) {
            const QRectF& a = ws[i].box;
            // A digit or two is narrower than tall; a longer word's short side is its line height, turned or not.
            const double line = ws[i].text.size() <= 2 ? a.height() : std::min(a.width(), a.height());
            QVERIFY2(line >= 6.0 * 1.1, qPrintable(ws[i].text));
            QVERIFY2(a.left() >= -0.5 && a.top() >= -0.5 && a.right() <= pageW + 0.5 && a.bottom() <= pageH + 0.5,
                     qPrintable("outside the page: " + ws[i].text));
            for (int j = i + 1; j < ws.size(); ++j) {
                const QRectF o = a.intersected(ws[j].box);
                QVERIFY2(o.width() < 0.5 || o.height() < 0.5, qPrintable(ws[i].text + " overlaps " + ws[j].text));
            }
        }
    }

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
