#pragma once
// The open project: the problem (a chain, or a graph), the machine and the scheduler settings, with one undo stack for
// every edit. It holds one ckpt::Problem, built once per edit of the problem (a graph's segment chain included), which
// views and runs read; edits go through commands so undo restores the exact previous values.
#include "io/project_io.h"
#include "model/chain.h"
#include "model/graph.h"
#include "model/hardware.h"
#include "model/problem.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUndoStack>
#include <optional>
#include <vector>

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);

    const std::vector<ckpt::Step>& steps() const { return m_project.chain.steps(); }
    const std::vector<ckpt::MemoryLevel>& levels() const { return m_project.hardware.levels(); }
    ckpt::ProjectSettings& settings() { return m_project.settings; }
    const ckpt::ProjectSettings& settings() const { return m_project.settings; }
    const ckpt::Chain& chain() const { return m_project.chain; }          // always valid: edits are checked first
    const ckpt::Hardware& hardware() const { return m_project.hardware; } // likewise
    const ckpt::Project& project() const { return m_project; }

    // Graph mode: the problem is a DAG (opened from a graph file or a graph project) instead of the chain.
    bool isGraph() const { return m_project.graph.has_value(); }
    const std::vector<ckpt::GraphNode>& nodes() const; // empty for a chain
    const std::vector<ckpt::GraphEdge>& edges() const;
    const ckpt::Graph& graph() const { return *m_project.graph; } // graph mode only
    const ckpt::Problem& problem() const { return *m_problem; }   // the graph in graph mode, else the chain
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
    // The steps as a chain named `name`, in the document's memory model.
    ckpt::Chain chainOf(const std::string& name, const std::vector<ckpt::Step>& steps) const;
    void problemChanged(quint64 revision); // m_problem made again from m_project, at `revision` (0: a new one)

    ckpt::Project m_project;
    std::optional<ckpt::Problem> m_problem;                  // always set: m_project's graph, else its chain
    ckpt::MemoryModel m_model = ckpt::MemoryModel::Standard; // the chain's, kept across edits of its steps
    std::int64_t m_finalState = -1;
    QUndoStack* m_undo;
    quint64 m_revision = 0, m_lastRevision = 0;
};
