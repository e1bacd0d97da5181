#include "pipelinepage.h"

#include "models/document.h"
#include "plots/pipelineview.h"
#include "plots/timelineview.h"

#include <QVBoxLayout>

PipelinePage::PipelinePage(Document* doc, QWidget* parent)
    : ChartPage("pipeline", doc, parent), m_view(new PipelineView(this)) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_view);
    setDescription(
        tr("GPipe: the chain cut into stages over devices in a line, micro-batches, each stage re-running its "
           "forward before its backward; a lane per device and per link"),
        tr("The settings above the chart choose the stages, the micro-batches and the devices' memory; the cuts "
           "minimise the slowest stage."));
    followProblem();
    ignoreRuns();
}

void PipelinePage::refresh(const std::shared_ptr<const ckpt::Run>&) {
    // The chain, or a graph that is one (a graph's segments are no pipeline's chain).
    const ckpt::Chain* chain = document()->problem().chain();
    m_view->setChain(chain ? std::optional<ckpt::Chain>(*chain) : std::nullopt);
}

QList<QCustomPlot*> PipelinePage::charts() const {
    return {m_view->timeline()->plot()};
}

QString PipelinePage::nothingToExport() const {
    return m_view->run() ? QString() : tr("The Pipeline tab shows no pipeline: %1").arg(m_view->summary());
}
