#include "projectfiles.h"

#include "io/project_io.h"
#include "models/document.h"
#include "recoverydialog.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QUndoStack>

using namespace ckpt;

ProjectFiles::ProjectFiles(Document* doc, QWidget* window) : QObject(window), m_doc(doc), m_window(window) {
    // Modified means "not at the saved state": undoing back to it takes the "*" away.
    connect(m_doc->undoStack(), &QUndoStack::cleanChanged, this, [this] { emit titleChanged(title()); });
}

void ProjectFiles::setRecentMenu(QMenu* menu) {
    m_recentMenu = menu;
    m_recentMenu->clear();
    const QStringList list = QSettings().value("recent").toStringList();
    for (const QString& p : list)
        m_recentMenu->addAction(p, this, [this, p] {
            if (confirmDiscard()) emit openRequested(p);
        });
    m_recentMenu->setEnabled(!list.isEmpty());
}

QString ProjectFiles::baseName() const {
    const QString named = m_path.isEmpty() ? m_sourcePath : m_path;
    return named.isEmpty() ? QString() : QFileInfo(named).completeBaseName().section('.', 0, 0);
}

void ProjectFiles::took(const QString& project, const QString& source) {
    m_path = project;
    m_sourcePath = project.isEmpty() ? source : QString();
    m_autosave.release();
    m_doc->undoStack()->setClean();
    emit titleChanged(title());
}

void ProjectFiles::addRecent(const QString& path) {
    QSettings s;
    QStringList list = s.value("recent").toStringList();
    list.removeAll(path);
    list.prepend(QFileInfo(path).absoluteFilePath());
    while (list.size() > 10)
        list.removeLast();
    s.setValue("recent", list);
    if (m_recentMenu) setRecentMenu(m_recentMenu);
}

bool ProjectFiles::isModified() const {
    return !m_doc->undoStack()->isClean();
}

QString ProjectFiles::title() const {
    const QString shown = !m_path.isEmpty() ? m_path : m_sourcePath;
    QString name = shown.isEmpty() ? tr("untitled") : QFileInfo(shown).fileName();
    return tr("%1%2 — Checkpoint Explorer").arg(name, isModified() ? "*" : "");
}

QString ProjectFiles::projectPathFor(const QString& source) {
    QString name = QFileInfo(source).fileName();
    const QString dir = source.left(source.size() - name.size());
    if (name.endsWith(".json", Qt::CaseInsensitive)) name.chop(5);
    // lstm.ckpt-chain -> lstm; a name without a ckpt kind keeps its last dotted part (model.v2 stays).
    if (const int dot = name.lastIndexOf(".ckpt-"); dot > 0) name.truncate(dot);
    return dir + (name.isEmpty() ? QStringLiteral("untitled") : name) + ".ckpt-project.json";
}

QString ProjectFiles::suggestedSavePath() const {
    if (!m_path.isEmpty()) return m_path;
    return projectPathFor(m_sourcePath.isEmpty() ? tr("untitled") : m_sourcePath);
}

bool ProjectFiles::saveTo(const QString& path) {
    if (m_beforeSave) m_beforeSave();
    auto ok = saveProject(path.toStdString(), m_doc->project());
    if (!ok) return emit failed(QString::fromStdString(ok.error())), false;
    m_path = path;
    m_sourcePath.clear();
    m_doc->undoStack()->setClean();
    m_autosave.remove(); // saved: nothing left to restore
    addRecent(path);
    emit titleChanged(title());
    emit said(tr("Saved %1").arg(path), 5000);
    return true;
}

QString ProjectFiles::askSavePath(const QString& caption) {
    return QFileDialog::getSaveFileName(m_window, caption, suggestedSavePath(), tr("Projects (*.json)"));
}

void ProjectFiles::save() {
    const QString p = m_path.isEmpty() ? askSavePath(tr("Save the project")) : m_path;
    if (!p.isEmpty()) saveTo(p);
}

void ProjectFiles::saveAs() {
    const QString p = askSavePath(tr("Save the project as"));
    if (!p.isEmpty()) saveTo(p);
}

bool ProjectFiles::confirmDiscard() {
    if (!isModified() || !m_interactive) return true;
    auto answer =
        QMessageBox::question(m_window, tr("Unsaved changes"), tr("The project has unsaved changes. Save them first?"),
                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Discard) m_autosave.remove(); // thrown away on purpose, seen
    if (answer == QMessageBox::Save) {
        const QString p = m_path.isEmpty() ? askSavePath(tr("Save the project")) : m_path;
        return !p.isEmpty() && saveTo(p);
    }
    return true;
}

void ProjectFiles::closing() {
    // Unsaved changes here were autosaved and the user did not discard them (no one was asked): they stay.
    if (!isModified()) m_autosave.remove();
}

bool ProjectFiles::autosaveNow() {
    if (!isModified()) return true;
    if (m_beforeSave) m_beforeSave();
    const QString path = m_path.isEmpty() ? QString() : QFileInfo(m_path).absoluteFilePath();
    const QString source = m_sourcePath.isEmpty() || !QFileInfo::exists(m_sourcePath)
                               ? m_sourcePath
                               : QFileInfo(m_sourcePath).absoluteFilePath();
    const QString err = m_autosave.write(m_doc->project(), path, source);
    if (!err.isEmpty()) return emit autosaveFailed(tr("Autosave failed: %1").arg(err)), false;
    emit said(tr("Autosaved to %1").arg(m_autosave.file()), 3000);
    return true;
}

bool ProjectFiles::recover(const AutosaveEntry& entry) {
    auto p = loadProject(entry.file.toStdString());
    if (!p) return emit failed(QString::fromStdString(p.error())), false;
    emit replacing();
    m_doc->setProject(*p);
    took(entry.originalPath, entry.sourcePath);
    if (QString err = m_autosave.adopt(entry); !err.isEmpty()) emit failed(err);
    // The recovered changes are not in the original file until saved, and no undo leads back to that file (the
    // stack's cleanChanged puts the "*" in the title).
    m_doc->undoStack()->resetClean();
    emit said(
        tr("Recovered %1 as autosaved at %2")
            .arg(entry.originalPath.isEmpty() && entry.sourcePath.isEmpty() ? tr("an untitled document") : entry.name(),
                 QLocale().toString(entry.savedAt.toLocalTime(), QLocale::ShortFormat)),
        8000);
    return true;
}

bool ProjectFiles::offerRecovery() {
    if (!m_interactive) return false;
    const auto entries = Autosave::leftovers();
    if (entries.isEmpty()) return false;
    RecoveryDialog dialog(entries, m_window);
    dialog.exec();
    const auto chosen = dialog.selected();
    if (dialog.choice() == RecoveryDialog::Recover && chosen.size() == 1) {
        if (!confirmDiscard()) return false;
        return recover(chosen.front());
    }
    if (dialog.choice() == RecoveryDialog::Discard)
        for (const auto& e : chosen)
            if (QString err = Autosave::discard(e); !err.isEmpty()) emit failed(err);
    return false;
}
