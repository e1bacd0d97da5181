#include "autosave.h"

#include "io/json_io.h"
#include "util/files.h"

#include <QDir>
#include <QFileInfo>
#include <QLockFile>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QUuid>
#include <algorithm>

using namespace ckpt;

namespace {

const QString kSuffix = QStringLiteral(".ckpt-project.json");

QString lockPathFor(const QString& file) {
    return file.left(file.size() - kSuffix.size()) + ".lock";
}

// Only the owner's process id says whether a lock is live: a lock's age does not (a window stays open for days).
// Null when it cannot be taken; `held` then says whether a running window holds it (else the folder refused it).
std::unique_ptr<QLockFile> takeLock(const QString& file, bool* held = nullptr) {
    auto lock = std::make_unique<QLockFile>(lockPathFor(file));
    lock->setStaleLockTime(0);
    const bool ok = lock->tryLock(0);
    if (held) *held = !ok && lock->error() == QLockFile::LockFailedError;
    return ok ? std::move(lock) : nullptr;
}

// NAME-ID: the document's name, so the folder reads well, and a random id, so two windows (or two explorers) with
// the same file open never share one.
QString newFileName(const QString& originalPath) {
    QString name = originalPath.isEmpty() ? QStringLiteral("untitled") : QFileInfo(originalPath).fileName();
    name.replace(QRegularExpression("\\.ckpt-[a-z]+\\.json$|\\.json$"), QString());
    name.replace(QRegularExpression("[^A-Za-z0-9_.-]"), "_");
    return name.left(60) + "-" + QUuid::createUuid().toString(QUuid::Id128).left(12) + kSuffix;
}

} // namespace

QString AutosaveEntry::name() const {
    if (!originalPath.isEmpty()) return originalPath;
    if (!sourcePath.isEmpty()) return QObject::tr("%1 (not saved as a project)").arg(sourcePath);
    return QObject::tr("untitled");
}

Autosave::Autosave() = default;

Autosave::~Autosave() = default;

QString Autosave::directory() {
    const QByteArray env = qgetenv("CKPT_AUTOSAVE_DIR");
    if (!env.isEmpty()) return QDir::cleanPath(QString::fromLocal8Bit(env));
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/autosave";
}

QList<AutosaveEntry> Autosave::leftovers() {
    QList<AutosaveEntry> out;
    const QDir dir(directory());
    for (const QFileInfo& f : dir.entryInfoList({"*" + kSuffix}, QDir::Files, QDir::Time)) {
        AutosaveEntry e{f.absoluteFilePath(), {}, {}, f.lastModified()};
        bool held = false;
        takeLock(e.file, &held); // a lock taken here is let go at once (its destructor removes the lock file)
        if (held) continue;      // a running window writes it
        // A file that no longer reads as a project is still listed (by its time), so it can be looked at or discarded.
        if (auto doc = loadJson(e.file.toStdString()); doc && doc->is_object() && doc->contains("autosave")) {
            const auto& meta = (*doc)["autosave"];
            if (meta.is_object() && meta.contains("original_path") && meta["original_path"].is_string())
                e.originalPath = QString::fromStdString(meta["original_path"].get<std::string>());
            if (meta.is_object() && meta.contains("source_path") && meta["source_path"].is_string())
                e.sourcePath = QString::fromStdString(meta["source_path"].get<std::string>());
            if (meta.is_object() && meta.contains("saved_at") && meta["saved_at"].is_string()) {
                auto t =
                    QDateTime::fromString(QString::fromStdString(meta["saved_at"].get<std::string>()), Qt::ISODate);
                if (t.isValid()) e.savedAt = t;
            }
        }
        out.append(e);
    }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.savedAt > b.savedAt; });
    return out;
}

QString Autosave::discard(const AutosaveEntry& entry) {
    if (!entry.file.endsWith(kSuffix)) return QObject::tr("%1: not an autosave file").arg(entry.file);
    bool held = false;
    auto lock = takeLock(entry.file, &held);
    if (held) return QObject::tr("%1: a running window still writes it").arg(entry.file);
    if (QFileInfo::exists(entry.file) && !QFile::remove(entry.file))
        return QObject::tr("%1: cannot delete the autosave").arg(entry.file);
    return {};
}

QString Autosave::write(const Project& project, const QString& originalPath, const QString& sourcePath) {
    if (m_file.isEmpty()) {
        const QString dir = directory();
        if (!QDir().mkpath(dir)) return QObject::tr("%1: cannot create the autosave folder").arg(dir);
        const QString file = dir + "/" + newFileName(originalPath.isEmpty() ? sourcePath : originalPath);
        auto lock = takeLock(file);
        if (!lock) return QObject::tr("%1: cannot lock the autosave (is the folder writable?)").arg(file);
        m_file = file;
        m_lock = std::move(lock);
    }
    try {
        nlohmann::json doc = projectToJson(project);
        doc["autosave"] = {{"original_path", originalPath.toStdString()},
                           {"source_path", sourcePath.toStdString()},
                           {"saved_at", QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString()}};
        auto ok = writeTextFileAtomic(m_file.toStdString(), jsonToText(doc));
        return ok ? QString() : QString::fromStdString(ok.error());
    } catch (const std::exception& e) {
        return QObject::tr("%1: cannot autosave (%2)").arg(m_file, QString::fromLocal8Bit(e.what()));
    }
}

void Autosave::remove() {
    if (!m_file.isEmpty()) QFile::remove(m_file);
    release();
}

void Autosave::release() {
    m_lock.reset(); // unlocks: the file, if any, is now a leftover for the next start
    m_file.clear();
}

QString Autosave::adopt(const AutosaveEntry& e) {
    release();
    bool held = false;
    auto lock = takeLock(e.file, &held);
    if (held) return QObject::tr("%1: a running window still writes it").arg(e.file);
    m_file = e.file;
    m_lock = std::move(lock);
    return {};
}
