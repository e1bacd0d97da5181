#include "viewlinks.h"

#include "graphview.h"
#include "heldnowpanel.h"
#include "models/chaintablemodel.h"
#include "models/document.h"
#include "models/focus.h"
#include "models/runcontroller.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "problemeditor.h"
#include "run/node_fates.h"
#include "util/units.h"

#include <QStatusBar>
#include <QTableView>

using namespace ckpt;

ViewLinks::ViewLinks(Document* doc, Focus* focus, RunController* runs, ProblemEditor* editor, Views views,
                     QStatusBar* status, QObject* parent)
    : QObject(parent), m_doc(doc), m_focus(focus), m_runs(runs), m_editor(editor), m_views(views), m_status(status) {
    connectCursor();
    connectSelection();
    connect(m_views.timeline, &TimelineView::rangeSelected, this, [this](double t0, double t1, double dt, double dm) {
        m_status->showMessage(
            tr("From %1 to %2: Δtime %3, Δmemory %4")
                .arg(QString::fromStdString(formatSeconds(t0)), QString::fromStdString(formatSeconds(t1)),
                     QString::fromStdString(formatSeconds(dt)), QString::fromStdString(formatBytes(dm))));
    });
}

void ViewLinks::connectCursor() {
    connect(m_views.sweep, &SweepView::cursorChanged, m_focus, &Focus::setAction);
    connect(m_focus, &Focus::actionChanged, this, &ViewLinks::showCursor);
    // A click in the Gantt: a chain's sweep moves there (and tells every view), a graph's timeline marks it; its step
    // is selected in the chain table, its node in a graph.
    connect(m_views.timeline, &TimelineView::actionClicked, this, [this](int action, int step) {
        moveCursor(action);
        const auto run = m_runs->shownRun();
        if (m_doc->isGraph()) return m_focus->setNode(run ? nodeOfIndex(m_doc->graph(), *run, step) : -1);
        QTableView* table = m_editor->chainTable();
        if (step >= 1 && step <= table->model()->rowCount()) {
            table->blockSignals(true);
            table->selectRow(step - 1);
            table->scrollTo(table->model()->index(step - 1, 0));
            table->blockSignals(false);
        }
    });
    // A click on a step's row moves the cursor to that step's next compute action (after the cursor, from the start
    // again past the last), so the table steers the sweep, the charts and Held now like any other view.
    connect(m_editor->chainTable(), &QTableView::clicked, this, [this](const QModelIndex& index) {
        const auto run = m_runs->shownRun();
        const Plan* plan = run ? run->chainPlan() : nullptr;
        if (!plan || m_views.sweep->actionCount() == 0 || !index.isValid()) return;
        const int step = index.row() + 1, n = int(plan->actions.size()), from = m_views.sweep->cursor();
        for (int d = 1; d <= n; ++d) {
            const int k = (from + d + n) % n;
            const Action& a = plan->actions[std::size_t(k)];
            if ((a.kind == ActionKind::Forward || a.kind == ActionKind::Backward) && a.index == step)
                return (void)moveCursor(k);
        }
    });
}

void ViewLinks::connectSelection() {
    connect(m_editor->chainTable()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                m_views.timeline->highlightStep(current.isValid() ? current.row() + 1 : -1);
            });
    // The graph view sets the selected node and follows it; the Gantt marks the node's actions: its index for a graph
    // run, its place in topological order for a chain run.
    connect(m_views.graph, &GraphView::nodeSelected, m_focus, &Focus::setNode);
    connect(m_focus, &Focus::nodeChanged, this, [this](int node) {
        const bool valid = node >= 0 && node < int(m_doc->nodes().size());
        m_views.graph->selectNode(valid ? node : -1);
        const auto run = m_runs->shownRun();
        m_views.timeline->highlightStep(!valid ? -1 : run ? indexOfNode(m_doc->graph(), *run, node) : node);
    });
    // An edit lays the graph out again and refills the node table, with nothing selected.
    connect(m_doc, &Document::graphChanged, m_focus, [this] { m_focus->setNode(-1); });
    connect(m_doc, &Document::reset, m_focus, [this] { m_focus->setNode(-1); });
}

bool ViewLinks::moveCursor(int action) {
    const auto run = m_runs->shownRun();
    const std::size_t actions = run && run->plan ? run->plan->actionCount() : 0;
    if (action < -1 || (action >= 0 && std::size_t(action) >= actions)) return false;
    m_focus->setAction(action); // every view follows (showCursor)
    return true;
}

void ViewLinks::planShown() {
    // The views show the new plan whole (a chain's sweep after its last action): the cursor is there too.
    m_focus->resetAction(m_views.sweep->actionCount() > 0 ? m_views.sweep->cursor() : Focus::kWhole);
    m_editor->chainModel()->setCursorMarks({});
    clearSentence();
}

void ViewLinks::showCursor(int action) {
    m_views.timeline->markAction(action);
    SweepView* sweep = m_views.sweep;
    if (sweep->actionCount() == 0) return m_views.graph->setCursor(action);
    if (sweep->cursor() != action) sweep->setCursor(action); // it draws itself again even when it stays
    m_views.heldNow->setAction(action);
    const auto run = m_runs->shownRun();
    const Plan* plan = run ? run->chainPlan() : nullptr;
    const Narration* told = m_views.heldNow->narration();
    const bool tells = plan && told && !m_doc->isGraph() && action >= 0 && std::size_t(action) < told->actions.size();
    m_editor->chainModel()->setCursorMarks(
        tells ? ChainTableModel::marksAt(*plan, *told, action, m_editor->chainModel()->rowCount())
              : ChainTableModel::CursorMarks{});
    if (!tells) return clearSentence();
    // The sentence under every tab, not only beside the sweep.
    m_sentence = tr("Action %1 of %2: %3")
                     .arg(action)
                     .arg(told->actions.size())
                     .arg(QString::fromStdString(told->actions[std::size_t(action)].sentence));
    m_status->showMessage(m_sentence);
}

void ViewLinks::clearSentence() {
    if (!m_sentence.isEmpty() && m_status->currentMessage() == m_sentence) m_status->clearMessage();
    m_sentence.clear();
}
