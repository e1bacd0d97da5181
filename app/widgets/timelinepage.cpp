#include "timelinepage.h"

#include "models/document.h"
#include "plots/timelineview.h"

#include <QVBoxLayout>

TimelinePage::TimelinePage(Document* doc, QWidget* parent)
    : ChartPage("timeline", doc, parent), m_view(new TimelineView(this)) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_view);
    setDescription(
        tr("Gantt chart of the plan above the memory of level 0 (wheel: zoom, drag: pan, Ctrl+drag: zoom "
           "to a range, Shift+drag on the memory: measure)"),
        tr("Each row of the Gantt chart is a resource (the compute unit, each copy engine); each bar one action of the "
           "plan: a forward, a recomputation, a backward, a copy between memory levels. Below it, the bytes held in "
           "level 0 over time against the budget. Backspace zooms back, Ctrl+0 shows the whole plan. A click puts the "
           "shared cursor there: the Sweep, the Graph and Held now follow it."));
    drawWhileHidden(); // the view waits until it is seen; the shared cursor marks the run it shows
}

void TimelinePage::refresh(const std::shared_ptr<const ckpt::Run>& run) {
    QStringList ids;
    for (const ckpt::GraphNode& n : document()->nodes()) // none for a chain
        ids << QString::fromStdString(n.id);
    m_view->setNodeNames(ids);
    m_view->setRun(run, document()->hardware());
}

QList<QCustomPlot*> TimelinePage::charts() const {
    return {m_view->plot()};
}

ExportDialog::MakeCharts TimelinePage::chartCopies() const {
    return [this] {
        std::vector<std::unique_ptr<QWidget>> out;
        out.push_back(timelineCopy(m_view));
        return out;
    };
}
