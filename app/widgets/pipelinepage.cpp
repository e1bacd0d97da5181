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
    // The chain, or a graph that is one: no Problem is built (for a graph it splits the graph into segments).
    const Document* doc = document();
    std::optional<ckpt::Chain> chain;
    if (!doc->isGraph())
        chain = doc->chain();
    else if (const ckpt::Graph g = doc->graph(); g.isChain())
        chain = g.toChain();
    m_view->setChain(std::move(chain));
}

QList<QCustomPlot*> PipelinePage::charts() const {
    return {m_view->timeline()->plot()};
}

QString PipelinePage::nothingToExport() const {
    return m_view->run() ? QString() : tr("The Pipeline tab shows no pipeline: %1").arg(m_view->summary());
}
