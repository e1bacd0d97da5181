#include "sweepview.h"

#include "charthint.h"
#include "chartstyle.h"
#include "legendplace.h"
#include "narrations.h"
#include "replot.h"
#include "tickers.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QShortcut>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <qcustomplot.h>
#include <set>

using namespace ckpt;

namespace {
constexpr int kMaxMarks = 200;     // stores and restores marked; past it the bars alone say where checkpoints live
constexpr double kFitSeconds = 10; // "the whole plan in 10 s"
const int kSpeeds[] = {1, 2, 5, 10, 25, 100, 1000}; // actions per second offered, then "whole plan in 10 s"
} // namespace

SweepView::SweepView(QWidget* parent) : QWidget(parent), m_emptyText(ChartHint::runHint()) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    m_plot->setFocusPolicy(Qt::ClickFocus);
    layout->addWidget(m_plot, 1);
    buildControls(layout);
    bindKeys();
    buildAxes();
    buildPlottables();
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connectClicks();
    m_hint = std::make_unique<ChartHint>(m_plot);
    rebuild();
    applyChartColours(m_plot, chartColours(palette()));
}

void SweepView::buildControls(QVBoxLayout* layout) {
    auto* controls = new QHBoxLayout;
    // The style's media icons: a font's ⏸ glyph is missing on many systems (a box is drawn instead).
    auto button = [&](const QString& text, const QString& tip, QStyle::StandardPixmap icon = QStyle::SP_CustomBase) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        if (icon != QStyle::SP_CustomBase) {
            b->setIcon(style()->standardIcon(icon));
            b->setToolButtonStyle(Qt::ToolButtonIconOnly);
        }
        b->setFocusPolicy(Qt::NoFocus); // the keys stay with the diagram
        controls->addWidget(b);
        return b;
    };
    QToolButton* home = button(tr("Start"), tr("Back to before the first action (Home)"), QStyle::SP_MediaSkipBackward);
    QToolButton* back = button(tr("Back"), tr("One action back (Left)"), QStyle::SP_MediaSeekBackward);
    m_playButton = button(tr("Play"), tr("Play the plan action by action (Space)"), QStyle::SP_MediaPlay);
    QToolButton* forward = button(tr("Step"), tr("One action forward (Right)"), QStyle::SP_MediaSeekForward);
    QToolButton* end = button(tr("End"), tr("The whole plan (End)"), QStyle::SP_MediaSkipForward);
    // Jumps in one menu button, so the row stays narrow enough for a small screen.
    QToolButton* jump = button(tr("Next"), tr("Jump to the next backward step (B), recomputation (R) or transfer (T)"));
    jump->setPopupMode(QToolButton::InstantPopup);
    auto* jumps = new QMenu(jump);
    // The keys are the view's own shortcuts (bindKeys); after a tab the menu shows them.
    QAction* toBackward = jumps->addAction(tr("Next &backward step\tB"));
    QAction* toRecompute = jumps->addAction(tr("Next &recomputation\tR"));
    QAction* toTransfer = jumps->addAction(tr("Next &transfer (write or read)\tT"));
    jump->setMenu(jumps);
    m_speed = new QComboBox(this);
    m_speed->setFocusPolicy(Qt::NoFocus);
    for (int s : kSpeeds)
        m_speed->addItem(tr("%1/s").arg(s), s);
    m_speed->addItem(tr("in 10 s"), 0);
    m_speed->setCurrentIndex(m_speed->count() - 1);
    m_speed->setToolTip(tr("Playing speed: actions per second, or the whole plan in 10 seconds"));
    controls->addWidget(m_speed);
    // The slider and where it stands take a row of their own under the buttons: one row would not fit a small
    // screen beside the Held now panel.
    auto* position = new QHBoxLayout;
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setFocusPolicy(Qt::NoFocus);
    m_slider->setMinimumWidth(40);
    m_slider->setToolTip(tr("How far the plan has run: drag to any action"));
    position->addWidget(m_slider, 1);
    m_label = new QLabel(this);
    m_label->setMinimumWidth(120);
    position->addWidget(m_label);
    controls->addStretch(1);
    layout->addLayout(controls);
    layout->addLayout(position);
    setFocusPolicy(Qt::StrongFocus);

    m_timer = new QTimer(this);
    connect(m_timer, &QTimer::timeout, this, &SweepView::tick);
    connect(home, &QToolButton::clicked, this, [this] { pause(), setCursor(-1); });
    connect(back, &QToolButton::clicked, this, &SweepView::stepBack);
    connect(m_playButton, &QToolButton::clicked, this, &SweepView::togglePlay);
    connect(forward, &QToolButton::clicked, this, &SweepView::stepForward);
    connect(end, &QToolButton::clicked, this, [this] { pause(), setCursor(actionCount() - 1); });
    connect(toBackward, &QAction::triggered, this, [this] { jumpTo(Jump::Backward); });
    connect(toRecompute, &QAction::triggered, this, [this] { jumpTo(Jump::Recompute); });
    connect(toTransfer, &QAction::triggered, this, [this] { jumpTo(Jump::Transfer); });
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) { setCursor(v - 1); });
    connect(m_speed, &QComboBox::currentIndexChanged, this, [this] {
        if (playing()) play(); // the new interval
    });
}

