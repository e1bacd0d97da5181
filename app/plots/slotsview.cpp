#include "slotsview.h"

#include "replot.h"
#include "schedulerstyle.h"

#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <qcustomplot.h>

using namespace ckpt;

SlotsView::SlotsView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    layout->addWidget(m_plot);
    m_plot->xAxis->setLabel(tr("slots"));
    m_plot->yAxis->setLabel(tr("forward steps"));
    m_plot->legend->setVisible(true);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
}

void SlotsView::setRuns(const std::vector<std::shared_ptr<const Run>>& runs) {
    m_plot->clearGraphs();
    std::vector<std::string> order;
    std::map<std::string, QVector<QCPGraphData>> points;
    double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
    for (const auto& r : runs) {
        if (!r->feasible || !r->timeline) continue;
        auto it = r->params.find("slots");
        if (it == r->params.end()) it = r->params.find("segments");
        if (it == r->params.end()) continue;
        const double x = std::atof(it->second.c_str()), y = double(r->timeline->totals.forward_steps);
        if (!points.count(r->scheduler)) order.push_back(r->scheduler);
        points[r->scheduler].push_back(QCPGraphData(x, y));
        xmin = std::min(xmin, x), xmax = std::max(xmax, x), ymin = std::min(ymin, y), ymax = std::max(ymax, y);
    }
    for (const std::string& name : order) {
        QCPGraph* g = m_plot->addGraph();
        g->setName(QString::fromStdString(name));
        const SchedulerStyle style = schedulerStyle(name);
        g->setPen(schedulerPen(style));
        g->setScatterStyle(schedulerScatter(style));
        g->data()->set(points[name], false);
    }
    if (order.empty()) xmin = 0, xmax = 1, ymin = 1, ymax = 10;
    // Forward steps fall by orders of magnitude from one slot to a few: a log axis keeps the tail readable.
    const bool logarithmic = ymax > 5 * std::max(ymin, 1.0);
    m_plot->yAxis->setScaleType(logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logarithmic) {
        const double lo = std::max(ymin, 1.0) / 1.3, hi = ymax * 1.3;
        // Ticks at 1, 2 and 5 times a power of ten over two decades or less, at powers of ten over more (QCustomPlot's
        // log ticker falls back to even steps below 1.6 decades, which crowd at the top of a log axis).
        const bool fine = std::log10(hi / lo) <= 2;
        QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
        for (double p = std::pow(10.0, std::floor(std::log10(lo))); p <= hi; p *= 10)
            for (double m : {1.0, 2.0, 5.0})
                if ((m == 1 || fine) && p * m >= lo && p * m <= hi)
                    ticks->addTick(p * m, QString::number(p * m, 'f', 0));
        m_plot->yAxis->setTicker(ticks);
        m_plot->yAxis->setRange(lo, hi);
    } else {
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        m_plot->yAxis->setNumberFormat("g");
        m_plot->yAxis->setNumberPrecision(6);
        m_plot->yAxis->setRange(0, ymax * 1.08);
    }
    const double pad = std::max(0.5, (xmax - xmin) * 0.04);
    m_plot->xAxis->setRange(xmin - pad, xmax + pad);
    replotWhenSeen(m_plot);
}
