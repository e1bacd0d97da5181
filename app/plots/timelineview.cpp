#include "timelineview.h"

#include "axes.h"
#include "charthint.h"
#include "chartstyle.h"
#include "ganttplottable.h"
#include "memoryareaplottable.h"
#include "replot.h"
#include "tickers.h"
#include "util/units.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <qcustomplot.h>

using namespace ckpt;

namespace {
// A hidden label on a light box (readable over the data it may cover), placed at a fraction of the chart's rect.
QCPItemText* boxedLabel(QCustomPlot* plot, QCPAxisRect* rect, QPointF at, Qt::Alignment align, QMargins padding) {
    auto* label = new QCPItemText(plot);
    label->setClipAxisRect(rect);
    label->position->setType(QCPItemPosition::ptAxisRectRatio);
    label->position->setAxisRect(rect);
    label->position->setCoords(at);
    label->setPositionAlignment(align);
    label->setBrush(QColor(255, 255, 255, 220));
    label->setPadding(padding);
    label->setVisible(false);
    return label;
}
} // namespace

struct TimelineView::Impl {
    QString emptyText;
    QCustomPlot* plot = nullptr;
    QCPAxisRect* ganttRect = nullptr;
    QCPAxisRect* memoryRect = nullptr;
    GanttPlottable* gantt = nullptr;
    std::vector<MemoryAreaPlottable*> layers; // stacked memory categories, bottom first
    QCPItemStraightLine* budgetLine = nullptr;
    QCPGraph* budgetEntry = nullptr;                   // no data: the budget line's legend entry
    QCPItemText* budgetAbove = nullptr;                // "↑ budget 28 MiB": the line is above the memory axis
    std::array<QCPItemStraightLine*, 2> actionLines{}; // the marked action's start, on the Gantt and the memory chart
    int markedAction = -1;
    QCPItemRect* rangeRect = nullptr;
    QCPItemText* rangeLabel = nullptr;
    std::unique_ptr<ChartHint> hint; // in place of the charts while there is no plan
    bool memoryOnly = false;
    ckpt::Hardware hw = ckpt::Hardware::unbounded(); // the machine of the shown run
    QCPLegend* legend = nullptr;
    QCPLayoutGrid* legendRow = nullptr; // the plot layout's third row, taken out while the legend is hidden
    QComboBox* levelBox = nullptr;
    std::vector<std::int64_t> limits; // per level: the budget or capacity drawn as a line (0: none)
    std::shared_ptr<const Run> run;
    std::shared_ptr<const Timeline> timeline;
    int level = 0;
    double memoryMax = 0;
    std::vector<QCPRange> history;
    bool syncing = false;
    bool rangeDragging = false;
    double rangeStart = 0;
    QCPRange fullRange{0, 1};
    std::int64_t limitBytes = 0;
    QStringList nodeNames;
    QStringList laneNames; // of the shown lanes, top row first
    int laneStep = 1;      // a name on every laneStep-th lane: lanes closer than a line of text share their names

    double memoryAt(double t) const {
        if (!timeline || timeline->memory.size() <= std::size_t(level)) return 0;
        const auto& curve = timeline->memory[std::size_t(level)];
        auto it =
            std::upper_bound(curve.begin(), curve.end(), t, [](double k, const MemorySample& s) { return k < s.time; });
        if (it == curve.begin()) return 0;
        return double((it - 1)->total());
    }

    // The label of a limit above the axis sits at the top of the memory chart: once the chart is laid out (on the
    // screen or on a page), the axis rises until the data stays under the label (it covered the top of a column-wide
    // figure's panel), at most to twice the peak, well under the limit it names (three times the peak or more).
    void keepBudgetLabelOffData() {
        if (!budgetAbove->visible() || memoryMax <= 0) return;
        const double rect = memoryRect->rect().height();
        const QMargins pad = budgetAbove->padding();
        const double label = QFontMetricsF(budgetAbove->font()).height() + pad.top() + pad.bottom() + 2;
        if (rect <= 0) return;
        const double upper = memoryMax / (1 - std::min(0.5, label / rect));
        QCPAxis* axis = memoryRect->axis(QCPAxis::atLeft);
        if (std::abs(axis->range().upper - std::max(memoryMax * 1.08, upper)) < 1e-9 * memoryMax) return;
        axis->setRange(0, std::max(memoryMax * 1.08, upper));
        plot->plotLayout()->update(QCPLayoutElement::upMargins); // the new tick labels' width
        plot->plotLayout()->update(QCPLayoutElement::upLayout);
    }
};