void SweepView::bindKeys() {
    auto key = [this](const QKeySequence& k, auto f) {
        auto* s = new QShortcut(k, this);
        s->setContext(Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, this, f);
    };
    key(Qt::Key_Space, [this] { togglePlay(); });
    key(Qt::Key_Right, [this] { stepForward(); });
    key(Qt::Key_Left, [this] { stepBack(); });
    key(Qt::Key_Home, [this] { pause(), setCursor(-1); });
    key(Qt::Key_End, [this] { pause(), setCursor(actionCount() - 1); });
    key(Qt::Key_B, [this] { jumpTo(Jump::Backward); });
    key(Qt::Key_R, [this] { jumpTo(Jump::Recompute); });
    key(Qt::Key_T, [this] { jumpTo(Jump::Transfer); });
}

void SweepView::buildAxes() {
    m_plot->xAxis->setLabel(tr("time"));
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new SecondsTicker));
    fitTicks(m_plot->xAxis);
    m_plot->yAxis->setLabel(tr("step"));
    // Steps are whole numbers: ticks at multiples of 1 (1, 2, 5, 10... apart), never at 2.5.
    auto steps = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
    steps->setTickStep(1);
    steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->yAxis->setTicker(steps);
}

void SweepView::buildPlottables() {
    auto graph = [&](const QColor& c, const QString& name, double width) {
        QCPGraph* g = m_plot->addGraph();
        g->setPen(QPen(c, width));
        g->setName(name);
        g->setAdaptiveSampling(true);
        return g;
    };
    // Bars first, under the sweeps: lines at the state's height, broken between lifetimes. Curves, not graphs: the
    // bars overlap in time, and a graph keeps its points sorted by time.
    auto curve = [&](const QPen& pen, const QString& name) {
        auto* c = new QCPCurve(m_plot->xAxis, m_plot->yAxis);
        c->setPen(pen);
        c->setName(name);
        return c;
    };
    m_lives = curve(QPen(QColor(0, 0, 0, 70), 4), tr("checkpoint held"));
    m_livesSlow = curve(QPen(QColor(120, 120, 120, 150), 2, Qt::DashLine), tr("state on a slower level"));
    m_forward = graph(QColor(0, 114, 178), tr("forward"), 1.6);
    m_recompute = graph(QColor(86, 180, 233), tr("recompute"), 1.2);
    m_backward = graph(QColor(213, 94, 0), tr("backward"), 1.6);
    m_marks = graph(Qt::black, tr("checkpoint stored"), 1);
    m_marks->setLineStyle(QCPGraph::lsNone);
    m_marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black), QBrush(Qt::black), 7));
    m_restores = graph(QColor(0, 158, 115), tr("restarted from it"), 1.2);
    m_restores->setLineStyle(QCPGraph::lsNone);
    m_restores->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 7));
    m_readBacks = graph(QColor(204, 121, 167), tr("read back from a slower level"), 1.2);
    m_readBacks->setLineStyle(QCPGraph::lsNone);
    m_readBacks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangle, 8));
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    keepLegendClear(m_plot);
}

// A click (not a drag) moves the cursor to the action running at that time.
void SweepView::connectClicks() {
    connect(m_plot, &QCustomPlot::mousePress, this,
            [this](QMouseEvent* e) { m_plot->setProperty("pressedAt", e->position().toPoint()); });
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        const QPoint at = m_plot->property("pressedAt").toPoint();
        if ((e->position().toPoint() - at).manhattanLength() > 3 || e->button() != Qt::LeftButton) return;
        if (!m_plot->axisRect()->rect().contains(at) || actionCount() == 0) return;
        pause();
        setCursor(actionAt(m_plot->xAxis->pixelToCoord(at.x())));
    });
}

SweepView::~SweepView() = default;

