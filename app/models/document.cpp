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

namespace {
Project defaultProject() {
    return Project{*Chain::make("chain", {Step{1e-3, 2e-3, 1 << 20, 3 << 20, 0, 0}}), Hardware::unbounded(), {}};
}
} // namespace

Document::Document(QObject* parent)
    : QObject(parent), m_project(defaultProject()), m_problem(m_project.chain), m_undo(new QUndoStack(this)) {}

const std::vector<GraphNode>& Document::nodes() const {
    static const std::vector<GraphNode> none;
    return isGraph() ? m_project.graph->nodes() : none;
}
const std::vector<GraphEdge>& Document::edges() const {
    static const std::vector<GraphEdge> none;
    return isGraph() ? m_project.graph->edges() : none;
}

Chain Document::chainOf(const std::string& name, const std::vector<Step>& steps) const {
    Chain c = *Chain::make(name, steps);
    if (m_model == MemoryModel::Standard && m_finalState < 0) return c;
    if (auto m = c.withModel(m_model, m_finalState)) return *m;
    return c; // x_n's size no longer fits the bound with the edited steps: the steps' own sizes
}

void Document::problemChanged(quint64 revision) {
    if (isGraph())
        m_problem.emplace(*m_project.graph);
    else
        m_problem.emplace(m_project.chain);
    m_revision = revision ? revision : newRevision();
}

int Document::nodeIndex(const QString& id) const {
    const std::string s = id.toStdString();
    for (std::size_t i = 0; i < nodes().size(); ++i)
        if (nodes()[i].id == s) return int(i);
    return -1;
}

QStringList Document::nodeInputs(int index) const {
    QStringList out;
    if (index < 0 || index >= int(nodes().size())) return out;
    for (const GraphEdge& e : edges())
        if (e.to == nodes()[std::size_t(index)].id) out << QString::fromStdString(e.from);
    return out;
}

QString Document::uniqueNodeId(const QString& base) const {
    if (nodeIndex(base) < 0) return base;
    for (int k = 2;; ++k)
        if (nodeIndex(base + QString::number(k)) < 0) return base + QString::number(k);
}

void Document::setProject(const Project& p) {
    m_project = p;
    m_model = p.chain.memoryModel();
    m_finalState = p.chain.finalStateBytes();
    m_undo->clear();
    problemChanged(0);
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
    m_project.chain = chainOf(c.name(), steps()); // its name; the steps below are one undoable edit
    if (!isGraph()) m_problem.emplace(m_project.chain);
    editSteps(c.steps(), tr("Open chain %1").arg(QString::fromStdString(c.name())));
}

void Document::setHardware(const Hardware& h) {
    m_project.hardware = *Hardware::make(h.name(), hardware().levels()); // its name; the levels are the edit
    editLevels(h.levels(), tr("Use machine %1").arg(QString::fromStdString(h.name())));
}

QString Document::editSteps(const std::vector<Step>& steps, const QString& what) {
    auto check = Chain::make(chain().name(), steps);
    if (!check) return QString::fromStdString(check.error());
    if (steps == this->steps()) return {};
    m_undo->push(new StepsCommand(this, this->steps(), steps, what));
    return {};
}

QString Document::editLevels(const std::vector<MemoryLevel>& levels, const QString& what) {
    auto check = Hardware::make(hardware().name(), levels);
    if (!check) return QString::fromStdString(check.error());
    if (levels == this->levels()) return {};
    m_undo->push(new LevelsCommand(this, this->levels(), levels, what));
    return {};
}

void Document::editSettings(const ProjectSettings& settings, const QString& what, const QString& mergeKey) {
    if (settings == m_project.settings) return;
    m_undo->push(new SettingsCommand(this, m_project.settings, settings, what, mergeKey));
}

void Document::applySettings(const ProjectSettings& settings) {
    m_project.settings = settings;
    emit settingsChanged();
}

