#include "pipelineview.h"

#include "model/hardware.h"
#include "run/runner.h"
#include "timelineview.h"
#include "util/units.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTextDocument>
#include <QVBoxLayout>
#include <limits>

using namespace ckpt;

PipelineView::PipelineView(QWidget* parent) : QWidget(parent) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(4, 4, 4, 0);
    auto* row = new QHBoxLayout;
    auto label = [&](const QString& text, QWidget* w) {
        auto* lab = new QLabel(text, this);
        lab->setBuddy(w);
        row->addWidget(lab);
        row->addWidget(w);
    };
    m_stages = new QSpinBox(this);
    m_stages->setRange(1, 64);
    m_stages->setValue(4);
    m_stages->setToolTip(tr("K: devices in a line, one stage of consecutive steps on each"));
    label(tr("Stages:"), m_stages);
    m_micro = new QSpinBox(this);
    m_micro->setRange(1, 4096);
    m_micro->setValue(8);
    m_micro->setToolTip(tr("M: the mini-batch is split into M micro-batches, each 1/M of its time and bytes"));
    label(tr("Micro-batches:"), m_micro);
    row->addWidget(m_recompute = new QCheckBox(tr("Rematerialise"), this));
    row->addStretch(1);
    l->addLayout(row);
    row = new QHBoxLayout; // two rows: the tab must not widen the window
    m_memory = new QLineEdit(this);
    m_memory->setPlaceholderText(tr("unbounded"));
    m_memory->setToolTip(tr("Each device's memory (16GiB), or one size per device separated by commas; empty: "
                            "unbounded. The cuts keep every device's bound within it"));
    m_memory->setMaximumWidth(160);
    label(tr("Device memory:"), m_memory);
    m_link = new QLineEdit(this);
    m_link->setPlaceholderText(tr("free"));
    m_link->setToolTip(tr("The links' bandwidth (16GB/s); empty: transfers take no time"));
    m_link->setMaximumWidth(120);
    label(tr("Link:"), m_link);
    m_recompute->setChecked(true);
    m_recompute->setToolTip(tr("GPipe's default: keep only each stage's input in the forward and re-run the stage "
                               "before its backward; off: keep every tape"));
    row->addStretch(1);
    l->addLayout(row);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->addWidget(m_summary);
    m_timeline = new TimelineView(this);
    l->addWidget(m_timeline, 1);
    connect(m_stages, &QSpinBox::valueChanged, this, &PipelineView::refresh);
    connect(m_micro, &QSpinBox::valueChanged, this, &PipelineView::refresh);
    connect(m_recompute, &QCheckBox::toggled, this, &PipelineView::refresh);
    connect(m_memory, &QLineEdit::editingFinished, this, &PipelineView::refresh);
    connect(m_link, &QLineEdit::editingFinished, this, &PipelineView::refresh);
    refresh();
}

void PipelineView::setChain(std::optional<Chain> chain) {
    m_chain = std::move(chain);
    if (m_chain) m_stages->setMaximum(std::max(1, std::min(64, m_chain->length())));
    refresh();
}

void PipelineView::setSetup(const PipelineSetup& s) {
    const QSignalBlocker a(m_stages), b(m_micro), c(m_recompute);
    m_stages->setValue(s.stages);
    m_micro->setValue(s.micro_batches);
    m_recompute->setChecked(s.recompute);
    QStringList sizes;
    for (std::int64_t bytes : s.device_bytes)
        sizes << QString::fromStdString(formatBytes(double(bytes))).remove(' ');
    m_memory->setText(sizes.join(','));
    m_link->setText(s.link_bytes_per_s > 0 ? QString::fromStdString(formatBytes(s.link_bytes_per_s)).remove(' ') + "/s"
                                           : QString());
    refresh();
}

PipelineSetup PipelineView::setup() const {
    PipelineSetup s;
    s.stages = m_stages->value();
    s.micro_batches = m_micro->value();
    s.recompute = m_recompute->isChecked();
    m_setupError.clear();
    for (const QString& part : m_memory->text().split(',', Qt::SkipEmptyParts)) {
        auto b = parseBytes(part.trimmed().toStdString());
        if (!b) {
            m_setupError = tr("Device memory: %1").arg(QString::fromStdString(b.error()));
            return s;
        }
        s.device_bytes.push_back(*b);
    }
    QString link = m_link->text().trimmed();
    if (link.endsWith("/s")) link.chop(2);
    if (!link.isEmpty()) {
        auto b = parseBytes(link.toStdString());
        if (!b || *b <= 0) {
            m_setupError = tr("Link: expected bytes per second above 0, as 16GB/s");
            return s;
        }
        s.link_bytes_per_s = double(*b);
    }
    return s;
}

