#include "chartstyle.h"

#include "axes.h"
#include "replot.h"

#include <cmath>
#include <qcustomplot.h>

namespace {

double luminance(const QColor& c) {
    auto lin = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}

QColor blend(const QColor& from, const QColor& to, double amount) {
    auto mix = [&](float a, float b) { return float(a + (b - a) * amount); };
    return QColor::fromRgbF(mix(from.redF(), to.redF()), mix(from.greenF(), to.greenF()),
                            mix(from.blueF(), to.blueF()));
}

// The colour `owner` shows for `key`: derived from the one it was given (remembered the first time, and again
// whenever the view set another since), made readable on `background`.
QColor adapted(QObject* owner, const char* key, const QColor& current, const QColor& background) {
    const QByteArray given = QByteArray("ckptGiven_") + key, shown = QByteArray("ckptShown_") + key;
    const QVariant was = owner->property(given.constData());
    const QColor base =
        was.isValid() && owner->property(shown.constData()).value<QColor>() == current ? was.value<QColor>() : current;
    const QColor out = readableOn(base, background);
    owner->setProperty(given.constData(), base);
    owner->setProperty(shown.constData(), out);
    return out;
}

QPen adaptedPen(QObject* owner, const char* key, QPen pen, const QColor& background) {
    if (pen.style() != Qt::NoPen) pen.setColor(adapted(owner, key, pen.color(), background));
    return pen;
}

QBrush adaptedBrush(QObject* owner, const char* key, QBrush brush, const QColor& background) {
    if (brush.style() != Qt::NoBrush) brush.setColor(adapted(owner, key, brush.color(), background));
    return brush;
}

void colourAxes(QCustomPlot* plot, const ChartColours& c) {
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : axesOf(rect)) {
            auto recolour = [&](QPen pen, const QColor& colour) {
                pen.setColor(colour);
                return pen;
            };
            axis->setBasePen(recolour(axis->basePen(), c.foreground));
            axis->setTickPen(recolour(axis->tickPen(), c.foreground));
            axis->setSubTickPen(recolour(axis->subTickPen(), c.foreground));
            axis->setTickLabelColor(c.foreground);
            axis->setLabelColor(c.foreground);
            QCPGrid* grid = axis->grid();
            grid->setPen(recolour(grid->pen(), c.grid));
            grid->setSubGridPen(recolour(grid->subGridPen(), c.subGrid));
            grid->setZeroLinePen(recolour(grid->zeroLinePen(), c.grid));
        }
}

void colourLegend(QCPLegend* legend, const ChartColours& c) {
    if (legend->brush().style() != Qt::NoBrush) legend->setBrush(c.background);
    QPen border = legend->borderPen();
    border.setColor(c.foreground);
    legend->setBorderPen(border);
    legend->setTextColor(c.foreground); // also every item it holds
}

void colourItem(QCPAbstractItem* item, const QColor& background) {
    if (auto* text = qobject_cast<QCPItemText*>(item)) {
        // A label on its own box: the box takes the background (with its transparency), the text stays readable.
        QColor box = background;
        box.setAlpha(text->brush().color().alpha());
        if (text->brush().style() != Qt::NoBrush) text->setBrush(box);
        text->setColor(adapted(text, "text", text->color(), background));
        text->setPen(adaptedPen(text, "pen", text->pen(), background));
    } else if (auto* line = qobject_cast<QCPItemStraightLine*>(item)) {
        line->setPen(adaptedPen(line, "pen", line->pen(), background));
    } else if (auto* segment = qobject_cast<QCPItemLine*>(item)) {
        segment->setPen(adaptedPen(segment, "pen", segment->pen(), background));
    } else if (auto* rect = qobject_cast<QCPItemRect*>(item)) {
        rect->setPen(adaptedPen(rect, "pen", rect->pen(), background));
        rect->setBrush(adaptedBrush(rect, "brush", rect->brush(), background));
    }
}

} // namespace

ChartColours chartColours(const QPalette& palette) {
    const QColor bg = palette.color(QPalette::Active, QPalette::Base);
    const QColor fg = palette.color(QPalette::Active, QPalette::Text);
    // On white: grid (200, 200, 200) and sub-grid (220, 220, 220), QCustomPlot's own.
    return {bg, fg, blend(bg, fg, 0.22), blend(bg, fg, 0.14)};
}

ChartColours paperColours() {
    QPalette paper;
    paper.setColor(QPalette::Base, Qt::white);
    paper.setColor(QPalette::Text, Qt::black);
    return chartColours(paper);
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readableOn(const QColor& colour, const QColor& background) {
    // 3:1 is the least for lines and markers; the scheduler colours were chosen for white at 2.2:1 (Okabe and Ito's
    // orange), which a light background keeps.
    const double kLeast = luminance(background) < 0.18 ? 3.0 : 2.2;
    if (contrastRatio(colour, background) >= kLeast) return colour;
    // The same hue at the mirrored lightness first: black becomes white (the text's role), a dark purple a light
    // one, so colours that differed on white still differ. Else towards white (or black) until it reads.
    float h = 0, sat = 0, light = 0, alpha = 0;
    colour.getHslF(&h, &sat, &light, &alpha);
    const QColor mirrored = QColor::fromHslF(h, sat, 1 - light, alpha);
    if (contrastRatio(mirrored, background) >= kLeast) return mirrored;
    const QColor target = luminance(background) < 0.18 ? QColor(Qt::white) : QColor(Qt::black);
    QColor out = colour;
    for (int step = 1; step <= 20 && contrastRatio(out, background) < kLeast; ++step)
        out = blend(colour, target, step / 20.0);
    out.setAlpha(colour.alpha());
    return out;
}

void applyChartColours(QCustomPlot* plot, const ChartColours& c) {
    plot->setBackground(QBrush(c.background));
    colourAxes(plot, c);
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true))
        if (auto* legend = qobject_cast<QCPLegend*>(e))
            colourLegend(legend, c);
        else if (auto* text = qobject_cast<QCPTextElement*>(e))
            text->setTextColor(c.foreground); // a title or a footnote
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPLayoutElement* e : rect->insetLayout()->elements(true))
            if (auto* legend = qobject_cast<QCPLegend*>(e)) colourLegend(legend, c);
    // Series lines and markers, not fills: fills are mid tones that read on both and keep their meaning.
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot->plottable(i);
        p->setPen(adaptedPen(p, "pen", p->pen(), c.background));
        if (auto* graph = qobject_cast<QCPGraph*>(p); graph && !graph->scatterStyle().isNone()) {
            QCPScatterStyle s = graph->scatterStyle();
            // A marker without a pen of its own draws with the graph's (adapted above); its pen() is Qt::NoPen.
            if (s.isPenDefined()) s.setPen(adaptedPen(graph, "scatterPen", s.pen(), c.background));
            s.setBrush(adaptedBrush(graph, "scatterBrush", s.brush(), c.background));
            graph->setScatterStyle(s);
        }
    }
    for (int i = 0; i < plot->itemCount(); ++i)
        colourItem(plot->item(i), c.background);
}

PaperColours::PaperColours(QCustomPlot* plot) : m_plot(plot) {
    if (m_plot) applyChartColours(m_plot, paperColours());
}

PaperColours::~PaperColours() {
    if (!m_plot) return;
    applyChartColours(m_plot, chartColours(m_plot->palette()));
    replotWhenSeen(m_plot);
}
