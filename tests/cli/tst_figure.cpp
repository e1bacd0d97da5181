// `ckpt figure`: every spec of examples/figures renders (with fewer budgets and slots where the full figure takes
// more than a second or two in a Debug build), and the PDF reads back as a reader sees it: the page is the spec's
// size, no text is under 6 pt or overlaps other text, each legend sits outside every chart's data area and lists
// whole names, a legend shared by all panels appears once, and a scheduler has its one colour in every panel.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "common/ckpt_process.h"
#include "common/csv_reader.h"
#include "common/pdf_readback.h"
#include "plots/schedulerstyle.h"
#include "util/print_size.h"

using namespace ckpt::test;

namespace {

const QString kExamples = QString(CKPT_SOURCE_DIR) + "/examples/";

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

void writeJson(const QString& path, const QJsonObject& doc) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(doc).toJson());
}

// The rectangles of layout.csv by element ("axes", "legend", "title").
QList<QRectF> rectsOf(const QString& layout, const QString& element) {
    QList<QRectF> out;
    for (const auto& r : csvRows(layout))
        if (r["element"] == element)
            out << QRectF(r["x_pt"].toDouble(), r["y_pt"].toDouble(), r["width_pt"].toDouble(),
                          r["height_pt"].toDouble());
    return out;
}

// Inside the marker at the middle of a legend entry's icon (a square of 0.6 font sizes), the pixel nearest `want`:
// the series' line shows through a hollow marker there.
QColor iconMiddle(const QImage& page, double dpi, const QRectF& word, double font, const QColor& want) {
    const double s = dpi / 72, x = word.left() - font * 1.375, y = word.center().y();
    QColor best(Qt::white);
    double bestDistance = 1e9;
    for (int py = int((y - font * 0.15) * s); py <= int((y + font * 0.15) * s); ++py)
        for (int px = int((x - font * 0.05) * s); px <= int((x + font * 0.05) * s); ++px) {
            const QColor c = page.pixelColor(px, py);
            const double d = std::hypot(c.red() - want.red(), c.green() - want.green(), c.blue() - want.blue());
            if (d < bestDistance) bestDistance = d, best = c;
        }
    return best;
}

} // namespace

class TestFigure : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    // Renders a spec (written into the scratch folder) to NAME.pdf with its data in NAME-data/.
    bool render(const QString& name, const QJsonObject& spec) {
        writeJson(m_dir.filePath(name + ".json"), spec);
        auto o = ckptRun({"figure", m_dir.filePath(name + ".json"), "--out", m_dir.filePath(name + ".pdf"), "--data",
                          m_dir.filePath(name + "-data")});
        if (o.code != 0) qWarning("%s", o.err.constData());
        return o.code == 0;
    }

