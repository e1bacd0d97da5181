#pragma once
// The graph's edits from the shared selection, asked for by the graph view's and the node table's buttons: a new node
// fed by the selected ones, an edge from the first selected to the second, the selected nodes deleted. Each refusal
// is shown under the node table and returned (empty: done).
#include <QObject>
#include <QString>

class Document;
class Focus;
class GraphView;
class ProblemEditor;

class GraphEditing : public QObject {
    Q_OBJECT
public:
    GraphEditing(Document* doc, GraphView* view, ProblemEditor* editor, Focus* focus, QObject* parent);
    QString addNodeFromSelection();
    QString connectSelection();
    QString deleteSelection();

private:
    Document* m_doc;
    GraphView* m_view;
    ProblemEditor* m_editor;
    Focus* m_focus;
};