TimelineView::TimelineView(QWidget* parent) : QWidget(parent), d(std::make_unique<Impl>()) {
    buildLevelPickerAndPlot();
    buildAxisRects();
    buildPlottables();
    buildMarkers();
    buildLegend();
    d->hint = std::make_unique<ChartHint>(d->plot);
    d->emptyText = ChartHint::runHint();
    showEmpty(d->emptyText);
    applyChartColours(d->plot, chartColours(palette()));

    d->plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    d->plot->setMouseTracking(true);
    connectTimeAxes();
    connectMouse();
}

void TimelineView::buildLevelPickerAndPlot() {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    bar->addStretch(1);
    bar->addWidget(new QLabel(tr("Memory of"), this));
    d->levelBox = new QComboBox(this);
    d->levelBox->setToolTip(tr("Which memory level the lower chart shows"));
    // Its levels arrive with the first plan, often after the view was first shown (the trainer's views): sized on
    // first show, it would cut their names short.
    d->levelBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(d->levelBox);
    layout->addLayout(bar);
    d->plot = new QCustomPlot(this);
    // Its size hint is the legend in one row (850 px): the legend wraps to the width instead (updateLegendWrap), so
    // this chart never makes the window wider than the screen.
    d->plot->setMinimumSize(240, 160);
    layout->addWidget(d->plot, 1);
    connect(d->levelBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0 && i != d->level) setMemoryLevel(i);
    });
}

void TimelineView::buildAxisRects() {
    QCustomPlot* p = d->plot;
    p->setNoAntialiasingOnDrag(true);
    p->plotLayout()->clear();
    d->ganttRect = new QCPAxisRect(p);
    d->memoryRect = new QCPAxisRect(p);
    p->plotLayout()->addElement(0, 0, d->ganttRect);
    p->plotLayout()->addElement(1, 0, d->memoryRect);
    p->plotLayout()->setRowStretchFactor(0, 1.0);
    p->plotLayout()->setRowStretchFactor(1, 1.3);
    auto* margins = new QCPMarginGroup(p);
    d->ganttRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    d->memoryRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    for (QCPAxisRect* r : {d->ganttRect, d->memoryRect}) {
        r->setRangeDrag(Qt::Horizontal);
        r->setRangeZoom(Qt::Horizontal);
        r->axis(QCPAxis::atBottom)->setTicker(QSharedPointer<QCPAxisTicker>(new SecondsTicker));
        for (QCPAxis* a : axesOf(r))
            a->setLayer("axes");
    }
    d->ganttRect->axis(QCPAxis::atBottom)->setTickLabels(false);
    QCPAxis* lanes = d->ganttRect->axis(QCPAxis::atLeft);
    lanes->setRangeReversed(true);
    lanes->setLabel(tr("lane"));
    lanes->grid()->setVisible(false);
    d->memoryRect->axis(QCPAxis::atBottom)->setLabel(tr("time"));
    d->memoryRect->axis(QCPAxis::atLeft)->setLabel(tr("memory"));
    d->memoryRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTicker>(new BytesTicker));
    fitTicks(d->memoryRect->axis(QCPAxis::atLeft), 5); // QCustomPlot's own count where there is room
}

void TimelineView::buildPlottables() {
    d->gantt = new GanttPlottable(d->ganttRect->axis(QCPAxis::atBottom), d->ganttRect->axis(QCPAxis::atLeft));
    // Memory categories, stacked: each fills from the top of the one below to its own.
    const QColor colors[kMemoryCategories] = {QColor(0, 114, 178, 170), QColor(230, 159, 0, 170),
                                              QColor(213, 94, 0, 150), QColor(120, 120, 120, 140)};
    for (int c = 0; c < kMemoryCategories; ++c) {
        auto* area =
            new MemoryAreaPlottable(d->memoryRect->axis(QCPAxis::atBottom), d->memoryRect->axis(QCPAxis::atLeft), c);
        area->setBrush(colors[c]);
        area->setName(QString::fromUtf8(memoryCategoryName(MemoryCategory(c))));
        d->layers.push_back(area);
    }
}

