#pragma once
// What the shared cursor and selection (models/focus.h) mean in each view, and what a click in one view does in the
// others. The cursor is an action of the shown plan: the sweep's slider and player, a click in the Gantt and a click on
// a chain step's row set it; the Gantt and memory chart draw a line there, the sweep diagram and Held now go there,
// the chain table marks what is held, the status bar says what the action does, and for a graph plan the graph view
// colours each node by its state once that action is done. The selection is a node: the graph view, the node table
// (ProblemEditor) and a click in a graph plan's Gantt set it, and the Gantt marks that node's actions.
#include <QObject>
#include <QString>

class Document;
class Focus;
class GraphView;
class HeldNowPanel;
class ProblemEditor;
class QStatusBar;
class RunController;
class SweepView;
class TimelineView;

class ViewLinks : public QObject {
    Q_OBJECT
public:
    struct Views {
        TimelineView* timeline;
        SweepView* sweep;
        HeldNowPanel* heldNow;
        GraphView* graph;
    };
    ViewLinks(Document* doc, Focus* focus, RunController* runs, ProblemEditor* editor, Views views, QStatusBar* status,
              QObject* parent);
    // The cursor at the shown plan's action `action` (-1: before the first); false when it has no such action.
    bool moveCursor(int action);
    // A new plan in the views, shown whole: the cursor is after its last action, with no marks and no sentence.
    void planShown();

private:
    void connectCursor();
    void connectSelection();
    void showCursor(int action); // every view follows
    void clearSentence();

    Document* m_doc;
    Focus* m_focus;
    RunController* m_runs;
    ProblemEditor* m_editor;
    Views m_views;
    QStatusBar* m_status;
    QString m_sentence; // the status bar's sentence about the cursor's action, cleared with the cursor
};
