#include "document.h"

#include <QUndoCommand>
#include <algorithm>

using namespace ckpt;

namespace {

// An edit of the problem or the machine. Undo gives the document back the revision it had before, redo the one the
// edit made first: results made from those inputs are current again (Comparison and Trade-off lose their marks).
class ProblemCommand : public QUndoCommand {
protected:
    ProblemCommand(Document* d, const QString& text) : QUndoCommand(text), m_doc(d), m_revBefore(d->revision()) {}
    quint64 revAfter() { return m_revAfter ? m_revAfter : (m_revAfter = m_doc->newRevision()); }
    Document* m_doc;
    quint64 m_revBefore, m_revAfter = 0;
};

class StepsCommand : public ProblemCommand {
public:
    StepsCommand(Document* d, std::vector<Step> before, std::vector<Step> after, const QString& text)
        : ProblemCommand(d, text), m_before(std::move(before)), m_after(std::move(after)) {}
    void undo() override { m_doc->applySteps(m_before, m_revBefore); }
    void redo() override { m_doc->applySteps(m_after, revAfter()); }

private:
    std::vector<Step> m_before, m_after;
};

class LevelsCommand : public ProblemCommand {
public:
    LevelsCommand(Document* d, std::vector<MemoryLevel> before, std::vector<MemoryLevel> after, const QString& text)
        : ProblemCommand(d, text), m_before(std::move(before)), m_after(std::move(after)) {}
    void undo() override { m_doc->applyLevels(m_before, m_revBefore); }
    void redo() override { m_doc->applyLevels(m_after, revAfter()); }

private:
    std::vector<MemoryLevel> m_before, m_after;
};

class GraphCommand : public ProblemCommand {
public:
    using Nodes = std::vector<GraphNode>;
    using Edges = std::vector<GraphEdge>;
    GraphCommand(Document* d, std::pair<Nodes, Edges> before, std::pair<Nodes, Edges> after, const QString& text)
        : ProblemCommand(d, text), m_before(std::move(before)), m_after(std::move(after)) {}
    void undo() override { m_doc->applyGraph(m_before.first, m_before.second, m_revBefore); }
    void redo() override { m_doc->applyGraph(m_after.first, m_after.second, revAfter()); }

private:
    std::pair<Nodes, Edges> m_before, m_after;
};

class SettingsCommand : public QUndoCommand {
public:
    SettingsCommand(Document* d, ProjectSettings before, ProjectSettings after, const QString& text, QString key)
        : QUndoCommand(text), m_doc(d), m_before(std::move(before)), m_after(std::move(after)), m_key(std::move(key)) {}
    void undo() override { m_doc->applySettings(m_before); }
    void redo() override { m_doc->applySettings(m_after); }
    int id() const override { return m_key.isEmpty() ? -1 : 1; }
    bool mergeWith(const QUndoCommand* other) override {
        auto* o = static_cast<const SettingsCommand*>(other);
        if (o->m_key != m_key) return false;
        m_after = o->m_after;
        setText(o->text());
        setObsolete(m_after == m_before); // dragged back to where it started: no step at all
        return true;
    }

private:
    Document* m_doc;
    ProjectSettings m_before, m_after;
    QString m_key;
};

} // namespace

Document::Document(QObject* parent) : QObject(parent), m_undo(new QUndoStack(this)) {
    m_steps = {Step{1e-3, 2e-3, 1 << 20, 3 << 20, 0, 0}};
    m_levels = Hardware::unbounded().levels();
    m_chainName = "chain";
    m_hardwareName = "unbounded";
}

Chain Document::chain() const {
    Chain c = *Chain::make(m_chainName.toStdString(), m_steps);
    if (m_model == MemoryModel::Standard && m_finalState < 0) return c;
    if (auto m = c.withModel(m_model, m_finalState)) return *m;
    return c; // x_n's size no longer fits the bound with the edited steps: the steps' own sizes
}
Hardware Document::hardware() const {
    return *Hardware::make(m_hardwareName.toStdString(), m_levels);
}
Project Document::project() const {
    Project p{chain(), hardware(), m_settings};
    if (m_isGraph) p.graph = graph();
    return p;
}

