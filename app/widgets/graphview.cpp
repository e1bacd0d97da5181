// The graph view: Graphviz dot for the layout (graphlayout.h), QGraphicsView for drawing and interaction.
#include "graphview.h"

#include "graphlayout.h"
#include "model/graph_shape.h"
#include "plan/branch_order.h"

#include "util/units.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QElapsedTimer>
#include <QEvent>
#include <QGraphicsItem>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QToolBar>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

using namespace ckpt;

namespace {

QColor mix(const QColor& c, double amount) { // c blended with white
    return QColor::fromRgbF(float(1 - amount + amount * c.redF()), float(1 - amount + amount * c.greenF()),
                            float(1 - amount + amount * c.blueF()));
}

QString implementationsText(const GraphNode& node) {
    if (node.alternatives.empty()) return {};
    QStringList all;
    for (const NodeImplementation& a : node.alternatives)
        all << QObject::tr("%1 (forward %2, workspace %3)")
                   .arg(QString::fromStdString(a.name).toHtmlEscaped(),
                        QString::fromStdString(formatSeconds(a.forward)),
                        QString::fromStdString(formatBytes(double(a.workspace_bytes))));
    return QObject::tr("<br>other implementations: %1").arg(all.join(", "));
}

class NodeItem : public QGraphicsItem {
public:
    NodeItem(int index, QString id, QString detail, QSizeF size, QFont font, bool inPlace)
        : m_index(index), m_id(std::move(id)), m_detail(std::move(detail)), m_size(size), m_font(std::move(font)),
          m_inPlace(inPlace) {
        setFlag(ItemIsSelectable);
        setAcceptHoverEvents(true);
        setZValue(1);
    }
    int index() const { return m_index; }
    QRectF box() const { return QRectF(-m_size.width() / 2, -m_size.height() / 2, m_size.width(), m_size.height()); }
    QRectF boundingRect() const override {
        return box().adjusted(-3, -3, m_badge.isEmpty() ? 3 : 8 + QFontMetricsF(m_font).horizontalAdvance(m_badge), 3);
    }
    void setFill(const QColor& c) {
        m_fill = c;
        update();
    }
    QColor fill() const { return m_fill; }
    const QString& detail() const { return m_detail; }
    // The implementation the shown plan runs, when not the node's own: drawn small, right of the box.
    void setBadge(const QString& badge) {
        prepareGeometryChange();
        m_badge = badge;
        update();
    }
    const QString& badge() const { return m_badge; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        p->setRenderHint(QPainter::Antialiasing);
        const bool sel = isSelected();
        // An in-place node's outline is dashed: its output shares its input's buffer.
        QPen outline = sel ? QPen(QColor(20, 20, 20), 3) : QPen(QColor(90, 90, 90), m_inPlace ? 1.5 : 1);
        if (m_inPlace) outline.setStyle(Qt::DashLine);
        p->setPen(outline);
        p->setBrush(m_fill);
        p->drawRoundedRect(box(), 6, 6);
        QRectF r = box().adjusted(4, 3, -4, -3);
        QFont bold = m_font;
        bold.setBold(true);
        p->setPen(QColor(15, 15, 15));
        p->setFont(bold);
        p->drawText(QRectF(r.left(), r.top(), r.width(), r.height() * 0.55), Qt::AlignCenter, m_id);
        QFont small = m_font;
        small.setPointSizeF(m_font.pointSizeF() * 0.85);
        p->setFont(small);
        p->setPen(QColor(70, 70, 70));
        p->drawText(QRectF(r.left(), r.top() + r.height() * 0.5, r.width(), r.height() * 0.5), Qt::AlignCenter,
                    m_detail);
        if (!m_badge.isEmpty()) {
            QFont italic = small;
            italic.setItalic(true);
            p->setFont(italic);
            p->setPen(QColor(120, 40, 140));
            const QFontMetricsF fm(italic);
            p->drawText(QRectF(box().right() + 4, box().center().y() - fm.height() / 2,
                               fm.horizontalAdvance(m_badge) + 2, fm.height()),
                        Qt::AlignLeft | Qt::AlignVCenter, m_badge);
        }
    }

private:
    int m_index;
    QString m_id, m_detail;
    QSizeF m_size;
    QFont m_font;
    bool m_inPlace = false;
    QString m_badge;
    QColor m_fill = QColor(235, 235, 235);
};

// Wheel zooms about the cursor; dragging the background pans (ScrollHandDrag), clicking a node selects it.
class ZoomView : public QGraphicsView {
public:
    using QGraphicsView::QGraphicsView;
    std::function<void()> onUserZoom;
    std::function<void()> onDelete;

protected:
    void wheelEvent(QWheelEvent* e) override {
        const double f = std::pow(1.0015, e->angleDelta().y());
        const double s = transform().m11() * f;
        if (s < 0.02 || s > 8) return;
        setTransformationAnchor(AnchorUnderMouse);
        scale(f, f);
        if (onUserZoom) onUserZoom();
        e->accept();
    }
    void keyPressEvent(QKeyEvent* e) override {
        if ((e->key() == Qt::Key_Delete || e->key() == Qt::Key_Backspace) && onDelete) return onDelete();
        QGraphicsView::keyPressEvent(e);
    }
};

} // namespace

