#include "graphpage.h"

#include "graphview.h"
#include "models/document.h"
#include "viewexport.h"

#include <QGraphicsScene>
#include <QGraphicsView>
#include <QVBoxLayout>
#include <algorithm>

GraphPage::GraphPage(Document* doc, QWidget* parent) : ChartPage("graph", doc, parent), m_view(new GraphView(this)) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_view);
    setDescription(tr("The graph laid out by Graphviz, coloured by what the shown plan does with each node (wheel: "
                      "zoom, drag: pan, right-click: edit)"),
                   tr("Nodes kept, recomputed, offloaded or freed by the shown plan have their own colours. A click "
                      "selects a node (the Problem panel's node table follows); Ctrl+click selects two to connect; "
                      "Delete removes the selection. Only with a graph open."));
    drawWhileHidden(); // the shared cursor and selection colour the nodes of the run it shows
    // Graphviz lays it out again on every edit: milliseconds for a few hundred nodes.
    connect(doc, &Document::graphChanged, this, &GraphPage::showGraph);
    connect(doc, &Document::reset, this, &GraphPage::showGraph);
}

void GraphPage::showGraph() {
    if (document()->isGraph())
        m_view->setGraph(document()->graph());
    else
        m_view->clear();
}

QString GraphPage::unavailableFor(bool graph) const {
    return graph ? QString() : tr("Open a graph file (ckpt-graph) to see and edit a graph here");
}

void GraphPage::refresh(const std::shared_ptr<const ckpt::Run>& run) {
    m_view->setRun(run);
}

QString GraphPage::nothingToExport() const {
    return m_view->nodeCount() == 0 ? tr("The Graph tab shows no graph: open a graph file") : QString();
}

QString GraphPage::exportTo(const QString& path, int width, int height) {
    if (QString why = pictureRefusal(path); !why.isEmpty()) return why;
    return exportScene(m_view->view()->scene(), path, width, height);
}

QSize GraphPage::exportSize() const {
    // The view's unzoomed scale, where labels read: a deep graph makes a tall picture.
    const QSizeF scene = m_view->view()->scene()->itemsBoundingRect().size() + QSizeF(24, 24);
    const double fit = std::min(1.0, 20000.0 / std::max(scene.width(), scene.height()));
    return QSize(std::max(16, int(scene.width() * fit)), std::max(16, int(scene.height() * fit)));
}