void TimelineView::buildMarkers() {
    QCustomPlot* p = d->plot;
    d->budgetLine = new QCPItemStraightLine(p);
    d->budgetLine->setClipAxisRect(d->memoryRect);
    for (auto* pos : {d->budgetLine->point1, d->budgetLine->point2})
        pos->setAxes(d->memoryRect->axis(QCPAxis::atBottom), d->memoryRect->axis(QCPAxis::atLeft));
    d->budgetLine->setPen(QPen(Qt::red, 1.5, Qt::DashLine));
    d->budgetLine->setVisible(false);
    // A limit far above the plan's peak is left out of the axis (the data would be a sliver): this says where it is.
    d->budgetAbove =
        boxedLabel(p, d->memoryRect, QPointF(1.0, 0.0), Qt::AlignTop | Qt::AlignRight, QMargins(2, 1, 3, 1));
    d->budgetAbove->setColor(Qt::red);
    connect(p, &QCustomPlot::afterLayout, this, [this] { d->keepBudgetLabelOffData(); });
    for (int k = 0; k < 2; ++k) {
        QCPAxisRect* rect = k == 0 ? d->ganttRect : d->memoryRect;
        auto* line = new QCPItemStraightLine(p);
        line->setClipAxisRect(rect);
        for (auto* pos : {line->point1, line->point2}) {
            pos->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            pos->setAxisRect(rect); // the ratio is of this chart's height (the default is the first chart's)
            pos->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        line->setPen(QPen(QColor(200, 0, 120), 1.5));
        line->setVisible(false);
        d->actionLines[std::size_t(k)] = line;
    }
    d->rangeRect = new QCPItemRect(p);
    d->rangeRect->setClipAxisRect(d->memoryRect);
    for (auto* pos : {d->rangeRect->topLeft, d->rangeRect->bottomRight}) {
        pos->setAxes(d->memoryRect->axis(QCPAxis::atBottom), d->memoryRect->axis(QCPAxis::atLeft));
        pos->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    d->rangeRect->setPen(Qt::NoPen);
    d->rangeRect->setBrush(QColor(0, 0, 0, 30));
    d->rangeRect->setVisible(false);
    d->rangeLabel =
        boxedLabel(p, d->memoryRect, QPointF(0.5, 0.02), Qt::AlignTop | Qt::AlignHCenter, QMargins(4, 2, 4, 2));
}

// Legend: interval kinds and memory categories, in a row under the charts.
void TimelineView::buildLegend() {
    QCustomPlot* p = d->plot;
    d->legend = new QCPLegend;
    d->legendRow = new QCPLayoutGrid;
    p->plotLayout()->addElement(2, 0, d->legendRow);
    p->plotLayout()->setRowStretchFactor(2, 0.001);
    d->legendRow->addElement(0, 0, d->legend);
    d->legend->setLayer("legend");
    d->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    d->legend->setBorderPen(Qt::NoPen);
    d->budgetEntry = p->addGraph(d->memoryRect->axis(QCPAxis::atBottom), d->memoryRect->axis(QCPAxis::atLeft));
    d->budgetEntry->setPen(d->budgetLine->pen());
    d->budgetEntry->setName(tr("budget"));
    d->budgetEntry->removeFromLegend();
}

// One time axis: whichever rect moves, the other follows.
void TimelineView::connectTimeAxes() {
    auto sync = [this](QCPAxis* from, QCPAxis* to) {
        connect(from, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this, to](const QCPRange& r) {
            if (d->syncing) return;
            d->syncing = true;
            to->setRange(r);
            d->syncing = false;
        });
    };
    sync(d->ganttRect->axis(QCPAxis::atBottom), d->memoryRect->axis(QCPAxis::atBottom));
    sync(d->memoryRect->axis(QCPAxis::atBottom), d->ganttRect->axis(QCPAxis::atBottom));
    connect(d->memoryRect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this](const QCPRange& r) { emit timeRangeChanged(r.lower, r.upper); });
}

