#include "legendplace.h"

#include <QLineF>
#include <cmath>
#include <qcustomplot.h>

namespace {

constexpr double kPadPx = 6; // a marker's half width and a little air around the legend
constexpr int kSeeThroughAlpha = 170;

bool crosses(const QLineF& segment, const QRectF& box) {
    if (box.contains(segment.p1()) || box.contains(segment.p2())) return true;
    const QLineF edges[] = {{box.topLeft(), box.topRight()},
                            {box.topRight(), box.bottomRight()},
                            {box.bottomRight(), box.bottomLeft()},
                            {box.bottomLeft(), box.topLeft()}};
    for (const QLineF& e : edges)
        if (segment.intersects(e, nullptr) == QLineF::BoundedIntersection) return true;
    return false;
}

// Points and segments of the visible graphs of the legend's axis rect inside each corner's box: the legend's size as
// laid out, the inset layout's margins, and a marker's half width around it.
QList<int> coverage(const QCustomPlot* plot, const QCPLegend* legend) {
    QList<int> count = {0, 0, 0, 0};
    QCPAxisRect* rect = plot->axisRect();
    if (!legend || !rect || legend->layout() != rect->insetLayout()) return count;
    const QRect r = rect->rect();
    const QSize size = legend->outerRect().size();
    const QMargins m = rect->insetLayout()->margins();
    const double w = size.width() + 2 * kPadPx, h = size.height() + 2 * kPadPx;
    const double left = r.left() + m.left() - kPadPx, right = r.right() - m.right() + kPadPx - w;
    const double top = r.top() + m.top() - kPadPx, bottom = r.bottom() - m.bottom() + kPadPx - h;
    const QRectF boxes[] = {QRectF(right, top, w, h), QRectF(left, top, w, h), QRectF(right, bottom, w, h),
                            QRectF(left, bottom, w, h)};
    for (int g = 0; g < plot->graphCount(); ++g) {
        const QCPGraph* graph = plot->graph(g);
        if (!graph->visible() || graph->keyAxis()->axisRect() != rect) continue;
        const bool lines = graph->lineStyle() != QCPGraph::lsNone && graph->pen().style() != Qt::NoPen;
        const bool markers = graph->scatterStyle().shape() != QCPScatterStyle::ssNone;
        QPointF previous;
        bool havePrevious = false;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            if (!std::isfinite(it->key) || !std::isfinite(it->value)) {
                havePrevious = false;
                continue;
            }
            const QPointF p = graph->coordsToPixels(it->key, it->value);
            for (int c = 0; c < 4; ++c)
                if ((lines && havePrevious && crosses(QLineF(previous, p), boxes[c])) ||
                    ((markers || lines) && boxes[c].contains(p)))
                    ++count[c];
            previous = p, havePrevious = true;
        }
    }
    return count;
}

const Qt::Alignment kCorners[] = {Qt::AlignTop | Qt::AlignRight, Qt::AlignTop | Qt::AlignLeft,
                                  Qt::AlignBottom | Qt::AlignRight, Qt::AlignBottom | Qt::AlignLeft};

class LegendPlacer : public QObject {
public:
    explicit LegendPlacer(QCustomPlot* plot) : QObject(plot), m_plot(plot) {
        setObjectName("legendPlacer");
        connect(plot, &QCustomPlot::afterLayout, this, &LegendPlacer::place);
    }

private:
    void place() {
        QCPLegend* legend = m_plot->legend;
        QCPAxisRect* rect = m_plot->axisRect();
        if (!legend || !rect || !legend->visible()) return;
        QCPLayoutInset* inset = rect->insetLayout();
        const int index = inset->elements(false).indexOf(legend);
        if (index < 0) return; // moved under the chart by a print layout
        const QList<int> count = coverage(m_plot, legend);
        int best = 0;
        for (int c = 1; c < 4; ++c)
            if (count[c] < count[best]) best = c;
        // Where every corner hides something, what it hides shows through.
        QBrush brush = legend->brush();
        QColor colour = brush.color();
        const int alpha = count[best] > 0 ? kSeeThroughAlpha : 255;
        const bool moved = inset->insetAlignment(index) != kCorners[best];
        if (!moved && colour.alpha() == alpha) return;
        colour.setAlpha(alpha);
        brush.setColor(colour);
        legend->setBrush(brush);
        if (moved) {
            inset->setInsetAlignment(index, kCorners[best]);
            inset->update(QCPLayoutElement::upLayout); // drawn where it now is, by whatever draws next
        }
    }

    QCustomPlot* m_plot;
};

} // namespace

void keepLegendClear(QCustomPlot* plot) {
    if (!plot->findChild<QObject*>("legendPlacer", Qt::FindDirectChildrenOnly)) new LegendPlacer(plot);
}

Qt::Alignment legendCorner(const QCustomPlot* plot) {
    QCPLayoutInset* inset = plot->axisRect()->insetLayout();
    const int index = inset->elements(false).indexOf(plot->legend);
    return index < 0 ? Qt::Alignment() : inset->insetAlignment(index);
}

QList<int> legendCoverage(const QCustomPlot* plot) {
    return coverage(plot, plot->legend);
}
