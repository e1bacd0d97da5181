#pragma once
// Runs the built `ckpt` (CKPT_CLI, set by the test's CMake) as a user would, and keeps what it said.
#include <QByteArray>
#include <QProcess>
#include <QStringList>
#include <QtGlobal>

namespace ckpt::test {

struct Output {
    int code = -1; // -1 when it crashed
    QByteArray out, err;
};

// A hang guard, not a timing: under AddressSanitizer on a busy 2-core machine (CI runs two tests at once) the graph
// compare's MILPs take 90 s and more, so it stays just under Qt Test's own 300 s limit per test function.
inline Output ckptRun(const QStringList& args) {
    QProcess p;
    p.start(CKPT_CLI, args);
    if (!p.waitForFinished(280000)) qFatal("ckpt did not finish");
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

} // namespace ckpt::test
