// Every `ckpt` command that README.md and the user guide (docs/*.md) print in a code block, or quote in the prose on a
// shipped example, runs as printed (from the source folder, with the files it writes sent to a temporary folder) and
// exits 0, so the examples cannot drift from the program. Commands of one code block share that folder: a file one
// writes is there for the next to read.
#include <QDir>
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <memory>

namespace {

struct Command {
    QString file;  // relative to the source folder: "README.md", "docs/cli.md"
    int line = 0;  // of the command's first line
    int block = 0; // the line of its code block's opening fence
    QString text;
};

// The pages whose commands run: the README and every page of the user guide.
QStringList pages() {
    QStringList out = {"README.md"};
    const QDir docs(QString(CKPT_SOURCE_DIR) + "/docs");
    for (const QString& name : docs.entryList({"*.md"}, QDir::Files, QDir::Name))
        out << "docs/" + name;
    return out;
}

// The commands of a page's fenced blocks: lines starting with "ckpt " or "$ ckpt ", continuation lines joined.
QList<Command> commandsOf(const QString& page) {
    QFile f(QString(CKPT_SOURCE_DIR) + "/" + page);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(page));
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
    QList<Command> out;
    bool inBlock = false;
    int block = 0;
    for (int i = 0; i < lines.size(); ++i) {
        QString line = lines[i].trimmed();
        if (line.startsWith("```")) {
            inBlock = !inBlock;
            block = i + 1;
            continue;
        }
        if (!inBlock) continue;
        if (line.startsWith("$ ")) line = line.mid(2);
        if (!line.startsWith("ckpt ")) continue;
        Command c{page, i + 1, block, {}};
        while (line.endsWith('\\') && i + 1 < lines.size()) {
            c.text += line.chopped(1).trimmed() + " ";
            line = lines[++i].trimmed();
        }
        c.text += line;
        out << c;
    }
    // Commands quoted in the prose (`ckpt compare examples/...`, a span may wrap), those that name a shipped file:
    // each in a folder of its own (its block is its own line, negated).
    QStringList prose = lines;
    for (int i = 0, fence = 0; i < prose.size(); ++i) {
        const bool isFence = prose[i].trimmed().startsWith("```");
        fence += isFence;
        if (isFence || fence % 2) prose[i].clear();
    }
    const QString text = prose.join('\n');
    static const QRegularExpression span("`(ckpt [^`]+)`");
    for (auto it = span.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString command = m.captured(1).simplified();
        if (!command.contains("examples/")) continue;
        const int at = int(text.left(m.capturedStart()).count('\n')) + 1;
        out << Command{page, at, -at, command};
    }
    return out;
}

QList<Command> allCommands() {
    QList<Command> out;
    for (const QString& page : pages())
        out << commandsOf(page);
    return out;
}

const QString kNoCharts = "this ckpt is built without charts";

// Why a command is not run, or empty when it is.
QString skipReason(const QString& command) {
    // The option summaries: placeholders (PROBLEM, NAME), optional parts in brackets, "..." for the rest.
    if (command.contains('[') || command.contains("...") || command.contains(QRegularExpression("\\b[A-Z]{3,}\\b")))
        return "a synopsis with placeholders, not a command";
    // Trains a real LSTM for 20 iterations over 1000 steps: minutes in a Debug build; tests/trainer covers train.
    if (command.startsWith("ckpt train ")) return "trains for minutes; tests/trainer covers ckpt train";
    // A build without the GUI (the sanitizer builds) has no charts to draw; tst_figure covers them where it has.
    if (!CKPT_CLI_HAS_CHARTS && (command.startsWith("ckpt render ") || command.startsWith("ckpt figure ")))
        return kNoCharts;
    // Measures speed: meaningful only in a release build and slow in a Debug one.
    if (command.startsWith("ckpt bench")) return "a timing benchmark for release builds";
    return {};
}

// The options whose value is a file or folder the command writes.
const QStringList kWrites = {"--out", "--csv", "--profile", "--timeline", "--data", "--frames"};

// The file names a command writes.
QSet<QString> writtenBy(const QString& command) {
    const QStringList args = QProcess::splitCommand(command);
    QSet<QString> out;
    for (int k = 0; k + 1 < args.size(); ++k)
        if (kWrites.contains(args[k])) out << QFileInfo(args[k + 1]).fileName();
    return out;
}

// The subcommands `ckpt --help` lists ("  ckpt solve PROBLEM ...").
QStringList subcommands() {
    QProcess p;
    p.start(CKPT_CLI, {"--help"});
    if (!p.waitForFinished(60000)) qFatal("ckpt --help did not finish");
    QStringList out;
    static const QRegularExpression usage("^  ckpt ([a-z]+)\\b", QRegularExpression::MultilineOption);
    for (auto it = usage.globalMatch(QString::fromUtf8(p.readAllStandardOutput())); it.hasNext();) {
        const QString name = it.next().captured(1);
        if (!out.contains(name)) out << name;
    }
    return out;
}

} // namespace