void Document::applySteps(const std::vector<Step>& steps, quint64 revision) {
    m_project.chain = chainOf(chain().name(), steps);
    problemChanged(revision);
    emit chainChanged();
}

void Document::applyLevels(const std::vector<MemoryLevel>& levels, quint64 revision) {
    m_project.hardware = *Hardware::make(hardware().name(), levels);
    m_revision = revision ? revision : newRevision();
    emit hardwareChanged();
}

QString Document::editGraph(const std::vector<GraphNode>& nodes, const std::vector<GraphEdge>& edges,
                            const QString& what) {
    if (!isGraph()) return tr("No graph is open");
    auto check = Graph::make(graph().name(), nodes, edges);
    if (!check) return QString::fromStdString(check.error());
    if (nodes == this->nodes() && edges == this->edges()) return {};
    m_undo->push(new GraphCommand(this, {this->nodes(), this->edges()}, {nodes, edges}, what));
    return {};
}

void Document::applyGraph(const std::vector<GraphNode>& nodes, const std::vector<GraphEdge>& edges, quint64 revision) {
    m_project.graph = *Graph::make(graph().name(), nodes, edges);
    problemChanged(revision);
    emit graphChanged();
}

QString Document::addNode(const GraphNode& node, const QStringList& inputs) {
    auto nodes = this->nodes();
    auto edges = this->edges();
    nodes.push_back(node);
    for (const QString& from : inputs)
        edges.push_back(GraphEdge{from.toStdString(), node.id});
    return editGraph(nodes, edges, tr("Add node %1").arg(QString::fromStdString(node.id)));
}

QString Document::removeNodes(const QStringList& ids) {
    if (ids.isEmpty()) return tr("Select the nodes to delete first");
    std::vector<GraphNode> kept;
    std::vector<GraphEdge> keptEdges;
    auto gone = [&](const std::string& id) { return ids.contains(QString::fromStdString(id)); };
    for (const GraphNode& n : nodes())
        if (!gone(n.id)) kept.push_back(n);
    if (kept.size() == nodes().size()) return tr("No node named %1").arg(ids.join(", "));
    if (kept.empty()) return tr("A graph needs at least one node: %1 cannot all go").arg(ids.join(", "));
    for (const GraphEdge& e : edges())
        if (!gone(e.from) && !gone(e.to)) keptEdges.push_back(e);
    return editGraph(kept, keptEdges,
                     ids.size() == 1 ? tr("Delete node %1").arg(ids.front()) : tr("Delete %1 nodes").arg(ids.size()));
}

QString Document::connectNodes(const QString& from, const QString& to) {
    auto edges = this->edges();
    edges.push_back(GraphEdge{from.toStdString(), to.toStdString()});
    return editGraph(nodes(), edges, tr("Connect %1 → %2").arg(from, to));
}

QString Document::disconnectNodes(const QString& from, const QString& to) {
    auto edges = this->edges();
    auto it = std::find(edges.begin(), edges.end(), GraphEdge{from.toStdString(), to.toStdString()});
    if (it == edges.end()) return tr("There is no edge %1 → %2").arg(from, to);
    edges.erase(it);
    return editGraph(nodes(), edges, tr("Disconnect %1 → %2").arg(from, to));
}

QString Document::editNode(int index, const GraphNode& node) {
    if (index < 0 || index >= int(nodes().size())) return tr("No node %1").arg(index);
    auto nodes = this->nodes();
    auto edges = this->edges();
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
    if (index < 0 || index >= int(nodes().size())) return tr("No node %1").arg(index);
    const std::string id = nodes()[std::size_t(index)].id;
    std::vector<GraphEdge> others;
    for (const GraphEdge& e : edges())
        if (e.to != id) others.push_back(e);
    for (const QString& from : inputs)
        others.push_back(GraphEdge{from.toStdString(), id});
    return editGraph(nodes(), others, tr("Set the inputs of %1").arg(QString::fromStdString(id)));
}
