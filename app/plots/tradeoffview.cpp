#include "tradeoffview.h"

#include "charthint.h"
#include "chartstyle.h"
#include "legendplace.h"
#include "printlayout.h"
#include "replot.h"
#include "schedulerstyle.h"
#include "tickers.h"
#include "util/units.h"

#include "run/chart_data.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QResizeEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <qcustomplot.h>
#include <set>
#include <utility>

using namespace ckpt;

namespace {

// A series whose markers are filled (a result proven optimal) or hollow (anything else), point by point.
class MarkedGraph : public QCPGraph {
public:
    using QCPGraph::QCPGraph;
    std::vector<bool> hollow; // per point, in key order
    static QBrush fill(QColor c) {
        c.setAlpha(std::min(c.alpha(), 110)); // see-through, so a marker under another one still shows
        return c;
    }

protected:
    void drawScatterPlot(QCPPainter* painter, const QVector<QPointF>& scatters,
                         const QCPScatterStyle& style) const override {
        QCPScatterStyle open = style, filled = style;
        open.setBrush(Qt::NoBrush);
        filled.setBrush(fill(style.isPenDefined() ? style.pen().color() : pen().color()));
        // The positions given are those in view; each is matched to its point by position to find its look.
        for (const QPointF& at : scatters) {
            bool isHollow = false;
            double nearest = std::numeric_limits<double>::infinity();
            int k = 0;
            for (auto it = mDataContainer->constBegin(); it != mDataContainer->constEnd(); ++it, ++k) {
                const QPointF p = coordsToPixels(it->key, it->value);
                const double d = std::abs(p.x() - at.x()) + std::abs(p.y() - at.y());
                if (d < nearest) nearest = d, isHollow = k < int(hollow.size()) && hollow[std::size_t(k)];
            }
            const QCPScatterStyle& look = isHollow ? open : filled;
            look.applyTo(painter, mPen);
            look.drawShape(painter, at);
        }
    }
};

} // namespace

TradeoffView::TradeoffView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* options = new QHBoxLayout;
    options->setContentsMargins(6, 2, 6, 0);
    options->addStretch();
    m_logMemoryBox = new QCheckBox(tr("Log memory axis"), this);
    m_logMemoryBox->setToolTip(tr("Peak memory on a logarithmic scale (powers of two)"));
    m_logTimeBox = new QCheckBox(tr("Log time axis"), this);
    m_logTimeBox->setToolTip(tr("Time overhead on a logarithmic scale: shows points far above the rest, which the "
                                "linear axis clips to an arrow"));
    options->addWidget(m_logMemoryBox);
    options->addWidget(m_logTimeBox);
    layout->addLayout(options);
    connect(m_logMemoryBox, &QCheckBox::toggled, this, [this](bool on) { setLogAxes(on, m_logY); });
    connect(m_logTimeBox, &QCheckBox::toggled, this, [this](bool on) { setLogAxes(m_logX, on); });
    m_plot = new QCustomPlot(this);
    layout->addWidget(m_plot);
    m_plot->xAxis->setLabel(tr("peak memory in level 0"));
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new BytesTicker));
    // The memory axis starts a little left of 0 (see setRuns): 0 gets a grid line like the others, not a solid one
    // beside the axis.
    m_plot->xAxis->grid()->setZeroLinePen(m_plot->xAxis->grid()->pen());
    m_plot->yAxis->setLabel(tr("time ÷ store-all's"));
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    keepLegendClear(m_plot);
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

int TradeoffView::hollowCount() const {
    int n = 0;
    for (int g = 0; g < m_plot->graphCount(); ++g)
        if (auto* marked = dynamic_cast<MarkedGraph*>(m_plot->graph(g)))
            n += int(std::count(marked->hollow.begin(), marked->hollow.end(), true));
    return n;
}

int TradeoffView::clippedCount() const {
    return m_clipped;
}

QString TradeoffView::footnote() const {
    return m_footnote ? m_footnoteText : QString();
}