class TestReadme : public QObject {
    Q_OBJECT
    // A temporary folder per code block ("docs/cli.md:40"), and the commands already run in it.
    QHash<QString, std::shared_ptr<QTemporaryDir>> m_folders;
    QHash<QString, QSet<int>> m_ran;

    static QString blockKey(const Command& c) { return c.file + ":" + QString::number(c.block); }

    // Runs `c` in its block's folder; the failure, or empty.
    QString run(const Command& c) {
        std::shared_ptr<QTemporaryDir>& folder = m_folders[blockKey(c)];
        if (!folder) folder = std::make_shared<QTemporaryDir>();
        if (!folder->isValid()) return "cannot make a temporary folder";
        QStringList args = QProcess::splitCommand(c.text).mid(1);
        const QDir source(CKPT_SOURCE_DIR);
        for (int k = 0; k < args.size(); ++k) {
            const QString name = QFileInfo(args[k]).fileName();
            // What the command writes goes to the temporary folder, under the same file name; what an earlier
            // command of the block wrote is read from there.
            if ((k > 0 && kWrites.contains(args[k - 1])) ||
                (!name.isEmpty() && !source.exists(args[k]) && QFileInfo::exists(folder->filePath(name))))
                args[k] = folder->filePath(name);
        }
        QProcess p;
        p.setWorkingDirectory(CKPT_SOURCE_DIR);
        p.start(CKPT_CLI, args);
        if (!p.waitForFinished(120000)) return "did not finish in 120 s: " + c.text;
        const QString err = QString::fromUtf8(p.readAllStandardError());
        if (p.exitStatus() != QProcess::NormalExit) return "crashed: " + c.text + "\n" + err;
        if (p.exitCode() != 0) return QString("exit %1: %2\n%3").arg(p.exitCode()).arg(c.text, err);
        m_ran[blockKey(c)] << c.line;
        return {};
    }

private slots:
    void everyCommandIsFound() {
        QHash<QString, int> runnable, examples;
        QSet<QString> cliExamples;
        for (const Command& c : allCommands()) {
            const QString why = skipReason(c.text);
            examples[c.file] += !why.startsWith("a synopsis");
            if (!why.isEmpty() && why != kNoCharts) continue; // a build with charts runs those
            ++runnable[c.file];
            if (c.file == "docs/cli.md") cliExamples << c.text.section(' ', 1, 1);
        }
        // A page that lost its examples (or a parser that lost them) fails here.
        QVERIFY2(runnable.value("README.md") >= 4, "the README's tour: fewer than 4 runnable ckpt commands");
        for (auto it = examples.begin(); it != examples.end(); ++it)
            QVERIFY2(it.value() >= 1, qPrintable(it.key() + " quotes ckpt synopses only, no example"));
        // The command line's page runs an example of every subcommand (but those skipReason leaves out).
        const QStringList subs = subcommands();
        QVERIFY2(subs.size() >= 10, qPrintable("ckpt --help lists " + subs.join(", ")));
        for (const QString& sub : subs) {
            if (!skipReason("ckpt " + sub + " x").isEmpty()) continue;
            QVERIFY2(cliExamples.contains(sub), qPrintable("docs/cli.md runs no example of ckpt " + sub));
        }
    }

    void commandRunsAsPrinted_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        for (const Command& c : allCommands()) {
            if (!skipReason(c.text).isEmpty()) continue;
            QTest::newRow(qPrintable(QString("%1:%2").arg(c.file).arg(c.line))) << c.file << c.line;
        }
    }

    void commandRunsAsPrinted() {
        QFETCH(QString, file);
        QFETCH(int, line);
        const QList<Command> commands = commandsOf(file);
        const auto self =
            std::find_if(commands.begin(), commands.end(), [&](const Command& c) { return c.line == line; });
        QVERIFY(self != commands.end());
        // A row run alone first runs what the earlier commands of its block write, when it reads that.
        const QStringList args = QProcess::splitCommand(self->text);
        for (auto c = commands.begin(); c != self; ++c) {
            if (c->block != self->block || !skipReason(c->text).isEmpty() || m_ran[blockKey(*c)].contains(c->line))
                continue;
            const QSet<QString> wrote = writtenBy(c->text);
            if (std::any_of(args.begin(), args.end(), [&](const QString& a) {
                    return wrote.contains(QFileInfo(a).fileName()) && !QDir(CKPT_SOURCE_DIR).exists(a);
                })) {
                const QString failed = run(*c);
                QVERIFY2(failed.isEmpty(), qPrintable(failed));
            }
        }
        const QString failed = run(*self);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
    }
};

QTEST_GUILESS_MAIN(TestReadme)
#include "tst_readme.moc"
