#include "memoryareaplottable.h"

#include <algorithm>
#include <cmath>

using ckpt::kMemoryCategories;
using ckpt::MemorySample;

std::shared_ptr<const StackedMemory> StackedMemory::of(const std::vector<MemorySample>& curve, double end) {
    auto m = std::make_shared<StackedMemory>();
    m->times.reserve(curve.size());
    m->tops.reserve(curve.size());
    for (const MemorySample& s : curve) {
        std::array<double, kMemoryCategories> tops{};
        double sum = 0;
        for (int c = 0; c < kMemoryCategories; ++c)
            tops[std::size_t(c)] = sum += double(s.bytes[std::size_t(c)]);
        m->times.push_back(s.time);
        m->tops.push_back(tops);
        m->peak = std::max(m->peak, sum);
    }
    m->end = curve.empty() ? end : std::max(end, curve.back().time);
    return m;
}

namespace {

// The running column: the samples pooled into it, each total at its highest.
struct Pool {
    bool open = false;
    double column = 0, start = 0, end = 0;
    std::array<double, kMemoryCategories> tops{};
    void add(double col, double s, double e, const std::array<double, kMemoryCategories>& v) {
        if (!open) {
            *this = {true, col, s, e, v};
            return;
        }
        start = std::min(start, s), end = std::max(end, e);
        for (std::size_t c = 0; c < v.size(); ++c)
            tops[c] = std::max(tops[c], v[c]);
    }
};

} // namespace

std::vector<MemoryStep> decimateMemory(const StackedMemory& m, double t0, double t1, int columns) {
    std::vector<MemoryStep> out;
    const std::size_t n = m.times.size();
    if (n == 0 || columns <= 0 || !(t1 > t0)) return out;
    const double w = (t1 - t0) / columns;
    auto columnOf = [&](double t) { return std::floor((t - t0) / w); };
    auto columnStart = [&](double c) { return t0 + c * w; };
    auto push = [&](double s, double e, const std::array<double, kMemoryCategories>& tops) {
        if (!out.empty() && out.back().tops == tops && out.back().end >= s) {
            out.back().end = std::max(out.back().end, e);
            return;
        }
        out.push_back({s, e, tops});
    };
    Pool pool;
    auto flush = [&] {
        if (!pool.open) return;
        push(std::max(columnStart(pool.column), pool.start), std::min(columnStart(pool.column + 1), pool.end),
             pool.tops);
        pool.open = false;
    };
    // The sample in force at t0, then on until the visible end (a column either side, for the edges).
    std::size_t i = std::size_t(std::upper_bound(m.times.begin(), m.times.end(), t0) - m.times.begin());
    for (i = i > 0 ? i - 1 : 0; i < n; ++i) {
        double s = m.times[i], e = i + 1 < n ? m.times[i + 1] : m.end;
        if (s > t1 + w) break;
        s = std::max(s, t0 - w);
        e = std::clamp(e, s, t1 + w);
        const auto& v = m.tops[i];
        const double cs = columnOf(s), ce = columnOf(e);
        if (pool.open && pool.column != cs) flush();
        pool.add(cs, s, e, v);
        if (e - s < w || ce == cs) continue; // narrow: pooled in its first column
        // Wide: its part of the first column is pooled, the columns it covers whole are drawn as they are, and its
        // part of the last column opens that column's pool.
        flush();
        if (ce - cs >= 2) push(columnStart(cs + 1), columnStart(ce), v);
        if (e > columnStart(ce)) pool.add(ce, columnStart(ce), e, v);
    }
    flush();
    return out;
}

bool MemoryAreaPlottable::holdsNothing() const {
    if (!m_memory) return true;
    const std::size_t c = std::size_t(m_category);
    for (const auto& tops : m_memory->tops)
        if (tops[c] > (c > 0 ? tops[c - 1] : 0.0)) return false;
    return true;
}

MemoryAreaPlottable::MemoryAreaPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis, int category)
    : QCPAbstractPlottable(keyAxis, valueAxis), m_category(category) {
    setSelectable(QCP::stNone);
    setPen(Qt::NoPen); // fills only: outlines turn dense plans into dark noise
    setAntialiasedFill(false);
}

void MemoryAreaPlottable::setMemory(std::shared_ptr<const StackedMemory> memory) {
    m_memory = std::move(memory);
}

const std::vector<MemoryStep>& MemoryAreaPlottable::steps() const {
    static const std::vector<MemoryStep> none;
    if (!m_memory || !mKeyAxis) return none;
    const QCPRange keys = mKeyAxis->range();
    const double length = std::abs(mKeyAxis->coordToPixel(keys.upper) - mKeyAxis->coordToPixel(keys.lower));
    const int columns = std::max(1, int(std::ceil(length)));
    StackedMemory::Reduced& r = m_memory->reduced;
    if (r.columns != columns || r.t0 != keys.lower || r.t1 != keys.upper)
        r = {keys.lower, keys.upper, columns, decimateMemory(*m_memory, keys.lower, keys.upper, columns)};
    return r.steps;
}

double MemoryAreaPlottable::selectTest(const QPointF&, bool, QVariant*) const {
    return -1;
}

QCPRange MemoryAreaPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const {
    foundRange = m_memory && !m_memory->times.empty();
    return foundRange ? QCPRange(m_memory->times.front(), m_memory->end) : QCPRange(0, 1);
}

QCPRange MemoryAreaPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const {
    foundRange = m_memory && !m_memory->times.empty();
    return foundRange ? QCPRange(0, std::max(1.0, m_memory->peak)) : QCPRange(0, 1);
}

void MemoryAreaPlottable::draw(QCPPainter* painter) {
    if (!m_memory || !mKeyAxis || !mValueAxis) return;
    const std::vector<MemoryStep>& steps = this->steps();
    if (steps.empty()) return;
    const std::size_t c = std::size_t(m_category);
    // One polygon: along this category's top, then back along the top of the one below.
    QPolygonF area;
    area.reserve(qsizetype(steps.size()) * 4);
    for (const MemoryStep& s : steps) {
        const double y = mValueAxis->coordToPixel(s.tops[c]);
        area << QPointF(mKeyAxis->coordToPixel(s.start), y) << QPointF(mKeyAxis->coordToPixel(s.end), y);
    }
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
        const double y = mValueAxis->coordToPixel(c == 0 ? 0.0 : it->tops[c - 1]);
        area << QPointF(mKeyAxis->coordToPixel(it->end), y) << QPointF(mKeyAxis->coordToPixel(it->start), y);
    }
    applyFillAntialiasingHint(painter);
    painter->setPen(Qt::NoPen);
    painter->setBrush(mBrush);
    painter->drawPolygon(area);
}

void MemoryAreaPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
    painter->setPen(Qt::NoPen);
    painter->setBrush(mBrush);
    painter->drawRect(rect.adjusted(0, rect.height() * 0.3, 0, -rect.height() * 0.3));
}