void TradeoffView::setFootnote(const QString& text, const QString& brief) {
    // In a row of its own under the chart while there is something to say; an empty row would still take room.
    if (text.isEmpty()) {
        if (m_footnote) m_plot->plotLayout()->remove(m_footnote);
        m_plot->plotLayout()->simplify();
        m_footnote = nullptr;
        return;
    }
    if (!m_footnote) {
        m_footnote = new QCPTextElement(m_plot);
        m_footnote->setObjectName("footnote");
        m_footnote->setTextFlags(Qt::AlignLeft);
        const int row = m_plot->plotLayout()->rowCount();
        m_plot->plotLayout()->addElement(row, 0, m_footnote);
        m_plot->plotLayout()->setRowStretchFactor(row, 0.001);
    }
    m_footnoteText = text, m_footnoteBrief = brief == text ? QString() : brief;
    fitFootnote();
}

// QCustomPlot sizes a text element by its text as it is, unwrapped: the lines are broken here (the whole note on one
// line ran past the right edge of a window 1024 px wide).
void TradeoffView::fitFootnote() {
    if (!m_footnote) return;
    const double width = m_plot->width() - 6;
    QString lines = width > 0 ? wrapToWidth(m_footnoteText, m_footnote->font(), width) : m_footnoteText;
    if (width > 0 && lines.count('\n') > 1 && !m_footnoteBrief.isEmpty())
        lines = wrapToWidth(m_footnoteBrief, m_footnote->font(), width);
    m_footnote->setText(lines);
    // What a print layout (printlayout.cpp) wraps to its page: the whole note, or the brief one on a narrow page.
    m_footnote->setProperty("full", m_footnoteText);
    m_footnote->setProperty("brief", m_footnoteBrief);
}

void TradeoffView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    if (!m_footnote) return;
    fitFootnote();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString TradeoffView::hollowNote() {
    return tr("Hollow: not proven optimal (a heuristic, or a solver stopped by a limit).");
}

QString TradeoffView::briefHollowNote() {
    return tr("Hollow: not proven optimal.");
}

void TradeoffView::setHollowNote(bool on) {
    if (on == m_hollowNote) return;
    m_hollowNote = on;
    setRuns(m_runs);
}

void TradeoffView::setLogAxes(bool memory, bool time) {
    if (memory == m_logX && time == m_logY) return;
    m_logX = memory, m_logY = time;
    const QSignalBlocker a(m_logMemoryBox), b(m_logTimeBox);
    m_logMemoryBox->setChecked(memory);
    m_logTimeBox->setChecked(time);
    setRuns(m_runs);
}

void TradeoffView::setRuns(std::vector<std::shared_ptr<const Run>> runs) {
    m_runs = std::move(runs);
    m_plot->clearGraphs();
    for (QCPAbstractItem* item : std::exchange(m_marks, {}))
        m_plot->removeItem(item);
    m_pointRun.clear();
    m_series = 0;
    m_clipped = 0;
    std::map<std::string, std::vector<int>> byScheduler;
    std::vector<std::string> order;
    for (int i = 0; i < int(m_runs.size()); ++i) {
        const Run& r = *m_runs[std::size_t(i)];
        if (!r.feasible || !r.timeline) continue;
        if (!byScheduler.count(r.scheduler)) order.push_back(r.scheduler);
        byScheduler[r.scheduler].push_back(i);
    }
    Extent extent;
    for (const std::string& name : order)
        addSeries(name, byScheduler[name], extent);
    const std::vector<double>& ys = extent.ys;
    const double xmin = extent.xmin, xmax = extent.xmax;
    // The time axis covers every point but those far above the rest (linear axes only).
    const double top = ys.empty() ? 1 : m_logY ? *std::max_element(ys.begin(), ys.end()) : keptTop(ys);
    for (const Drawn& d : extent.drawn) {
        if (d.y <= top) continue;
        ++m_clipped;
        addClipMark(d.x, d.y, d.colour);
    }
    setAxes(xmin, xmax, top);
    updateFootnote();
    // Nothing drawn yet: a line saying how to fill the chart instead of axes from "0 B" to "1 B".
    if (m_plot->graphCount() > 0)
        m_hint->hide();
    else
        m_hint->show(m_runs.empty() ? tr("Run all (Shift+F5) to fill the trade-off")
                                    : tr("No run was feasible: raise the budgets that 'Run all' compares"));
    applyChartColours(m_plot, chartColours(palette()));
    replotWhenSeen(m_plot);
}

std::vector<bool> TradeoffView::hollowOf(const std::vector<int>& runs) const {
    std::vector<bool> hollow;
    for (int id : runs)
        hollow.push_back(!provenOptimal(*m_runs[std::size_t(id)]));
    return hollow;
}

