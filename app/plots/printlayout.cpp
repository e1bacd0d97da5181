#include "printlayout.h"

#include "axes.h"
#include "printsize.h"

#include <QFontMetricsF>
#include <QHash>
#include <algorithm>
#include <cmath>
#include <limits>
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

// Puts a legend under its chart (not over the data) in as many columns as fit the width.
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
    QList<QCPAbstractLegendItem*> items; // in the legend's order
    for (int i = 0; i < legend->itemCount(); ++i) {
        QCPAbstractLegendItem* item = legend->item(i);
        if (!item) continue; // an empty cell of an earlier wrap
        item->setFont(sized(item->font(), fontPt));
        // The layout measures text on the screen in whole pixels; on the page a line is a little taller, and an item
        // clips to its cell, so each keeps a sliver below for the descenders ("g", "p").
        item->setMargins(QMargins(0, 0, 0, int(std::ceil(fontPt * 0.15))));
        items << item;
    }
    if (items.isEmpty()) return;
    // The fewest rows whose columns, each as wide as its widest entry, fit the width: filled across (the order reads
    // along a row, as on the screen) when that fits in as few rows as filled down, else down (the long names then
    // share a column, which can fit more columns: eleven schedulers at 9 pt take two columns, not one).
    std::vector<double> widths;
    for (QCPAbstractLegendItem* item : items)
        widths.push_back(item->minimumOuterSizeHint().width());
    const int n = int(items.size());
    const double room = widthPt - 4 - legend->margins().left() - legend->margins().right();
    // Entry k's column with `rows` rows: filled across, k modulo the columns; filled down, k over the rows.
    auto fits = [&](int rows, bool across) {
        const int columns = (n + rows - 1) / rows;
        std::vector<double> column(std::size_t(columns), 0);
        for (int k = 0; k < n; ++k) {
            const std::size_t c = std::size_t(across ? k % columns : k / rows);
            column[c] = std::max(column[c], widths[std::size_t(k)]);
        }
        double total = double(legend->columnSpacing()) * (columns - 1);
        for (double w : column)
            total += w;
        return total <= room;
    };
    int rows = 1;
    bool across = true;
    for (; rows < n; ++rows) {
        if (fits(rows, true)) break;
        if (fits(rows, false)) {
            across = false;
            break;
        }
    }
    const int columns = (n + rows - 1) / rows;
    for (QCPAbstractLegendItem* item : items)
        legend->take(item);
    legend->simplify();
    if (across) {
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, false);
        legend->setWrap(columns);
    } else {
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst, false);
        legend->setWrap(rows);
    }
    for (QCPAbstractLegendItem* item : items)
        legend->addElement(item);
}

// True when the axis's tick labels at its ticker's current count do not crowd each other.
bool labelsApart(QCPAxis* a, const QFontMetricsF& fm, double fontPt) {
    QVector<double> ticks;
    QVector<QString> labels;
    const QString format = a->numberFormat();
    a->ticker()->generate(a->range(), a->parentPlot()->locale(), format.isEmpty() ? QChar('g') : format.at(0),
                          a->numberPrecision(), ticks, nullptr, &labels);
    const bool across = a->orientation() == Qt::Horizontal;
    double last = 0;
    QString lastLabel;
    bool first = true;
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (!a->range().contains(ticks[i])) continue;
        const double at = a->coordToPixel(ticks[i]);
        if (!first) {
            const double need = across ? (fm.horizontalAdvance(labels[i]) + fm.horizontalAdvance(lastLabel)) / 2 +
                                             2 * fm.averageCharWidth()
                                       : 1.5 * fontPt;
            if (std::abs(at - last) < need) return false;
        }
        first = false, last = at, lastLabel = labels[i];
    }
    return true;
}

// Sets an axis's title (`title`, in one line) to fit its axis: in lines when longer (a column-wide trade-off's
// "time ÷ store-all's" beside a short plot would be cut at the page's edge), a point smaller at a time, to 6 pt, where
// a word is longer still ("lane" beside one lane at 16 pt). Centred on the axis, a title may reach into the margins at
// both ends half as far as the smaller.
void fitTitle(QCPAxisRect* r, QCPAxis* a, const QString& title, const QFont& font, double fontPt) {
    if (title.isEmpty()) return;
    const QMargins m = r->margins();
    const double length = a->orientation() == Qt::Vertical ? r->height() + std::min(m.top(), m.bottom())
                                                           : r->width() + std::min(m.left(), m.right());
    for (double pt = fontPt;; --pt) {
        const QFont f = sized(font, pt);
        const QFontMetricsF fm(f);
        const QString lines = fm.horizontalAdvance(title) <= length ? title : wrapToWidth(title, f, length);
        double widest = 0;
        for (const QString& line : lines.split('\n'))
            widest = std::max(widest, fm.horizontalAdvance(line));
        a->setLabel(lines);
        a->setLabelFont(f);
        if (widest <= length || pt <= 6) return;
    }
}

