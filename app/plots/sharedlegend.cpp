#include "sharedlegend.h"

#include "ganttplottable.h"

#include <qcustomplot.h>

namespace {

QList<QCPLegend*> legendsOf(QCustomPlot* plot) {
    QList<QCPLegend*> out;
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true))
        if (auto* l = qobject_cast<QCPLegend*>(e); l && l->visible() && l->itemCount() > 0) out << l;
    return out;
}

QString entryText(QCPAbstractLegendItem* item) {
    if (auto* p = qobject_cast<QCPPlottableLegendItem*>(item)) return p->plottable()->name();
    if (auto* g = qobject_cast<GanttKindLegendItem*>(item)) return QString::fromUtf8(ckpt::intervalKindName(g->kind()));
    return item ? QString::fromUtf8(item->metaObject()->className()) : QString();
}

} // namespace

QList<QStringList> legendEntries(const QList<QCustomPlot*>& plots) {
    QList<QStringList> out;
    for (QCustomPlot* plot : plots) {
        QStringList entries;
        for (QCPLegend* l : legendsOf(plot))
            for (int i = 0; i < l->itemCount(); ++i)
                if (l->item(i)) entries << entryText(l->item(i));
        out << entries;
    }
    return out;
}

std::unique_ptr<QCustomPlot> takeSharedLegend(const QList<QCustomPlot*>& plots) {
    if (plots.size() < 2) return nullptr;
    const QList<QStringList> entries = legendEntries(plots);
    for (int k = 0; k < plots.size(); ++k)
        if (legendsOf(plots[k]).size() != 1 || entries[k].isEmpty()) return nullptr;
    // Charts whose legends have nothing in common (a Gantt chart beside a trade-off) keep their own.
    for (int k = 0; k < plots.size(); ++k) {
        bool shares = false;
        for (int j = 0; j < plots.size() && !shares; ++j)
            for (const QString& e : entries[k])
                shares |= j != k && entries[j].contains(e);
        if (!shares) return nullptr;
    }
    // Every entry any chart lists, once: an entry a chart adds goes right after the one before it in that chart, so
    // each chart's order holds ("write" and "read" after "backward" though the first chart has no transfers). A name
    // has one look in every chart (schedulerstyle.h, the Gantt's kinds), so the first chart listing it gives it.
    QStringList order;
    QList<QCPAbstractLegendItem*> items;
    for (QCustomPlot* plot : plots) {
        QCPLegend* l = legendsOf(plot).front();
        int after = -1;
        for (int i = 0; i < l->itemCount(); ++i) {
            if (!l->item(i)) continue;
            const QString name = entryText(l->item(i));
            int at = int(order.indexOf(name));
            if (at < 0) {
                at = after + 1;
                order.insert(at, name);
                items.insert(at, l->item(i));
            }
            after = at;
        }
    }

    auto strip = std::make_unique<QCustomPlot>();
    strip->setAutoAddPlottableToLegend(false);
    // The strip's axis rect only carries the stand-in plottables the entries point to: hidden, out of the layout.
    QCPAxisRect* axes = strip->axisRect();
    strip->plotLayout()->take(axes);
    axes->setVisible(false);
    auto* legend = new QCPLegend;
    strip->plotLayout()->addElement(0, 0, legend);
    legend->setLayer(QStringLiteral("legend"));
    for (QCPAbstractLegendItem* item : items) {
        if (auto* g = qobject_cast<GanttKindLegendItem*>(item)) {
            legend->addItem(new GanttKindLegendItem(legend, g->kind()));
        } else if (auto* p = qobject_cast<QCPPlottableLegendItem*>(item)) {
            QCPGraph* copy = strip->addGraph(axes->axis(QCPAxis::atBottom), axes->axis(QCPAxis::atLeft));
            copy->setName(p->plottable()->name());
            copy->setPen(p->plottable()->pen());
            copy->setBrush(p->plottable()->brush());
            if (auto* graph = qobject_cast<QCPGraph*>(p->plottable())) {
                copy->setLineStyle(graph->lineStyle());
                copy->setScatterStyle(graph->scatterStyle());
            }
            legend->addItem(new QCPPlottableLegendItem(legend, copy));
        }
    }
    // The charts give theirs up: out of their layouts (a hidden element keeps its room) and not drawn.
    for (QCustomPlot* plot : plots) {
        QCPLegend* l = legendsOf(plot).front();
        if (QCPLayout* holder = l->layout()) holder->take(l);
        l->setVisible(false);
        plot->plotLayout()->simplify();
    }
    return strip;
}