struct GraphView::Impl {
    QGraphicsScene* scene = nullptr;
    ZoomView* view = nullptr;
    QLabel* legend = nullptr;
    QLabel* status = nullptr;
    QAction *add = nullptr, *connect = nullptr, *remove = nullptr, *edit = nullptr, *fit = nullptr,
            *leftRight = nullptr;
    std::optional<Graph> graph;
    std::optional<JoinShape> join; // the graph's branches when it is a join of two or more (join-dp's shape)
    std::shared_ptr<const Run> run;
    std::vector<NodeItem*> nodes;
    std::vector<Fate> fates;
    int cursor = -1;
    std::vector<ckpt::NodeAt> at; // each node at the cursor (empty: no cursor)
    int edges = 0;
    QList<int> order; // selection order
    bool silent = false;
    bool userZoomed = false;
    double layoutMs = 0;
    QString layoutError;
    GraphLayouter layouter;
};

GraphView::GraphView(QWidget* parent) : QWidget(parent), d(std::make_unique<Impl>()) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(2);
    auto* bar = new QToolBar(this);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    d->add = bar->addAction(tr("Add node"), this, [this] { emit addNodeRequested(); });
    d->add->setToolTip(tr("Add a node (fed by the selected nodes, with the costs of the last selected)"));
    d->connect = bar->addAction(tr("Connect"), this, [this] {
        if (d->order.size() == 2) emit connectRequested(d->order[0], d->order[1]);
    });
    d->connect->setToolTip(tr("Select two nodes (Ctrl+click the second): an edge from the first to the second"));
    d->remove = bar->addAction(tr("Delete"), this, [this] {
        if (!d->order.isEmpty()) emit deleteRequested(d->order);
    });
    d->remove->setToolTip(tr("Delete the selected nodes and their edges (Del)"));
    d->edit = bar->addAction(tr("Edit…"), this, [this] {
        if (d->order.size() == 1) emit editRequested(d->order.front());
    });
    d->edit->setToolTip(tr("Open the selected node's row in the node table"));
    bar->addSeparator();
    d->fit = bar->addAction(tr("Fit"), this, [this] {
        fitToWindow();
        d->userZoomed = true; // stays whole, even when that makes the labels small
    });
    d->fit->setToolTip(tr("Fit the whole graph in the window (wheel: zoom, drag: pan)"));
    d->leftRight = bar->addAction(tr("Left to right"));
    d->leftRight->setCheckable(true);
    d->leftRight->setToolTip(tr("Lay the graph out from left to right instead of top to bottom"));
    connect(d->leftRight, &QAction::toggled, this, [this] {
        layout();
        d->userZoomed = false;
        showReadable();
    });
    d->status = new QLabel(bar);
    d->status->setContentsMargins(12, 0, 0, 0);
    bar->addWidget(d->status);
    l->addWidget(bar);

    d->scene = new QGraphicsScene(this);
    d->view = new ZoomView(d->scene, this);
    d->view->setRenderHint(QPainter::Antialiasing);
    d->view->setDragMode(QGraphicsView::ScrollHandDrag);
    d->view->setBackgroundBrush(palette().color(QPalette::Base)); // white, or dark under a dark style
    d->view->setContextMenuPolicy(Qt::CustomContextMenu);
    d->view->onUserZoom = [this] { d->userZoomed = true; };
    d->view->onDelete = [this] { d->remove->trigger(); };
    l->addWidget(d->view, 1);
    d->legend = new QLabel(this);
    d->legend->setContentsMargins(6, 0, 6, 4);
    d->legend->setWordWrap(true); // the fates with their counts: a long line that must not widen the window
    l->addWidget(d->legend);

    connect(d->view, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        if (auto* item = dynamic_cast<NodeItem*>(d->view->itemAt(pos)); item && !item->isSelected()) {
            d->scene->clearSelection();
            item->setSelected(true);
        }
        QMenu menu(this);
        for (QAction* a : {d->add, d->connect, d->remove, d->edit, d->fit})
            menu.addAction(a);
        menu.exec(d->view->viewport()->mapToGlobal(pos));
    });
    connect(d->scene, &QGraphicsScene::selectionChanged, this, [this] {
        QList<int> now;
        for (QGraphicsItem* i : d->scene->selectedItems())
            if (auto* n = dynamic_cast<NodeItem*>(i)) now << n->index();
        std::sort(now.begin(), now.end());
        QList<int> order;
        for (int v : d->order)
            if (now.contains(v)) order << v;
        for (int v : now)
            if (!order.contains(v)) order << v;
        d->order = order;
        updateActions();
        if (!d->silent) emit nodeSelected(order.isEmpty() ? -1 : order.back());
    });
    clear();
}