// Named ticks (a Gantt's lanes) cannot be thinned out like numbers: where the named ones are closer than 1.2 lines
// (two lanes at 12 pt in a short panel), their names step down to fit, to 6 pt. A lane left unnamed on the screen
// takes no room.
void fitNamedTicks(QCPAxis* a, QCPAxisTickerText& named, const QFont& font, double fontPt) {
    double closest = std::numeric_limits<double>::infinity(), last = std::numeric_limits<double>::quiet_NaN();
    const QMap<double, QString>& ticks = named.ticks(); // (QCPAxisTickerText::ticks is not const)
    for (auto it = ticks.cbegin(); it != ticks.cend(); ++it) {
        if (it.value().isEmpty()) continue;
        const double at = a->coordToPixel(it.key());
        if (!std::isnan(last)) closest = std::min(closest, std::abs(at - last));
        last = at;
    }
    const double pt = std::clamp(std::floor(closest / 1.2), 6.0, fontPt);
    a->setTickLabelFont(sized(font, a->orientation() == Qt::Vertical ? pt : fontPt));
}

// The axes' text at the page's size, with margins and paddings to match, and lines and markers in proportion to it.
void scaleToText(QCustomPlot* plot, const QFont& font, double fontPt) {
    for (QCPAxisRect* r : plot->axisRects()) {
        // QCustomPlot keeps 15 px around every axis rect; on a page the top needs only room for half a tick label.
        QMargins least = r->minimumMargins();
        least.setTop(int(std::ceil(fontPt * 0.7)));
        r->setMinimumMargins(least);
        // Nor need its data keep 50 px: where the text leaves less, the text would be squeezed too and overlap, and
        // a data area that small is what the fit below reports.
        r->setMinimumSize(r->minimumSize().width(), 1);
        for (QCPAxis* a : axesOf(r)) {
            a->setTickLabelFont(font);
            a->setLabelFont(font);
            a->setLabelPadding(int(std::lround(fontPt * 0.3)));
            a->setTickLabelPadding(int(std::lround(fontPt * 0.3)));
            a->setPadding(int(std::lround(fontPt * 0.2))); // the blank beyond the title: 5 px on the screen
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
}

// Named ticks (a Gantt's lanes, named after memory levels) drop a parenthesised detail when they would take more
// than a quarter of the width: "host DRAM (PCIe 4.0 x16)" prints as "host DRAM".
void shortenNamedTicks(QCustomPlot* plot, const QFontMetricsF& fm, double widthPt) {
    for (QCPAxisRect* r : plot->axisRects())
        for (QCPAxis* a : axesOf(r)) {
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
}

// Titles fitted to their axes (fitTitle), and tick counts from the room each axis has once laid out: the most ticks
// (up to 8) whose labels, as the ticker writes them, stand apart by two characters across, or by one and a half lines
// up; named ticks sized to their spacing (fitNamedTicks). `titles`: each axis's title in one line, as the view wrote
// it.
void fitAxes(QCustomPlot* plot, const QHash<QCPAxis*, QString>& titles, const QFont& font, double fontPt,
             double widthPt, double heightPt) {
    const QFontMetricsF fm(font);
    const QList<QCPAxisRect*> rects = plot->axisRects();
    for (int pass = 0; pass < 3; ++pass) { // each pass sees the margins the last one's labels and titles need
        layoutAt(plot, widthPt, heightPt);
        for (QCPAxisRect* r : rects)
            for (QCPAxis* a : axesOf(r))
                fitTitle(r, a, titles.value(a), font, fontPt);
        for (QCPAxisRect* r : rects)
            for (QCPAxis* a : axesOf(r)) {
                if (auto named = a->ticker().dynamicCast<QCPAxisTickerText>()) {
                    fitNamedTicks(a, *named, font, fontPt);
                    continue;
                }
                a->ticker()->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount); // never more than fit
                for (int count = 8; count >= 1; --count) {
                    a->ticker()->setTickCount(count);
                    if (count == 1 || labelsApart(a, fm, fontPt)) break;
                }
            }
    }
    layoutAt(plot, widthPt, heightPt);
}

} // namespace

QString wrapToWidth(const QString& text, const QFont& font, double width) {
    const QFontMetricsF fm(font);
    QStringList lines;
    QString line;
    for (const QString& word : text.simplified().split(' ', Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + ' ' + word;
        if (!line.isEmpty() && fm.horizontalAdvance(longer) > width) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    if (!line.isEmpty()) lines << line;
    return lines.join('\n');
}

PrintFit fitForPrint(QCustomPlot* plot, double widthPt, double heightPt, double fontPt) {
    const QFont font = sized(plot->font(), fontPt);
    const QFontMetricsF fm(font);
    const QList<QCPAxisRect*> rects = plot->axisRects();
    scaleToText(plot, font, fontPt);
    auto wrapLegends = [&](double pt) {
        for (QCPLayoutElement* e : plot->plotLayout()->elements(true))
            if (auto* legend = qobject_cast<QCPLegend*>(e)) wrapLegend(plot, legend, widthPt, pt);
        if (plot->legend && plot->legend->visible()) wrapLegend(plot, plot->legend, widthPt, pt);
    };
    wrapLegends(fontPt);
    // Labels on the data (a clipped point's value) at the text's size.
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i))) text->setFont(sized(text->font(), fontPt));
    // A footnote goes last, under the legend, at the text's size.
    auto* grid = plot->plotLayout();
    for (int row = 0; row + 1 < grid->rowCount(); ++row) {
        auto* note = qobject_cast<QCPTextElement*>(grid->element(row, 0));
        if (!note || note->objectName() != "footnote") continue;
        grid->take(note);
        grid->simplify();
        grid->addElement(grid->rowCount(), 0, note);
        grid->setRowStretchFactor(grid->rowCount() - 1, 0.001);
        break;
    }
    auto setTexts = [&](double pt, bool footnotesOnly) {
        for (QCPLayoutElement* e : grid->elements(true))
            if (auto* text = qobject_cast<QCPTextElement*>(e)) {
                const bool footnote = text->objectName() == "footnote";
                if (footnotesOnly && !footnote) continue;
                text->setFont(sized(text->font(), pt));
                text->setMargins(QMargins(2, 1, 2, 1));
                // QCustomPlot sizes a text element by its unwrapped text: break the lines here, to the page's width.
                // A footnote over two lines prints its brief form where it has one (a column-wide trade-off's list of
                // schedulers that could not run took four lines and left the data 40 % of the page).
                if (!footnote) continue;
                if (!text->property("full").isValid()) text->setProperty("full", text->text());
                QString lines = wrapToWidth(text->property("full").toString(), text->font(), widthPt - 6);
                if (const QString brief = text->property("brief").toString(); lines.count('\n') > 1 && !brief.isEmpty())
                    lines = wrapToWidth(brief, text->font(), widthPt - 6);
                text->setText(lines);
            }
    };
    setTexts(fontPt, false);
    shortenNamedTicks(plot, fm, widthPt);
    plot->plotLayout()->setMargins(QMargins(1, 1, 1, 1));
    plot->plotLayout()->setRowSpacing(int(std::lround(fontPt * 0.3))); // between the chart, its legend and footnote
    // A legend and footnote that would take more than 60 % of the page, or leave the data less than a fifth of it,
    // step down a point at a time, to 6 pt: eleven schedulers' names at 12 pt in a 3.5 × 2.5 in column. The data's
    // room is the page less the text rows and the axes' margins (and the axis rects' least heights, set to 1 above).
    PrintFit fit{fontPt, true};
    auto dataRoom = [&] {
        double least = 0;
        for (QCPAxisRect* r : rects)
            least += r->minimumSize().height();
        return heightPt - (grid->minimumOuterSizeHint().height() - least);
    };
    auto crowded = [&] {
        layoutAt(plot, widthPt, heightPt);
        double text = 0;
        for (int row = 0; row < grid->rowCount(); ++row)
            if (QCPLayoutElement* e = grid->element(row, 0); e && !qobject_cast<QCPAxisRect*>(e))
                text += e->minimumOuterSizeHint().height();
        return text > heightPt * 0.6 || dataRoom() < heightPt * 0.2;
    };
    auto smaller = [&] {
        fit.legend_pt -= 1;
        wrapLegends(fit.legend_pt);
        setTexts(fit.legend_pt, true);
    };
    if (!rects.isEmpty())
        while (crowded() && fit.legend_pt > 6)
            smaller();
    QHash<QCPAxis*, QString> titles; // in one line, as the view wrote them
    for (QCPAxisRect* r : rects)
        for (QCPAxis* a : axesOf(r))
            titles[a] = a->label().simplified();
    fitAxes(plot, titles, font, fontPt, widthPt, heightPt);
    // The axes' titles as fitted (two lines where one did not fit) can take the room the text's steps left the data:
    // the legend and footnote step down further (a shorter footnote had stopped them a step early).
    while (!rects.isEmpty() && dataRoom() < heightPt * 0.2 && fit.legend_pt > 6) {
        smaller();
        fitAxes(plot, titles, font, fontPt, widthPt, heightPt);
    }
    if (!rects.isEmpty()) fit.fits = dataRoom() >= heightPt * 0.2; // with the axes' titles and ticks as drawn
    return fit;
}

QString printFitNote(const PrintFit& fit, const PrintSize& size) {
    const QString page = QString("%1 × %2 %3")
                             .arg(size.width_pt, 0, 'g', 4)
                             .arg(size.height_pt, 0, 'g', 4)
                             .arg(size.pixels ? "px" : "pt");
    if (!fit.fits)
        return QObject::tr("At %1 pt the chart does not fit %2: its axes and legend leave the data too little room. A "
                           "larger page or a smaller font fits it.")
            .arg(size.font_pt)
            .arg(page);
    if (fit.legend_pt < size.font_pt)
        return QObject::tr("The legend is set at %1 pt, not %2, to leave the chart room on %3.")
            .arg(fit.legend_pt)
            .arg(size.font_pt)
            .arg(page);
    return {};
}
