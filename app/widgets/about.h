#pragma once
// What Help ▸ About says: the version (CMake's project VERSION), the licence and how to cite the program.
#include <QString>
#include <QStringList>

class QWidget;

QString appVersion();
QString aboutText(); // rich text for QMessageBox::about
// What Help ▸ Keyboard shortcuts lists: every action of the window that has a shortcut, as "name<TAB>keys" (the
// name without its mnemonic), in the order the window made them; one line per action, so a key two actions claim
// shows twice.
QStringList shortcutLines(const QWidget* window);
