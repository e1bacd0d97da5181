#pragma once
// The shared cursor and selection (as hotspot's FilterAndZoomStack is for its pages): the action of the shown plan
// every view marks, and the graph node every view selects. A view sets it and follows it; it tells only of a real
// change, so a view that follows what it set itself does not loop, and no view mirrors another by hand.
#include <QObject>

class Focus : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    static constexpr int kWhole = -2;       // no cursor: the plan shown whole (a graph's, until a view sets one)
    int action() const { return m_action; } // -1: before the first action
    int node() const { return m_node; }     // -1: none
    void setAction(int action);
    void setNode(int node);
    // A new plan is shown: the cursor is where the views put it for a new plan (a chain's sweep: after the last
    // action; kWhole), without telling them again.
    void resetAction(int action);

signals:
    void actionChanged(int action);
    void nodeChanged(int node);

private:
    int m_action = kWhole, m_node = -1;
};