Graph Document::graph() const {
    return *Graph::make(m_graphName.toStdString(), m_nodes, m_edges);
}

Problem Document::problem() const {
    if (m_isGraph) return graph();
    return chain();
}

int Document::nodeIndex(const QString& id) const {
    const std::string s = id.toStdString();
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i].id == s) return int(i);
    return -1;
}

QStringList Document::nodeInputs(int index) const {
    QStringList out;
    if (index < 0 || index >= int(m_nodes.size())) return out;
    for (const GraphEdge& e : m_edges)
        if (e.to == m_nodes[std::size_t(index)].id) out << QString::fromStdString(e.from);
    return out;
}

QString Document::uniqueNodeId(const QString& base) const {
    if (nodeIndex(base) < 0) return base;
    for (int k = 2;; ++k)
        if (nodeIndex(base + QString::number(k)) < 0) return base + QString::number(k);
}

void Document::setProject(const Project& p) {
    m_isGraph = p.graph.has_value();
    m_nodes = m_isGraph ? p.graph->nodes() : std::vector<GraphNode>{};
    m_edges = m_isGraph ? p.graph->edges() : std::vector<GraphEdge>{};
    m_graphName = m_isGraph ? QString::fromStdString(p.graph->name()) : QString();
    m_steps = p.chain.steps();
    m_chainName = QString::fromStdString(p.chain.name());
    m_model = p.chain.memoryModel();
    m_finalState = p.chain.finalStateBytes();
    m_levels = p.hardware.levels();
    m_hardwareName = QString::fromStdString(p.hardware.name());
    m_settings = p.settings;
    m_undo->clear();
    m_revision = newRevision();
    emit reset();
}

void Document::setGraph(const Graph& g) {
    Project p = project();
    p.graph = g;
    setProject(p);
}

void Document::setChain(const Chain& c) {
    if (c.memoryModel() != m_model || c.finalStateBytes() != m_finalState) {
        // Another memory model changes what every view shows: a new start (the steps' undo history goes too).
        Project p = project();
        p.chain = c;
        setProject(p);
        return;
    }
    m_chainName = QString::fromStdString(c.name());
    editSteps(c.steps(), tr("Open chain %1").arg(m_chainName));
}

void Document::setHardware(const Hardware& h) {
    m_hardwareName = QString::fromStdString(h.name());
    editLevels(h.levels(), tr("Use machine %1").arg(m_hardwareName));
}

QString Document::editSteps(const std::vector<Step>& steps, const QString& what) {
    auto check = Chain::make(m_chainName.toStdString(), steps);
    if (!check) return QString::fromStdString(check.error());
    if (steps == m_steps) return {};
    m_undo->push(new StepsCommand(this, m_steps, steps, what));
    return {};
}

QString Document::editLevels(const std::vector<MemoryLevel>& levels, const QString& what) {
    auto check = Hardware::make(m_hardwareName.toStdString(), levels);
    if (!check) return QString::fromStdString(check.error());
    if (levels == m_levels) return {};
    m_undo->push(new LevelsCommand(this, m_levels, levels, what));
    return {};
}

void Document::editSettings(const ProjectSettings& settings, const QString& what, const QString& mergeKey) {
    if (settings == m_settings) return;
    m_undo->push(new SettingsCommand(this, m_settings, settings, what, mergeKey));
}

void Document::applySettings(const ProjectSettings& settings) {
    m_settings = settings;
    emit settingsChanged();
}

void Document::applySteps(const std::vector<Step>& steps, quint64 revision) {
    m_steps = steps;
    m_revision = revision ? revision : newRevision();
    emit chainChanged();
}

void Document::applyLevels(const std::vector<MemoryLevel>& levels, quint64 revision) {
    m_levels = levels;
    m_revision = revision ? revision : newRevision();
    emit hardwareChanged();
}

