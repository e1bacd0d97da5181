#include "printlayout.h"

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace {

// In pixels, not points: the layout measures text on the screen and the page is drawn on a 72-dpi device, so a
// pixel size is the one unit both agree on (1 px on the page = 1 pt). Whole points only.
QFont sized(QFont f, double pt) {
    f.setPixelSize(std::max(1, int(std::lround(pt))));
    return f;
}

// Lays the chart out at `w` × `h` without drawing, so axis lengths are known.
void layoutAt(QCustomPlot* plot, double w, double h) {
    plot->plotLayout()->setOuterRect(QRect(0, 0, int(std::lround(w)), int(std::lround(h))));
    plot->plotLayout()->update(QCPLayoutElement::upPreparation);
    plot->plotLayout()->update(QCPLayoutElement::upMargins);
    plot->plotLayout()->update(QCPLayoutElement::upLayout);
}

// Puts a legend under its chart (not over the data) in as many columns as its widest entry allows.
void wrapLegend(QCustomPlot* plot, QCPLegend* legend, double widthPt, double fontPt) {
    if (legend->layout() != plot->plotLayout()) {
        // An inset legend (over the axis rect) moves to a row of its own under the charts.
        if (auto* inset = qobject_cast<QCPLayoutInset*>(legend->layout())) {
            inset->take(legend);
            inset->simplify();
            const int row = plot->plotLayout()->rowCount();
            plot->plotLayout()->addElement(row, 0, legend);
            plot->plotLayout()->setRowStretchFactor(row, 0.001);
        }
    }
    legend->setFont(sized(legend->font(), fontPt));
    legend->setIconSize(int(std::lround(fontPt * 2)), int(std::lround(fontPt)));
    legend->setIconTextPadding(int(std::lround(fontPt * 0.4)));
    legend->setRowSpacing(0);
    legend->setColumnSpacing(int(std::lround(fontPt)));
    legend->setMargins(QMargins(2, 1, 2, 1));
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    double widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i) {
        QCPAbstractLegendItem* item = legend->item(i);
        if (!item) continue; // an empty cell of an earlier wrap
        item->setFont(sized(item->font(), fontPt));
        QString text;
        if (auto* p = qobject_cast<QCPPlottableLegendItem*>(item)) text = p->plottable()->name();
        widest = std::max(widest, QFontMetricsF(item->font()).horizontalAdvance(text.isEmpty() ? "recompute" : text));
    }
    const double entry = widest + fontPt * 2 + fontPt * 0.4 + fontPt;
    const int columns = std::max(1, int((widthPt - 8) / entry));
    // Filled across, `columns` entries to a row.
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, false);
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
}

} // namespace

void fitForPrint(QCustomPlot* plot, double widthPt, double heightPt, double fontPt) {
    const QFont font = sized(plot->font(), fontPt);
    const QFontMetricsF fm(font);
    const QList<QCPAxisRect*> rects = plot->axisRects();
    for (QCPAxisRect* r : rects) {
        // QCustomPlot keeps 15 px around every axis rect; on a page the top needs only room for half a tick label.
        QMargins least = r->minimumMargins();
        least.setTop(int(std::ceil(fontPt * 0.7)));
        r->setMinimumMargins(least);
        for (QCPAxis* a : r->axes()) {
            a->setTickLabelFont(font);
            a->setLabelFont(font);
            a->setLabelPadding(int(std::lround(fontPt * 0.3)));
            a->setTickLabelPadding(int(std::lround(fontPt * 0.3)));
        }
    }
    // Lines and markers in proportion to the text, so a column-wide figure is not all markers.
    for (int g = 0; g < plot->graphCount(); ++g) {
        QCPGraph* graph = plot->graph(g);
        QPen pen = graph->pen();
        if (pen.style() != Qt::NoPen && pen.widthF() > 1) pen.setWidthF(std::max(0.8, fontPt / 8));
        graph->setPen(pen);
        QCPScatterStyle sc = graph->scatterStyle();
        if (!sc.isNone()) {
            sc.setSize(std::max(3.0, fontPt * 0.6));
            // A scatter style without a pen of its own draws with the graph's; its pen() is Qt::NoPen, which set
            // here would hide the markers.
            QPen sp = sc.isPenDefined() ? sc.pen() : graph->pen();
            sp.setWidthF(std::max(0.6, fontPt / 10));
            sc.setPen(sp);
            graph->setScatterStyle(sc);
        }
    }
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true))
        if (auto* legend = qobject_cast<QCPLegend*>(e)) wrapLegend(plot, legend, widthPt, fontPt);
    if (plot->legend && plot->legend->visible()) wrapLegend(plot, plot->legend, widthPt, fontPt);
    // Named ticks (a Gantt's lanes, named after memory levels) drop a parenthesised detail when they would take more
    // than a quarter of the width: "host DRAM (PCIe 4.0 x16)" prints as "host DRAM".
    for (QCPAxisRect* r : rects)
        for (QCPAxis* a : r->axes()) {
            auto named = a->ticker().dynamicCast<QCPAxisTickerText>();
            if (!named) continue;
            double widest = 0;
            for (const QString& t : named->ticks())
                widest = std::max(widest, fm.horizontalAdvance(t));
            if (widest <= widthPt / 4) continue;
            QMap<double, QString> shorter = named->ticks();
            for (QString& t : shorter)
                if (int cut = t.indexOf(" ("); cut > 0) t.truncate(cut);
            named->setTicks(shorter);
        }
    plot->plotLayout()->setMargins(QMargins(1, 1, 1, 1));
    // Tick counts from the room each axis has once laid out: per label, the widest a byte or time label gets
    // ("888.88 MiB") and two characters across, or two and a half lines up.
    for (int pass = 0; pass < 2; ++pass) { // the second pass sees the margins the first pass's labels need
        layoutAt(plot, widthPt, heightPt);
        for (QCPAxisRect* r : rects)
            for (QCPAxis* a : r->axes()) {
                const bool across = a->orientation() == Qt::Horizontal;
                const double room = across ? r->width() : r->height();
                const double per =
                    across ? fm.horizontalAdvance("888.88 MiB") + 2 * fm.averageCharWidth() : 2.5 * fontPt;
                a->ticker()->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount); // never more than fit
                a->ticker()->setTickCount(std::clamp(int(room / per), 1, 8));
            }
    }
}