void TimelineView::connectMouse() {
    QCustomPlot* p = d->plot;
    connect(p, &QCustomPlot::afterLayout, this, [this] { nameLanes(true); }); // the lanes' height is known now
    connect(p, &QCustomPlot::mousePress, this, &TimelineView::plotPressed);
    connect(p, &QCustomPlot::mouseMove, this, &TimelineView::plotMoved);
    connect(p, &QCustomPlot::mouseRelease, this, &TimelineView::plotReleased);
    connect(p, &QCustomPlot::mouseWheel, this, [this](QWheelEvent*) {
        d->history.push_back(d->memoryRect->axis(QCPAxis::atBottom)->range());
        if (d->history.size() > 100) d->history.erase(d->history.begin());
    });
}

// The range before a drag or a zoom goes on the history; Ctrl starts a rubber-band zoom, Shift a measured range.
void TimelineView::plotPressed(QMouseEvent* e) {
    QCPAxis* time = d->memoryRect->axis(QCPAxis::atBottom);
    d->history.push_back(time->range());
    if (d->history.size() > 100) d->history.erase(d->history.begin());
    if (e->modifiers() & Qt::ControlModifier) {
        d->plot->setSelectionRectMode(QCP::srmZoom); // rubber-band zoom
    } else {
        d->plot->setSelectionRectMode(QCP::srmNone);
    }
    if ((e->modifiers() & Qt::ShiftModifier) && d->memoryRect->rect().contains(e->pos())) {
        d->rangeDragging = true;
        d->rangeStart = time->pixelToCoord(e->pos().x());
        d->plot->setInteraction(QCP::iRangeDrag, false);
    }
}

// Widens a measured range being dragged, or shows the tooltip of the Gantt interval under the mouse.
void TimelineView::plotMoved(QMouseEvent* e) {
    QCPAxis* time = d->memoryRect->axis(QCPAxis::atBottom);
    if (d->rangeDragging) {
        double t = time->pixelToCoord(e->pos().x());
        d->rangeRect->topLeft->setCoords(std::min(d->rangeStart, t), 0);
        d->rangeRect->bottomRight->setCoords(std::max(d->rangeStart, t), 1);
        d->rangeRect->setVisible(true);
        replotWhenSeen(d->plot);
        return;
    }
    int k = d->ganttRect->rect().contains(e->pos()) ? d->gantt->intervalAt(e->pos()) : -1;
    if (k < 0 || !d->run || !d->run->plan) {
        QToolTip::hideText();
        return;
    }
    const Interval& iv = d->timeline->intervals[std::size_t(k)];
    QString what;
    if (const Plan* plan = d->run->chainPlan()) {
        what = QString::fromStdString(toString(plan->actions[std::size_t(iv.action)]));
    } else { // a graph run: the interval's node by id
        const QString node =
            iv.index >= 0 && iv.index < d->nodeNames.size() ? d->nodeNames[iv.index] : QString::number(iv.index);
        what = QString("%1 %2").arg(QString::fromUtf8(intervalKindName(iv.kind)), node.toHtmlEscaped());
    }
    QString text = QString("<b>%1</b><br>%2 · action %3<br>start %4<br>duration %5<br>%6")
                       .arg(what, QString::fromUtf8(intervalKindName(iv.kind)))
                       .arg(iv.action)
                       .arg(QString::fromStdString(formatSeconds(iv.start)),
                            QString::fromStdString(formatSeconds(iv.end - iv.start)),
                            QString::fromStdString(formatBytes(double(iv.bytes))));
    QToolTip::showText(e->globalPosition().toPoint(), text, d->plot);
}

