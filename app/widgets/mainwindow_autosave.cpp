// The main window's document state: whether it is modified (the undo stack away from its clean index), the title and
// the name Save proposes; its autosave and recovery: each document autosaves to its own file (models/autosave.h), and
// a start offers what a session left unsaved.
#include "lessonmode.h"
#include "mainwindow.h"
#include "models/document.h"
#include "recoverydialog.h"
#include "schedulerpanel.h"

#include <QFileInfo>
#include <QLocale>
#include <QStatusBar>
#include <QUndoStack>

using namespace ckpt;

bool MainWindow::isModified() const {
    return !m_doc->undoStack()->isClean();
}

QString MainWindow::projectPathFor(const QString& source) {
    QString name = QFileInfo(source).fileName();
    const QString dir = source.left(source.size() - name.size());
    if (name.endsWith(".json", Qt::CaseInsensitive)) name.chop(5);
    // lstm.ckpt-chain -> lstm; a name without a ckpt kind keeps its last dotted part (model.v2 stays).
    if (const int dot = name.lastIndexOf(".ckpt-"); dot > 0) name.truncate(dot);
    return dir + (name.isEmpty() ? QStringLiteral("untitled") : name) + ".ckpt-project.json";
}

QString MainWindow::suggestedSavePath() const {
    if (!m_path.isEmpty()) return m_path;
    return projectPathFor(m_sourcePath.isEmpty() ? tr("untitled") : m_sourcePath);
}

void MainWindow::updateTitle() {
    const QString shown = !m_path.isEmpty() ? m_path : m_sourcePath;
    QString name = shown.isEmpty() ? tr("untitled") : QFileInfo(shown).fileName();
    setWindowTitle(tr("%1%2 — Checkpoint Explorer").arg(name, isModified() ? "*" : ""));
}

void MainWindow::newDocument(bool lessonScene) {
    if (!lessonScene) m_lesson->end(); // another document ends the lesson
    m_autosave.release();
    m_doc->undoStack()->setClean();
    updateTitle();
}

bool MainWindow::autosaveNow() {
    if (!isModified()) return true;
    m_doc->settings().budget_bytes = m_panel->budgetBytes();
    const QString path = m_path.isEmpty() ? QString() : QFileInfo(m_path).absoluteFilePath();
    const QString source = m_sourcePath.isEmpty() || !QFileInfo::exists(m_sourcePath)
                               ? m_sourcePath
                               : QFileInfo(m_sourcePath).absoluteFilePath();
    const QString err = m_autosave.write(m_doc->project(), path, source);
    if (!err.isEmpty()) {
        // Shown until the next message, and again at every failed attempt: unsaved work is not being kept.
        m_lastError = tr("Autosave failed: %1").arg(err);
        statusBar()->showMessage(m_lastError);
        return false;
    }
    statusBar()->showMessage(tr("Autosaved to %1").arg(m_autosave.file()), 3000);
    return true;
}

bool MainWindow::recoverAutosave(const AutosaveEntry& entry) {
    auto p = loadProject(entry.file.toStdString());
    if (!p) return report(QString::fromStdString(p.error())), false;
    m_doc->setProject(*p);
    m_path = entry.originalPath;
    m_sourcePath = entry.originalPath.isEmpty() ? entry.sourcePath : QString();
    newDocument();
    if (QString err = m_autosave.adopt(entry); !err.isEmpty()) report(err);
    // The recovered changes are not in the original file until saved, and no undo leads back to that file.
    m_doc->undoStack()->resetClean();
    updateTitle();
    statusBar()->showMessage(
        tr("Recovered %1 as autosaved at %2")
            .arg(entry.originalPath.isEmpty() && entry.sourcePath.isEmpty() ? tr("an untitled document") : entry.name(),
                 QLocale().toString(entry.savedAt.toLocalTime(), QLocale::ShortFormat)),
        8000);
    return true;
}

bool MainWindow::offerRecovery() {
    if (!m_interactive) return false;
    const auto entries = recoverableAutosaves();
    if (entries.isEmpty()) return false;
    RecoveryDialog dialog(entries, this);
    dialog.exec();
    const auto chosen = dialog.selected();
    if (dialog.choice() == RecoveryDialog::Recover && chosen.size() == 1) {
        if (!confirmDiscard()) return false;
        return recoverAutosave(chosen.front());
    }
    if (dialog.choice() == RecoveryDialog::Discard)
        for (const auto& e : chosen)
            if (QString err = Autosave::discard(e); !err.isEmpty()) report(err);
    return false;
}
