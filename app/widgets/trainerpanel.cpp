#include "trainerpanel.h"

#include "plots/timelineview.h"
#include "run/runner.h"
#include "run/scheduler_lookup.h"
#include "trainer/trainer.h"
#include "util/units.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <qcustomplot.h>

using namespace ckpt;

TrainerPanel::TrainerPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    auto* controls = new QWidget(this);
    auto* form = new QFormLayout(controls);
    m_cell = new QComboBox(controls);
    m_cell->addItems({"lstm", "gru", "rnn"});
    m_task = new QComboBox(controls);
    m_task->addItems({"copy", "adding", "sine", "text"});
    m_task->setToolTip(
        tr("Sequence tasks made in code, or a character model of the GPL text every Debian system ships"));
    auto spin = [&](int lo, int hi, int v, const QString& tip) {
        auto* s = new QSpinBox(controls);
        s->setRange(lo, hi);
        s->setValue(v);
        s->setToolTip(tip);
        return s;
    };
    m_hidden = spin(2, 4096, 64, tr("Hidden units"));
    m_batch = spin(1, 4096, 16, tr("Sequences per batch"));
    m_length = spin(2, 100000, 200, tr("Steps per sequence (the chain's length)"));
    m_iters = spin(1, 100000, 100, tr("Training iterations"));
    m_scheduler = new QComboBox(controls);
    for (const std::string& name : chainSchedulerNames())
        m_scheduler->addItem(QString::fromStdString(name));
    m_scheduler->setCurrentText("revolve");
    m_budget = spin(0, 100, 10, tr("Budget of the RAM store in % of store-all's peak (0: none)"));
    m_budget->setSuffix(" %");
    form->addRow(tr("cell"), m_cell);
    form->addRow(tr("task"), m_task);
    form->addRow(tr("hidden"), m_hidden);
    form->addRow(tr("batch"), m_batch);
    form->addRow(tr("length"), m_length);
    form->addRow(tr("iterations"), m_iters);
    form->addRow(tr("scheduler"), m_scheduler);
    form->addRow(tr("budget"), m_budget);
    m_run = new QPushButton(tr("Train"), controls);
    m_run->setToolTip(tr("Profile the network, plan with the scheduler, and train, in the background"));
    m_stop = new QPushButton(tr("Stop"), controls);
    m_stop->setEnabled(false);
    form->addRow(m_run, m_stop);
    m_status = new QLabel(controls);
    m_status->setWordWrap(true);
    form->addRow(m_status);
    controls->setMaximumWidth(320);
    layout->addWidget(controls);

    auto* split = new QSplitter(Qt::Vertical, this);
    m_loss = new QCustomPlot(split);
    m_loss->addGraph();
    m_loss->graph(0)->setPen(QPen(QColor(0, 114, 178), 1.5));
    m_loss->xAxis->setLabel(tr("iteration"));
    m_loss->yAxis->setLabel(tr("loss"));
    m_measured = new TimelineView(split);
    m_predicted = new TimelineView(split);
    m_measured->setEmptyText(tr("Train to measure the plan's last iteration here"));
    m_predicted->setEmptyText(tr("Train to see the simulator's timeline of the same plan here"));
    m_measured->setToolTip(tr("Measured: the last iteration's wall-clock timeline and the counted store"));
    m_predicted->setToolTip(tr("Predicted: the simulator's timeline of the same plan on the profiled chain"));
    split->addWidget(m_loss);
    split->addWidget(new QLabel(tr("<b>Measured</b> (last iteration)"), split));
    split->addWidget(m_measured);
    split->addWidget(new QLabel(tr("<b>Predicted</b> by the simulator"), split));
    split->addWidget(m_predicted);
    layout->addWidget(split, 1);
    connect(m_run, &QPushButton::clicked, this, &TrainerPanel::start);
    connect(m_stop, &QPushButton::clicked, this, &TrainerPanel::cancel);
}

TrainerPanel::~TrainerPanel() {
    // The run sees the flag between two actions, so quitting waits a step at most; its scratch files go with it.
    cancel();
    if (m_thread.joinable()) m_thread.join(); // no event processing here: the widgets are being torn down
}

QString TrainerPanel::status() const {
    return m_status->text();
}

void TrainerPanel::cancel() {
    m_cancel = true;
}

void TrainerPanel::wait() {
    if (m_thread.joinable()) m_thread.join();
    QCoreApplication::processEvents(); // deliver what the run posted
}

void TrainerPanel::post(const QPointer<TrainerPanel>& self, std::function<void(TrainerPanel*)> fn) {
    QMetaObject::invokeMethod(
        qApp,
        [self, fn = std::move(fn)] {
            if (self) fn(self.data());
        },
        Qt::QueuedConnection);
}

