// Every `ckpt` command the README prints in a code block runs as printed (from the source folder, with the files
// it writes sent to a temporary folder) and exits 0, so the examples cannot drift from the program.
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Command {
    int line = 0; // in README.md, of the command's first line
    QString text;
};

// The commands of README.md's fenced blocks: lines starting with "ckpt " or "$ ckpt ", continuation lines joined.
QList<Command> readmeCommands() {
    QFile f(QString(CKPT_SOURCE_DIR) + "/README.md");
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read README.md");
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
    QList<Command> out;
    bool inBlock = false;
    for (int i = 0; i < lines.size(); ++i) {
        QString line = lines[i].trimmed();
        if (line.startsWith("```")) {
            inBlock = !inBlock;
            continue;
        }
        if (!inBlock) continue;
        if (line.startsWith("$ ")) line = line.mid(2);
        if (!line.startsWith("ckpt ")) continue;
        Command c{i + 1, {}};
        while (line.endsWith('\\') && i + 1 < lines.size()) {
            c.text += line.chopped(1).trimmed() + " ";
            line = lines[++i].trimmed();
        }
        c.text += line;
        out << c;
    }
    return out;
}

// Why a command is not run, or empty when it is.
QString skipReason(const QString& command) {
    // The option summaries: placeholders (PROBLEM, NAME), optional parts in brackets, "..." for the rest.
    if (command.contains('[') || command.contains("...") || command.contains(QRegularExpression("\\b[A-Z]{3,}\\b")))
        return "a synopsis with placeholders, not a command";
    // Trains a real LSTM for 20 iterations over 1000 steps: minutes in a Debug build; tests/trainer covers train.
    if (command.startsWith("ckpt train ")) return "trains for minutes; tests/trainer covers ckpt train";
    // A build without the GUI (the sanitizer builds) has no charts to draw; tst_figure covers them where it has.
    if (!CKPT_CLI_HAS_CHARTS && (command.startsWith("ckpt render ") || command.startsWith("ckpt figure ")))
        return "this ckpt is built without charts";
    // Measures speed: meaningful only in a release build and slow in a Debug one.
    if (command.startsWith("ckpt bench")) return "a timing benchmark for release builds";
    return {};
}

} // namespace

class TestReadme : public QObject {
    Q_OBJECT
private slots:
    void everyCommandIsFound() {
        int runnable = 0;
        for (const Command& c : readmeCommands())
            runnable += skipReason(c.text).isEmpty();
        // The quick-start compare at least; a README that lost its examples (or a parser that lost them) fails here.
        QVERIFY2(runnable >= 1, "no runnable ckpt command found in README.md code blocks");
    }

    void commandRunsAsPrinted_data() {
        QTest::addColumn<QString>("command");
        for (const Command& c : readmeCommands()) {
            if (!skipReason(c.text).isEmpty()) continue;
            QTest::newRow(qPrintable(QString("README.md:%1").arg(c.line))) << c.text;
        }
    }

    void commandRunsAsPrinted() {
        QFETCH(QString, command);
        QTemporaryDir out;
        QVERIFY(out.isValid());
        QStringList args = QProcess::splitCommand(command).mid(1);
        // What the command writes goes to the temporary folder, under the same file name.
        static const QStringList writes = {"--out", "--csv", "--profile", "--timeline", "--data", "--frames"};
        for (int k = 0; k + 1 < args.size(); ++k)
            if (writes.contains(args[k])) args[k + 1] = out.filePath(QFileInfo(args[k + 1]).fileName());
        QProcess p;
        p.setWorkingDirectory(CKPT_SOURCE_DIR);
        p.start(CKPT_CLI, args);
        QVERIFY2(p.waitForFinished(120000), qPrintable(command));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit, qPrintable(command + "\n" + err));
        QVERIFY2(p.exitCode() == 0, qPrintable(QString("exit %1: %2\n%3").arg(p.exitCode()).arg(command, err)));
    }
};

QTEST_GUILESS_MAIN(TestReadme)
#include "tst_readme.moc"
