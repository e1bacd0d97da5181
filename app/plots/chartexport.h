#pragma once
// Writes a chart to PDF, SVG (through QSvgGenerator) or PNG, chosen by the file's extension, at a chosen size.
#include <QString>

class QCustomPlot;

// Returns an empty string on success, or a message naming the file and what went wrong.
QString exportChart(QCustomPlot* plot, const QString& path, int width, int height);

struct PrintSize;
struct PrintFit;
// At a physical size: the page of a PDF is exactly `size` (points), an SVG says its size in physical units, a PNG
// has size × dpi / 72 pixels (or the pixels given). Fonts, ticks and legends are fitted first (printlayout.h), and
// `fit` (if given) says what that made of the legend.
QString exportChart(QCustomPlot* plot, const QString& path, const PrintSize& size, double dpi = 300,
                    PrintFit* fit = nullptr);

#include <QRect>
// One chart of a figure and where it goes on the page, in points (in layout pixels for a size in px).
struct ChartPanel {
    QCustomPlot* plot = nullptr;
    QRect rect;
};
// Several charts on one page of `size`, each drawn into its rectangle as it is laid out (call fitForPrint with each
// rectangle's size first); the rest of the page is white. Formats and sizes as exportChart's.
QString exportPanels(const QList<ChartPanel>& panels, const QString& path, const PrintSize& size, double dpi = 300);
// The size of the page a figure of `size` is laid out on: points, or layout pixels (96 per inch) for a size in px.
QSize layoutSize(const PrintSize& size);
// Why a PNG of `size` at `dpi` cannot be drawn (more than kMaxPngSide pixels a side: 100 in at 300 dpi would take
// 3.4 GiB of memory, 20000 pt 26 GiB), or empty.
constexpr int kMaxPngSide = 16384;
QString pngTooLarge(const PrintSize& size, double dpi);

#include <QList>
#include <QPair>
// Every chart into `dir` as NAME.FORMAT; stops at the first failure and returns its message.
QString exportCharts(const QList<QPair<QString, QCustomPlot*>>& charts, const QString& dir, const QString& format,
                     int width, int height);