QString PipelineView::setupError() const {
    return m_setupError;
}

QString PipelineView::summary() const {
    QTextDocument doc;
    doc.setHtml(m_summary->text());
    return doc.toPlainText();
}

void PipelineView::refresh() {
    m_run.reset();
    auto fail = [this](QString why) {
        if (!why.isEmpty()) why[0] = why[0].toUpper(); // the engine's messages start in lower case
        m_summary->setText(QString("<span style='color:#b00020'>%1</span>").arg(why.toHtmlEscaped()));
        // The charts' place says so too, in short (not "run a scheduler", which does not make a pipeline).
        auto none = std::make_shared<Run>();
        none->scheduler = "gpipe";
        none->message = m_chain ? "No pipeline for these settings: see the line above"
                                : "No pipeline: a pipeline cuts a chain into stages";
        m_timeline->setRun(none, Hardware::unbounded());
    };
    if (!m_chain) return fail(tr("A pipeline cuts a chain into stages: open a chain, or a graph that is a chain."));
    const PipelineSetup s = setup();
    if (!m_setupError.isEmpty()) return fail(m_setupError);
    auto r = runPipeline(*m_chain, s);
    if (!r) return fail(QString::fromStdString(r.error()));
    m_run = std::move(*r);
    const PipelineRun& p = *m_run;
    const Totals& t = p.timeline.totals;
    std::vector<MemoryLevel> devices;
    for (std::size_t k = 0; k < p.stages.size(); ++k)
        devices.push_back(MemoryLevel{"device " + std::to_string(k),
                                      p.stages[k].capacity_bytes > 0 ? p.stages[k].capacity_bytes
                                                                     : std::numeric_limits<std::int64_t>::max(),
                                      1, 1, 0});
    auto hw = Hardware::make("pipeline", devices);
    auto run = std::make_shared<Run>();
    run->scheduler = "gpipe";
    run->params = {{"stages", std::to_string(s.stages)},
                   {"micro_batches", std::to_string(s.micro_batches)},
                   {"recompute", s.recompute ? "true" : "false"}};
    run->feasible = true;
    run->timeline = p.timeline;
    run->baseline_makespan_s = m_chain->totalForward() + m_chain->totalBackward();
    m_timeline->setRun(run, hw ? *hw : Hardware::unbounded());
    QStringList parts;
    for (std::size_t k = 0; k < p.stages.size(); ++k)
        parts << tr("device %1: steps %2–%3, peak %4")
                     .arg(k)
                     .arg(p.stages[k].first)
                     .arg(p.stages[k].last)
                     .arg(QString::fromStdString(formatBytes(double(t.peak_bytes[k]))));
    const double single = run->baseline_makespan_s;
    // One stage re-running its forward per micro-batch is slower than one device: "0.75× faster" read as a speed-up.
    const double speedup = t.makespan_s > 0 ? single / t.makespan_s : 0.0;
    const QString versus = speedup >= 1 || speedup <= 0 ? tr("%1× faster than one device").arg(speedup, 0, 'f', 2)
                                                        : tr("%1× slower than one device").arg(1 / speedup, 0, 'f', 2);
    m_summary->setText(
        tr("<b>gpipe</b> · makespan %1 (%2) · bubble <b>%3 %</b> (equal stages, free "
           "links: (K−1)/(M+K−1) = %4 %) · slowest stage %5 per micro-batch · on the links, write = an activation "
           "going on, read = a gradient coming back · %6")
            .arg(QString::fromStdString(formatSeconds(t.makespan_s)))
            .arg(versus)
            .arg(100 * p.bubble, 0, 'f', 1)
            .arg(100 * p.ideal_bubble, 0, 'f', 1)
            .arg(QString::fromStdString(formatSeconds(p.bottleneck_s)))
            .arg(parts.join(" · ")));
}
