#include "memoryareagraph.h"

#include <algorithm>
#include <cmath>
#include <limits>

std::vector<double> columnMaxima(const QCPGraphData* data, qsizetype count, int columns, double scale, double offset) {
    auto pixelOf = [=](double key) { return key * scale + offset; };
    std::vector<double> top(std::size_t(std::max(0, columns)), -std::numeric_limits<double>::infinity());
    if (columns <= 0 || count <= 0) return top;
    double from = pixelOf(data[0].key);
    for (qsizetype i = 0; i < count; ++i) {
        const double to = i + 1 < count ? pixelOf(data[i + 1].key) : from;
        const double v = data[i].value;
        // The columns this value is held in: from its key's column to the one before the next key's (at least its own).
        const double first = std::floor(from), last = std::max(first, std::ceil(to) - 1);
        const int a = int(std::clamp(first, 0.0, double(columns))),
                  b = int(std::clamp(last, -1.0, double(columns - 1)));
        if (!std::isnan(v))
            for (int c = a; c <= b; ++c)
                top[std::size_t(c)] = std::max(top[std::size_t(c)], v);
        from = to;
    }
    return top;
}

QVector<QRect> columnRects(const std::vector<int>& y0, const std::vector<int>& y1) {
    QVector<QRect> out;
    const int columns = int(std::min(y0.size(), y1.size()));
    if (columns == 0) return out;
    // Rows where a column starts or stops being covered: the spans of the rows between two of them are the same.
    int lo = std::numeric_limits<int>::max(), hi = std::numeric_limits<int>::min();
    for (int c = 0; c < columns; ++c)
        if (y0[std::size_t(c)] < y1[std::size_t(c)])
            lo = std::min(lo, y0[std::size_t(c)]), hi = std::max(hi, y1[std::size_t(c)]);
    if (lo >= hi) return out;
    std::vector<char> changes(std::size_t(hi - lo) + 1, 0);
    for (int c = 0; c < columns; ++c)
        if (y0[std::size_t(c)] < y1[std::size_t(c)])
            changes[std::size_t(y0[std::size_t(c)] - lo)] = changes[std::size_t(y1[std::size_t(c)] - lo)] = 1;
    struct Span {
        int x0, x1, top;
    };
    std::vector<Span> open, next;
    for (int y = lo; y <= hi; ++y) {
        if (!changes[std::size_t(y - lo)]) continue;
        next.clear();
        for (int c = 0; c < columns;) {
            auto covered = [&](int k) { return y0[std::size_t(k)] <= y && y < y1[std::size_t(k)]; };
            if (!covered(c)) {
                ++c;
                continue;
            }
            int e = c + 1;
            while (e < columns && covered(e))
                ++e;
            next.push_back(Span{c, e, y});
            c = e;
        }
        // A span that goes on keeps its top; one that ends becomes a rectangle down to this row.
        std::size_t j = 0;
        for (const Span& s : open) {
            while (j < next.size() && next[j].x0 < s.x0)
                ++j;
            if (j < next.size() && next[j].x0 == s.x0 && next[j].x1 == s.x1)
                next[j].top = s.top;
            else
                out.push_back(QRect(s.x0, s.top, s.x1 - s.x0, y - s.top));
        }
        open.swap(next);
    }
    return out;
}

void MemoryAreaGraph::drawFill(QCPPainter* painter, QVector<QPointF>* lines) const {
    QCPAxis* keyAxis = mKeyAxis.data();
    QCPAxis* valueAxis = mValueAxis.data();
    const QCPGraph* below = channelFillGraph();
    // The columns are along a horizontal, linear, left-to-right key axis; anything else is QCustomPlot's own fill.
    if (!keyAxis || !valueAxis || keyAxis->orientation() != Qt::Horizontal || keyAxis->rangeReversed() ||
        keyAxis->scaleType() != QCPAxis::stLinear || (below && below->keyAxis() != keyAxis) || mLineStyle != lsStepLeft)
        return QCPGraph::drawFill(painter, lines);
    if (painter->brush().style() == Qt::NoBrush || painter->brush().color().alpha() == 0) return;
    const QRect area = keyAxis->axisRect()->rect();
    const int columns = area.width();
    // Column of a key: key * scale + offset, the axis's linear map shifted to the chart's left edge.
    const QCPRange range = keyAxis->range();
    if (!(range.size() > 0)) return;
    const double scale = (keyAxis->coordToPixel(range.upper) - keyAxis->coordToPixel(range.lower)) / range.size();
    const double offset = keyAxis->coordToPixel(range.lower) - range.lower * scale - double(area.left());
    auto maxima = [&](const QCPGraph& g) {
        const QCPGraphDataContainer& d = *g.data();
        auto begin = d.findBegin(range.lower), end = d.findEnd(range.upper);
        if (begin == end) return std::vector<double>(std::size_t(std::max(0, columns)), 0.0);
        return columnMaxima(&*begin, end - begin, columns, scale, offset);
    };
    const std::vector<double> top = maxima(*this);
    std::vector<double> bottom = below ? maxima(*below) : std::vector<double>(top.size(), 0.0);
    for (double& b : bottom)
        b = std::max(0.0, b); // where the category below has no value here: from zero
    // Rows within the chart (and one beyond), so that a value far off the axis stays a small integer.
    auto pixel = [&](double v) {
        return int(std::lround(std::clamp(valueAxis->coordToPixel(v), area.top() - 1.0, area.bottom() + 1.0)));
    };
    std::vector<int> y0(top.size()), y1(top.size());
    for (std::size_t c = 0; c < top.size(); ++c) {
        y1[c] = pixel(bottom[c]);
        y0[c] = top[c] > bottom[c] ? pixel(top[c]) : y1[c]; // nothing to fill: no height
    }
    QVector<QRect> rects = columnRects(y0, y1);
    for (QRect& r : rects)
        r.translate(area.left(), 0);
    painter->setAntialiasing(false);
    painter->setPen(Qt::NoPen);
    painter->drawRects(rects);
}
