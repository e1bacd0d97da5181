#pragma once
// Autosave files, one per open document: DIR/NAME-ID.ckpt-project.json, a project file (it opens as one) with an
// "autosave" member {"original_path", "source_path", "saved_at"}. While a window's document is open it holds
// DIR/NAME-ID.lock, so an explorer that starts lists only what no running window owns: the work of a session that ended
// without saving.
#include "io/project_io.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <memory>

class QLockFile;

struct AutosaveEntry {
    QString file;         // the autosave file
    QString originalPath; // the document's file when it was autosaved; empty for an untitled one
    QString sourcePath;   // the chain, graph or model it was opened from when it had no project file yet
    QDateTime savedAt;
    // What the recovery dialog calls it: its project file, else the file it was opened from, else "untitled".
    QString name() const;
};

class Autosave {
public:
    Autosave();
    ~Autosave(); // lets go of the file, which stays for recovery (only remove() deletes it)
    Autosave(const Autosave&) = delete;
    Autosave& operator=(const Autosave&) = delete;

    // $CKPT_AUTOSAVE_DIR when set (tests, portable use), else the application's data folder + "/autosave".
    static QString directory();
    // The autosaves no running window holds, newest first.
    static QList<AutosaveEntry> leftovers();
    static QString discard(const AutosaveEntry& entry); // deletes it; the error, or empty

    QString file() const { return m_file; } // empty until the first write
    // Writes the document (atomically); the error message, or empty. sourcePath: the file it was opened from, when
    // it has no project file (originalPath) yet.
    QString write(const ckpt::Project& project, const QString& originalPath, const QString& sourcePath = {});
    void remove();                         // the document was saved or closed on purpose
    void release();                        // another document takes the window: this one's file stays
    QString adopt(const AutosaveEntry& e); // a recovered document goes on writing (and later deleting) its file

private:
    QString m_file;
    std::unique_ptr<QLockFile> m_lock;
};
