#pragma once
// The shipped examples as File ▸ New from example lists them. A chain and a graph of one model share a name
// (resnet18-b32-224.ckpt-chain.json, resnet18-b32-224.ckpt-graph.json), so each label says its kind.
#include <QList>
#include <QString>

struct ExampleFile {
    QString label; // "resnet18-b32-224 (graph)", ampersands doubled for a menu
    QString path;
};

// Every *.json in `dir`, sorted by label, case aside.
QList<ExampleFile> exampleFiles(const QString& dir);

// Where the shipped examples and presets are (util/data_dirs.h: the installed share/ckpt, or the source tree of a
// build tree), or "" when neither has them.
QString resourceRoot();
