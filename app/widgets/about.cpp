#include "about.h"

#include <QAction>
#include <QObject>
#include <QRegularExpression>
#include <QWidget>

namespace {
// The year of this version, for the citation (the repository has no CITATION.cff to take it from).
constexpr int kYear = 2026;
} // namespace

QString appVersion() {
    return QStringLiteral(CKPT_VERSION);
}

QString aboutText() {
    const QString v = appVersion();
    return QObject::tr("<b>Checkpoint Explorer</b> %1"
                       "<p>Compare how backpropagation trades memory for time: every scheduler on the same problem "
                       "and machine, judged by one simulator.</p>"
                       "<p>Licence: GNU General Public License, version 3 or any later version "
                       "(GPL-3.0-or-later). There is no warranty.</p>"
                       "<p>To cite it: Checkpoint Explorer, version %1 (%2). Computer software.</p>"
                       "<pre>@software{checkpoint_explorer,\n  title   = {Checkpoint Explorer},\n"
                       "  version = {%1},\n  year    = {%2}\n}</pre>")
        .arg(v)
        .arg(kYear);
}

QStringList shortcutLines(const QWidget* window) {
    QStringList lines;
    for (const QAction* a : window->findChildren<QAction*>())
        if (!a->shortcut().isEmpty()) {
            QString name = a->text();
            name.remove(QRegularExpression("&(?!&)")).replace("&&", "&");
            lines << name + '\t' + a->shortcut().toString(QKeySequence::NativeText);
        }
    return lines;
}