void SweepView::setEmptyText(const QString& text) {
    if (text == m_emptyText) return;
    m_emptyText = text;
    if (!m_run) {
        m_hint->show(text);
        replotWhenSeen(m_plot);
    }
}

QString SweepView::emptyHint() const {
    return m_hint->text();
}

void SweepView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) {
        applyChartColours(m_plot, chartColours(palette()));
        replotWhenSeen(m_plot);
    }
}

void SweepView::setRun(std::shared_ptr<const Run> run, const Problem& problem, const Hardware& hw) {
    pause();
    m_run = std::move(run);
    m_told.reset();
    m_start.clear();
    m_end.clear();
    const Plan* plan = m_run ? m_run->chainPlan() : nullptr;
    if (plan && m_run->timeline) {
        const std::size_t n = plan->actions.size();
        m_start.assign(n, std::nan(""));
        m_end.assign(n, std::nan(""));
        for (const Interval& iv : m_run->timeline->intervals) {
            if (iv.action < 0 || std::size_t(iv.action) >= n) continue;
            const std::size_t a = std::size_t(iv.action);
            if (std::isnan(m_start[a])) m_start[a] = iv.start, m_end[a] = iv.end;
        }
        // An action without an interval (a free) happens when the one before it ends.
        double t = 0;
        for (std::size_t k = 0; k < n; ++k) {
            if (std::isnan(m_start[k])) m_start[k] = m_end[k] = t;
            t = m_end[k];
        }
    }
    m_chain = problem.schedulingChain() ? std::optional<Chain>(*problem.schedulingChain()) : std::nullopt;
    m_hw = hw;
    m_cursor = actionCount() - 1; // a new plan is shown whole
    m_note.clear();
    m_slider->blockSignals(true);
    m_slider->setRange(0, actionCount());
    m_slider->setValue(m_cursor + 1);
    m_slider->blockSignals(false);
    if (m_run && m_run->timeline) {
        m_plot->xAxis->setRange(0, std::max(1e-12, m_run->timeline->totals.makespan_s));
        m_plot->yAxis->setRange(-0.5, double(m_run->timeline->totals.steps) + 0.5);
    }
    // On a hidden tab the narration and the drawing wait until the diagram is shown (ensureCurrent).
    m_stale = true;
    if (!hiddenInShownWindow(this)) ensureCurrent();
    emit cursorChanged(m_cursor);
}

void SweepView::ensureCurrent() {
    if (!m_stale) return;
    m_stale = false;
    m_told = m_chain ? sharedNarration(m_run, *m_chain, m_hw) : nullptr;
    rebuild();
    replotWhenSeen(m_plot);
}

void SweepView::showEvent(QShowEvent* e) {
    ensureCurrent();
    QWidget::showEvent(e);
}

QCustomPlot* SweepView::plot() {
    ensureCurrent();
    return m_plot;
}

void SweepView::rebuild() {
    clearDrawing();
    const Plan* plan = m_run ? m_run->chainPlan() : nullptr;
    if (!plan || !m_run->timeline) { // no plan, or a graph's: say so instead of drawing empty axes
        m_hint->show(m_run && m_run->timeline ? tr("The sweep diagram draws the steps of a chain's plan")
                                              : m_emptyText);
        return;
    }
    m_hint->hide();
    drawSweeps();
    drawLifetimes(*plan);
    updateLegend();
    updateCursorLabel();
}

void SweepView::clearDrawing() {
    for (QCPGraph* g : {m_forward, m_recompute, m_backward, m_marks, m_restores, m_readBacks})
        g->data()->clear();
    for (QCPCurve* c : {m_lives, m_livesSlow})
        c->data()->clear();
    m_lifetimes = 0;
    m_label->setText(QString());
}

void SweepView::drawSweeps() {
    const double gap = std::nan("");
    QVector<QCPGraphData> fwd, rec, bwd;
    double lastEnd[3] = {-1, -1, -1};
    for (const Interval& iv : m_run->timeline->intervals) {
        if (iv.lane != 0 || iv.action > m_cursor) continue;
        int which = iv.kind == IntervalKind::Backward ? 2 : iv.kind == IntervalKind::Recompute ? 1 : 0;
        QVector<QCPGraphData>& out = which == 0 ? fwd : which == 1 ? rec : bwd;
        double y0 = which == 2 ? iv.index : iv.index - 1, y1 = which == 2 ? iv.index - 1 : iv.index;
        if (lastEnd[which] != iv.start && !out.isEmpty()) out.push_back(QCPGraphData(iv.start, gap));
        out.push_back(QCPGraphData(iv.start, y0));
        out.push_back(QCPGraphData(iv.end, y1));
        lastEnd[which] = iv.end;
    }
    m_forward->data()->set(fwd, true);
    m_recompute->data()->set(rec, true);
    m_backward->data()->set(bwd, true);
}