// One scheduler's runs (indices into m_runs): its best trade-offs joined, the others faint; `extent` grows by them.
void TradeoffView::addSeries(const std::string& name, std::vector<int> ids, Extent& extent) {
    auto point = [this](int id) { // (peak memory, time over store-all's)
        const Run& r = *m_runs[std::size_t(id)];
        return QCPGraphData(double(r.timeline->totals.peak_bytes[0]),
                            r.timeline->totals.makespan_s / r.baseline_makespan_s);
    };
    auto* g = new MarkedGraph(m_plot->xAxis, m_plot->yAxis);
    g->setName(QString::fromStdString(name));
    const SchedulerStyle style = schedulerStyle(name);
    QPen pen = schedulerPen(style);
    QCPScatterStyle scatter = schedulerScatter(style);
    if (m_stale) {
        const QColor grey(160, 160, 160);
        pen.setColor(grey);
        scatter.setPen(QPen(grey));
    }
    g->setPen(pen);
    // The line joins the scheduler's best trade-offs only: a point another run of it beats on memory and time
    // (or equals) is drawn faint, unjoined, so the curve does not zigzag through results nobody would choose.
    std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) {
        const QCPGraphData pa = point(a), pb = point(b);
        return pa.key < pb.key || (pa.key == pb.key && pa.value < pb.value);
    });
    std::vector<int> best, dominated;
    double lowest = std::numeric_limits<double>::infinity();
    for (int id : ids) {
        const QCPGraphData p = point(id);
        extent.xmin = std::min(extent.xmin, p.key), extent.xmax = std::max(extent.xmax, p.key);
        extent.ys.push_back(p.value);
        extent.drawn.push_back({p.key, p.value, pen.color()});
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
    g->hollow = hollowOf(best);
    // The legend's marker is filled when the scheduler proves its results.
    const std::vector<bool> all = hollowOf(ids);
    if (std::find(all.begin(), all.end(), false) != all.end()) scatter.setBrush(g->fill(pen.color()));
    g->setScatterStyle(scatter);
    m_pointRun.push_back(best);
    ++m_series;
    if (dominated.empty()) return;
    auto* faint = new MarkedGraph(m_plot->xAxis, m_plot->yAxis);
    faint->setName(g->name() + tr(" (dominated)"));
    faint->removeFromLegend();
    faint->setLineStyle(QCPGraph::lsNone);
    QCPScatterStyle light = scatter;
    QColor c = pen.color();
    c.setAlpha(80);
    light.setPen(QPen(c, pen.widthF()));
    faint->setPen(QPen(c));
    faint->setScatterStyle(light);
    QVector<QCPGraphData> faintData;
    for (int id : dominated)
        faintData.push_back(point(id));
    faint->data()->set(faintData, true);
    faint->hollow = hollowOf(dominated);
    m_pointRun.push_back(dominated);
}

// The axes' scales, tickers and ranges: memory from xmin to xmax, time up to `top` (the points above it clipped).
void TradeoffView::setAxes(double xmin, double xmax, double top) {
    m_plot->xAxis->setScaleType(m_logX ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    m_plot->yAxis->setScaleType(m_logY ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (m_logX) {
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new BytesLogTicker));
        const double lo = std::isfinite(xmin) && xmin > 0 ? xmin : 1;
        m_plot->xAxis->setRange(lo / 1.25, std::max(lo * 2, xmax * 1.25));
    } else {
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new BytesTicker));
        // A little room left of 0, so that a point at (nearly) no memory shows its whole marker.
        const double right = std::max(1.0, xmax * 1.08);
        m_plot->xAxis->setRange(-0.03 * right, right);
    }
    if (m_logY) {
        // Powers of two over a wide range (1×, 2×, 4×...); over a narrow one, evenly stepped labels read better.
        if (top > 4) {
            auto ticker = QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog);
            ticker->setLogBase(2);
            m_plot->yAxis->setTicker(ticker);
        } else {
            m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new NiceTicker));
        }
        m_plot->yAxis->setRange(0.95, top * 1.1);
    } else {
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new NiceTicker));
        // Room above the highest point for the clipped points' arrows and values.
        const double upper = std::max(top, 1.0) * 1.05 + 0.02;
        m_plot->yAxis->setRange(0.95, m_clipped ? upper + (upper - 0.95) * 0.15 : upper);
    }
    // The brief form is for a page too narrow for the whole note (a column-wide figure): the reasons shortened and
    // the schedulers that could not run counted rather than named.
}

