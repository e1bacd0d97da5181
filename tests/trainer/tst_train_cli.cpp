// `ckpt train` as a user runs it: the JSON summary's fields and values, the profile's chain file and the timelines
// file read back, and exit codes with messages that name the bad option.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "common/ckpt_process.h"

#include <csignal>
#include <sys/types.h>
#include <utility>

using ckpt::test::ckptRun;
using ckpt::test::Output;

namespace {

const QStringList kSmall = {"train", "--cell",   "gru", "--hidden",     "8", "--batch",
                            "4",     "--length", "10",  "--iterations", "3"};

// Every file and folder under `dir`, as paths relative to it.
QStringList everythingUnder(const QString& dir) {
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        out << QDir(dir).relativeFilePath(it.next());
    return out;
}

// Starts a long run with a disk level in `scratch` and waits (a bound on the number of polls, each at most 10 ms, not
// a time limit on the run) until the level's two files are there, and with `training` until an iteration is done.
bool startTrainingOnDisk(QProcess& p, const QString& scratch, bool training, QByteArray& err) {
    p.start(CKPT_CLI,
            {"train", "--cell", "gru", "--hidden", "8", "--batch", "4", "--length", "200", "--iterations", "1000000",
             "--scheduler", "async-multistage", "--hardware", "measured", "--scratch", scratch, "--json"});
    if (!p.waitForStarted()) return false;
    bool ready = false;
    for (int k = 0; k < 6000 && !ready && p.state() == QProcess::Running; ++k) {
        p.waitForReadyRead(10);
        err += p.readAllStandardError();
        const QStringList files = everythingUnder(scratch);
        ready = files.size() == 3 && files.filter("states.bin").size() == 1 && files.filter("tapes.bin").size() == 1 &&
                (!training || err.contains("iteration 1 "));
    }
    return ready;
}

} // namespace

class TestTrainCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void summaryHasTheFields() {
        Output o =
            ckptRun(kSmall + QStringList{"--scheduler", "revolve", "--slots", "3", "--check-gradients", "--json"});
        QVERIFY2(o.code == 0, o.err.constData());
        QJsonParseError pe;
        QJsonObject j = QJsonDocument::fromJson(o.out, &pe).object();
        QVERIFY2(pe.error == QJsonParseError::NoError, o.out.constData());
        for (const char* key :
             {"loss_first", "loss_last", "seconds_per_iteration", "peak_store_bytes", "peak_store_bytes_store_all",
              "forward_steps", "predicted_makespan_s", "max_abs_grad_diff", "prediction_error", "measured_makespan_s"})
            QVERIFY2(j.contains(key), key);
        QCOMPARE(j["max_abs_grad_diff"].toDouble(), 0.0);
        QCOMPARE(j["losses"].toArray().size(), 3);
        // The counted store peaks where the simulator said, well under store-all's.
        QCOMPARE(j["peak_store_bytes"].toInteger(), j["predicted_peak_store_bytes"].toInteger());
        QVERIFY(j["peak_store_bytes"].toInteger() < j["peak_store_bytes_store_all"].toInteger());
        QVERIFY(j["forward_steps"].toInteger() > 10); // revolve recomputes
        QVERIFY(j["predicted_makespan_s"].toDouble() > 0);
        QCOMPARE(j["state_bytes"].toInteger(), qint64(8 * 4 * 4));
        QCOMPARE(j["tape_bytes"].toInteger(), qint64(6 * 8 * 4 * 4));
        // Per-iteration losses go to stderr with --json, so stdout is the summary alone.
        QVERIFY(o.err.contains("iteration 3"));
    }

    void profileAndTimelinesReadBack() {
        const QString chain = m_dir.filePath("gru.ckpt-chain.json"), tl = m_dir.filePath("run.json");
        Output o = ckptRun(kSmall + QStringList{"--scheduler", "periodic", "--profile", chain, "--timeline", tl});
        QVERIFY2(o.code == 0, o.err.constData());
        QVERIFY(o.out.contains("loss"));
        QVERIFY(o.out.contains("predicted"));
        // The profile is a chain file the rest of ckpt reads: plans made from it predict the run.
        Output s = ckptRun({"solve", chain, "--scheduler", "revolve", "--json"});
        QVERIFY2(s.code == 0, s.err.constData());
        QFile f(chain);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject c = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(c["uniform"].toObject()["state_bytes"].toInteger(), qint64(8 * 4 * 4));
        QCOMPARE(c["uniform"].toObject()["length"].toInt(), 10);
        QVERIFY(c["uniform"].toObject()["forward"].toDouble() > 0);
        QFile t(tl);
        QVERIFY(t.open(QIODevice::ReadOnly));
        QJsonObject doc = QJsonDocument::fromJson(t.readAll()).object();
        QCOMPARE(doc["format"].toString(), QString("ckpt-timelines"));
        QJsonArray measured = doc["measured"].toObject()["intervals"].toArray();
        QJsonArray predicted = doc["predicted"].toObject()["intervals"].toArray();
        QCOMPARE(measured.size(), predicted.size());
        QVERIFY(measured.size() > 20);
        QCOMPARE(measured[0].toArray()[6].toString(), predicted[0].toArray()[6].toString());
    }

    void textTaskOnTheDebianLicence() {
        if (!QFile::exists("/usr/share/common-licenses/GPL-3")) QSKIP("no GPL-3 licence text here");
        Output o = ckptRun({"train", "--task", "text", "--cell", "lstm", "--hidden", "8", "--batch", "2", "--length",
                            "16", "--iterations", "2", "--json"});
        QVERIFY2(o.code == 0, o.err.constData());
        QJsonObject j = QJsonDocument::fromJson(o.out).object();
        QVERIFY(j["input"].toInt() > 40); // one channel per distinct character
        QCOMPARE(j["task"].toString(), QString("text"));
    }

    void exitCodesAndMessages() {
        struct Bad {
            QStringList args;
            int code;
            const char* says;
        };
        const std::vector<Bad> bad = {
            {{"train", "--cell", "transformer"}, 2, "--cell"},
            {{"train", "--hidden", "0"}, 2, "--hidden"},
            {{"train", "--task", "sorting"}, 2, "unknown task 'sorting'"},
            {{"train", "--text", "/nonexistent/novel.txt"}, 2, "/nonexistent/novel.txt"},
            {{"train", "--scheduler", "magic"}, 2, "unknown scheduler 'magic'"},
            {{"train", "--length", "2"}, 2, "at least 3"},
            {{"train", "--bogus", "1"}, 2, "unknown option --bogus"},
            {kSmall + QStringList{"--scheduler", "store-all", "--budget", "1KiB"}, 1, "store-all needs at least"},
            // 64 GiB of weights alone (and as much again for Adam's moments): refused before anything is allocated.
            {{"train", "--hidden", "65536", "--batch", "16", "--length", "3", "--iterations", "1"},
             2,
             "over the limit of"},
            {kSmall + QStringList{"--memory-limit", "4KiB"}, 2, "over the limit of 4 KiB (as set)"},
            {kSmall + QStringList{"--memory-limit", "lots"}, 2, "--memory-limit"},
        };
        for (const Bad& b : bad) {
            Output o = ckptRun(b.args);
            QVERIFY2(o.code == b.code, qPrintable(b.args.join(' ') + " -> " + QString::number(o.code) + ": " + o.err));
            QVERIFY2(o.err.contains(b.says), o.err.constData());
        }
    }

    // SIGTERM, Ctrl-C, the terminal closing (SIGHUP) or Ctrl-\ (SIGQUIT) while training: the run stops at its next
    // action, removes its scratch files and exits with 128 + the signal. Once while the disk level's file is there
    // (profiling or training), once mid-training. SIGHUP and SIGQUIT used to leave the files behind.
    void signalRemovesTheScratchFiles_data() {
        QTest::addColumn<int>("sig");
        QTest::addColumn<bool>("training");
        QTest::addColumn<QString>("name");
        for (auto [sig, name] : {std::pair{SIGTERM, "SIGTERM"}, std::pair{SIGINT, "SIGINT"},
                                 std::pair{SIGHUP, "SIGHUP"}, std::pair{SIGQUIT, "SIGQUIT"}}) {
            QTest::newRow(name) << int(sig) << false << QString(name);
            QTest::newRow(qPrintable(QString(name) + " while training")) << int(sig) << true << QString(name);
        }
    }
    void signalRemovesTheScratchFiles() {
        QFETCH(int, sig);
        QFETCH(bool, training);
        QFETCH(QString, name);
        QTemporaryDir scratch;
        QProcess p;
        // A background job of a script starts with SIGQUIT (and SIGINT) ignored, and so would ckpt: not here.
        p.setChildProcessModifier([] {
            for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
                ::signal(s, SIG_DFL);
        });
        QByteArray err;
        QVERIFY2(startTrainingOnDisk(p, scratch.path(), training, err), err.constData());
        QCOMPARE(::kill(pid_t(p.processId()), sig), 0);
        QVERIFY(p.waitForFinished(120000));
        err += p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 128 + sig);
        QVERIFY2(err.contains("stopped by " + name.toUtf8()), err.constData());
        QCOMPARE(everythingUnder(scratch.path()), QStringList());
    }

    // Under nohup (SIGHUP ignored when ckpt starts) the terminal closing does not stop the run: two more iterations
    // follow the SIGHUP (a caught one would stop it within one), and SIGTERM still removes the files.
    void ignoredHangupKeepsTraining() {
        QTemporaryDir scratch;
        QProcess p;
        p.setChildProcessModifier([] {
            ::signal(SIGHUP, SIG_IGN);
            ::signal(SIGTERM, SIG_DFL);
        });
        QByteArray err;
        QVERIFY2(startTrainingOnDisk(p, scratch.path(), true, err), err.constData());
        QCOMPARE(::kill(pid_t(p.processId()), SIGHUP), 0);
        QByteArray after;
        for (int k = 0; k < 6000 && after.count("\niteration ") < 2 && p.state() == QProcess::Running; ++k) {
            p.waitForReadyRead(10);
            after += p.readAllStandardError();
        }
        QVERIFY2(after.count("\niteration ") >= 2 && p.state() == QProcess::Running, (err + after).constData());
        QCOMPARE(::kill(pid_t(p.processId()), SIGTERM), 0);
        QVERIFY(p.waitForFinished(120000));
        after += p.readAllStandardError();
        QCOMPARE(p.exitCode(), 128 + SIGTERM);
        QVERIFY2(after.contains("stopped by SIGTERM"), after.constData());
        QCOMPARE(everythingUnder(scratch.path()), QStringList());
    }

    // A large network's profile (32 steps, 5 times over) takes a while: the network's line comes first, so the user
    // sees what runs, and Ctrl+C during the profile stops it. (The line used to come after the profile.)
    void theNetworkIsNamedBeforeTheProfile() {
        QProcess p;
        p.start(CKPT_CLI, {"train", "--hidden", "1024", "--batch", "64", "--length", "2000", "--iterations", "1"});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        for (int k = 0; k < 6000 && !out.contains('\n') && p.state() == QProcess::Running; ++k) {
            p.waitForReadyRead(10);
            out += p.readAllStandardOutput();
        }
        QVERIFY2(out.startsWith("lstm H=1024 B=64 I=10 fp32 (copy), 2000 steps: copy-memory"), out.constData());
        QVERIFY2(!out.contains("profile:"), out.constData()); // the profile has not finished
        QCOMPARE(::kill(pid_t(p.processId()), SIGINT), 0);
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 128 + SIGINT);
    }
};

QTEST_GUILESS_MAIN(TestTrainCli)
#include "tst_train_cli.moc"
