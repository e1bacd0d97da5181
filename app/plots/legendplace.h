#pragma once
// An inset legend in the corner of its axis rect where it hides the least of the data (top right on a tie), as
// matplotlib's loc="best" does; where every corner hides something, its background lets that show through. In a fixed
// corner it hid data: a point of the trade-off chart at 1024 × 700, curves of the sweep in presentation mode.
#include <QList>
#include <Qt>

class QCustomPlot;

// From now on, after each layout of `plot`, its legend goes to the corner where it covers the fewest points and line
// segments of the plot's graphs.
void keepLegendClear(QCustomPlot* plot);

// The legend's corner now, and how many points and line segments it would cover in each corner (top right, top left,
// bottom right, bottom left).
Qt::Alignment legendCorner(const QCustomPlot* plot);
QList<int> legendCoverage(const QCustomPlot* plot);