GraphView::~GraphView() {
    // Clearing a selection emits; the window that listens may be half destroyed already.
    d->scene->disconnect(this);
    d->silent = true;
    d->scene->clear();
}

QGraphicsView* GraphView::view() const {
    return d->view;
}
int GraphView::nodeCount() const {
    return int(d->nodes.size());
}
int GraphView::edgeCount() const {
    return d->edges;
}
double GraphView::layoutMs() const {
    return d->layoutMs;
}
QString GraphView::layoutError() const {
    return d->layoutError;
}
QList<int> GraphView::selectedNodes() const {
    return d->order;
}
GraphView::Fate GraphView::fate(int node) const {
    return node >= 0 && node < int(d->fates.size()) ? d->fates[std::size_t(node)] : Fate::Neutral;
}
QColor GraphView::nodeColor(int node) const {
    return node >= 0 && node < nodeCount() ? d->nodes[std::size_t(node)]->fill() : QColor();
}
QRectF GraphView::nodeRect(int node) const {
    if (node < 0 || node >= nodeCount()) return {};
    auto* n = d->nodes[std::size_t(node)];
    return n->box().translated(n->pos());
}

QColor GraphView::fateColor(Fate fate) {
    switch (fate) {
    case Fate::Kept:
        return mix(QColor(0, 158, 115), 0.45); // bluish green
    case Fate::Recomputed:
        return mix(QColor(86, 180, 233), 0.75); // sky blue, the Gantt's recompute
    case Fate::Freed:
        return mix(QColor(230, 159, 0), 0.6); // orange
    case Fate::Offloaded:
        return mix(QColor(204, 121, 167), 0.6); // reddish purple
    case Fate::Neutral:
        break;
    }
    return QColor(235, 235, 235);
}

QString GraphView::fateName(Fate fate) {
    switch (fate) {
    case Fate::Kept:
        return tr("kept until its backward");
    case Fate::Recomputed:
        return tr("recomputed (forward ran again)");
    case Fate::Freed:
        return tr("freed early, not recomputed");
    case Fate::Offloaded:
        return tr("offloaded to a slower level");
    case Fate::Neutral:
        break;
    }
    return tr("no plan shown");
}

