#pragma once
// The window's document as files: the project file it was opened from or saved to, or else the chain, graph, model or
// lesson it came from (named in the title; Save proposes a project beside it, never that file); whether it has unsaved
// changes, and the question before they are discarded; Save; the recent files; the autosave, and what a start recovers
// of the autosaves a session left (models/autosave.h).
#include "models/autosave.h"

#include <QObject>
#include <QString>
#include <functional>

class Document;
class QMenu;
class QWidget;

class ProjectFiles : public QObject {
    Q_OBJECT
public:
    ProjectFiles(Document* doc, QWidget* window);

    // Without interaction (tests, --screenshot) nothing asks: confirmDiscard says yes, offerRecovery does nothing.
    void setInteractive(bool on) { m_interactive = on; }
    // Called before a save or an autosave: puts in the document what it does not hold yet (the slider's budget).
    void setBeforeSave(std::function<void()> f) { m_beforeSave = std::move(f); }
    // The File menu's Open recent: rebuilt at every addRecent; its items emit openRequested after confirmDiscard.
    void setRecentMenu(QMenu* menu);

    QString path() const { return m_path; }             // the project file, once opened or saved as one
    QString sourcePath() const { return m_sourcePath; } // the other file the document came from
    QString baseName() const;                           // of either, without folder and kinds ("lstm"); or empty
    // A new document took the window, from this project file or else this other file: the last document's autosave
    // stays if it held unsaved work, and the new one starts unmodified.
    void took(const QString& project, const QString& source);
    void addRecent(const QString& path);

    bool isModified() const; // the undo stack is not where the document was opened or last saved
    QString title() const;   // the window's: the file's name, "*" when modified
    // The project's own file, else a project named after the chain or graph file, beside it
    // (lstm.ckpt-chain.json -> lstm.ckpt-project.json).
    QString suggestedSavePath() const;
    static QString projectPathFor(const QString& source);
    bool saveTo(const QString& path);
    void save();   // to the project's own file, or where the user says
    void saveAs(); // where the user says
    // Before the document goes: unsaved changes are saved, discarded (the autosave goes too) or kept (false).
    bool confirmDiscard();
    // The window closes: the autosave goes unless it holds unsaved work no one was asked about.
    void closing();

    bool autosaveNow(); // when modified; false after autosaveFailed
    QString autosaveFile() const { return m_autosave.file(); }
    bool recover(const AutosaveEntry& entry); // opens it as its original document, unsaved
    bool offerRecovery();                     // the recovery dialog (interactive only); true if one was recovered

signals:
    void titleChanged(const QString& title);
    void openRequested(const QString& path);
    void replacing(); // recover is about to put another document in the window
    void failed(const QString& message);
    void autosaveFailed(const QString& message); // shown until the next message: unsaved work is not being kept
    void said(const QString& message, int milliseconds);

private:
    QString askSavePath(const QString& caption);
    Document* m_doc;
    QWidget* m_window;
    QMenu* m_recentMenu = nullptr;
    Autosave m_autosave;
    QString m_path, m_sourcePath;
    std::function<void()> m_beforeSave;
    bool m_interactive = true;
};
