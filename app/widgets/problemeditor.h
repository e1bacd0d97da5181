#pragma once
// The problem dock: the chain's steps (or, with a graph open, its nodes), the machine's levels and the scheduler panel,
// as tabs. Every edit goes to the document as an undoable command; a refused one is said under its table. The node
// table follows and sets the shared selection (models/focus.h).
#include <QTabWidget>

class ChainTableModel;
class Document;
class Focus;
class HardwareTableModel;
class NodeTableModel;
class QComboBox;
class QLabel;
class QSpinBox;
class QStackedWidget;
class QTableView;
class SchedulerPanel;

class ProblemEditor : public QTabWidget {
    Q_OBJECT
public:
    ProblemEditor(Document* doc, Focus* focus, SchedulerPanel* panel, QWidget* parent = nullptr);

    ChainTableModel* chainModel() const { return m_chainModel; }
    NodeTableModel* nodeModel() const { return m_nodeModel; }
    HardwareTableModel* hardwareModel() const { return m_hardwareModel; }
    QTableView* chainTable() const { return m_chainTable; }
    QTableView* nodeTable() const { return m_nodeTable; }
    // The refusal under the node table (empty after a good edit); showGraphEdit sets it and tells the status bar.
    QString graphMessage() const;
    void showGraphEdit(const QString& refusal);
    void updateMode();       // the chain's or the graph's editor, after the document's kind changed
    void editNode(int node); // the graph's tab shown, the node selected and its forward time in edit

signals:
    void refused(const QString& reason);                // a button refused outright: the window reports it
    void status(const QString& text, int milliseconds); // for the status bar
    // The graph tab's buttons (the graph view's context menu asks the same).
    void addNodeRequested();
    void connectRequested();
    void deleteRequested();

private:
    QWidget* buildChainTab();
    QWidget* buildGraphTab();
    QWidget* buildHardwareTab();
    void showLength(); // the chain's length in the spin box, without editing it

    Document* m_doc;
    Focus* m_focus;
    ChainTableModel* m_chainModel;
    NodeTableModel* m_nodeModel;
    HardwareTableModel* m_hardwareModel;
    QStackedWidget* m_problemStack = nullptr; // the chain's editor or the graph's
    QTableView* m_chainTable = nullptr;
    QTableView* m_nodeTable = nullptr;
    QSpinBox* m_length = nullptr;
    QComboBox* m_memoryModel = nullptr;
    QLabel* m_graphMessage = nullptr;
};