void GraphView::clear() {
    d->graph.reset();
    d->join.reset();
    d->scene->clear();
    d->nodes.clear();
    d->edges = 0;
    d->order.clear();
    d->fates.clear();
    d->status->clear();
    recolor();
    updateActions();
}

void GraphView::setGraph(const Graph& graph) {
    const bool first = !d->graph || d->graph->name() != graph.name() || d->nodes.empty();
    d->graph = graph;
    d->join.reset();
    if (auto shape = joinShape(graph); shape && shape->branches.size() > 1) d->join = std::move(*shape);
    if (first) {
        // The direction that draws the graph larger in this window: a deep, narrow graph reads better across it.
        std::vector<int> depth(static_cast<std::size_t>(graph.size()), 0);
        for (int v : graph.topologicalOrder())
            for (int u : graph.inputs(v))
                depth[std::size_t(v)] = std::max(depth[std::size_t(v)], depth[std::size_t(u)] + 1);
        const double levels = graph.size() ? *std::max_element(depth.begin(), depth.end()) + 1 : 1;
        const double across = double(graph.size()) / levels; // nodes per level, on average
        const QSizeF win = d->view->viewport()->width() > 100 ? QSizeF(d->view->viewport()->size()) : QSizeF(1150, 750);
        auto scale = [&](double w, double h) { return std::min(win.width() / w, win.height() / h); };
        const bool lr = scale(levels * 150, across * 55) > scale(across * 120, levels * 75);
        d->leftRight->blockSignals(true);
        d->leftRight->setChecked(lr);
        d->leftRight->blockSignals(false);
    }
    layout();
    if (first) d->userZoomed = false;
    if (!d->userZoomed) showReadable();
}

void GraphView::setRun(std::shared_ptr<const Run> run) {
    d->run = std::move(run);
    d->cursor = -1;
    recolor();
}

void GraphView::setCursor(int action) {
    d->cursor = action;
    recolor();
    const GraphPlan* plan = d->run ? d->run->graphPlan() : nullptr;
    if (!d->at.empty() && plan) selectNode(plan->actions[std::size_t(action)].node);
}

int GraphView::cursor() const {
    return d->at.empty() ? -1 : d->cursor;
}

QString GraphView::legendText() const {
    return d->legend->text();
}

QString GraphView::nodeBadge(int node) const {
    return node >= 0 && node < int(d->nodes.size()) ? d->nodes[std::size_t(node)]->badge() : QString();
}

QString GraphView::nodeDetail(int node) const {
    return node >= 0 && node < int(d->nodes.size()) ? d->nodes[std::size_t(node)]->detail() : QString();
}

QString GraphView::nodeState(int node) const {
    if (node < 0 || std::size_t(node) >= d->at.size()) return {};
    return tr(nodeAtName(d->at[std::size_t(node)]));
}

// Colours of the states at the cursor: the fates' where they mean the same (held ~ kept, freed, offloaded).
static QColor stateColor(NodeAt s) {
    switch (s) {
    case NodeAt::Held:
        return GraphView::fateColor(NodeFate::Kept);
    case NodeAt::Offloaded:
        return GraphView::fateColor(NodeFate::Offloaded);
    case NodeAt::Freed:
        return GraphView::fateColor(NodeFate::Freed);
    case NodeAt::Done:
        return QColor(170, 170, 170);
    case NodeAt::NotYet:
        break;
    }
    return GraphView::fateColor(NodeFate::Neutral);
}

void GraphView::selectNode(int node) {
    d->silent = true;
    d->scene->clearSelection();
    if (node >= 0 && node < nodeCount()) {
        d->nodes[std::size_t(node)]->setSelected(true);
        d->view->ensureVisible(d->nodes[std::size_t(node)], 40, 40);
    }
    d->silent = false;
}

