#include "layoutview.h"

#include "chartstyle.h"
#include "run/run_layout.h"
#include "tickers.h"
#include "util/units.h"

#include <QLabel>
#include <QVBoxLayout>

using namespace ckpt;

LayoutBlocks::LayoutBlocks(QCPAxis* keyAxis, QCPAxis* valueAxis) : QCPAbstractPlottable(keyAxis, valueAxis) {}

void LayoutBlocks::setLayout(std::shared_ptr<const MemoryLayout> layout) {
    m_layout = std::move(layout);
}

QColor LayoutBlocks::categoryColor(MemoryCategory c) {
    // The memory chart's colours (timelineview.cpp), opaque: states, tapes, gradients, temporaries.
    switch (c) {
    case MemoryCategory::State:
        return QColor(0, 114, 178);
    case MemoryCategory::Tape:
        return QColor(230, 159, 0);
    case MemoryCategory::Gradient:
        return QColor(213, 94, 0);
    case MemoryCategory::Temporary:
        return QColor(120, 120, 120);
    }
    return Qt::black;
}

double LayoutBlocks::selectTest(const QPointF&, bool, QVariant*) const {
    return -1;
}

QCPRange LayoutBlocks::getKeyRange(bool& foundRange, QCP::SignDomain) const {
    foundRange = m_layout && !m_layout->tensors.empty();
    if (!foundRange) return QCPRange(0, 1);
    double hi = 0;
    for (const PlacedTensor& p : m_layout->tensors)
        hi = std::max(hi, p.life.end);
    return QCPRange(0, std::max(hi, 1e-12));
}

QCPRange LayoutBlocks::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const {
    foundRange = m_layout && m_layout->packed_peak > 0;
    return QCPRange(0, foundRange ? double(m_layout->packed_peak) : 1.0);
}

void LayoutBlocks::draw(QCPPainter* painter) {
    if (!m_layout) return;
    const QCPAxis* k = keyAxis();
    const QCPAxis* v = valueAxis();
    for (int c = 0; c < kMemoryCategories; ++c) {
        const QColor color = categoryColor(MemoryCategory(c));
        painter->setPen(QPen(color.darker(140), 0.6));
        painter->setBrush(QColor(color.red(), color.green(), color.blue(), 190));
        for (const PlacedTensor& p : m_layout->tensors) {
            if (int(p.life.category) != c) continue;
            // A tensor released at the instant it was made still gets a sliver one pixel wide.
            const double x0 = k->coordToPixel(p.life.start), x1 = std::max(k->coordToPixel(p.life.end), x0 + 1);
            const double y0 = v->coordToPixel(double(p.offset)), y1 = v->coordToPixel(double(p.offset + p.life.bytes));
            painter->drawRect(QRectF(QPointF(x0, y1), QPointF(x1, y0)));
        }
    }
}

void LayoutBlocks::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
    painter->setPen(Qt::NoPen);
    painter->setBrush(categoryColor(MemoryCategory::Tape));
    painter->drawRect(rect);
}

LayoutView::LayoutView(QWidget* parent) : QWidget(parent) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // a long summary wraps, never widens
    l->addWidget(m_summary);
    m_plot = new QCustomPlot(this);
    m_plot->setMinimumSize(200, 150); // its legend must not set the window's width
    l->addWidget(m_plot, 1);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->xAxis->setLabel(tr("time"));
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new SecondsTicker));
    m_plot->yAxis->setLabel(tr("address in level 0"));
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new BytesTicker));
    m_blocks = new LayoutBlocks(m_plot->xAxis, m_plot->yAxis);
    m_blocks->setName(tr("tensors"));
    m_ideal = new QCPItemStraightLine(m_plot);
    m_ideal->setPen(QPen(QColor(0, 0, 0), 1.2, Qt::DashLine));
    m_ideal->setVisible(false);
    // One legend entry per category: empty graphs that carry the colour.
    m_plot->legend->setVisible(true);
    m_plot->legend->removeItem(0); // the blocks' own entry
    for (int c = 0; c < kMemoryCategories; ++c) {
        QCPGraph* g = m_plot->addGraph();
        g->setName(QString::fromUtf8(memoryCategoryName(MemoryCategory(c))));
        g->setPen(Qt::NoPen);
        g->setBrush(LayoutBlocks::categoryColor(MemoryCategory(c)));
    }
    QCPGraph* line = m_plot->addGraph();
    line->setName(tr("ideal peak"));
    line->setPen(m_ideal->pen());
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_summary->setText(tr("Run a plan: its tensors appear here at the addresses an arena allocator gives them."));
}

QString LayoutView::summary() const {
    return m_summary->text();
}

void LayoutView::setRun(const std::shared_ptr<const Run>& run, const Problem& problem, const Hardware& hw) {
    m_layout.reset();
    m_blocks->setLayout(nullptr);
    m_ideal->setVisible(false);
    QString why;
    if (!run || !run->feasible) {
        why = tr("No plan to lay out: the shown run found none.");
    } else if (auto packed = layoutRun(*run, problem, hw); !packed) {
        why = tr("No layout: %1.").arg(QString::fromStdString(packed.error()));
    } else {
        m_layout = std::make_shared<const MemoryLayout>(std::move(*packed));
    }
    if (!m_layout) {
        m_summary->setText(why);
        m_plot->replot();
        return;
    }
    m_blocks->setLayout(m_layout);
    m_ideal->point1->setCoords(0, double(m_layout->ideal_peak));
    m_ideal->point2->setCoords(1, double(m_layout->ideal_peak));
    m_ideal->setVisible(true);
    m_summary->setText(
        tr("%1 tensors of %2 placed first fit, largest first: packed peak %3 against the ideal %4 (the most held at "
           "once): %5 % fragmentation.")
            .arg(m_layout->tensors.size())
            .arg(QString::fromStdString(run->scheduler))
            .arg(QString::fromStdString(formatBytes(double(m_layout->packed_peak))),
                 QString::fromStdString(formatBytes(double(m_layout->ideal_peak))))
            .arg(100.0 * m_layout->fragmentation(), 0, 'f', 1));
    m_plot->rescaleAxes();
    m_plot->yAxis->setRange(0, double(m_layout->packed_peak) * 1.35); // room for the legend above the blocks
    m_plot->replot();
}
