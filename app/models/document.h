#pragma once
// The open project: the problem (a chain's steps, or a graph's nodes and edges), the machine's levels and the
// scheduler settings, with one undo stack for every edit. Views read from here; edits go through commands so undo
// restores the exact previous values.
#include "io/project_io.h"
#include "model/chain.h"
#include "model/graph.h"
#include "model/hardware.h"
#include "model/problem.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUndoStack>
#include <vector>

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);

    const std::vector<ckpt::Step>& steps() const { return m_steps; }
    const std::vector<ckpt::MemoryLevel>& levels() const { return m_levels; }
    const QString& chainName() const { return m_chainName; }
    const QString& hardwareName() const { return m_hardwareName; }
    ckpt::ProjectSettings& settings() { return m_settings; }
    const ckpt::ProjectSettings& settings() const { return m_settings; }
    ckpt::Chain chain() const;       // always valid: edits are checked before they land
    ckpt::Hardware hardware() const; // likewise
    ckpt::Project project() const;

    // Graph mode: the problem is a DAG (opened from a graph file or a graph project) instead of the chain.
    bool isGraph() const { return m_isGraph; }
    const std::vector<ckpt::GraphNode>& nodes() const { return m_nodes; }
    const std::vector<ckpt::GraphEdge>& edges() const { return m_edges; }
    ckpt::Graph graph() const;     // valid in graph mode (edits are checked by Graph::make before they land)
    ckpt::Problem problem() const; // the graph in graph mode, else the chain
    int nodeIndex(const QString& id) const;
    QStringList nodeInputs(int index) const;         // ids of the nodes whose outputs node `index` consumes
    QString uniqueNodeId(const QString& base) const; // base, base2, base3, ... the first id not taken
    QUndoStack* undoStack() const { return m_undo; }
    // Names the problem and the machine as they are: every edit and every new project makes a new revision; undo and
    // redo give back the revision those inputs had, so a result made at another revision was made from other inputs.
    quint64 revision() const { return m_revision; }
    quint64 newRevision() { return ++m_lastRevision; } // never given before

    // Replace the whole content (open, new); clears the undo history.
    void setProject(const ckpt::Project& p);
    void setChain(const ckpt::Chain& c);       // keeps the machine and settings (undoable)
    void setHardware(const ckpt::Hardware& h); // keeps the chain and settings (undoable)
    void setGraph(const ckpt::Graph& g);       // graph mode, keeps the machine and settings; clears the undo history

    // Undoable edits. They refuse values the engine refuses and return the reason (empty on success).
    QString editSteps(const std::vector<ckpt::Step>& steps, const QString& what);
    QString editLevels(const std::vector<ckpt::MemoryLevel>& levels, const QString& what);
    // Graph edits: each is one undo step; Graph::make's message when it refuses (a cycle names a node on it).
    QString editGraph(const std::vector<ckpt::GraphNode>& nodes, const std::vector<ckpt::GraphEdge>& edges,
                      const QString& what);
    QString addNode(const ckpt::GraphNode& node, const QStringList& inputs = {});
    QString removeNodes(const QStringList& ids); // with every edge that touches them
    QString connectNodes(const QString& from, const QString& to);
    QString disconnectNodes(const QString& from, const QString& to);
    QString editNode(int index, const ckpt::GraphNode& node); // a new id renames the node in its edges too
    QString setNodeInputs(int index, const QStringList& inputs);

    // The scheduler settings (scheduler, parameters, budget, budgets compared, ticked schedulers): one undo step per
    // change. Consecutive changes with the same non-empty mergeKey (a slider drag, typing in one parameter) merge
    // into one step; the key names the gesture, so a new drag starts a new step.
    void editSettings(const ckpt::ProjectSettings& settings, const QString& what, const QString& mergeKey = {});

    // Applied by the undo commands, at `revision` (0: a new one).
    void applySettings(const ckpt::ProjectSettings& settings);
    void applySteps(const std::vector<ckpt::Step>& steps, quint64 revision = 0);
    void applyLevels(const std::vector<ckpt::MemoryLevel>& levels, quint64 revision = 0);
    void applyGraph(const std::vector<ckpt::GraphNode>& nodes, const std::vector<ckpt::GraphEdge>& edges,
                    quint64 revision = 0);

signals:
    void chainChanged();
    void hardwareChanged();
    void graphChanged();
    void settingsChanged(); // by an edit, an undo or a redo (not by reset)
    void reset();

private:
    std::vector<ckpt::Step> m_steps;
    ckpt::MemoryModel m_model = ckpt::MemoryModel::Standard; // the chain's, kept across edits of its steps
    std::int64_t m_finalState = -1;
    std::vector<ckpt::MemoryLevel> m_levels;
    QString m_chainName, m_hardwareName, m_graphName;
    bool m_isGraph = false;
    std::vector<ckpt::GraphNode> m_nodes;
    std::vector<ckpt::GraphEdge> m_edges;
    ckpt::ProjectSettings m_settings;
    QUndoStack* m_undo;
    quint64 m_revision = 0, m_lastRevision = 0;
};