void GraphView::fitToWindow() {
    if (d->nodes.empty()) return;
    QRectF r = d->scene->itemsBoundingRect().adjusted(-16, -16, 16, 16);
    d->view->fitInView(r, Qt::KeepAspectRatio);
    // A small graph stays at a readable size instead of filling a large window with huge boxes.
    if (d->view->transform().m11() > 1.6) {
        d->view->setTransform(QTransform::fromScale(1.6, 1.6));
        d->view->centerOn(r.center());
    }
}

void GraphView::showReadable() {
    fitToWindow();
    // A deep graph fitted whole has unreadable labels: show its sources at a readable size instead, the rest a scroll
    // (or Fit) away.
    if (d->nodes.empty() || d->view->transform().m11() >= 0.7) return;
    d->view->setTransform(QTransform::fromScale(0.85, 0.85));
    const QRectF r = d->scene->itemsBoundingRect();
    const QSizeF half = QSizeF(d->view->viewport()->size()) / (2 * 0.85);
    d->view->centerOn(d->leftRight->isChecked() ? QPointF(r.left() + half.width() - 16, r.center().y())
                                                : QPointF(r.center().x(), r.top() + half.height() - 16));
}

// Edges between the background and the text colour: grey on white (as before), light grey on a dark style.
QColor GraphView::edgeColour() const {
    const QColor bg = palette().color(QPalette::Base), fg = palette().color(QPalette::Text);
    auto mixF = [](float a, float b) { return a + (b - a) * 0.6f; };
    return QColor::fromRgbF(mixF(bg.redF(), fg.redF()), mixF(bg.greenF(), fg.greenF()), mixF(bg.blueF(), fg.blueF()));
}

// Nodes keep their light fills and dark text on any background; the background and the edges follow the palette.
void GraphView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() != QEvent::PaletteChange || !d->view) return;
    d->view->setBackgroundBrush(palette().color(QPalette::Base));
    const QColor edge = edgeColour();
    for (QGraphicsItem* item : d->scene->items()) {
        if (auto* path = dynamic_cast<QGraphicsPathItem*>(item)) {
            QPen pen = path->pen();
            pen.setColor(edge);
            path->setPen(pen);
        } else if (auto* head = dynamic_cast<QGraphicsPolygonItem*>(item)) {
            head->setBrush(edge);
        }
    }
}

void GraphView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    if (!d->userZoomed) showReadable();
}

void GraphView::updateActions() {
    const bool graph = d->graph.has_value();
    d->add->setEnabled(graph);
    d->connect->setEnabled(d->order.size() == 2);
    d->remove->setEnabled(!d->order.isEmpty());
    d->edit->setEnabled(d->order.size() == 1);
    d->fit->setEnabled(graph);
}

