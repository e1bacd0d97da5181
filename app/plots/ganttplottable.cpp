#include "ganttplottable.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>

using ckpt::Interval;
using ckpt::IntervalKind;

namespace {
constexpr double kHalfHeight = 0.38; // of a lane, in value units
constexpr int kKinds = 5;
} // namespace

GanttPlottable::GanttPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis) : QCPAbstractPlottable(keyAxis, valueAxis) {
    setSelectable(QCP::stNone);
    setAntialiasedFill(false);
}

QColor GanttPlottable::kindColor(IntervalKind kind) {
    // Okabe-Ito: readable for the common colour-vision deficiencies.
    switch (kind) {
    case IntervalKind::Forward:
        return QColor(0, 114, 178); // blue
    case IntervalKind::Recompute:
        return QColor(86, 180, 233); // sky blue
    case IntervalKind::Backward:
        return QColor(213, 94, 0); // vermillion
    case IntervalKind::Write:
        return QColor(0, 158, 115); // bluish green
    case IntervalKind::Read:
        return QColor(204, 121, 167); // reddish purple
    }
    return Qt::gray;
}

void GanttPlottable::setTimeline(std::shared_ptr<const ckpt::Timeline> timeline) {
    m_timeline = std::move(timeline);
    m_lanes.clear();
    m_rows.clear();
    m_highlightStep = -1;
    m_selected = -1;
    if (!m_timeline) return;
    m_lanes.resize(std::max<std::size_t>(1, m_timeline->lanes.size()));
    const auto& iv = m_timeline->intervals;
    for (int k = 0; k < int(iv.size()); ++k) {
        std::size_t lane = std::size_t(std::max<int>(0, iv[std::size_t(k)].lane));
        if (lane >= m_lanes.size()) m_lanes.resize(lane + 1);
        m_lanes[lane].push_back(k);
    }
    // Compute and each channel are serial, so starts are already ordered; sort anyway for measured timelines.
    for (auto& lane : m_lanes)
        std::stable_sort(lane.begin(), lane.end(),
                         [&](int a, int b) { return iv[std::size_t(a)].start < iv[std::size_t(b)].start; });
    for (int lane = 0; lane < int(m_lanes.size()); ++lane)
        if (lane == 0 || !m_lanes[std::size_t(lane)].empty()) m_rows.push_back(lane);
}

void GanttPlottable::setHighlightedStep(int step) {
    m_highlightStep = step;
}
void GanttPlottable::setSelectedInterval(int index) {
    m_selected = index;
}

int GanttPlottable::intervalAt(const QPointF& pixel) const {
    if (!m_timeline || !mKeyAxis || !mValueAxis) return -1;
    double key = 0, value = 0;
    pixelsToCoords(pixel, key, value);
    const int row = int(std::lround(value));
    if (row < 0 || row >= int(m_rows.size()) || std::abs(value - row) > kHalfHeight + 0.05) return -1;
    const int lane = m_rows[std::size_t(row)];
    const double tolerance = std::abs(mKeyAxis->pixelToCoord(pixel.x() + 2) - mKeyAxis->pixelToCoord(pixel.x()));
    const auto& iv = m_timeline->intervals;
    const auto& ids = m_lanes[std::size_t(lane)];
    // The last interval starting at or before key + tolerance, then look back a little for one that covers key.
    auto it = std::upper_bound(ids.begin(), ids.end(), key + tolerance,
                               [&](double k, int id) { return k < iv[std::size_t(id)].start; });
    int best = -1;
    double bestDistance = tolerance;
    for (int steps = 0; it != ids.begin() && steps < 64; ++steps) {
        --it;
        const Interval& x = iv[std::size_t(*it)];
        double d = key < x.start ? x.start - key : key > x.end ? key - x.end : 0;
        if (d <= bestDistance) {
            bestDistance = d;
            best = *it;
            if (d == 0) break;
        }
        if (x.end < key - tolerance && steps > 4) break;
    }
    return best;
}

double GanttPlottable::selectTest(const QPointF& pos, bool onlySelectable, QVariant*) const {
    if (onlySelectable && mSelectable == QCP::stNone) return -1;
    return intervalAt(pos) >= 0 ? 0 : -1;
}

QCPRange GanttPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const {
    foundRange = m_timeline && !m_timeline->intervals.empty();
    if (!foundRange) return QCPRange(0, 1);
    double hi = std::max(m_timeline->totals.makespan_s, 1e-12);
    return QCPRange(0, hi);
}

QCPRange GanttPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const {
    foundRange = true;
    return QCPRange(-0.5, std::max<double>(0.5, double(m_rows.size()) - 0.5));
}

void GanttPlottable::setNames(const QStringList& names) {
    m_names = names;
}