void SweepView::drawLifetimes(const Plan& plan) {
    // Lifetimes from what the simulator holds after each action: a bar from the action that stores a state to the
    // one after which it is gone (or to the cursor). Keys repeat across heights, so each bar is its own run of points
    // and the data is not sorted: drawn in the order given.
    QVector<QCPCurveData> lives, slow;
    QVector<QCPGraphData> stores, restores, readBacks;
    if (m_told && m_cursor >= 0) {
        collectLifetimes(plan, lives, slow, stores, readBacks);
        collectRestores(plan, restores);
        if (stores.size() + restores.size() + readBacks.size() > kMaxMarks) // dense: the bars say it
            stores.clear(), restores.clear(), readBacks.clear();
    }
    // Bars as thick as the room a step has (up to 4 px), fainter when packed: hundreds of adjacent checkpoints read
    // as one grey range instead of a black block.
    const double perStep = m_plot->axisRect()->height() / std::max(1.0, m_plot->yAxis->range().size());
    const double width = std::clamp(perStep * 0.6, 1.2, 4.0);
    m_lives->setPen(QPen(QColor(0, 0, 0, perStep < 3 ? 55 : 70), width));
    m_lives->data()->set(lives, true);
    m_livesSlow->data()->set(slow, true);
    m_marks->data()->set(stores, false);
    m_restores->data()->set(restores, false);
    m_readBacks->data()->set(readBacks, false);
}

void SweepView::collectLifetimes(const Plan& plan, QVector<QCPCurveData>& lives, QVector<QCPCurveData>& slow,
                                 QVector<QCPGraphData>& stores, QVector<QCPGraphData>& readBacks) {
    auto bars = [&](auto heldAfter, QVector<QCPCurveData>& out, QVector<QCPGraphData>* marks) {
        auto add = [&out](double t0, double t1, int j) {
            const double n = out.size();
            out << QCPCurveData(n, t0, j) << QCPCurveData(n + 1, t1, j) << QCPCurveData(n + 2, t1, std::nan(""));
        };
        std::map<int, double> open;
        std::set<int> before;
        for (int k = 0; k <= m_cursor; ++k) {
            const std::set<int> now = heldAfter(std::size_t(k));
            for (int j : now)
                if (!before.count(j)) {
                    open[j] = m_start[std::size_t(k)];
                    // A state read back from a slower level is a restore, not a store.
                    const bool read = plan.actions[std::size_t(k)].kind == ActionKind::Read;
                    if (marks) (read ? readBacks : *marks).push_back(QCPGraphData(m_start[std::size_t(k)], j));
                }
            for (int j : before)
                if (!now.count(j)) {
                    add(open[j], m_start[std::size_t(k)], j);
                    open.erase(j);
                    ++m_lifetimes;
                }
            before = now;
        }
        for (const auto& [j, t0] : open) {
            add(t0, m_end[std::size_t(m_cursor)], j);
            ++m_lifetimes;
        }
    };
    bars(
        [&](std::size_t k) {
            const auto& c = m_told->actions[k].checkpoints;
            return std::set<int>(c.begin(), c.end());
        },
        lives, &stores);
    bars(
        [&](std::size_t k) {
            std::set<int> s;
            const auto& levels = m_told->actions[k].held.states;
            for (std::size_t l = 1; l < levels.size(); ++l)
                s.insert(levels[l].begin(), levels[l].end());
            return s;
        },
        slow, nullptr);
}

// A restore: a recomputation that starts a sweep again from a checkpoint it did not just pass.
void SweepView::collectRestores(const Plan& plan, QVector<QCPGraphData>& restores) const {
    int lastStep = -1;
    bool lastForward = false;
    for (int k = 0; k <= m_cursor; ++k) {
        const Action& a = plan.actions[std::size_t(k)];
        if (a.kind != ActionKind::Forward && a.kind != ActionKind::Backward) continue;
        const bool forward = a.kind == ActionKind::Forward;
        if (forward && k > 0 && !(lastForward && lastStep == a.index - 1)) {
            const auto& held = m_told->actions[std::size_t(k - 1)].checkpoints;
            if (std::binary_search(held.begin(), held.end(), a.index - 1))
                restores.push_back(QCPGraphData(m_start[std::size_t(k)], a.index - 1));
        }
        lastStep = a.index, lastForward = forward;
    }
}