void GraphView::recolor() {
    d->fates = d->graph && d->run ? nodeFates(*d->graph, *d->run)
                                  : std::vector<Fate>(std::size_t(d->graph ? d->graph->size() : 0), Fate::Neutral);
    int counts[5] = {0, 0, 0, 0, 0};
    for (std::size_t v = 0; v < d->nodes.size() && v < d->fates.size(); ++v) {
        d->nodes[v]->setFill(fateColor(d->fates[v]));
        ++counts[int(d->fates[v])];
    }
    QString legend;
    auto swatchOf = [](const QColor& c, const QString& text) {
        return QString(
                   "<span style='background-color:%1; border:1px solid #555'>&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2"
                   "&nbsp;&nbsp;&nbsp;&nbsp;")
            .arg(c.name(), text);
    };
    auto swatch = [&](Fate f, const QString& text) { return swatchOf(fateColor(f), text); };
    const bool plan = d->run && d->run->timeline && d->graph;
    d->at = plan && d->cursor >= 0 ? nodesAt(*d->graph, *d->run, d->cursor) : std::vector<NodeAt>{};
    if (!d->at.empty()) {
        // At the cursor: each node's state once that action is done.
        int at[5] = {0, 0, 0, 0, 0};
        for (std::size_t v = 0; v < d->nodes.size() && v < d->at.size(); ++v) {
            d->nodes[v]->setFill(stateColor(d->at[v]));
            ++at[int(d->at[v])];
        }
        legend = tr("<b>%1</b> after action %2: ")
                     .arg(QString::fromStdString(d->run->scheduler).toHtmlEscaped())
                     .arg(d->cursor);
        for (NodeAt s : {NodeAt::Held, NodeAt::Offloaded, NodeAt::Freed, NodeAt::Done, NodeAt::NotYet})
            if (s != NodeAt::Offloaded || at[int(s)] > 0)
                legend += swatchOf(stateColor(s), tr("%1 (%2)").arg(tr(nodeAtName(s))).arg(at[int(s)]));
    } else if (plan) {
        legend = tr("<b>%1</b>: ").arg(QString::fromStdString(d->run->scheduler).toHtmlEscaped());
        for (Fate f : {Fate::Kept, Fate::Recomputed, Fate::Freed, Fate::Offloaded})
            if (f != Fate::Offloaded || counts[int(f)] > 0) // offloading is rare: named only when it happens
                legend += swatch(f, tr("%1 (%2)").arg(fateName(f)).arg(counts[int(f)]));
    } else {
        legend = swatch(Fate::Neutral, tr("no plan shown: run a scheduler to colour the nodes by what it does"));
    }
    // The implementations the shown plan picks (monet), as badges, and how many differ from the nodes' own.
    const GraphPlan* gp = d->run ? d->run->graphPlan() : nullptr;
    int others = 0;
    for (std::size_t v = 0; v < d->nodes.size(); ++v) {
        const int c = gp && v < gp->implementation.size() ? gp->implementation[v] : 0;
        const bool known = d->graph && c > 0 && c < d->graph->implementationCount(int(v));
        d->nodes[v]->setBadge(known ? QString::fromStdString(d->graph->implementationName(int(v), c)) : QString());
        others += known;
    }
    if (others > 0)
        legend += tr("<i style='color:#782c8c'>name</i>&nbsp;beside a node: the implementation the plan runs it with "
                     "(%1 not their own)&nbsp;&nbsp;&nbsp;&nbsp;")
                      .arg(others);
    // On a join graph (branches merging at one node), the order the plan reverses the branches in, beside each
    // branch's last node: what join-dp chooses.
    if (gp && d->join) {
        const std::vector<int> rank = branchReversalRank(*d->graph, *d->join, gp->actions);
        for (std::size_t i = 0; i < rank.size(); ++i) {
            const std::size_t e = std::size_t(d->join->branches[i].back());
            if (rank[i] <= 0 || e >= d->nodes.size()) continue;
            const QString mark = QStringLiteral("\u21B6%1").arg(rank[i]);
            const QString had = d->nodes[e]->badge();
            d->nodes[e]->setBadge(had.isEmpty() ? mark : had + " " + mark);
        }
        legend += tr("<i style='color:#782c8c'>\u21B6n</i>&nbsp;beside a branch's last node: the plan reverses "
                     "that branch n-th of %1&nbsp;&nbsp;&nbsp;&nbsp;")
                      .arg(d->join->branches.size());
    }
    if (d->graph &&
        std::any_of(d->graph->nodes().begin(), d->graph->nodes().end(), [](const GraphNode& n) { return n.in_place; }))
        legend += tr("<span style='border:1px dashed #555'>&nbsp;\u21BA&nbsp;</span>&nbsp;in place: the output may "
                     "take over its input's buffer");
    if (!d->layoutError.isEmpty()) legend += tr(" · <span style='color:#b00020'>%1</span>").arg(d->layoutError);
    d->legend->setText(legend);
}