private slots:
    void initTestCase() {
        if (!haveTools()) QSKIP("poppler-utils is not installed (scripts/setup-debian installs it)");
    }

    void examplesReadBack_data() {
        QTest::addColumn<QString>("name");
        const QStringList specs = QDir(kExamples + "figures").entryList({"*.ckpt-figure.json"}, QDir::Files);
        QVERIFY(specs.size() >= 4);
        for (const QString& s : specs)
            QTest::newRow(qPrintable(s)) << s;
    }
    void examplesReadBack() {
        QFETCH(QString, name);
        QJsonObject spec = readJson(kExamples + "figures/" + name);
        QVERIFY(!spec.isEmpty());
        // The problems by absolute path (the spec moves to the scratch folder); the slow sweeps made short.
        QJsonArray panels = spec["panels"].toArray();
        for (int k = 0; k < panels.size(); ++k) {
            QJsonObject p = panels[k].toObject();
            p["problem"] = kExamples + "figures/" + p["problem"].toString();
            if (name.startsWith("gruslys")) {
                p["slots"] = QJsonArray{10, 20, 40};
                QJsonArray series = p["schedulers"].toArray();
                for (int i = 0; i < series.size(); ++i)
                    if (series[i].isObject()) {
                        QJsonObject one = series[i].toObject();
                        one.remove("slots");
                        series[i] = one;
                    }
                p["schedulers"] = series;
            }
            if (name.startsWith("graph")) p["budgets"] = "30%,60%,100%";
            panels[k] = p;
        }
        spec["panels"] = panels;
        const QString stem = name.section('.', 0, 0);
        QVERIFY(render(stem, spec));
        const QString pdf = m_dir.filePath(stem + ".pdf"), data = m_dir.filePath(stem + "-data/");

        // The page is the spec's size, in whole points.
        PrintSize size;
        QVERIFY(printPreset(spec["preset"].toString("column").toStdString(), size));
        if (spec.contains("size")) QVERIFY(parsePrintSize(spec["size"].toString().toStdString(), size).empty());
        const double w = std::lround(size.width_pt), h = std::lround(size.height_pt);
        QCOMPARE(pageSize(pdf), QString("%1 x %2").arg(w).arg(h));
        const QList<Word> ws = words(pdf);
        checkText(ws, w, h);
        if (QTest::currentTestFailed()) return;

        // Legends beside the data, never over it: apart from every data area, and each legend word inside a legend.
        const QString layout = data + "layout.csv";
        const QList<QRectF> axes = rectsOf(layout, "axes"), legends = rectsOf(layout, "legend");
        QCOMPARE(axes.size() >= panels.size(), true);
        QVERIFY(!legends.isEmpty());
        for (const QRectF& l : legends)
            for (const QRectF& a : axes)
                QVERIFY2(!l.intersects(a), "a legend overlaps a chart's data area");
        // What each legend lists: the series of the trade-off and slot charts, the kinds of a Gantt.
        QStringList entries;
        for (int k = 0; k < panels.size(); ++k) {
            const QString chart = panels[k].toObject()["chart"].toString();
            if (chart == "gantt" || chart == "memory") {
                entries << "states"
                        << "budget";
                if (chart == "gantt")
                    entries << "forward"
                            << "recompute"
                            << "backward";
            } else {
                for (const auto& r : csvRows(data + QString("panel-%1.csv").arg(QChar('a' + k))))
                    if (r["status"] == "ok") entries << r["series"].split(' ');
            }
        }
        entries.removeDuplicates();
        QVERIFY(entries.size() >= 2);
        const bool shared = panels.size() > 1 && legends.size() == 1;
        for (const QString& e : entries) {
            int found = 0;
            for (const Word& word : ws) {
                if (word.text != e) continue;
                bool inLegend = false;
                for (const QRectF& l : legends)
                    inLegend |= l.adjusted(-1, -1, 1, 1).contains(word.box.center());
                if (!inLegend) continue; // the same word elsewhere (a title, a lane name)
                ++found;
                for (const QRectF& a : axes)
                    QVERIFY2(!a.intersects(word.box), qPrintable(e + " lies on a chart's data area"));
            }
            QVERIFY2(found >= 1, qPrintable(e + " is not in a legend, whole"));
            if (shared) QVERIFY2(found == 1, qPrintable(e + " is listed more than once in the shared legend"));
        }
    }

    // A trade-off and a steps-against-slots chart of the same schedulers share one legend, each name once, and a
    // scheduler is drawn in the registry's colour in both panels' data (and bptt-dp's HSM variant stays apart from
    // revolve). Revolve proves its results: its legend marker is filled see-through, with its line still showing
    // (markers were once filled opaque black).
    void aSchedulerKeepsItsColourAcrossPanels() {
        const QString chain = kExamples + "small-hetero-12.ckpt-chain.json";
        QJsonObject spec{{"format", "ckpt-figure"},
                         {"version", 1},
                         {"size", "3.5inx5in"},
                         {"grid", QJsonObject{{"rows", 2}, {"cols", 1}}}};
        spec["panels"] = QJsonArray{
            QJsonObject{{"chart", "tradeoff"},
                        {"problem", chain},
                        {"hardware", "gpu-a100"},
                        {"schedulers", QJsonArray{"store-all", "revolve", "rotor", "periodic"}},
                        {"budgets", "40%,70%,none"}},
            QJsonObject{{"chart", "steps-vs-slots"},
                        {"problem", chain},
                        {"schedulers",
                         QJsonArray{"periodic", "revolve",
                                    QJsonObject{{"name", "bptt-dp"}, {"params", QJsonObject{{"variant", "hsm"}}}}}},
                        {"slots", QJsonArray{2, 3, 4, 6}}}};
        QVERIFY(render("colours", spec));
        const QString pdf = m_dir.filePath("colours.pdf"), layout = m_dir.filePath("colours-data/layout.csv");
        const QList<QRectF> legends = rectsOf(layout, "legend"), axes = rectsOf(layout, "axes");
        QCOMPARE(legends.size(), 1);
        QCOMPARE(axes.size(), 2);
        const double dpi = 288;
        const QImage page = pageImage(pdf, int(dpi));
        QVERIFY(!page.isNull());
        QMap<QString, QList<QColor>> seen;
        for (const Word& word : words(pdf))
            if (legends[0].contains(word.box.center()) &&
                QStringList({"revolve", "periodic", "store-all", "rotor", "bptt-dp"}).contains(word.text))
                seen[word.text] << iconColour(page, dpi, word.box, 8);
        for (const QString name : {"revolve", "periodic", "store-all", "rotor", "bptt-dp"})
            QVERIFY2(seen[name].size() == 1, qPrintable(name));
        for (const QString name : {"revolve", "periodic", "store-all", "rotor"}) {
            const QColor want = schedulerStyle(name.toStdString()).color;
            QVERIFY2(distance(seen[name][0], want) < 60,
                     qPrintable(QString("%1 drawn %2, its colour is %3").arg(name, seen[name][0].name(), want.name())));
        }
        // In each panel's data, pixels of revolve's and periodic's colours.
        const double s = dpi / 72;
        for (const QString name : {"revolve", "periodic"}) {
            const QColor want = schedulerStyle(name.toStdString()).color;
            for (const QRectF& a : axes) {
                int n = 0;
                for (int y = int(a.top() * s); y < int(a.bottom() * s) && y < page.height(); ++y)
                    for (int x = int(a.left() * s); x < int(a.right() * s) && x < page.width(); ++x)
                        n += distance(page.pixelColor(x, y), want) < 30;
                QVERIFY2(n >= 20, qPrintable(QString("%1: %2 pixels of its colour in a panel").arg(name).arg(n)));
            }
        }
        const QColor blue = schedulerStyle("revolve").color;
        for (const Word& word : words(pdf))
            if (word.text == "revolve")
                QVERIFY2(distance(iconMiddle(page, dpi, word.box, 8, blue), blue) < 60,
                         qPrintable(iconMiddle(page, dpi, word.box, 8, blue).name()));
        QVERIFY(distance(seen["bptt-dp"][0], seen["revolve"][0]) > 60);
    }

    // A bad spec stops before anything is solved, naming the spec, the JSON path and what was expected; a file the
    // spec names that is missing is named with the field that names it.
    // "log": both in a spec, and --log memory in render, make the trade-off's memory axis logarithmic: its labels
    // 40, 60 and 80 MiB stand ln(60/40) : ln(80/60) = 1.41 : 1 apart on the page, where a linear axis has 1 : 1.
    void logAxesFromSpecAndCommand() {
        // (b − a) : (c − b) of where the labels a, b, c stand across the page.
        auto spacing = [](const QString& pdf, const QString& a = "40", const QString& b = "60",
                          const QString& c = "80") {
            QMap<QString, double> at;
            for (const Word& w : words(pdf))
                if (w.text == a || w.text == b || w.text == c) at[w.text] = w.box.center().x();
            if (at.size() != 3) return 0.0;
            return (at[b] - at[a]) / (at[c] - at[b]);
        };
        const QString chain = kExamples + "small-hetero-12.ckpt-chain.json";
        const QString spec = m_dir.filePath("log.json");
        QJsonObject panel{{"chart", "tradeoff"},
                          {"problem", chain},
                          {"scheduler", "revolve"},
                          {"log", "both"},
                          {"budgets", "20%,40%,60%,100%"}};
        writeJson(spec, QJsonObject{{"format", "ckpt-figure"}, {"version", 1}, {"panels", QJsonArray{panel}}});
        auto o = ckptRun({"figure", spec, "--out", m_dir.filePath("log.pdf")});
        QVERIFY2(o.code == 0, o.err.constData());
        QVERIFY2(std::abs(spacing(m_dir.filePath("log.pdf")) - std::log(1.5) / std::log(4.0 / 3)) < 0.05,
                 qPrintable(QString::number(spacing(m_dir.filePath("log.pdf")))));
        const QStringList render = {"render",  chain,       "--chart",          "tradeoff", "--schedulers",
                                    "revolve", "--budgets", "20%,40%,60%,100%", "--out"};
        auto r = ckptRun(render + QStringList{m_dir.filePath("log2.pdf"), "--log", "memory"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(std::abs(spacing(m_dir.filePath("log2.pdf")) - std::log(1.5) / std::log(4.0 / 3)) < 0.05);
        auto lin = ckptRun(render + QStringList{m_dir.filePath("lin.pdf")});
        QVERIFY2(lin.code == 0, lin.err.constData());
        const double linear = spacing(m_dir.filePath("lin.pdf"), "20", "40", "60");
        QVERIFY2(std::abs(linear - 1) < 0.05, qPrintable(QString::number(linear)));
        auto bad = ckptRun({"render", chain, "--chart", "gantt", "--scheduler", "revolve", "--log", "time", "--out",
                            m_dir.filePath("log3.pdf")});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("--log: only the tradeoff chart"));
    }

    void badSpecsSayWhereAndWhat() {
        const QString chain = kExamples + "small-hetero-12.ckpt-chain.json";
        struct Case {
            QJsonObject panel;
            const char* says;
        };
        const QList<Case> cases = {
            {QJsonObject{{"chart", "pie"}, {"problem", chain}, {"scheduler", "revolve"}}, "panels[0].chart: expected"},
            {QJsonObject{{"chart", "gantt"}, {"problem", chain}, {"schedulers", QJsonArray{"revolve", "rotor"}}},
             "panels[0].schedulers: a gantt chart shows one scheduler"},
            {QJsonObject{{"chart", "tradeoff"}, {"problem", chain}, {"schedulers", QJsonArray{"revolve", "nope"}}},
             "panels[0].schedulers[1]: "},
            {QJsonObject{{"chart", "tradeoff"}, {"problem", "missing.json"}, {"scheduler", "revolve"}},
             "panels[0].problem: "},
            {QJsonObject{{"chart", "tradeoff"}, {"problem", chain}, {"scheduler", "revolve"}, {"hardware", "no-such"}},
             "panels[0].hardware: no preset named 'no-such'"},
            {QJsonObject{{"chart", "steps-vs-slots"},
                         {"problem", chain},
                         {"scheduler", "store-all"},
                         {"slots", QJsonArray{1, 2}}},
             "panels[0].schedulers[0]: store-all has no slot count to sweep"},
            {QJsonObject{{"chart", "tradeoff"}, {"problem", chain}, {"scheduler", "revolve"}, {"log", "x"}},
             "panels[0].log: expected \"none\", \"memory\", \"time\" or \"both\""},
            {QJsonObject{{"chart", "gantt"}, {"problem", chain}, {"scheduler", "revolve"}, {"log", "time"}},
             "panels[0].log: only a tradeoff chart has logarithmic axes"},
        };
        for (const Case& c : cases) {
            const QString spec = m_dir.filePath("bad.json");
            writeJson(spec, QJsonObject{{"format", "ckpt-figure"}, {"version", 1}, {"panels", QJsonArray{c.panel}}});
            auto o = ckptRun({"figure", spec, "--out", m_dir.filePath("bad.pdf")});
            QCOMPARE(o.code, 2);
            QVERIFY2(o.err.contains(spec.toUtf8() + ": " + c.says), o.err.constData());
            QVERIFY(!QFile::exists(m_dir.filePath("bad.pdf")));
        }
    }
};

QTEST_GUILESS_MAIN(TestFigure)
#include "tst_figure.moc"
