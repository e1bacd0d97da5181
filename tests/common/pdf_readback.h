#pragma once
// Reading a produced PDF back as a reader's viewer sees it, with poppler-utils (pdftotext -bbox, pdfinfo, pdftoppm):
// the words with their boxes, the page size, and the page as an image.
#include <QColor>
#include <QImage>
#include <QProcess>
#include <QRectF>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>

namespace ckpt::test {

inline QString tool(const char* name) {
    return QStandardPaths::findExecutable(name);
}

inline bool haveTools() {
    return !tool("pdftotext").isEmpty() && !tool("pdfinfo").isEmpty() && !tool("pdftoppm").isEmpty();
}

inline QByteArray runTool(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(30000) || p.exitCode() != 0) return {};
    return p.readAllStandardOutput();
}

struct Word {
    QRectF box; // points, from the page's top left
    QString text;
};

inline QList<Word> words(const QString& pdf) {
    const QString xml = QString::fromUtf8(runTool(tool("pdftotext"), {"-bbox", pdf, "-"}));
    static const QRegularExpression re(
        "<word xMin=\"(-?[0-9.]+)\" yMin=\"(-?[0-9.]+)\" xMax=\"(-?[0-9.]+)\" yMax=\"(-?[0-9.]+)\">([^<]*)</word>");
    QList<Word> out;
    for (auto it = re.globalMatch(xml); it.hasNext();) {
        auto m = it.next();
        QRectF r(QPointF(m.captured(1).toDouble(), m.captured(2).toDouble()),
                 QPointF(m.captured(3).toDouble(), m.captured(4).toDouble()));
        // XML-escaped ("store-all&apos;s"), and with the font's ligatures ("oﬄoad-all"): as typed.
        QString text = m.captured(5).normalized(QString::NormalizationForm_KC);
        text.replace("&apos;", "'")
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
        out << Word{r, text};
    }
    return out;
}

// "252 x 180", as pdfinfo says it in points.
inline QString pageSize(const QString& pdf) {
    static const QRegularExpression re("Page size:\\s+([0-9.]+ x [0-9.]+) pts");
    return re.match(QString::fromUtf8(runTool(tool("pdfinfo"), {pdf}))).captured(1);
}

// The page at `dpi` (pdftoppm), for colours.
inline QImage pageImage(const QString& pdf, int dpi) {
    QTemporaryDir dir;
    runTool(tool("pdftoppm"), {"-r", QString::number(dpi), "-png", "-singlefile", pdf, dir.filePath("page")});
    return QImage(dir.filePath("page.png"));
}

// The colour of a legend entry's icon: left of its text (icon 2 font sizes wide, then 0.4 of one), the most
// saturated pixel there, or the darkest when none is (black and grey series).
inline QColor iconColour(const QImage& page, double dpi, const QRectF& word, double font) {
    const double s = dpi / 72;
    const int y0 = int(word.top() * s), y1 = int(word.bottom() * s);
    const int x0 = int((word.left() - font * 2.4) * s), x1 = int((word.left() - font * 0.4) * s);
    QColor best(Qt::white);
    int bestChroma = -1, darkest = 3 * 255 + 1;
    QColor dark(Qt::white);
    for (int y = std::max(0, y0); y < std::min(page.height(), y1); ++y)
        for (int x = std::max(0, x0); x < std::min(page.width(), x1); ++x) {
            const QColor c = page.pixelColor(x, y);
            const int chroma = std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()});
            if (chroma > bestChroma) bestChroma = chroma, best = c;
            if (c.red() + c.green() + c.blue() < darkest) darkest = c.red() + c.green() + c.blue(), dark = c;
        }
    return bestChroma > 40 ? best : dark;
}

inline double distance(const QColor& a, const QColor& b) {
    return std::hypot(a.red() - b.red(), a.green() - b.green(), a.blue() - b.blue());
}

// Every word at least 6 pt (poppler's box is about 1.16 times the font size across the line), inside the page and
// clear of every other word. Check QTest::currentTestFailed() after it.
inline void checkText(const QList<Word>& ws, double pageW, double pageH) {
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

} // namespace ckpt::test
