#pragma once
// The graph as a picture: Graphviz's dot lays it out (through its C API), a QGraphicsView draws it: nodes as rounded
// boxes with their id and output size, edges as splines with arrowheads. Wheel zoom, drag pan, fit to window. With a
// plan shown, each node is coloured by what the plan does with its output (read from the run's timeline): kept until
// its backward, recomputed, or freed early; without one, neutral.
#include "model/graph.h"
#include "run/node_fates.h"
#include "run/runner.h"

#include <QColor>
#include <QList>
#include <QWidget>
#include <memory>
#include <vector>

class QGraphicsView;
class QLabel;

class GraphView : public QWidget {
    Q_OBJECT
public:
    using Fate = ckpt::NodeFate; // computed in the engine (run/node_fates.h), coloured here
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    // Lays the graph out again (keeps the selection by node index when it still exists); an empty graph clears.
    void setGraph(const ckpt::Graph& graph);
    void clear();
    // Colours the nodes by the run (a graph run's Interval.index is the node; a chain run on a graph that is a chain
    // maps step i to the i-th node in topological order). A null run or one without a timeline: neutral.
    void setRun(std::shared_ptr<const ckpt::Run> run); // also clears the cursor
    // The window's cursor: a graph plan's action. The nodes are coloured by their state once it is done (held, on a
    // slower level, freed, backward done, not yet computed) and its node is selected; -1 returns to the fates.
    void setCursor(int action);
    int cursor() const;
    QString nodeState(int node) const;  // at the cursor, as the legend names it; empty without a cursor
    QString legendText() const;         // the line under the graph (fates or states, and the in-place mark), as HTML
    QString nodeDetail(int node) const; // the second line drawn in the node's box (its output size, ↺ when in place)
    QString nodeBadge(int node) const;  // the implementation the shown plan runs it with, when not its own
    static QColor fateColor(Fate fate);
    static QString fateName(Fate fate);

    int nodeCount() const;
    Fate fate(int node) const;
    QColor nodeColor(int node) const; // the fill it is drawn with
    QRectF nodeRect(int node) const;  // in scene coordinates
    int edgeCount() const;            // edges drawn
    QList<int> selectedNodes() const; // in the order they were selected
    void selectNode(int node);        // -1 clears; emits nothing (for mirroring another view)
    double layoutMs() const;
    QString layoutError() const; // empty when Graphviz laid the graph out
    QGraphicsView* view() const;

public slots:
    void fitToWindow();  // the whole graph
    void showReadable(); // the whole graph if its labels stay readable, else its sources at a readable zoom

signals:
    void nodeSelected(int node); // a click (the last selected node), -1 when the selection is cleared
    void addNodeRequested();
    void connectRequested(int from, int to);
    void deleteRequested(const QList<int>& nodes);
    void editRequested(int node);

protected:
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override; // a new palette (a dark style): background and edges follow

private:
    struct Impl;
    std::unique_ptr<Impl> d;
    void layout();
    void recolor();
    QColor edgeColour() const; // of the edges and arrowheads, from the palette
    void updateActions();
};
