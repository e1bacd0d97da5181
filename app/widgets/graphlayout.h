#pragma once
// Graphviz dot through its C API: node centres and edge splines for a graph whose node boxes have given sizes, in
// points (scene units, y down). When Graphviz is missing or fails, nodes fall back to layers by depth with straight
// edges, and `error` says so.
#include "model/graph.h"

#include <QPainterPath>
#include <QPointF>
#include <QSizeF>
#include <QString>
#include <utility>
#include <vector>

struct GVC_s;

struct GraphLayout {
    std::vector<QPointF> centres;                    // per node
    std::vector<QPainterPath> edges;                 // one path per edge
    std::vector<std::pair<QPointF, QPointF>> arrows; // per edge: the tip, and the point the arrow comes from
    int levels = 0;                                  // longest path from a source, in nodes
    QString error;                                   // empty when Graphviz laid it out
};

class GraphLayouter {
public:
    GraphLayouter();
    ~GraphLayouter();
    GraphLayouter(const GraphLayouter&) = delete;
    GraphLayouter& operator=(const GraphLayouter&) = delete;

    GraphLayout layout(const ckpt::Graph& graph, const std::vector<QSizeF>& sizes, bool leftRight) const;

private:
    GVC_s* m_gvc = nullptr;
};