// Ends a measured range (rangeSelected), or a click marks the action under it (actionClicked).
void TimelineView::plotReleased(QMouseEvent* e) {
    QCPAxis* time = d->memoryRect->axis(QCPAxis::atBottom);
    if (d->rangeDragging) {
        d->rangeDragging = false;
        d->plot->setInteraction(QCP::iRangeDrag, true);
        double t0 = std::min(d->rangeStart, time->pixelToCoord(e->pos().x()));
        double t1 = std::max(d->rangeStart, time->pixelToCoord(e->pos().x()));
        double dm = d->memoryAt(t1) - d->memoryAt(t0);
        d->rangeLabel->setText(QString("Δt %1   Δmemory %2%3")
                                   .arg(QString::fromStdString(formatSeconds(t1 - t0)), dm < 0 ? "−" : "+",
                                        QString::fromStdString(formatBytes(std::abs(dm)))));
        d->rangeLabel->setVisible(true);
        replotWhenSeen(d->plot);
        emit rangeSelected(t0, t1, t1 - t0, dm);
        return;
    }
    const bool click = !d->history.empty() && d->history.back() == time->range();
    if (click) d->history.pop_back(); // a click, not a zoom or a pan
    if (d->ganttRect->rect().contains(e->pos())) {
        int k = d->gantt->intervalAt(e->pos());
        if (k >= 0) {
            const Interval& iv = d->timeline->intervals[std::size_t(k)];
            d->gantt->setSelectedInterval(k);
            markAction(iv.action);
            emit actionClicked(iv.action, iv.index);
        }
    } else if (click && d->timeline && d->memoryRect->rect().contains(e->pos())) {
        // On the memory chart: the compute action running at that time (the last started before it).
        const double t = time->pixelToCoord(e->pos().x());
        const Interval* at = nullptr;
        for (const Interval& iv : d->timeline->intervals) {
            if (iv.lane != 0 || iv.start > t) continue;
            at = &iv;
            if (t < iv.end) break;
        }
        if (at) {
            markAction(at->action);
            emit actionClicked(at->action, at->index);
        }
    }
}

TimelineView::~TimelineView() = default;

void TimelineView::markAction(int action) {
    d->markedAction = -1;
    // At the end of the action: the other views show what is held once it is done. An action with no interval of
    // its own (a free) happens when the latest action before it ends.
    double at = 0;
    std::size_t actions = 0;
    if (d->run && d->run->plan)
        actions = d->run->chainPlan() ? d->run->chainPlan()->actions.size() : d->run->graphPlan()->actions.size();
    if (d->timeline && action >= 0 && std::size_t(action) < actions) {
        d->markedAction = action;
        int latest = -1;
        for (const Interval& iv : d->timeline->intervals) {
            if (iv.action == action) {
                at = iv.end;
                break;
            }
            if (iv.action < action && iv.action > latest) latest = iv.action, at = iv.end;
        }
    }
    for (QCPItemStraightLine* line : d->actionLines) {
        line->point1->setCoords(at, 0);
        line->point2->setCoords(at, 1);
        line->setVisible(d->markedAction >= 0);
    }
    replotWhenSeen(d->plot);
}

int TimelineView::markedAction() const {
    return d->markedAction;
}

const Hardware& TimelineView::hardware() const {
    return d->hw;
}

int TimelineView::memoryLevel() const {
    return d->level;
}

bool TimelineView::memoryOnly() const {
    return d->memoryOnly;
}

QStringList TimelineView::nodeNames() const {
    return d->nodeNames;
}

