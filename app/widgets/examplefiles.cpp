#include "examplefiles.h"

#include "util/data_dirs.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <algorithm>

QString resourceRoot() {
    for (const std::filesystem::path& root : ckpt::dataRoots()) {
        const QString c = QString::fromStdString(root.string());
        if (QFileInfo::exists(c + "/resources/hardware") && QFileInfo::exists(c + "/examples"))
            return QDir(c).canonicalPath();
    }
    return {}; // nothing shipped is found: the menus of examples and presets stay empty
}

QList<ExampleFile> exampleFiles(const QString& dir) {
    QList<ExampleFile> out;
    for (const QFileInfo& f : QDir(dir).entryInfoList({"*.json"}, QDir::Files)) {
        // QFileInfo::baseName stops at the first dot, so the name is what precedes ".ckpt-KIND.json".
        QString name = f.fileName();
        name.chop(5); // .json
        QString kind;
        if (const int dot = name.lastIndexOf(".ckpt-"); dot > 0) {
            kind = name.mid(dot + 6);
            name.truncate(dot);
        }
        name.replace('&', "&&");
        out.push_back({kind.isEmpty() ? name : QObject::tr("%1 (%2)").arg(name, kind), f.absoluteFilePath()});
    }
    // The same order in every locale (a collator's depends on it and on ICU).
    std::sort(out.begin(), out.end(), [](const ExampleFile& a, const ExampleFile& b) {
        return QString::compare(a.label, b.label, Qt::CaseInsensitive) < 0;
    });
    return out;
}
