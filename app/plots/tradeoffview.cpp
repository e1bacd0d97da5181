#include "tradeoffview.h"

#include "charthint.h"
#include "chartstyle.h"
#include "schedulerstyle.h"
#include "tickers.h"
#include "util/units.h"

#include <QEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>
#include <map>
#include <qcustomplot.h>

using namespace ckpt;

TradeoffView::TradeoffView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    layout->addWidget(m_plot);
    m_plot->xAxis->setLabel(tr("peak memory in level 0"));
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new BytesTicker));
    m_plot->yAxis->setLabel(tr("time ÷ store-all's"));
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setMouseTracking(true);
    m_hint = std::make_unique<ChartHint>(m_plot);
    auto nearest = [this](const QPoint& pos, int& graphIndex, int& point) {
        double best = 12; // pixels
        graphIndex = point = -1;
        for (int g = 0; g < m_plot->graphCount(); ++g) {
            auto data = m_plot->graph(g)->data();
            for (int k = 0; k < data->size(); ++k) {
                auto it = data->at(k);
                double dx = m_plot->xAxis->coordToPixel(it->key) - pos.x(),
                       dy = m_plot->yAxis->coordToPixel(it->value) - pos.y();
                double dist = std::hypot(dx, dy);
                if (dist < best) best = dist, graphIndex = g, point = k;
            }
        }
    };
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this, nearest](QMouseEvent* e) {
        int g = -1, k = -1;
        nearest(e->pos(), g, k);
        if (g >= 0) emit runClicked(m_pointRun[std::size_t(g)][std::size_t(k)]);
    });
    connect(m_plot, &QCustomPlot::mouseMove, this, [this, nearest](QMouseEvent* e) {
        int g = -1, k = -1;
        nearest(e->pos(), g, k);
        if (g < 0) return QToolTip::hideText();
        const Run& r = *m_runs[std::size_t(m_pointRun[std::size_t(g)][std::size_t(k)])];
        const QString params = QString::fromStdString(formatParams(r.params, "\u00a0 ")).toHtmlEscaped();
        QToolTip::showText(
            e->globalPosition().toPoint(),
            QString("<b>%1</b> %2<br>budget %3<br>peak %4<br>%5× store-all · click to open")
                .arg(QString::fromStdString(r.scheduler), params,
                     r.budget_bytes ? QString::fromStdString(formatBytes(double(r.budget_bytes))) : tr("none"),
                     QString::fromStdString(formatBytes(double(r.timeline->totals.peak_bytes[0]))))
                .arg(r.timeline->totals.makespan_s / r.baseline_makespan_s, 0, 'f', 3),
            m_plot);
    });
    setRuns({});
}

int TradeoffView::seriesCount() const {
    return m_series;
}

int TradeoffView::dominatedCount() const {
    int n = 0;
    for (int g = 0; g < m_plot->graphCount(); ++g)
        if (m_plot->graph(g)->lineStyle() == QCPGraph::lsNone) n += m_plot->graph(g)->dataCount();
    return n;
}