void TimelineView::setRun(std::shared_ptr<const Run> run, const Hardware& hw) {
    d->markedAction = -1; // an action of the run before
    for (QCPItemStraightLine* line : d->actionLines)
        line->setVisible(false);
    d->run = std::move(run);
    d->hw = hw;
    // A graph plan's bars name their nodes; a chain plan's (a graph that is a chain too) their steps.
    d->gantt->setNames(d->run && d->run->graphPlan() ? d->nodeNames : QStringList());
    d->history.clear();
    if (!d->run || !d->run->timeline) {
        d->timeline.reset();
        d->gantt->setTimeline(nullptr);
        for (MemoryAreaPlottable* area : d->layers)
            area->setMemory(nullptr);
        d->budgetLine->setVisible(false);
        d->budgetAbove->setVisible(false);
        { // no levels to choose from (an earlier plan's would be stale)
            QSignalBlocker quiet(d->levelBox);
            d->levelBox->clear();
        }
        // An infeasible run says why (its first clause when the whole does not fit a line); no run: how to get one.
        QString why = d->run ? QString::fromStdString(d->run->message) : QString();
        if (why.size() > 110) why = why.section(QStringLiteral("; "), 0, 0);
        if (why.size() > 110) why = why.left(109) + QStringLiteral("…");
        showEmpty(why.isEmpty() ? d->emptyText : why);
        replotWhenSeen(d->plot);
        return;
    }
    showEmpty({});
    // Share the run's timeline without copying it.
    d->timeline = std::shared_ptr<const Timeline>(d->run, &*d->run->timeline);
    d->gantt->setTimeline(d->timeline);
    QCPAxis* lanes = d->ganttRect->axis(QCPAxis::atLeft);
    const std::vector<int>& shown = d->gantt->shownLanes();
    d->laneNames.clear();
    for (int row = 0; row < int(shown.size()); ++row) {
        const std::size_t lane = std::size_t(shown[std::size_t(row)]);
        d->laneNames << (lane < d->timeline->lanes.size() ? QString::fromStdString(d->timeline->lanes[lane])
                                                          : QString::number(lane));
    }
    d->laneStep = 0; // names on every lane until the layout says they crowd
    nameLanes();
    lanes->setRange(-0.5, std::max(0.5, double(shown.size()) - 0.5));
    updateGanttHeight();
    // One entry per level the timeline has, each with its line: the budget (level 0) or the capacity, the smaller.
    const int levels = std::max(1, int(d->timeline->memory.size()));
    d->limits.assign(std::size_t(levels), 0);
    QSignalBlocker quiet(d->levelBox);
    d->levelBox->clear();
    for (int l = 0; l < levels; ++l) {
        std::int64_t limit = l == 0 && d->run->budget_bytes > 0 ? d->run->budget_bytes : 0;
        if (l < hw.levelCount() && !hw.isUnbounded(l))
            limit = limit ? std::min(limit, hw.level(l).capacity_bytes) : hw.level(l).capacity_bytes;
        d->limits[std::size_t(l)] = limit;
        const std::string name = l < hw.levelCount() ? hw.level(l).name : std::string();
        d->levelBox->addItem(QString("L%1 %2").arg(l).arg(QString::fromStdString(name)).trimmed());
    }
    setMemoryLevel(d->level < levels ? d->level : 0);
    d->fullRange = QCPRange(0, std::max(d->timeline->totals.makespan_s, 1e-12) * 1.01);
    resetZoom();
}

void TimelineView::setNodeNames(const QStringList& names) {
    d->nodeNames = names;
    d->gantt->setNames(d->run && d->run->graphPlan() ? names : QStringList());
}

std::shared_ptr<const Run> TimelineView::run() const {
    return d->run;
}

void TimelineView::setMemoryLevel(int level) {
    d->level = level;
    d->limitBytes = level >= 0 && level < int(d->limits.size()) ? d->limits[std::size_t(level)] : 0;
    if (d->levelBox->currentIndex() != level) {
        QSignalBlocker quiet(d->levelBox);
        d->levelBox->setCurrentIndex(level);
    }
    d->memoryMax = 0;
    d->budgetAbove->setVisible(false);
    for (MemoryAreaPlottable* area : d->layers)
        area->setMemory(nullptr);
    if (!d->timeline || d->timeline->memory.size() <= std::size_t(level)) return;
    auto memory = StackedMemory::of(d->timeline->memory[std::size_t(level)], d->timeline->totals.makespan_s);
    for (MemoryAreaPlottable* area : d->layers)
        area->setMemory(memory);
    d->memoryMax = memory->peak;
    double top = d->memoryMax;
    d->budgetLine->setVisible(d->limitBytes > 0);
    if (d->limitBytes > 0) {
        d->budgetLine->point1->setCoords(0, double(d->limitBytes));
        d->budgetLine->point2->setCoords(1, double(d->limitBytes));
        if (double(d->limitBytes) < 3 * top) top = std::max(top, double(d->limitBytes));
    }
    d->memoryRect->axis(QCPAxis::atLeft)->setRange(0, std::max(1.0, top * 1.08));
    d->budgetAbove->setVisible(d->limitBytes > 0 &&
                               double(d->limitBytes) > d->memoryRect->axis(QCPAxis::atLeft)->range().upper);
    refreshLegend();
    replotWhenSeen(d->plot);
}