QString Document::editGraph(const std::vector<GraphNode>& nodes, const std::vector<GraphEdge>& edges,
                            const QString& what) {
    if (!m_isGraph) return tr("No graph is open");
    auto check = Graph::make(m_graphName.toStdString(), nodes, edges);
    if (!check) return QString::fromStdString(check.error());
    if (nodes == m_nodes && edges == m_edges) return {};
    m_undo->push(new GraphCommand(this, {m_nodes, m_edges}, {nodes, edges}, what));
    return {};
}

void Document::applyGraph(const std::vector<GraphNode>& nodes, const std::vector<GraphEdge>& edges, quint64 revision) {
    m_nodes = nodes;
    m_edges = edges;
    m_revision = revision ? revision : newRevision();
    emit graphChanged();
}

QString Document::addNode(const GraphNode& node, const QStringList& inputs) {
    auto nodes = m_nodes;
    auto edges = m_edges;
    nodes.push_back(node);
    for (const QString& from : inputs)
        edges.push_back(GraphEdge{from.toStdString(), node.id});
    return editGraph(nodes, edges, tr("Add node %1").arg(QString::fromStdString(node.id)));
}

QString Document::removeNodes(const QStringList& ids) {
    if (ids.isEmpty()) return tr("Select the nodes to delete first");
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    auto gone = [&](const std::string& id) { return ids.contains(QString::fromStdString(id)); };
    for (const GraphNode& n : m_nodes)
        if (!gone(n.id)) nodes.push_back(n);
    if (nodes.size() == m_nodes.size()) return tr("No node named %1").arg(ids.join(", "));
    if (nodes.empty()) return tr("A graph needs at least one node: %1 cannot all go").arg(ids.join(", "));
    for (const GraphEdge& e : m_edges)
        if (!gone(e.from) && !gone(e.to)) edges.push_back(e);
    return editGraph(nodes, edges,
                     ids.size() == 1 ? tr("Delete node %1").arg(ids.front()) : tr("Delete %1 nodes").arg(ids.size()));
}

QString Document::connectNodes(const QString& from, const QString& to) {
    auto edges = m_edges;
    edges.push_back(GraphEdge{from.toStdString(), to.toStdString()});
    return editGraph(m_nodes, edges, tr("Connect %1 → %2").arg(from, to));
}

QString Document::disconnectNodes(const QString& from, const QString& to) {
    auto edges = m_edges;
    auto it = std::find(edges.begin(), edges.end(), GraphEdge{from.toStdString(), to.toStdString()});
    if (it == edges.end()) return tr("There is no edge %1 → %2").arg(from, to);
    edges.erase(it);
    return editGraph(m_nodes, edges, tr("Disconnect %1 → %2").arg(from, to));
}

QString Document::editNode(int index, const GraphNode& node) {
    if (index < 0 || index >= int(m_nodes.size())) return tr("No node %1").arg(index);
    auto nodes = m_nodes;
    auto edges = m_edges;
    const std::string old = nodes[std::size_t(index)].id;
    nodes[std::size_t(index)] = node;
    if (node.id != old)
        for (GraphEdge& e : edges) {
            if (e.from == old) e.from = node.id;
            if (e.to == old) e.to = node.id;
        }
    return editGraph(nodes, edges, tr("Edit node %1").arg(QString::fromStdString(node.id)));
}

QString Document::setNodeInputs(int index, const QStringList& inputs) {
    if (index < 0 || index >= int(m_nodes.size())) return tr("No node %1").arg(index);
    const std::string id = m_nodes[std::size_t(index)].id;
    std::vector<GraphEdge> edges;
    for (const GraphEdge& e : m_edges)
        if (e.to != id) edges.push_back(e);
    for (const QString& from : inputs)
        edges.push_back(GraphEdge{from.toStdString(), id});
    return editGraph(m_nodes, edges, tr("Set the inputs of %1").arg(QString::fromStdString(id)));
}
