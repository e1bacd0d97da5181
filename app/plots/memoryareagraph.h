#pragma once
// One stacked memory category of the Timeline's memory chart: a step curve filled down to the category below (its
// channel-fill graph) or to zero. A dense plan changes memory many times per pixel. QCustomPlot fills such a curve as
// one antialiased polygon whose edge runs down and up in every pixel column, which the raster engine fills slowly
// (2.6 s a redraw for async-multistage on the 1000-step LSTM example) and which shows as moiré. This graph fills each
// pixel column instead from the column's highest value of the category below to its own highest: the curve's
// envelope, so every peak stays visible. The stacked categories never overlap, since each curve is a running sum over
// the categories and its column maximum is at most the next one's.
#include <qcustomplot.h>
#include <vector>

class MemoryAreaGraph : public QCPGraph {
    Q_OBJECT
public:
    using QCPGraph::QCPGraph;

protected:
    void drawFill(QCPPainter* painter, QVector<QPointF>* lines) const override;
};

// The highest value of the step-left curve (keys ascending, each value holding until the next key; the last holds at
// its key only) in each of `columns` pixel columns, column c covering pixels [c, c + 1) where a key lies at pixel
// key * scale + offset; columns the curve does not reach hold -infinity.
std::vector<double> columnMaxima(const QCPGraphData* data, qsizetype count, int columns, double scale, double offset);

// The region of pixel columns c = 0, 1, ... covering rows [y0[c], y1[c]) (none where y0[c] >= y1[c]) as disjoint
// rectangles: the spans of a row merged down over the rows with the same spans. Few rectangles for a smooth curve,
// and short ones where it is dense: the raster engine fills them faster than one polygon with an edge per column
// (whose scan conversion grows with the square of the edges a row crosses) or a tall rectangle per column.
QVector<QRect> columnRects(const std::vector<int>& y0, const std::vector<int>& y1);