// The line under the chart: what hollow and clipped points mean, series drawn on top of another, and the schedulers
// this machine cannot run.
void TradeoffView::updateFootnote() {
    // A scheduler whose best trade-offs are exactly another's is drawn on top of it: the footnote says so (not the
    // legend, which a figure shares between panels).
    QStringList same;
    {
        std::vector<QCPGraph*> lines;
        for (int g = 0; g < m_plot->graphCount(); ++g)
            if (m_plot->graph(g)->lineStyle() != QCPGraph::lsNone) lines.push_back(m_plot->graph(g));
        for (std::size_t a = 1; a < lines.size(); ++a)
            for (std::size_t b = 0; b < a; ++b)
                if (samePoints(lines[a], lines[b])) {
                    same << tr("%1 = %2.").arg(lines[a]->name(), lines[b]->name());
                    break;
                }
    }
    // The schedulers this machine cannot run are named in the footnote, one sentence per reason: as legend lines
    // (one each, as wide as their reason) they kept a printed legend to one column and left a column-wide chart
    // no room for its data.
    std::map<std::string, QStringList> unavailable; // reason -> schedulers
    {
        std::set<std::string> named;
        for (const auto& r : m_runs)
            if (!r->available && named.insert(r->scheduler).second)
                unavailable[r->message.substr(0, r->message.find(" ("))] << QString::fromStdString(r->scheduler);
    }
    QStringList notes, brief;
    if (m_hollowNote && hollowCount() > 0) notes << hollowNote(), brief << briefHollowNote();
    if (m_clipped > 0) notes << tr("↑: above the axis, with its value."), brief << tr("↑: above the axis.");
    notes << same, brief << same;
    if (m_plot->graphCount() == 0) notes.clear(), brief.clear();
    for (const auto& [why, names] : unavailable) {
        notes << tr("n/a: %1 (%2).").arg(names.join(", "), QString::fromStdString(why));
        brief << (names.size() == 1
                      ? notes.back()
                      : tr("n/a (%1): %2 schedulers.").arg(QString::fromStdString(why)).arg(names.size()));
    }
    setFootnote(notes.join(' '), brief.join(' '));
}

bool TradeoffView::samePoints(const QCPGraph* a, const QCPGraph* b) {
    if (a->dataCount() != b->dataCount() || a->dataCount() == 0) return false;
    for (int k = 0; k < a->dataCount(); ++k) {
        const auto p = a->data()->at(k), q = b->data()->at(k);
        if (std::abs(p->key - q->key) > 1e-9 * std::abs(q->key) || std::abs(p->value - q->value) > 1e-9 * q->value)
            return false;
    }
    return true;
}

double TradeoffView::keptTop(std::vector<double> ys) {
    // Sorted from the highest: the top c points are clipped when the lowest of them is more than four times as far
    // above 1 (store-all's time) as the highest point kept, counted as at least 0.5 (so a point under 3× is always
    // kept). At most a quarter of the points go.
    std::sort(ys.begin(), ys.end(), std::greater<>());
    std::size_t clip = 0;
    for (std::size_t c = 1; c <= std::max<std::size_t>(1, ys.size() / 4) && c < ys.size(); ++c)
        if (ys[c - 1] - 1 > 4 * std::max(ys[c] - 1, 0.5)) clip = c;
    return ys[clip];
}

void TradeoffView::addClipMark(double x, double y, const QColor& colour) {
    auto* arrow = new QCPItemLine(m_plot);
    for (QCPItemPosition* p : {arrow->start, arrow->end}) {
        p->setTypeX(QCPItemPosition::ptPlotCoords);
        p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    arrow->start->setCoords(x, 0.1);
    arrow->end->setCoords(x, 0.0);
    arrow->setHead(QCPLineEnding::esSpikeArrow);
    arrow->setPen(QPen(colour, 1.2));
    auto* label = new QCPItemText(m_plot);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(x, 0.0);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setPadding(QMargins(3, 0, 0, 0));
    label->setColor(colour);
    label->setText(QString::number(y, 'g', 3) + "×");
    m_marks << arrow << label;
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
        replotWhenSeen(m_plot);
    }
}