void TrainerPanel::start() {
    if (running()) return;
    wait();
    Job job;
    job.config.cell = *trainer::parseCell(m_cell->currentText().toStdString());
    job.config.task = m_task->currentText().toStdString();
    job.config.hidden = m_hidden->value();
    job.config.batch = m_batch->value();
    job.config.length = m_length->value();
    job.config.scratch = m_scratch.toStdString();
    job.iterations = m_iters->value();
    job.scheduler = m_scheduler->currentText().toStdString();
    job.percent = m_budget->value();
    m_cancel = false;
    m_done = false;
    m_iterations = 0;
    m_loss->graph(0)->data()->clear();
    m_run->setEnabled(false);
    m_stop->setEnabled(true);
    m_status->setText(tr("Profiling…"));
    m_thread = std::thread([this, job] {
        QString text;
        try {
            text = train(job);
        } catch (const std::bad_alloc&) {
            text = QObject::tr("Out of memory: try a smaller network, batch or length");
        }
        // The trainer, and with it its scratch folder, is gone before the panel hears that the run ended.
        post(this, [text](TrainerPanel* p) {
            if (!text.isEmpty()) p->m_status->setText(text);
            p->m_run->setEnabled(true);
            p->m_stop->setEnabled(false);
            emit p->finished();
        });
        m_done = true;
    });
}

QString TrainerPanel::train(const Job& job) {
    const QPointer<TrainerPanel> self(this);
    const trainer::TrainerConfig& config = job.config;
    auto made = trainer::Trainer::make(config);
    if (!made) return QString::fromStdString(made.error());
    auto& tr = *made;
    tr->setCancelFlag(&m_cancel);
    const bool disk = chainSchedulerLevels(job.scheduler) >= 2;
    auto profile = tr->profile(std::min(config.length, 16), 3, disk);
    if (m_cancel) return stoppedText(0);
    if (!profile) return QString::fromStdString(profile.error());
    Chain chain = tr->chain(*profile);
    Hardware hw = disk ? trainer::Trainer::measuredHardware(*profile) : Hardware::unbounded();
    SolveRequest req;
    if (job.percent > 0) req.budget_bytes = storeAllPeak(chain, hw) * job.percent / 100;
    auto predicted = std::make_shared<Run>(runScheduler(job.scheduler, chain, hw, req));
    if (m_cancel) return stoppedText(0);
    if (!predicted->feasible) return QString::fromStdString(predicted->message);
    auto fits = tr->checkMemory(double(predicted->timeline->totals.peak_bytes[0]), false);
    if (!fits) return QString::fromStdString(fits.error());
    post(self, [predicted, hw](TrainerPanel* p) { p->m_predicted->setRun(predicted, hw); });
    double first = 0;
    for (int k = 0; k < job.iterations; ++k) {
        auto it = tr->iterate(*predicted->chainPlan(), hw, false);
        if (m_cancel) return stoppedText(k);
        if (!it) return QString::fromStdString(it.error());
        if (k == 0) first = it->loss;
        const bool show = k == job.iterations - 1 || k % 10 == 0;
        std::shared_ptr<Run> measured;
        if (show) {
            measured = std::make_shared<Run>(*predicted);
            measured->timeline = it->execution.timeline;
        }
        const double loss = it->loss, secs = it->seconds;
        const double peak = double(it->execution.timeline.totals.peak_bytes[0]);
        const double predictedPeak = double(predicted->timeline->totals.peak_bytes[0]);
        const double predictedTime = predicted->timeline->totals.makespan_s;
        post(self, [=](TrainerPanel* p) {
            p->m_iterations = k + 1;
            p->m_loss->graph(0)->addData(k + 1, loss);
            p->m_loss->rescaleAxes();
            p->m_loss->replot(QCustomPlot::rpQueuedReplot);
            p->m_status->setText(QObject::tr("iteration %1: loss %2 (first %3)<br>%4 per iteration, predicted "
                                             "%5<br>store peak %6, predicted %7")
                                     .arg(k + 1)
                                     .arg(loss, 0, 'f', 4)
                                     .arg(first, 0, 'f', 4)
                                     .arg(QString::fromStdString(formatSeconds(secs)),
                                          QString::fromStdString(formatSeconds(predictedTime)),
                                          QString::fromStdString(formatBytes(peak)),
                                          QString::fromStdString(formatBytes(predictedPeak))));
            if (measured) p->m_measured->setRun(measured, hw);
        });
    }
    return {};
}

QString TrainerPanel::stoppedText(int iterations) {
    return QObject::tr("Stopped after %1 iteration(s); the scratch files are removed").arg(iterations);
}
