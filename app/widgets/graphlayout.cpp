#include "graphlayout.h"

#include <QLineF>
#include <algorithm>
#include <cstdlib>

// Graphviz last: its headers define short macros (MIN, MAX, ROUND, ...).
#include <gvc.h>

using namespace ckpt;

GraphLayouter::GraphLayouter() : m_gvc(gvContext()) {}

GraphLayouter::~GraphLayouter() {
    if (m_gvc) gvFreeContext(m_gvc);
}

GraphLayout GraphLayouter::layout(const Graph& g, const std::vector<QSizeF>& size, bool leftRight) const {
    const int n = g.size();
    GraphLayout out;
    std::vector<int> depth(std::size_t(n), 0);
    for (int v : g.topologicalOrder())
        for (int u : g.inputs(v))
            depth[std::size_t(v)] = std::max(depth[std::size_t(v)], depth[std::size_t(u)] + 1);
    out.levels = n ? *std::max_element(depth.begin(), depth.end()) + 1 : 0;
    std::vector<QPointF>& pos = out.centres;
    pos.assign(std::size_t(n), QPointF());
    std::vector<QPainterPath>& paths = out.edges;
    auto& arrows = out.arrows;
    bool laidOut = false;
    if (m_gvc) {
        QByteArray dot = "digraph G {\n graph [rankdir=" + QByteArray(leftRight ? "LR" : "TB") +
                         ", nodesep=0.25, ranksep=0.45];\n node [shape=box, fixedsize=true, label=\"\"];\n";
        for (int v = 0; v < n; ++v)
            dot += QString(" n%1 [width=%2, height=%3];\n")
                       .arg(v)
                       .arg(size[std::size_t(v)].width() / 72.0, 0, 'f', 4)
                       .arg(size[std::size_t(v)].height() / 72.0, 0, 'f', 4)
                       .toLatin1();
        for (int v = 0; v < n; ++v)
            for (int u : g.inputs(v))
                dot += QString(" n%1 -> n%2;\n").arg(u).arg(v).toLatin1();
        dot += "}\n";
        Agraph_t* ag = agmemread(dot.constData());
        if (ag && gvLayout(m_gvc, ag, "dot") == 0) {
            const double top = GD_bb(ag).UR.y;
            auto flip = [top](pointf p) { return QPointF(p.x, top - p.y); };
            for (Agnode_t* an = agfstnode(ag); an; an = agnxtnode(ag, an)) {
                const int v = std::atoi(agnameof(an) + 1);
                if (v >= 0 && v < n) pos[std::size_t(v)] = flip(ND_coord(an));
            }
            for (Agnode_t* an = agfstnode(ag); an; an = agnxtnode(ag, an))
                for (Agedge_t* e = agfstout(ag, an); e; e = agnxtout(ag, e)) {
                    const splines* spl = ED_spl(e);
                    if (!spl || spl->size < 1 || spl->list[0].size < 4) continue;
                    const bezier& b = spl->list[0];
                    QPainterPath path(flip(b.list[0]));
                    for (int k = 1; k + 2 < b.size; k += 3)
                        path.cubicTo(flip(b.list[k]), flip(b.list[k + 1]), flip(b.list[k + 2]));
                    const QPointF last = flip(b.list[b.size - 1]);
                    if (b.eflag)
                        arrows.emplace_back(flip(b.ep), last);
                    else
                        arrows.emplace_back(last, flip(b.list[b.size - 2]));
                    paths.push_back(path);
                }
            gvFreeLayout(m_gvc, ag);
            laidOut = true;
        } else {
            out.error = QStringLiteral("Graphviz could not lay the graph out; drawn in layers by depth");
        }
        if (ag) agclose(ag);
    } else {
        out.error = QStringLiteral("Graphviz is not available; drawn in layers by depth");
    }
    if (!laidOut) {
        std::vector<int> filled(static_cast<std::size_t>(out.levels), 0);
        for (int v : g.topologicalOrder()) {
            const int k = filled[std::size_t(depth[std::size_t(v)])]++;
            QPointF p(k * 150.0, depth[std::size_t(v)] * 80.0);
            pos[std::size_t(v)] = leftRight ? QPointF(p.y() * 2, p.x() / 2) : p;
        }
        for (int v = 0; v < n; ++v)
            for (int u : g.inputs(v)) {
                QLineF line(pos[std::size_t(u)], pos[std::size_t(v)]);
                QPainterPath path(line.p1());
                const QPointF tip = line.pointAt(std::max(0.0, 1 - 22 / std::max(line.length(), 1.0)));
                path.lineTo(tip);
                paths.push_back(path);
                arrows.emplace_back(tip, line.p1());
            }
    }
    return out;
}
