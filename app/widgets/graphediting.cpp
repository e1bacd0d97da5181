#include "graphediting.h"

#include "graphview.h"
#include "models/document.h"
#include "models/focus.h"
#include "problemeditor.h"

using namespace ckpt;

GraphEditing::GraphEditing(Document* doc, GraphView* view, ProblemEditor* editor, Focus* focus, QObject* parent)
    : QObject(parent), m_doc(doc), m_view(view), m_editor(editor), m_focus(focus) {
    connect(m_editor, &ProblemEditor::addNodeRequested, this, &GraphEditing::addNodeFromSelection);
    connect(m_editor, &ProblemEditor::connectRequested, this, &GraphEditing::connectSelection);
    connect(m_editor, &ProblemEditor::deleteRequested, this, &GraphEditing::deleteSelection);
    connect(m_view, &GraphView::addNodeRequested, this, &GraphEditing::addNodeFromSelection);
    connect(m_view, &GraphView::connectRequested, this, &GraphEditing::connectSelection);
    connect(m_view, &GraphView::deleteRequested, this, &GraphEditing::deleteSelection);
    connect(m_view, &GraphView::editRequested, m_editor, &ProblemEditor::editNode);
}

QString GraphEditing::addNodeFromSelection() {
    if (!m_doc->isGraph()) return tr("No graph is open");
    const QList<int> sel = m_view->selectedNodes();
    GraphNode node{"", 1e-3, 2e-3, 1 << 20, 0, true, false, false};
    QStringList inputs;
    for (int v : sel)
        inputs << QString::fromStdString(m_doc->nodes()[std::size_t(v)].id);
    if (!sel.isEmpty()) node = m_doc->nodes()[std::size_t(sel.back())];
    node.id = m_doc->uniqueNodeId("node").toStdString();
    QString why = m_doc->addNode(node, inputs);
    m_editor->showGraphEdit(why);
    if (why.isEmpty()) m_focus->setNode(int(m_doc->nodes().size()) - 1);
    return why;
}

QString GraphEditing::connectSelection() {
    const QList<int> sel = m_view->selectedNodes();
    QString why = sel.size() != 2 ? tr("Select two nodes to connect: the first feeds the second")
                                  : m_doc->connectNodes(QString::fromStdString(m_doc->nodes()[std::size_t(sel[0])].id),
                                                        QString::fromStdString(m_doc->nodes()[std::size_t(sel[1])].id));
    m_editor->showGraphEdit(why);
    return why;
}

QString GraphEditing::deleteSelection() {
    QStringList ids;
    for (int v : m_view->selectedNodes())
        ids << QString::fromStdString(m_doc->nodes()[std::size_t(v)].id);
    QString why = m_doc->removeNodes(ids);
    m_editor->showGraphEdit(why);
    return why;
}