void GraphView::layout() {
    QElapsedTimer clock;
    clock.start();
    d->silent = true;
    const QList<int> keep = d->order;
    d->scene->clear();
    d->nodes.clear();
    d->edges = 0;
    d->order.clear();
    d->layoutError.clear();
    if (!d->graph) {
        d->silent = false;
        return;
    }
    const Graph& g = *d->graph;
    const int n = g.size();
    QFont font = this->font();
    if (font.pointSizeF() <= 0) font.setPointSizeF(9);
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF fb(bold), fs(font);
    std::vector<QSizeF> size(static_cast<std::size_t>(n));
    std::vector<QString> detail(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v) {
        const GraphNode& node = g.node(v);
        detail[std::size_t(v)] = (node.in_place ? QStringLiteral("\u21BA ") : QString()) +
                                 QString::fromStdString(formatBytes(double(node.output_bytes)));
        const double w = std::max(fb.horizontalAdvance(QString::fromStdString(node.id)),
                                  fs.horizontalAdvance(detail[std::size_t(v)])) +
                         20;
        size[std::size_t(v)] = QSizeF(std::max(w, 56.0), fb.height() + fs.height() + 10);
    }

    const bool leftRight = d->leftRight->isChecked();
    const GraphLayout laid = d->layouter.layout(g, size, leftRight);
    d->layoutError = laid.error;
    const int levels = laid.levels;
    const std::vector<QPointF>& pos = laid.centres;
    const std::vector<QPainterPath>& paths = laid.edges;
    const auto& arrows = laid.arrows;

    const QPen edgePen(edgeColour(), 1.2);
    for (std::size_t k = 0; k < paths.size(); ++k) {
        auto* item = d->scene->addPath(paths[k], edgePen);
        item->setZValue(0);
        // A filled arrowhead 9 points long pointing from `from` to `tip`.
        const auto [tip, from] = arrows[k];
        QLineF back(tip, from);
        if (back.length() < 1e-6) continue;
        back.setLength(9);
        QLineF side = back.normalVector();
        side.setLength(4);
        const QPointF base = back.p2(), offset = side.p2() - side.p1();
        auto* head =
            d->scene->addPolygon(QPolygonF({tip, base + offset, base - offset}), QPen(Qt::NoPen), edgeColour());
        head->setZValue(0);
        ++d->edges;
    }
    for (int v = 0; v < n; ++v) {
        const GraphNode& node = g.node(v);
        auto* item = new NodeItem(v, QString::fromStdString(node.id), detail[std::size_t(v)], size[std::size_t(v)],
                                  font, node.in_place);
        item->setPos(pos[std::size_t(v)]);
        QStringList flags;
        if (node.needs_inputs) flags << "inputs";
        if (node.needs_output) flags << "output";
        item->setToolTip(tr("<b>%1</b><br>forward %2 · backward %3<br>output %4 · workspace %5<br>backward needs: "
                            "%6%7<br>%8 inputs, %9 consumers")
                             .arg(QString::fromStdString(node.id).toHtmlEscaped(),
                                  QString::fromStdString(formatSeconds(node.forward)),
                                  QString::fromStdString(formatSeconds(node.backward)),
                                  QString::fromStdString(formatBytes(double(node.output_bytes))),
                                  QString::fromStdString(formatBytes(double(node.workspace_bytes))),
                                  flags.isEmpty() ? tr("nothing") : flags.join(", "),
                                  QString(node.reversible ? tr(" · reversible") : QString()) +
                                      (node.in_place ? tr(" · runs in place (its output may take over its input's "
                                                          "buffer)")
                                                     : QString()) +
                                      implementationsText(node))
                             .arg(g.inputs(v).size())
                             .arg(g.consumers(v).size()));
        d->scene->addItem(item);
        d->nodes.push_back(item);
    }
    d->scene->setSceneRect(d->scene->itemsBoundingRect().adjusted(-40, -40, 40, 40));
    for (int v : keep)
        if (v >= 0 && v < n) d->nodes[std::size_t(v)]->setSelected(true);
    d->order.clear();
    for (int v : keep)
        if (v >= 0 && v < n) d->order << v;
    d->silent = false;
    d->layoutMs = double(clock.nsecsElapsed()) / 1e6;
    d->status->setText(tr("%1 nodes, %2 edges, %3 levels · laid out in %4 ms")
                           .arg(n)
                           .arg(g.edges().size())
                           .arg(levels)
                           .arg(d->layoutMs, 0, 'f', 0));
    recolor();
    updateActions();
}
