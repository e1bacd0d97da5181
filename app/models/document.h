#pragma once
// The open project: the chain's steps, the machine's levels and the scheduler settings, with one undo stack for
// every edit. Views read from here; edits go through commands so undo restores the exact previous values.
#include "io/project_io.h"
#include "model/chain.h"
#include "model/hardware.h"

#include <QObject>
#include <QString>
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
    QUndoStack* undoStack() const { return m_undo; }

    // Replace the whole content (open, new); clears the undo history.
    void setProject(const ckpt::Project& p);
    void setChain(const ckpt::Chain& c);       // keeps the machine and settings (undoable)
    void setHardware(const ckpt::Hardware& h); // keeps the chain and settings (undoable)

    // Undoable edits. They refuse values the engine refuses and return the reason (empty on success).
    QString editSteps(const std::vector<ckpt::Step>& steps, const QString& what);
    QString editLevels(const std::vector<ckpt::MemoryLevel>& levels, const QString& what);

    // Applied by the undo commands.
    void applySteps(const std::vector<ckpt::Step>& steps);
    void applyLevels(const std::vector<ckpt::MemoryLevel>& levels);

signals:
    void chainChanged();
    void hardwareChanged();
    void reset();

private:
    std::vector<ckpt::Step> m_steps;
    std::vector<ckpt::MemoryLevel> m_levels;
    QString m_chainName, m_hardwareName;
    ckpt::ProjectSettings m_settings;
    QUndoStack* m_undo;
};