QCustomPlot* TimelineView::plot() const {
    return d->plot;
}
int TimelineView::intervalCount() const {
    return d->gantt->intervalCount();
}
double TimelineView::memoryMaximum() const {
    return d->memoryMax;
}
GanttPlottable* TimelineView::gantt() const {
    return d->gantt;
}
MemoryAreaPlottable* TimelineView::memoryLayer(int category) const {
    return category >= 0 && category < int(d->layers.size()) ? d->layers[std::size_t(category)] : nullptr;
}
QString TimelineView::emptyHint() const {
    return d->hint->text();
}

QStringList TimelineView::levelNames() const {
    QStringList out;
    for (int i = 0; i < d->levelBox->count(); ++i)
        out << d->levelBox->itemText(i);
    return out;
}

void TimelineView::setEmptyText(const QString& text) {
    if (text == d->emptyText) return;
    d->emptyText = text;
    if (!d->run) {
        showEmpty(text);
        replotWhenSeen(d->plot);
    }
}

void TimelineView::highlightStep(int step) {
    d->gantt->setHighlightedStep(step);
    replotWhenSeen(d->plot);
}

void TimelineView::zoomBack() {
    if (d->history.empty()) return;
    QCPRange r = d->history.back();
    d->history.pop_back();
    d->memoryRect->axis(QCPAxis::atBottom)->setRange(r);
    replotWhenSeen(d->plot);
}

void TimelineView::resetZoom() {
    d->memoryRect->axis(QCPAxis::atBottom)->setRange(d->fullRange);
    replotWhenSeen(d->plot);
}

void TimelineView::zoomTo(double t0, double t1) {
    d->history.push_back(d->memoryRect->axis(QCPAxis::atBottom)->range());
    d->memoryRect->axis(QCPAxis::atBottom)->setRange(t0, t1);
    replotWhenSeen(d->plot);
}

QCPRange TimelineView::timeRange() const {
    return d->memoryRect->axis(QCPAxis::atBottom)->range();
}

// Lists what is drawn: the Gantt's kinds only with the Gantt, the memory categories, the budget line when shown.
void TimelineView::refreshLegend() {
    d->legend->clearItems();
    // Only the kinds of bar and the categories of memory this plan has (no "write" without a transfer).
    std::array<bool, 5> kinds{};
    if (d->timeline)
        for (const Interval& i : d->timeline->intervals)
            kinds[std::size_t(i.kind)] = true;
    if (!d->memoryOnly)
        for (int k = 0; k < 5; ++k)
            if (kinds[std::size_t(k)]) d->legend->addItem(new GanttKindLegendItem(d->legend, IntervalKind(k)));
    for (MemoryAreaPlottable* area : d->layers)
        if (!area->holdsNothing()) d->legend->addItem(new QCPPlottableLegendItem(d->legend, area));
    if (d->budgetLine->visible()) {
        const QString name = d->run && d->run->budget_bytes > 0 && d->level == 0 ? tr("budget") : tr("capacity");
        d->budgetEntry->setName(name);
        d->legend->addItem(new QCPPlottableLegendItem(d->legend, d->budgetEntry));
        d->budgetAbove->setText(tr("↑ %1 %2").arg(name, QString::fromStdString(formatBytes(double(d->limitBytes)))));
    }
    updateLegendWrap();
}

QStringList TimelineView::legendEntries() const {
    QStringList names;
    for (int i = 0; i < d->legend->itemCount(); ++i) {
        if (auto* kind = qobject_cast<GanttKindLegendItem*>(d->legend->item(i)))
            names << QString("kind %1").arg(int(kind->kind()));
        else if (auto* item = qobject_cast<QCPPlottableLegendItem*>(d->legend->item(i)))
            names << item->plottable()->name();
    }
    return names;
}

void TimelineView::setLegendShown(bool on) {
    QCPLayoutGrid* layout = d->plot->plotLayout();
    if (on == (layout->rowCount() > 2)) return;
    if (on) {
        layout->addElement(2, 0, d->legendRow);
        layout->setRowStretchFactor(2, 0.001);
    } else {
        layout->take(d->legendRow);
        layout->simplify();
    }
    d->plot->replot(QCustomPlot::rpQueuedReplot);
}

