#pragma once
// Writes a chart to PDF, SVG (through QSvgGenerator) or PNG, chosen by the file's extension, at a chosen size.
#include <QString>

class QCustomPlot;

// Returns an empty string on success, or a message naming the file and what went wrong.
QString exportChart(QCustomPlot* plot, const QString& path, int width, int height);

#include <QList>
#include <QPair>
// Every chart into `dir` as NAME.FORMAT; stops at the first failure and returns its message.
QString exportCharts(const QList<QPair<QString, QCustomPlot*>>& charts, const QString& dir, const QString& format,
                     int width, int height);