void TradeoffView::setRuns(std::vector<std::shared_ptr<const Run>> runs) {
    m_runs = std::move(runs);
    m_plot->clearGraphs();
    m_pointRun.clear();
    m_series = 0;
    std::map<std::string, std::vector<int>> byScheduler;
    std::vector<std::string> order;
    for (int i = 0; i < int(m_runs.size()); ++i) {
        const Run& r = *m_runs[std::size_t(i)];
        if (!r.feasible || !r.timeline) continue;
        if (!byScheduler.count(r.scheduler)) order.push_back(r.scheduler);
        byScheduler[r.scheduler].push_back(i);
    }
    double xmax = 0, ymax = 1;
    for (std::size_t s = 0; s < order.size(); ++s) {
        auto ids = byScheduler[order[s]];
        std::sort(ids.begin(), ids.end(), [&](int a, int b) {
            return m_runs[std::size_t(a)]->timeline->totals.peak_bytes[0] <
                   m_runs[std::size_t(b)]->timeline->totals.peak_bytes[0];
        });
        QCPGraph* g = m_plot->addGraph();
        g->setName(QString::fromStdString(order[s]));
        const SchedulerStyle style = schedulerStyle(order[s]);
        QPen pen = schedulerPen(style);
        QCPScatterStyle scatter = schedulerScatter(style);
        if (m_stale) {
            const QColor grey(160, 160, 160);
            pen.setColor(grey);
            scatter.setPen(QPen(grey));
            if (scatter.brush().style() != Qt::NoBrush) scatter.setBrush(grey);
        }
        g->setPen(pen);
        g->setScatterStyle(scatter);
        // The line joins the scheduler's best trade-offs only: a point another run of it beats on memory and time
        // (or equals) is drawn faint, unjoined, so the curve does not zigzag through results nobody would choose.
        auto point = [&](int id) {
            const Run& r = *m_runs[std::size_t(id)];
            return QCPGraphData(double(r.timeline->totals.peak_bytes[0]),
                                r.timeline->totals.makespan_s / r.baseline_makespan_s);
        };
        std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) {
            const QCPGraphData pa = point(a), pb = point(b);
            return pa.key < pb.key || (pa.key == pb.key && pa.value < pb.value);
        });
        std::vector<int> best, dominated;
        double lowest = std::numeric_limits<double>::infinity();
        for (int id : ids) {
            const QCPGraphData p = point(id);
            xmax = std::max(xmax, p.key), ymax = std::max(ymax, p.value);
            if (p.value < lowest) {
                lowest = p.value;
                best.push_back(id);
            } else {
                dominated.push_back(id);
            }
        }
        QVector<QCPGraphData> data;
        for (int id : best)
            data.push_back(point(id));
        g->data()->set(data, true); // sorted by key; the run order for clicks is m_pointRun's
        m_pointRun.push_back(best);
        ++m_series;
        if (dominated.empty()) continue;
        QCPGraph* faint = m_plot->addGraph();
        faint->setName(g->name() + tr(" (dominated)"));
        faint->removeFromLegend();
        faint->setLineStyle(QCPGraph::lsNone);
        QCPScatterStyle light = scatter;
        QColor c = pen.color();
        c.setAlpha(80);
        light.setPen(QPen(c, pen.widthF()));
        if (light.brush().style() != Qt::NoBrush) light.setBrush(c);
        faint->setPen(QPen(c));
        faint->setScatterStyle(light);
        QVector<QCPGraphData> faintData;
        for (int id : dominated)
            faintData.push_back(point(id));
        faint->data()->set(faintData, true);
        m_pointRun.push_back(dominated);
    }
    // A scheduler this machine cannot run gets a legend line with the reason and nothing drawn.
    std::map<std::string, std::string> unavailable;
    for (const auto& r : m_runs)
        if (!r->available) unavailable.emplace(r->scheduler, r->message);
    for (const auto& [name, why] : unavailable) {
        QCPGraph* g = m_plot->addGraph();
        g->setName(QString::fromStdString(name + ": n/a, " + why.substr(0, why.find(" ("))));
        g->setPen(Qt::NoPen);
        m_pointRun.emplace_back();
    }
    m_plot->xAxis->setRange(0, std::max(1.0, xmax * 1.08));
    m_plot->yAxis->setRange(0.95, ymax * 1.05 + 0.02);
    // Nothing drawn yet: a line saying how to fill the chart instead of axes from "0 B" to "1 B".
    if (m_plot->graphCount() > 0)
        m_hint->hide();
    else
        m_hint->show(m_runs.empty() ? tr("Run all (Shift+F5) to fill the trade-off")
                                    : tr("No run was feasible: raise the budgets that 'Run all' compares"));
    applyChartColours(m_plot, chartColours(palette()));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TradeoffView::setStale(bool stale) {
    if (stale == m_stale) return;
    m_stale = stale;
    setRuns(m_runs);
}

TradeoffView::~TradeoffView() = default;

QString TradeoffView::emptyHint() const {
    return m_hint->text();
}

void TradeoffView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) {
        applyChartColours(m_plot, chartColours(palette()));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}