// As many legend entries to a row as the chart's width holds (the grid's columns as wide as their widest entry).
void TimelineView::updateLegendWrap() {
    std::vector<int> widths;
    for (int i = 0; i < d->legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = d->legend->item(i)) widths.push_back(item->minimumOuterSizeHint().width());
    const int spacing = d->legend->columnSpacing(), room = d->plot->width() - 16;
    int columns = std::max<int>(1, int(widths.size()));
    for (; columns > 1; --columns) {
        std::vector<int> column(std::size_t(columns), 0);
        for (std::size_t k = 0; k < widths.size(); ++k)
            column[k % std::size_t(columns)] = std::max(column[k % std::size_t(columns)], widths[k]);
        int total = spacing * (columns - 1);
        for (int w : column)
            total += w;
        if (total <= room) break;
    }
    if (d->legend->wrap() == columns) return;
    d->legend->setWrap(columns);
    d->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
}

// The lanes' names, on every lane when a line of text fits each, else on every second, third... lane (a pipeline of
// twelve stages draws 23 lanes, its devices and the links between them, in a short chart: every third is named).
void TimelineView::nameLanes(bool inLayout) {
    const int n = int(d->laneNames.size());
    const double perLane = n > 0 ? double(d->ganttRect->height()) / n : 0;
    const double line = QFontMetricsF(d->ganttRect->axis(QCPAxis::atLeft)->tickLabelFont()).height();
    // On the screen only: a chart drawn for a file is laid out at the page's size, where fitForPrint sizes the names.
    const int step = d->plot->isVisible() && perLane > 0 ? std::max(1, int(std::ceil(line / perLane))) : 1;
    if (step == d->laneStep) return;
    d->laneStep = step;
    QSharedPointer<QCPAxisTickerText> names(new QCPAxisTickerText);
    for (int row = 0; row < n; ++row)
        names->addTick(row, row % step == 0 ? d->laneNames[row] : QString());
    d->ganttRect->axis(QCPAxis::atLeft)->setTicker(names);
    if (!inLayout) return replotWhenSeen(d->plot);
    // Within a replot, after its layout and before its drawing: lay out again with the new names (their width sets the
    // margin), and this replot draws them; a second replot for them would double the cost of every new plan.
    QCPLayoutGrid* layout = d->plot->plotLayout();
    for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        layout->update(phase);
}

int TimelineView::laneNameStep() const {
    return d->laneStep;
}

void TimelineView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    updateLegendWrap();
}

void TimelineView::setMemoryOnly(bool on) {
    d->memoryOnly = on;
    d->ganttRect->setVisible(!on);
    // Hidden, the Gantt's lane names must not widen the memory chart's left margin.
    d->ganttRect->setMarginGroup(QCP::msLeft | QCP::msRight, on ? nullptr : d->memoryRect->marginGroup(QCP::msLeft));
    // A hidden element keeps its place in the grid; no height lets the memory chart take the room.
    d->ganttRect->setMinimumSize(0, 0);
    d->ganttRect->setAutoMargins(on ? QCP::msNone : QCP::msAll);
    d->ganttRect->setMargins(QMargins());
    d->ganttRect->setMaximumSize(QWIDGETSIZE_MAX, on ? 0 : QWIDGETSIZE_MAX);
    refreshLegend();
    updateGanttHeight();
    d->memoryRect->axis(QCPAxis::atBottom)->setTickLabels(true);
    replotWhenSeen(d->plot);
}

void TimelineView::setTimeRange(const QCPRange& range) {
    QCPAxis* time = d->memoryRect->axis(QCPAxis::atBottom);
    if (time->range() == range) return;
    time->setRange(range);
    replotWhenSeen(d->plot);
}

// The Gantt's share of the height follows its rows: a plan that never transfers has one lane, not three.
void TimelineView::updateGanttHeight() {
    const double rows = std::max(1, d->gantt->laneCount());
    d->plot->plotLayout()->setRowStretchFactor(0, d->memoryOnly ? 0.001 : std::min(1.2, 0.25 + 0.25 * rows));
}

// With no plan the axes ("0 … 1 s", "0 B … 0 B") would show nothing: a line saying how to get one instead.
void TimelineView::showEmpty(const QString& hint) {
    refreshLegend();
    if (hint.isEmpty())
        d->hint->hide();
    else
        d->hint->show(hint);
}

void TimelineView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) {
        applyChartColours(d->plot, chartColours(palette()));
        replotWhenSeen(d->plot);
    }
}
