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
           "forward before its backward; a lane per device and per link"));
    followProblem();
    ignoreRuns();
}

void PipelinePage::refresh(const std::shared_ptr<const ckpt::Run>&) {
    const ckpt::Problem problem = document()->problem();
    m_view->setChain(problem.chain() ? std::optional<ckpt::Chain>(*problem.chain()) : std::nullopt);
}

QList<QCustomPlot*> PipelinePage::charts() const {
    return {m_view->timeline()->plot()};
}

QString PipelinePage::nothingToExport() const {
    return m_view->run() ? QString() : tr("The Pipeline tab shows no pipeline: %1").arg(m_view->summary());
}