// The legend names what is drawn.
void SweepView::updateLegend() {
    for (QCPAbstractPlottable* g :
         std::initializer_list<QCPAbstractPlottable*>{m_lives, m_livesSlow, m_marks, m_restores, m_readBacks}) {
        if (g->interface1D()->dataCount() == 0)
            g->removeFromLegend();
        else if (!m_plot->legend->hasItemWithPlottable(g))
            g->addToLegend();
    }
}

// Plan indices, as Held now, ckpt explain and ckpt render --at give them.
void SweepView::updateCursorLabel() {
    QString text = m_cursor < 0 ? tr("before action 0 of %1").arg(actionCount())
                                : tr("action %1 of %2").arg(m_cursor).arg(actionCount());
    if (!m_note.isEmpty()) text += " · " + m_note;
    m_label->setText(text);
}

int SweepView::lifetimeCount() {
    ensureCurrent();
    return m_lifetimes;
}

int SweepView::storeMarkCount() {
    ensureCurrent();
    return m_marks->data()->size();
}

int SweepView::restoreMarkCount() {
    ensureCurrent();
    return m_restores->data()->size();
}

void SweepView::setCursor(int action) {
    action = std::clamp(action, -1, actionCount() - 1);
    if (m_slider->value() != action + 1) {
        m_slider->blockSignals(true);
        m_slider->setValue(action + 1);
        m_slider->blockSignals(false);
    }
    const bool moved = action != m_cursor;
    m_cursor = action;
    if (moved) m_note.clear();
    if (!m_stale) { // else drawn at the cursor when shown
        rebuild();
        replotWhenSeen(m_plot);
    }
    if (moved) emit cursorChanged(m_cursor);
}

bool SweepView::playing() const {
    return m_timer->isActive();
}

double SweepView::speed() const {
    const int s = m_speed->currentData().toInt();
    return s > 0 ? s : std::max(1.0, actionCount() / kFitSeconds);
}

void SweepView::play() {
    if (actionCount() == 0) return;
    if (m_cursor >= actionCount() - 1) setCursor(-1);
    // At most 50 frames a second: faster speeds take several actions a frame.
    m_timer->setInterval(std::max(20, int(std::lround(1000 / speed()))));
    m_timer->start();
    updateButtons();
}

void SweepView::pause() {
    m_timer->stop();
    updateButtons();
}

void SweepView::togglePlay() {
    playing() ? pause() : play();
}

void SweepView::updateButtons() {
    const bool on = m_timer->isActive();
    m_playButton->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_playButton->setText(on ? tr("Pause") : tr("Play"));
    m_playButton->setToolTip(on ? tr("Pause (Space)") : tr("Play the plan action by action (Space)"));
}

void SweepView::tick() {
    if (m_cursor >= actionCount() - 1) return pause();
    const int per = std::max(1, int(std::lround(speed() * m_timer->interval() / 1000.0)));
    setCursor(m_cursor + per);
    if (m_cursor >= actionCount() - 1) pause();
}

void SweepView::stepForward() {
    pause();
    setCursor(m_cursor + 1);
}

void SweepView::stepBack() {
    pause();
    setCursor(m_cursor - 1);
}

void SweepView::jumpTo(Jump kind) {
    pause();
    const Plan* plan = m_run ? m_run->chainPlan() : nullptr;
    if (!plan) return;
    auto is = [&](std::size_t k) {
        const Action& a = plan->actions[k];
        switch (kind) {
        case Jump::Backward:
            return a.kind == ActionKind::Backward;
        case Jump::Transfer:
            return a.isTransfer();
        case Jump::Recompute:
            break;
        }
        return false;
    };
    int target = -1;
    if (kind == Jump::Recompute) {
        for (const Interval& iv : m_run->timeline->intervals)
            if (iv.kind == IntervalKind::Recompute && iv.action > m_cursor) {
                target = iv.action;
                break;
            }
    } else {
        for (std::size_t k = std::size_t(m_cursor + 1); k < plan->actions.size(); ++k)
            if (is(k)) {
                target = int(k);
                break;
            }
    }
    if (target < 0) {
        static const char* names[] = {"backward step", "recomputation", "transfer"};
        m_note = tr("no %1 after it").arg(tr(names[int(kind)]));
        rebuild();
        return;
    }
    setCursor(target);
}

int SweepView::actionAt(double t) const {
    int best = -1;
    if (!m_run || !m_run->timeline) return best;
    for (const Interval& iv : m_run->timeline->intervals) {
        if (iv.lane != 0) continue;
        if (iv.start <= t) best = iv.action;
        if (iv.start <= t && t < iv.end) break;
    }
    return best;
}
