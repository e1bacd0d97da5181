#pragma once
// What Help ▸ About says: the version (CMake's project VERSION), the licence and how to cite the program.
#include <QString>

QString appVersion();
QString aboutText(); // rich text for QMessageBox::about
