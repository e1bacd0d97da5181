#include "slotsview.h"

#include "schedulerstyle.h"

#include <QVBoxLayout>
#include <algorithm>
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
    const bool logarithmic = ymax > 20 * std::max(ymin, 1.0);
    m_plot->yAxis->setScaleType(logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logarithmic) {
        QSharedPointer<QCPAxisTickerLog> log(new QCPAxisTickerLog);
        m_plot->yAxis->setTicker(log);
        m_plot->yAxis->setNumberFormat("f"); // 1000, 10000: no superscripts, which print too small
        m_plot->yAxis->setNumberPrecision(0);
        m_plot->yAxis->setRange(std::max(ymin, 1.0) / 1.3, ymax * 1.3);
    } else {
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        m_plot->yAxis->setNumberFormat("g");
        m_plot->yAxis->setNumberPrecision(6);
        m_plot->yAxis->setRange(0, ymax * 1.08);
    }
    const double pad = std::max(0.5, (xmax - xmin) * 0.04);
    m_plot->xAxis->setRange(xmin - pad, xmax + pad);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}
