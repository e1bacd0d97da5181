// The window's graph mode: the node table and the graph view as editors of one graph, selection mirrored between
// them and the Gantt, and the tabs that only make sense for chains (sweep, trainer) disabled with the reason.
#include "chartpage.h"
#include "graphediting.h"
#include "graphview.h"
#include "mainwindow.h"
#include "models/document.h"
#include "models/focus.h"
#include "plots/timelineview.h"
#include "problemeditor.h"
#include "run/node_fates.h"

#include <QTabWidget>

using namespace ckpt;

ChainTableModel* MainWindow::chainModel() const {
    return m_editor->chainModel();
}
NodeTableModel* MainWindow::nodeModel() const {
    return m_editor->nodeModel();
}
QTableView* MainWindow::nodeTable() const {
    return m_editor->nodeTable();
}
QTableView* MainWindow::chainTable() const {
    return m_editor->chainTable();
}
HardwareTableModel* MainWindow::hardwareModel() const {
    return m_editor->hardwareModel();
}
QString MainWindow::graphMessage() const {
    return m_editor->graphMessage();
}

void MainWindow::updateMode() {
    const bool graph = m_doc->isGraph();
    m_editor->updateMode();
    // The tabs that make no sense for this kind of problem (the sweep and the trainer for a graph, the graph for a
    // chain) are disabled, with the reason as their tooltip. Where the current one goes, the graph or the Timeline
    // takes its place, chosen before it is disabled (the tab bar would move to its neighbour and draw that).
    const bool currentGone = !currentPage()->unavailableFor(graph).isEmpty();
    for (bool enable : {true, false}) {
        for (ChartPage* p : chartPages(m_tabs)) {
            const QString why = p->unavailableFor(graph);
            if (why.isEmpty() != enable) continue;
            const int i = m_tabs->indexOf(p);
            m_tabs->setTabEnabled(i, enable);
            m_tabs->setTabToolTip(i, enable ? p->description() : why);
        }
        if (enable && currentGone) showChartTab(graph ? "graph" : "timeline");
    }
}

QStringList MainWindow::chartTabNames() {
    return {"timeline", "graph", "sweep", "tradeoff", "comparison", "side", "layout", "pipeline", "trainer"};
}

bool MainWindow::showChartTab(const QString& name) {
    ChartPage* p = page(name);
    if (p) m_tabs->setCurrentWidget(p);
    return p;
}
