#include "sweepview.h"

#include "charthint.h"
#include "chartstyle.h"
#include "tickers.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

using namespace ckpt;

SweepView::SweepView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    layout->addWidget(m_plot, 1);
    auto* controls = new QHBoxLayout;
    // The style's media icons: a font's ⏸ glyph is missing on many systems (a box is drawn instead).
    auto button = [&](const QString& text, const QString& tip, QStyle::StandardPixmap icon = QStyle::SP_CustomBase) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        if (icon != QStyle::SP_CustomBase) {
            b->setIcon(style()->standardIcon(icon));
            b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        }
        controls->addWidget(b);
        return b;
    };
    QToolButton* playButton = button(tr("Play"), tr("Reveal the schedule action by action"), QStyle::SP_MediaPlay);
    QToolButton* pauseButton = button(tr("Pause"), tr("Stop playing"), QStyle::SP_MediaPause);
    QToolButton* stepButton = button(tr("Step"), tr("Reveal one more action"));
    QToolButton* allButton = button(tr("Show all"), tr("Show the whole schedule"));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setToolTip(tr("How much of the schedule is shown"));
    controls->addWidget(m_slider, 1);
    m_label = new QLabel(this);
    controls->addWidget(m_label);
    layout->addLayout(controls);
    m_timer = new QTimer(this);
    m_timer->setInterval(40);
    connect(m_timer, &QTimer::timeout, this, &SweepView::stepOnce);
    connect(playButton, &QToolButton::clicked, this, &SweepView::play);
    connect(pauseButton, &QToolButton::clicked, this, &SweepView::pause);
    connect(stepButton, &QToolButton::clicked, this, [this] {
        pause();
        stepOnce();
    });
    connect(allButton, &QToolButton::clicked, this, [this] {
        pause();
        setRevealed(m_segments);
    });
    connect(m_slider, &QSlider::valueChanged, this, &SweepView::setRevealed);

    m_plot->xAxis->setLabel(tr("time"));
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new SecondsTicker));
    m_plot->yAxis->setLabel(tr("step"));
    // Steps are whole numbers: ticks at multiples of 1 (1, 2, 5, 10... apart), never at 2.5.
    auto steps = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
    steps->setTickStep(1);
    steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->yAxis->setTicker(steps);
    auto graph = [&](const QColor& c, const QString& name, double width) {
        QCPGraph* g = m_plot->addGraph();
        g->setPen(QPen(c, width));
        g->setName(name);
        g->setAdaptiveSampling(true);
        return g;
    };
    m_forward = graph(QColor(0, 114, 178), tr("forward"), 1.6);
    m_recompute = graph(QColor(86, 180, 233), tr("recompute"), 1.2);
    m_backward = graph(QColor(213, 94, 0), tr("backward"), 1.6);
    m_marks = graph(Qt::black, tr("checkpoint kept"), 1);
    m_marks->setLineStyle(QCPGraph::lsNone);
    m_marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 5));
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_hint = std::make_unique<ChartHint>(m_plot);
    rebuild();
    applyChartColours(m_plot, chartColours(palette()));
}

SweepView::~SweepView() = default;

QString SweepView::emptyHint() const {
    return m_hint->text();
}

void SweepView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) {
        applyChartColours(m_plot, chartColours(palette()));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void SweepView::setRun(std::shared_ptr<const Run> run, const Chain&, const Hardware&) {
    pause();
    m_run = std::move(run);
    m_segments = 0;
    if (m_run && m_run->timeline)
        for (const Interval& iv : m_run->timeline->intervals)
            m_segments += iv.lane == 0;
    m_slider->blockSignals(true);
    m_slider->setRange(0, m_segments);
    m_slider->setValue(m_segments);
    m_slider->blockSignals(false);
    m_revealed = m_segments;
    rebuild();
    if (m_run && m_run->timeline) {
        m_plot->xAxis->setRange(0, std::max(1e-12, m_run->timeline->totals.makespan_s));
        m_plot->yAxis->setRange(-0.5, double(m_run->timeline->totals.steps) + 0.5);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    emit revealedActionChanged(revealedAction());
}

void SweepView::rebuild() {
    for (QCPGraph* g : {m_forward, m_recompute, m_backward, m_marks})
        g->data()->clear();
    m_label->setText(QString());
    const Plan* plan = m_run ? m_run->chainPlan() : nullptr;
    if (!plan || !m_run->timeline) { // no plan, or a graph's: say so instead of drawing empty axes
        m_hint->show(m_run && m_run->timeline ? tr("The sweep diagram draws the steps of a chain's plan")
                                              : tr("Run a scheduler (F5) to see its plan"));
        return;
    }
    m_hint->hide();
    const double gap = std::nan("");
    QVector<QCPGraphData> fwd, rec, bwd, marks;
    double lastEnd[3] = {-1, -1, -1};
    int shown = 0;
    for (const Interval& iv : m_run->timeline->intervals) {
        if (iv.lane != 0) continue;
        if (shown++ >= m_revealed) break;
        const Action& a = plan->actions[std::size_t(iv.action)];
        int which = iv.kind == IntervalKind::Backward ? 2 : iv.kind == IntervalKind::Recompute ? 1 : 0;
        QVector<QCPGraphData>& out = which == 0 ? fwd : which == 1 ? rec : bwd;
        double y0 = which == 2 ? iv.index : iv.index - 1, y1 = which == 2 ? iv.index - 1 : iv.index;
        if (lastEnd[which] != iv.start && !out.isEmpty()) out.push_back(QCPGraphData(iv.start, gap));
        out.push_back(QCPGraphData(iv.start, y0));
        out.push_back(QCPGraphData(iv.end, y1));
        lastEnd[which] = iv.end;
        if (a.kind == ActionKind::Forward && a.keep == Keep::State)
            marks.push_back(QCPGraphData(iv.start, iv.index - 1));
    }
    m_forward->data()->set(fwd, true);
    m_recompute->data()->set(rec, true);
    m_backward->data()->set(bwd, true);
    m_marks->data()->set(marks, true);
    m_label->setText(tr("%1 / %2 actions").arg(std::min(m_revealed, m_segments)).arg(m_segments));
}

void SweepView::setRevealed(int actions) {
    m_revealed = std::clamp(actions, 0, m_segments);
    if (m_slider->value() != m_revealed) {
        m_slider->blockSignals(true);
        m_slider->setValue(m_revealed);
        m_slider->blockSignals(false);
    }
    rebuild();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    emit revealedActionChanged(revealedAction());
}

void SweepView::revealUpTo(int action) {
    int shown = 0;
    if (m_run && m_run->timeline)
        for (const Interval& iv : m_run->timeline->intervals)
            shown += iv.lane == 0 && iv.action <= action;
    setRevealed(shown);
}

int SweepView::revealedAction() const {
    if (!m_run || !m_run->timeline || m_revealed <= 0) return -1;
    int shown = 0;
    for (const Interval& iv : m_run->timeline->intervals)
        if (iv.lane == 0 && ++shown == m_revealed) return iv.action;
    return -1;
}

void SweepView::play() {
    if (m_revealed >= m_segments) setRevealed(0);
    m_timer->start();
}

void SweepView::pause() {
    m_timer->stop();
}

void SweepView::stepOnce() {
    if (m_revealed >= m_segments) return pause();
    // Long schedules play in about ten seconds whatever their length.
    setRevealed(m_revealed + std::max(1, m_segments / 250));
}