void GanttPlottable::draw(QCPPainter* painter) {
    if (!m_timeline || !mKeyAxis || !mValueAxis) return;
    const auto& iv = m_timeline->intervals;
    const QCPRange keys = mKeyAxis->range();
    std::array<QVector<QRectF>, kKinds> batches;
    QVector<QRectF> outlines;
    std::vector<std::pair<QRectF, int>> labelled; // bars wide enough to name, with their interval
    QRectF selectedRect;
    for (int row = 0; row < int(m_rows.size()); ++row) {
        const int lane = m_rows[std::size_t(row)];
        const auto& ids = m_lanes[std::size_t(lane)];
        const double y0 = mValueAxis->coordToPixel(row - kHalfHeight), y1 = mValueAxis->coordToPixel(row + kHalfHeight);
        const double top = std::min(y0, y1), height = std::abs(y1 - y0);
        // First interval that ends after the visible start: intervals on a lane do not overlap, so ends are ordered
        // too.
        auto it = std::lower_bound(ids.begin(), ids.end(), keys.lower,
                                   [&](int id, double k) { return iv[std::size_t(id)].end < k; });
        // Intervals at least a pixel wide are drawn as they are; narrower ones are pooled per pixel column and the
        // column takes the colour of the kind that fills most of it, so a zoomed-out view shows the true mix.
        std::array<double, kKinds> pooled{};
        int column = INT_MIN;
        auto flush = [&] {
            if (column == INT_MIN) return;
            int best = int(std::max_element(pooled.begin(), pooled.end()) - pooled.begin());
            batches[std::size_t(best)].push_back(QRectF(column, top, 1.0, height));
            pooled.fill(0);
            column = INT_MIN;
        };
        for (; it != ids.end(); ++it) {
            const Interval& x = iv[std::size_t(*it)];
            if (x.start > keys.upper) break;
            double px0 = mKeyAxis->coordToPixel(x.start), px1 = mKeyAxis->coordToPixel(x.end);
            if (px1 < px0) std::swap(px0, px1);
            const int kind = int(x.kind);
            if (px1 - px0 < 1.0) {
                int c = int(std::floor(px0));
                if (c != column) flush(), column = c;
                pooled[std::size_t(kind)] += std::max(px1 - px0, 1e-6);
            } else {
                flush();
                QRectF r(px0, top, px1 - px0, height);
                batches[std::size_t(kind)].push_back(r);
                if (r.width() >= 14) labelled.emplace_back(r, *it);
                if (m_highlightStep >= 0 && lane == 0 && x.index == m_highlightStep) outlines.push_back(r);
                if (*it == m_selected) selectedRect = r;
                continue;
            }
            if (m_highlightStep >= 0 && lane == 0 && x.index == m_highlightStep)
                outlines.push_back(QRectF(std::floor(px0), top, 1.0, height));
            if (*it == m_selected) selectedRect = QRectF(std::floor(px0), top, 1.0, height);
        }
        flush();
    }
    painter->setPen(Qt::NoPen);
    for (int k = 0; k < kKinds; ++k) {
        if (batches[std::size_t(k)].isEmpty()) continue;
        painter->setBrush(kindColor(IntervalKind(k)));
        painter->drawRects(batches[std::size_t(k)]);
    }
    // Names on the bars that hold them, in white on the dark kinds and black on the light.
    m_labelsDrawn = 0;
    if (!labelled.empty()) {
        QFont f = painter->font();
        f.setPointSizeF(std::max(6.0, f.pointSizeF() * 0.85));
        painter->setFont(f);
        const QFontMetricsF fm(f);
        for (const auto& [r, id] : labelled) {
            const Interval& x = iv[std::size_t(id)];
            const bool transfer = x.kind == IntervalKind::Write || x.kind == IntervalKind::Read;
            const QString text = transfer ? (x.tape ? "T" : "x") + QString::number(x.index)
                                 : x.index >= 0 && x.index < m_names.size() ? m_names[x.index]
                                                                            : QString::number(x.index);
            if (fm.horizontalAdvance(text) + 4 > r.width() || fm.height() > r.height()) continue;
            const QColor fill = kindColor(x.kind);
            painter->setPen(fill.lightnessF() < 0.6 ? Qt::white : Qt::black);
            painter->drawText(r, Qt::AlignCenter, text);
            ++m_labelsDrawn;
        }
    }
    if (!outlines.isEmpty()) {
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(QColor(240, 228, 66), 2)); // yellow
        painter->drawRects(outlines);
    }
    if (!selectedRect.isNull()) {
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(mKeyAxis->basePen().color(), 2)); // the axes' colour: black on white, light on dark
        painter->drawRect(selectedRect.adjusted(-1, -1, 1, 1));
    }
}

void GanttPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
    painter->setPen(Qt::NoPen);
    painter->setBrush(kindColor(IntervalKind::Forward));
    painter->drawRect(rect);
}

GanttKindLegendItem::GanttKindLegendItem(QCPLegend* parent, IntervalKind kind)
    : QCPAbstractLegendItem(parent), m_kind(kind) {}

void GanttKindLegendItem::draw(QCPPainter* painter) {
    painter->setFont(mFont);
    QRect r = mRect;
    QSize icon = mParentLegend->iconSize();
    // As tall as the text when the text is taller than the icon (small print sizes), the icon centred on it.
    const int h = std::max(icon.height(), QFontMetrics(mFont).height());
    QRectF iconRect(QPointF(r.x(), r.y() + (h - icon.height()) / 2.0), icon);
    painter->setPen(Qt::NoPen);
    painter->setBrush(GanttPlottable::kindColor(m_kind));
    painter->drawRect(iconRect);
    painter->setPen(QPen(mTextColor));
    painter->drawText(QRect(r.x() + icon.width() + mParentLegend->iconTextPadding(), r.y(), r.width(), h),
                      Qt::AlignLeft | Qt::AlignVCenter, QString::fromUtf8(ckpt::intervalKindName(m_kind)));
}

QSize GanttKindLegendItem::minimumOuterSizeHint() const {
    QFontMetrics fm(mFont);
    QSize icon = mParentLegend->iconSize();
    int w = icon.width() + mParentLegend->iconTextPadding() +
            fm.horizontalAdvance(QString::fromUtf8(ckpt::intervalKindName(m_kind)));
    return QSize(w + mMargins.left() + mMargins.right(),
                 std::max(icon.height(), fm.height()) + mMargins.top() + mMargins.bottom());
}
