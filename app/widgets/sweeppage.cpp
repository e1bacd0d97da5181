#include "sweeppage.h"

#include "heldnowpanel.h"
#include "models/document.h"
#include "plots/sweepview.h"

#include <QHBoxLayout>
#include <QSplitter>

SweepPage::SweepPage(Document* doc, QWidget* parent) : ChartPage("sweep", doc, parent) {
    auto* split = new QSplitter(Qt::Horizontal, this);
    m_sweep = new SweepView(split);
    m_heldNow = new HeldNowPanel(split);
    split->addWidget(m_sweep);
    split->addWidget(m_heldNow);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* l = new QHBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(split);
    setFocusProxy(m_sweep); // its keys move the cursor
    setDescription(
        tr("Step index against time: forward sweeps, checkpoints, the backward staircase"),
        tr("The forward sweeps climb, the kept checkpoints are marked and the backward descends step by step. Click "
           "the chart, then: Space plays and pauses, Left and Right step one action, Home and End go to the ends, B, R "
           "and T jump to the next backward, recomputation or transfer. Only with a chain open."));
    drawWhileHidden(); // the diagram and the panel wait until they are seen; the cursor starts at the plan's end
}

QString SweepPage::unavailableFor(bool graph) const {
    return graph ? tr("The sweep diagram draws a chain's steps against time; a graph has no single step axis, so it "
                      "is shown for chains only")
                 : QString();
}

void SweepPage::refresh(const std::shared_ptr<const ckpt::Run>& run) {
    m_sweep->blockSignals(true); // the other views are not yet on the new run: the window resets the cursor after
    m_sweep->setRun(run, document()->problem(), document()->hardware());
    m_sweep->blockSignals(false);
    m_heldNow->setRun(run, document()->problem(), document()->hardware());
    m_heldNow->setAction(m_sweep->cursor());
}

QList<QCustomPlot*> SweepPage::charts() const {
    return {m_sweep->plot()};
}

ExportDialog::MakeCharts SweepPage::chartCopies() const {
    return [this] {
        auto v = std::make_unique<SweepView>();
        v->setRun(run(), document()->problem(), document()->hardware());
        std::vector<std::unique_ptr<QWidget>> out;
        out.push_back(std::move(v));
        return out;
    };
}
