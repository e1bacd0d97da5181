#include "charthint.h"

#include "axes.h"

#include <QCoreApplication>

#include <qcustomplot.h>

ChartHint::ChartHint(QCustomPlot* plot) : m_plot(plot), m_item(new QCPItemText(plot)) {
    m_item->setClipToAxisRect(false);
    m_item->position->setType(QCPItemPosition::ptViewportRatio);
    m_item->position->setCoords(0.5, 0.45);
    m_item->setPositionAlignment(Qt::AlignCenter);
    QFont font = m_item->font();
    if (font.pointSizeF() > 0) font.setPointSizeF(font.pointSizeF() * 1.3);
    m_item->setFont(font);
    m_item->setColor(QColor(110, 110, 110)); // grey: a note, not data (chartstyle keeps it readable on dark)
    m_item->setVisible(false);
}

void ChartHint::show(const QString& text) {
    m_item->setText(text);
    m_item->setVisible(true);
    if (!m_hidden.isEmpty()) return; // already hidden
    QList<QCPLayerable*> shown;
    for (QCPAxisRect* rect : m_plot->axisRects())
        for (QCPAxis* axis : axesOf(rect))
            shown << axis;
    for (QCPLayoutElement* e : m_plot->plotLayout()->elements(true))
        if (auto* legend = qobject_cast<QCPLegend*>(e)) shown << legend;
    for (QCPLayerable* l : shown)
        if (l->visible()) {
            l->setVisible(false);
            m_hidden << l;
        }
}

void ChartHint::hide() {
    m_item->setVisible(false);
    for (QCPLayerable* l : m_hidden)
        l->setVisible(true);
    m_hidden.clear();
}

bool ChartHint::visible() const {
    return m_item->visible();
}

QString ChartHint::text() const {
    return m_item->visible() ? m_item->text() : QString();
}

QString ChartHint::runHint() {
    return QCoreApplication::translate("ChartHint", "Run a scheduler (F5) to see its plan");
}
