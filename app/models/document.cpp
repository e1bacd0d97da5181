#include "document.h"

#include <QUndoCommand>

using namespace ckpt;

namespace {

class StepsCommand : public QUndoCommand {
public:
    StepsCommand(Document* d, std::vector<Step> before, std::vector<Step> after, const QString& text)
        : QUndoCommand(text), m_doc(d), m_before(std::move(before)), m_after(std::move(after)) {}
    void undo() override { m_doc->applySteps(m_before); }
    void redo() override { m_doc->applySteps(m_after); }

private:
    Document* m_doc;
    std::vector<Step> m_before, m_after;
};

class LevelsCommand : public QUndoCommand {
public:
    LevelsCommand(Document* d, std::vector<MemoryLevel> before, std::vector<MemoryLevel> after, const QString& text)
        : QUndoCommand(text), m_doc(d), m_before(std::move(before)), m_after(std::move(after)) {}
    void undo() override { m_doc->applyLevels(m_before); }
    void redo() override { m_doc->applyLevels(m_after); }

private:
    Document* m_doc;
    std::vector<MemoryLevel> m_before, m_after;
};

} // namespace

Document::Document(QObject* parent) : QObject(parent), m_undo(new QUndoStack(this)) {
    m_steps = {Step{1e-3, 2e-3, 1 << 20, 3 << 20, 0, 0}};
    m_levels = Hardware::unbounded().levels();
    m_chainName = "chain";
    m_hardwareName = "unbounded";
}

Chain Document::chain() const {
    return *Chain::make(m_chainName.toStdString(), m_steps);
}
Hardware Document::hardware() const {
    return *Hardware::make(m_hardwareName.toStdString(), m_levels);
}
Project Document::project() const {
    return Project{chain(), hardware(), m_settings};
}

void Document::setProject(const Project& p) {
    m_steps = p.chain.steps();
    m_chainName = QString::fromStdString(p.chain.name());
    m_levels = p.hardware.levels();
    m_hardwareName = QString::fromStdString(p.hardware.name());
    m_settings = p.settings;
    m_undo->clear();
    emit reset();
}

void Document::setChain(const Chain& c) {
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

void Document::applySteps(const std::vector<Step>& steps) {
    m_steps = steps;
    emit chainChanged();
}

void Document::applyLevels(const std::vector<MemoryLevel>& levels) {
    m_levels = levels;
    emit hardwareChanged();
}
