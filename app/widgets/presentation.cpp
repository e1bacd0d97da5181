#include "presentation.h"

#include "plots/axes.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QResizeEvent>
#include <QToolBar>
#include <QVariant>
#include <qcustomplot.h>

namespace {

// The value a piece had at scale 1, remembered on the piece the first time it is seen.
double base(QObject* owner, const char* key, double now) {
    const QByteArray name = QByteArray("presentation.") + key; // apart from the chart style's own properties
    const QVariant v = owner->property(name);
    if (v.isValid()) return v.toDouble();
    owner->setProperty(name, now);
    return now;
}

// A font at `factor` times its size at scale 1, in points or pixels as it was given.
QFont scaled(QObject* owner, const char* key, QFont f, double factor) {
    const bool points = f.pointSizeF() > 0;
    const double b = base(owner, key, points ? f.pointSizeF() : f.pixelSize());
    if (points)
        f.setPointSizeF(b * factor);
    else
        f.setPixelSize(std::max(1, int(std::lround(b * factor))));
    return f;
}

// A pen at `factor` times its width at scale 1 (a cosmetic width of 0 counts as 1 pixel, and comes back as 0).
QPen widened(QObject* owner, const char* key, QPen p, double factor) {
    const double b = base(owner, key, p.widthF());
    p.setWidthF(factor == 1 ? b : std::max(b, 1.0) * factor);
    return p;
}

} // namespace

Presentation::Presentation(QMainWindow* window) : QObject(window), m_window(window) {}

void Presentation::setOn(bool on) {
    if (on == m_on) return;
    m_on = on;
    if (on) {
        m_state = m_window->saveState();
        m_wasMaximized = m_window->isMaximized();
        m_font = m_window->font();
        for (QDockWidget* d : m_window->findChildren<QDockWidget*>())
            d->hide();
        for (QToolBar* t : m_window->findChildren<QToolBar*>())
            t->hide();
        QFont big = m_font;
        big.setPointSizeF(m_font.pointSizeF() * kTextScale);
        m_window->setFont(big);
        m_window->showFullScreen();
    } else {
        m_window->setFont(m_font);
        m_window->restoreState(m_state);
        m_wasMaximized ? m_window->showMaximized() : m_window->showNormal();
    }
    for (QCustomPlot* plot : m_window->findChildren<QCustomPlot*>()) {
        if (!plot->property("presentationHooked").toBool()) {
            plot->setProperty("presentationHooked", true);
            connect(plot, &QCustomPlot::beforeReplot, this, [this, plot] { scale(plot); });
        }
        scale(plot);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void Presentation::scale(QCustomPlot* plot) const {
    // Pieces never seen in presentation mode keep their sizes: nothing to restore.
    if (!m_on && !plot->property("presentationScaled").toBool()) return;
    plot->setProperty("presentationScaled", m_on);
    const double text = m_on ? kTextScale : 1, line = m_on ? kLineScale : 1;
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : axesOf(rect)) {
            axis->setTickLabelFont(scaled(axis, "tickFont", axis->tickLabelFont(), text));
            axis->setLabelFont(scaled(axis, "labelFont", axis->labelFont(), text));
        }
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
        if (auto* legend = qobject_cast<QCPLegend*>(e)) {
            legend->setFont(scaled(legend, "font", legend->font(), text));
            for (int i = 0; i < legend->itemCount(); ++i)
                if (QCPAbstractLegendItem* item = legend->item(i))
                    item->setFont(scaled(item, "font", item->font(), text));
        } else if (auto* label = qobject_cast<QCPTextElement*>(e)) {
            label->setFont(scaled(label, "font", label->font(), text));
        }
    }
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPLayoutElement* e : rect->insetLayout()->elements(true))
            if (auto* legend = qobject_cast<QCPLegend*>(e)) {
                legend->setFont(scaled(legend, "font", legend->font(), text));
                for (int i = 0; i < legend->itemCount(); ++i)
                    if (QCPAbstractLegendItem* item = legend->item(i))
                        item->setFont(scaled(item, "font", item->font(), text));
            }
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot->plottable(i);
        if (p->pen().style() != Qt::NoPen) p->setPen(widened(p, "pen", p->pen(), line));
        if (auto* graph = qobject_cast<QCPGraph*>(p); graph && !graph->scatterStyle().isNone()) {
            QCPScatterStyle s = graph->scatterStyle();
            s.setSize(base(graph, "marker", s.size()) * line);
            if (s.isPenDefined()) s.setPen(widened(graph, "markerPen", s.pen(), line));
            graph->setScatterStyle(s);
        }
    }
    // A view that fits its legend to its width (the Timeline wraps it in columns) measures it on a resize: it
    // gets one, at its own size, so that it measures the new fonts.
    if (QWidget* view = plot->parentWidget()) {
        QResizeEvent refit(view->size(), view->size());
        QCoreApplication::sendEvent(view, &refit);
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem* item = plot->item(i);
        if (auto* t = qobject_cast<QCPItemText*>(item))
            t->setFont(scaled(t, "font", t->font(), text));
        else if (auto* l = qobject_cast<QCPItemStraightLine*>(item))
            l->setPen(widened(l, "pen", l->pen(), line));
        else if (auto* s = qobject_cast<QCPItemLine*>(item))
            s->setPen(widened(s, "pen", s->pen(), line));
    }
}
