// The `ckpt` command as a user runs it: exit codes, messages that name the place, and outputs that read back.
#include "schedulers/revolve.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <thread>

#include "common/ckpt_process.h"

using ckpt::test::ckptRun;
using ckpt::test::Output;

namespace {

QString example(const char* name) {
    return QString(CKPT_SOURCE_DIR) + "/examples/" + name;
}
QString hardware(const char* name) {
    return QString(CKPT_SOURCE_DIR) + "/resources/hardware/" + name;
}

void writeFile(const QString& path, const QByteArray& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString path(const char* name) { return m_dir.filePath(name); }

private slots:
    void malformedFileNamesLineAndColumn() {
        writeFile(path("bad.json"),
                  "{\n  \"format\": \"ckpt-chain\",\n  \"version\": 1,\n  \"steps\": [ {\"forward\": 1,, } ]\n}\n");
        Output o = ckptRun({"solve", path("bad.json"), "--scheduler", "revolve"});
        QCOMPARE(o.code, 2);
        QVERIFY2(o.err.contains("bad.json:4:"), o.err.constData());
    }

    void badFieldNamesItsPath() {
        writeFile(path("neg.json"), R"({"format":"ckpt-chain","version":1,"name":"n","steps":[
            {"forward":1,"backward":2,"state_bytes":10,"tape_bytes":20},
            {"forward":-1,"backward":2,"state_bytes":10,"tape_bytes":20}]})");
        Output o = ckptRun({"solve", path("neg.json"), "--scheduler", "store-all"});
        QCOMPARE(o.code, 2);
        QVERIFY2(o.err.contains("neg.json") && o.err.contains("steps[1].forward"), o.err.constData());
    }

    void badHardwareAndMissingFile() {
        writeFile(path("hw.json"),
                  R"({"format":"ckpt-hardware","version":1,"name":"h","levels":[{"name":"a","capacity_bytes":0}]})");
        Output o = ckptRun({"solve", example("small-hetero-12.ckpt-chain.json"), "--hardware", path("hw.json"),
                            "--scheduler", "store-all"});
        QCOMPARE(o.code, 2);
        QVERIFY2(o.err.contains("hw.json") && o.err.contains("capacity"), o.err.constData());
        Output m = ckptRun({"solve", path("nope.json"), "--scheduler", "store-all"});
        QCOMPARE(m.code, 2);
        QVERIFY2(m.err.contains("nope.json"), m.err.constData());
    }

    // ckpt explain: a header, then per action its index and sentence and a "held:" line; the count matches the
    // plan's actions (as ckpt solve --json reports them); a graph that is not a chain and a bad range are refused.
    // ckpt layout: a plan's tensors at addresses; the JSON's blocks never overlap while they live together, the
    // packed peak is the highest block's top and at least the ideal peak, which is the solve's peak.
    void pipelineCutsAChainOverDevices() {
        // A uniform chain over 4 devices with free links: equal stages, and the bubble is (K-1)/(M+K-1) = 3/11.
        Output o = ckptRun({"pipeline", example("lstm-h512-b32-fp32-1000.ckpt-chain.json"), "--stages", "4",
                            "--micro-batches", "8", "--json"});
        QCOMPARE(o.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(o.out).object();
        QCOMPARE(j["scheduler"].toString(), QString("gpipe"));
        QVERIFY(std::abs(j["bubble"].toDouble() - 3.0 / 11) < 1e-9);
        QCOMPARE(j["ideal_bubble"].toDouble(), 3.0 / 11);
        const QJsonArray devices = j["devices"].toArray();
        QCOMPARE(devices.size(), 4);
        for (int k = 0; k < 4; ++k) {
            const QJsonObject d = devices[k].toObject();
            QCOMPARE(d["last_step"].toInt() - d["first_step"].toInt() + 1, 250);
            QVERIFY(d["peak_bytes"].toDouble() <= d["bound_bytes"].toDouble());
        }
        // Every step forward twice per micro-batch (the re-run), and the link moved 3 boundaries x 8 micro-batches.
        QCOMPARE(j["recomputed_steps"].toInt(), 8000);
        QCOMPARE(j["bytes_sent"].toDouble(), 3.0 * 8 * (131072 / 8));
        // The text, a trace, and the errors: a device too small (exit 1), a bad number or a graph (exit 2).
        const QString trace = m_dir.filePath("pipe.trace.json");
        Output text = ckptRun({"pipeline", example("vgg16-b32-224.ckpt-chain.json"), "--stages", "3", "--micro-batches",
                               "4", "--link-bandwidth", "16GB/s", "--out", trace});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("bubble") && text.out.contains("device 2"), text.out.constData());
        QVERIFY(QJsonDocument::fromJson(readFile(trace)).object()["traceEvents"].toArray().size() > 20);
        Output small = ckptRun({"pipeline", example("vgg16-b32-224.ckpt-chain.json"), "--stages", "4",
                                "--micro-batches", "8", "--device-memory", "64MiB"});
        QCOMPARE(small.code, 1);
        QVERIFY2(small.err.contains("leanest cut needs"), small.err.constData());
        // One stage re-runs its forward per micro-batch: slower than one device's store-all, and said so.
        Output one = ckptRun({"pipeline", example("vgg16-b32-224.ckpt-chain.json"), "--stages", "1"});
        QCOMPARE(one.code, 0);
        QVERIFY2(one.out.contains("x slower)") && !one.out.contains("faster"), one.out.constData());
        QCOMPARE(ckptRun({"pipeline", example("vgg16-b32-224.ckpt-chain.json"), "--stages", "zero"}).code, 2);
        QCOMPARE(ckptRun({"pipeline", example("vgg16-b32-224.ckpt-chain.json"), "--stages", "99"}).code, 2);
        // A latency past the bound of every time is named as such (it said "must be >= 0").
        Output latency =
            ckptRun({"pipeline", example("vgg16-b32-224.ckpt-chain.json"), "--stages", "2", "--link-latency", "1e300"});
        QCOMPARE(latency.code, 2);
        QVERIFY2(latency.err.contains("link latency must be at most 1e9 s"), latency.err.constData());
        Output graph = ckptRun({"pipeline", example("unet-small-b8-128.ckpt-graph.json")});
        QCOMPARE(graph.code, 2);
        QVERIFY2(graph.err.contains("not a chain"), graph.err.constData());
        // ckpt list names it.
        Output list = ckptRun({"list"});
        QVERIFY(list.out.contains("gpipe"));
        // The frameworks' policies, each with its source.
        for (const char* line :
             {"full-ac", "selective-ac", "memory-budget", "min-cut", "jax-policy", "deepspeed-offload"}) {
            const QByteArray row = list.out.mid(list.out.indexOf(QByteArray("\n") + line + " "));
            const QByteArray first = row.mid(1, row.indexOf('\n', 1));
            QVERIFY2(first.contains("Korthikanti") || first.contains("PyTorch") || first.contains("JAX") ||
                         first.contains("DeepSpeed"),
                     first.constData());
        }
    }

    void layoutPacksAGraphPlan() {
        Output o = ckptRun(
            {"layout", example("resnet18-b32-224.ckpt-graph.json"), "--scheduler", "dtr", "--budget", "50%", "--json"});
        QVERIFY2(o.code == 0, o.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(o.out).object();
        const QJsonArray blocks = j["blocks"].toArray();
        QVERIFY(blocks.size() > 69);
        for (const auto& b : blocks)
            QVERIFY(!b.toObject()["node"].toString().isEmpty());
        Output solve = ckptRun(
            {"solve", example("resnet18-b32-224.ckpt-graph.json"), "--scheduler", "dtr", "--budget", "50%", "--json"});
        QCOMPARE(j["ideal_peak_bytes"].toDouble(),
                 QJsonDocument::fromJson(solve.out).object()["peak_bytes"].toArray()[0].toDouble());
    }

    void layoutPacksThePlansTensors() {
        Output o = ckptRun({"layout", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "rotor", "--budget",
                            "50%", "--json"});
        QCOMPARE(o.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(o.out).object();
        const QJsonArray blocks = j["blocks"].toArray();
        QVERIFY(blocks.size() > 10);
        QCOMPARE(j["tensors"].toInt(), blocks.size());
        double top = 0;
        for (int a = 0; a < blocks.size(); ++a) {
            const QJsonObject p = blocks[a].toObject();
            top = std::max(top, p["offset_bytes"].toDouble() + p["bytes"].toDouble());
            for (int b = a + 1; b < blocks.size(); ++b) {
                const QJsonObject q = blocks[b].toObject();
                const bool together =
                    p["start_s"].toDouble() < q["end_s"].toDouble() && q["start_s"].toDouble() < p["end_s"].toDouble();
                const bool overlap =
                    p["offset_bytes"].toDouble() < q["offset_bytes"].toDouble() + q["bytes"].toDouble() &&
                    q["offset_bytes"].toDouble() < p["offset_bytes"].toDouble() + p["bytes"].toDouble();
                QVERIFY2(!(together && overlap), qPrintable(QString("blocks %1 and %2").arg(a).arg(b)));
            }
        }
        QCOMPARE(j["packed_peak_bytes"].toDouble(), top);
        QVERIFY(j["packed_peak_bytes"].toDouble() >= j["ideal_peak_bytes"].toDouble());
        Output solve = ckptRun(
            {"solve", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "rotor", "--budget", "50%", "--json"});
        QCOMPARE(solve.code, 0);
        const QJsonObject sj = QJsonDocument::fromJson(solve.out).object();
        QCOMPARE(j["ideal_peak_bytes"].toDouble(), sj["peak_bytes"].toArray()[0].toDouble());
        Output text =
            ckptRun({"layout", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "rotor", "--budget", "50%"});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("fragmentation"), text.out);
        // A graph's plan is laid out too (layoutPacksAGraphPlan); a budget below what fits is refused.
        Output graph = ckptRun({"layout", example("unet-small-b8-128.ckpt-graph.json"), "--scheduler", "dtr"});
        QCOMPARE(graph.code, 0);
        Output tight = ckptRun(
            {"layout", example("unet-small-b8-128.ckpt-graph.json"), "--scheduler", "store-all", "--budget", "1MiB"});
        QCOMPARE(tight.code, 1);
        QVERIFY2(tight.err.contains("needs at least"), tight.err);
    }

    void explainPrintsAHandout() {
        Output o =
            ckptRun({"explain", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "revolve", "--slots", "3"});
        QCOMPARE(o.code, 0);
        Output j = ckptRun(
            {"solve", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "revolve", "--slots", "3", "--json"});
        QCOMPARE(j.code, 0);
        const int actions = QJsonDocument::fromJson(j.out).object()["actions"].toInt();
        QVERIFY(actions > 12);
        const QStringList lines = QString::fromUtf8(o.out).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 2 * actions);
        QVERIFY(lines[0].contains("revolve") && lines[0].contains("makespan"));
        QVERIFY2(lines[1].trimmed().startsWith("0  Forward step 1"), qPrintable(lines[1]));
        QVERIFY(lines[2].contains("held: L0: x0"));
        QVERIFY(lines.last().contains("grad x0"));
        Output part = ckptRun({"explain", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "revolve",
                               "--slots", "3", "--from", "5", "--to", "6"});
        QCOMPARE(QString::fromUtf8(part.out).split('\n', Qt::SkipEmptyParts).size(), 1 + 2 * 2);
        QCOMPARE(ckptRun({"explain", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "revolve", "--from",
                          "100000"})
                     .code,
                 2);
        Output g = ckptRun({"explain", example("unet-small-b8-128.ckpt-graph.json"), "--scheduler", "store-all"});
        QCOMPARE(g.code, 2);
        QVERIFY(g.err.contains("narrates chain plans"));
    }

    // `ckpt SUB --help` for every subcommand of the overview: its usage lines, then the options its parser takes (from
    // the same table), and the two name the same options; `ckpt help SUB` says the same. `ckpt solve --help` used to
    // answer "unknown option --help", and the overview lacked simulate's --budget, render's --schedulers and
    // --budgets, and import's --allow-unsized.
    void everySubcommandHasHelp() {
        const Output overview = ckptRun({"--help"});
        QCOMPARE(overview.code, 0);
        QStringList commands;
        const QRegularExpression usageLine("^  ckpt ([a-z]+)", QRegularExpression::MultilineOption);
        for (auto it = usageLine.globalMatch(QString::fromUtf8(overview.out)); it.hasNext();)
            if (const QString c = it.next().captured(1); !commands.contains(c)) commands << c;
        QVERIFY2(commands.size() >= 15, qPrintable(commands.join(' ')));
        const QRegularExpression option("--([a-z][a-z-]*)");
        auto named = [&](const QString& text) {
            QSet<QString> names;
            for (auto it = option.globalMatch(text); it.hasNext();)
                names << it.next().captured(1);
            return names;
        };
        for (const QString& c : commands) {
            const Output help = ckptRun({c, "--help"});
            QVERIFY2(help.code == 0, qPrintable(c + ": " + help.err));
            const QString text = QString::fromUtf8(help.out);
            QVERIFY2(text.startsWith("usage:\n  ckpt " + c), qPrintable(text));
            const int split = text.indexOf("\noptions:");
            QVERIFY2(split > 0, qPrintable(text));
            const QString usage = text.left(split), options = text.mid(split).section("\n\n", 0, 0);
            QCOMPARE(named(usage), named(options));
            QCOMPARE(ckptRun({"help", c}).out, help.out);
        }
#ifdef CKPT_MAN_PAGE
        // ckpt(1), written at build time from the same table (cli/man/ckpt_man.cpp), names each of them with the
        // options its --help gives.
        QFile man(CKPT_MAN_PAGE);
        QVERIFY2(man.open(QIODevice::ReadOnly), CKPT_MAN_PAGE);
        const QString page = QString::fromUtf8(man.readAll());
        QVERIFY2(page.contains(".TH CKPT 1 "), qPrintable(page.left(300)));
        for (const QString& c : commands) {
            const int entry = page.indexOf(".B ckpt " + c + "\n");
            QVERIFY2(entry > 0, qPrintable("ckpt(1) has no entry for ckpt " + c));
            const QString line = page.mid(entry).section('\n', 1, 1); // the options, after ".B ckpt c"
            const QString text = QString::fromUtf8(ckptRun({c, "--help"}).out);
            for (const QString& o : named(text.mid(text.indexOf("\noptions:")).section("\n\n", 0, 0))) {
                const QString r = "\\-\\-" + QString(o).replace('-', "\\-"); // as roff has it
                QVERIFY2(line.contains(r + ",") || line.contains(r + " ") || line.endsWith(r),
                         qPrintable("ckpt(1) on ckpt " + c + " lacks --" + o + ": " + line));
            }
        }
#endif
        // -h anywhere among the arguments, before anything is read.
        QCOMPARE(ckptRun({"solve", "no-such-file.json", "-h"}).code, 0);
        const Output version = ckptRun({"--version"});
        QVERIFY2(version.code == 0 && version.out.startsWith("ckpt "), version.out.constData());
    }

    // resources/completion/ckpt in bash: subcommands, a subcommand's options (from its --help), scheduler names (from
    // ckpt list, the next of a comma list too), hardware presets (the files of resources/hardware) and files by kind.
    void bashCompletesSubcommandsOptionsAndNames() {
        if (QStandardPaths::findExecutable("bash").isEmpty()) QSKIP("no bash here");
        auto complete = [](const QStringList& words) {
            QStringList quoted;
            for (const QString& w : words)
                quoted << "'" + w + "'";
            QProcess bash;
            bash.setWorkingDirectory(CKPT_SOURCE_DIR);
            bash.start("bash", {"-c", QString("source resources/completion/ckpt; COMP_WORDS=('%1' %2); "
                                              "COMP_CWORD=%3; _ckpt; printf '%s\\n' \"${COMPREPLY[@]}\"")
                                          .arg(CKPT_CLI, quoted.join(' '))
                                          .arg(words.size())});
            bash.waitForFinished(60000);
            QStringList out = QString::fromUtf8(bash.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
            out.sort();
            return out;
        };
        QCOMPARE(complete({"si"}), QStringList({"simulate"}));
        QCOMPARE(complete({"solve", "x.json", "--sch"}), QStringList({"--scheduler"}));
        QCOMPARE(complete({"solve", "x.json", "--scheduler", "rev"}), QStringList({"reversible", "revolve"}));
        QCOMPARE(complete({"compare", "x.json", "--schedulers", "revolve,ro"}), QStringList({"revolve,rotor"}));
        QCOMPARE(complete({"import", "examples/onnx/resnet"}),
                 QStringList({"examples/onnx/resnet18.onnx", "examples/onnx/resnet50.onnx"}));
        QStringList presets;
        for (const QString& f :
             QDir(QString(CKPT_SOURCE_DIR) + "/resources/hardware").entryList({"*.ckpt-hardware.json"}))
            presets << f.section('.', 0, 0);
        presets.sort();
        QStringList offered = complete({"solve", "x.json", "--hardware", ""});
        offered.removeIf([](const QString& w) { return w.endsWith(".json"); });
        QCOMPARE(offered, presets);
    }

    void badArguments() {
        QCOMPARE(ckptRun({"solve", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "nonsense"}).code, 2);
        QCOMPARE(ckptRun({"solve", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "revolve", "--budget",
                          "-5MiB"})
                     .code,
                 2);
        QCOMPARE(ckptRun({"solve", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "revolve", "--param",
                          "slots=abc"})
                     .code,
                 2);
        QCOMPARE(ckptRun({"frobnicate"}).code, 2);
        // A range is written in plain numbers, not "1e+09".
        Output range = ckptRun(
            {"solve", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "revolve", "--param", "slots=-1"});
        QCOMPARE(range.code, 2);
        QVERIFY2(range.err.contains("must be between 0 and 1000000000, got -1"), range.err.constData());
        for (const char* bad : {"-1", "0"}) {
            Output lr = ckptRun({"train", "--lr", bad});
            QCOMPARE(lr.code, 2);
            QVERIFY2(lr.err.contains("--lr: expected a number > 0, got '" + QByteArray(bad) + "'"), lr.err.constData());
        }
        // Every number and name an option takes is checked before any work starts.
        const QString chain = example("small-hetero-12.ckpt-chain.json");
        const QList<QPair<QStringList, QByteArray>> refused = {
            {{"compare", chain, "--param", "nope.slots=3"}, "--param nope.slots=3: unknown scheduler 'nope'"},
            {{"bench", "--repeat", "abc"}, "--repeat: expected a whole number from 1 to 1000, got 'abc'"},
            {{"bench", "--steps", "0"}, "--steps: expected a whole number >= 1, got '0'"},
            {{"bench", "--rotor-steps", "-1"}, "--rotor-steps: expected a whole number >= 0, got '-1'"},
            {{"bench", "--graphs", "--reduction", "nope"}, "--reduction: unknown graph scheduler 'nope'"},
            {{"bench", "--graphs", "--schedulers", "nope"}, "--schedulers: unknown graph scheduler 'nope'"},
            {{"bench", "--graphs", "--param", "nope.x=1"}, "--param: unknown graph scheduler 'nope'"},
            {{"bench", "--graphs", "--reduction-max-nodes", "-1"}, "--reduction-max-nodes: expected a whole number"},
            {{"bench", "--onnx", "x.onnx", "--repeat", "0"}, "--repeat: expected a whole number from 1 to 1000"},
            {{"generate", "--seed", "abc", "--out", "g.json"}, "--seed: expected a whole number from 0 to"},
            {{"generate", "--seed", "-1", "--out", "g.json"}, "--seed: expected a whole number from 0 to"},
            {{"generate", "--width", "0", "--out", "g.json"}, "--width: expected a whole number from 1 to 1000000"},
            {{"generate", "--kind", "transformer", "--dtype", "int8", "--out", "g.json"},
             "--dtype: expected bf16, fp16 or fp32, got 'int8'"},
            {{"generate", "--kind", "transformer", "--hidden", "100", "--heads", "16", "--out", "g.json"},
             "transformer: the hidden size 100 is not a multiple of the 16 heads"},
            {{"explain", chain, "--scheduler", "revolve", "--slots", "3", "--from", "5", "--to", "2"},
             "--from 5 comes after --to 2"},
        };
        for (const auto& [arguments, message] : refused) {
            Output o = ckptRun(arguments);
            QVERIFY2(o.code == 2 && o.err.contains(message), qPrintable(arguments.join(' ') + " -> " + o.err));
        }
        Output clip = ckptRun({"train", "--clip", "-0.5"});
        QCOMPARE(clip.code, 2);
        QVERIFY2(clip.err.contains("--clip: expected a number >= 0, got '-0.5'"), clip.err.constData());
    }

    void infeasibleBudgetNamesTheSmallestThatWorks() {
        Output o = ckptRun(
            {"solve", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "revolve", "--budget", "1MiB"});
        QCOMPARE(o.code, 1);
        // The message names a budget; solving with exactly that budget then succeeds.
        QRegularExpression re("\\((\\d+) B\\)");
        auto m = re.match(QString::fromUtf8(o.err));
        QVERIFY2(m.hasMatch(), o.err.constData());
        Output ok = ckptRun({"solve", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "revolve", "--budget",
                             m.captured(1), "--json"});
        QCOMPARE(ok.code, 0);
        QCOMPARE(QJsonDocument::fromJson(ok.out).object()["peak_bytes"].toArray()[0].toDouble(),
                 m.captured(1).toDouble());
    }

    void solveJsonMatchesTheClosedForm() {
        Output o = ckptRun({"solve", example("lstm-h512-b32-fp32-1000.ckpt-chain.json"), "--scheduler", "revolve",
                            "--slots", "10", "--json"});
        QCOMPARE(o.code, 0);
        QJsonObject j = QJsonDocument::fromJson(o.out).object();
        for (const char* key : {"scheduler", "feasible", "steps", "forward_steps", "backward_steps", "recomputed_steps",
                                "makespan_s", "compute_s", "peak_bytes", "budget_bytes", "actions", "solve_ms"})
            QVERIFY2(j.contains(key), key);
        QCOMPARE(j["forward_steps"].toInt(), 4636); // n + t(1000, 10), algorithms.md
        QCOMPARE(j["recomputed_steps"].toInt(), 3636);
        QCOMPARE(j["backward_steps"].toInt(), 1000);
        QVERIFY(j["feasible"].toBool());
    }

    // The benchmark's rotor section on a short chain: its plan replays (bench checks that) and the reference fill, the
    // rotor paper's algorithm (every split point at every slot), finds the same optimum.
    void benchComparesRotorWithTheReferenceFill() {
        Output o = ckptRun({"bench", "--steps", "50", "--slots", "3", "--repeat", "1", "--rotor-steps", "80",
                            "--rotor-reference", "--json"});
        QCOMPARE(o.code, 0);
        QJsonObject j = QJsonDocument::fromJson(o.out).object();
        QCOMPARE(j["rotor_steps"].toInt(), 80);
        QVERIFY(j["rotor_ms"].toDouble() >= 0);
        QVERIFY(j["rotor_reference_ms"].toDouble() >= 0);
        QVERIFY(j["rotor_reference_equal"].toBool());
        // The threads that filled the table: one, or one per core up to 8 (tst_optimal checks which).
        const int cores = int(std::thread::hardware_concurrency());
        QCOMPARE(j["cores"].toInt(), cores);
        QVERIFY(j["rotor_threads"].toInt() >= 1 && j["rotor_threads"].toInt() <= std::clamp(cores, 1, 8));
        Output text = ckptRun(
            {"bench", "--steps", "50", "--slots", "3", "--repeat", "1", "--rotor-steps", "80", "--rotor-reference"});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("same optimum: yes"), text.out.constData());
    }

    void planRoundTripsThroughSimulate() {
        QString plan = path("plan.json");
        Output o = ckptRun({"solve", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "periodic", "--slots",
                            "3", "--out", plan, "--json"});
        QCOMPARE(o.code, 0);
        Output s = ckptRun({"simulate", example("small-hetero-12.ckpt-chain.json"), plan, "--json"});
        QCOMPARE(s.code, 0);
        QJsonObject a = QJsonDocument::fromJson(o.out).object(), b = QJsonDocument::fromJson(s.out).object();
        QCOMPARE(b["makespan_s"].toDouble(), a["makespan_s"].toDouble());
        QCOMPARE(b["forward_steps"].toInt(), a["forward_steps"].toInt());
        QCOMPARE(b["peak_bytes"].toArray(), a["peak_bytes"].toArray());
        // A plan made for a longer chain is refused with the first bad action's index.
        Output bad = ckptRun({"simulate", example("resnet18-b32-224.ckpt-chain.json"), plan});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("action "), bad.err.constData());
    }

    void traceAndCsvExports() {
        QString trace = path("plan.trace.json"), csv = path("plan.csv");
        QCOMPARE(ckptRun({"solve", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "revolve", "--slots", "3",
                          "--out", trace, "--format", "trace"})
                     .code,
                 0);
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject t = QJsonDocument::fromJson(f.readAll()).object();
        int complete = 0;
        for (const auto& e : t["traceEvents"].toArray())
            complete += e.toObject()["ph"].toString() == "X";
        // 12 steps, 3 slots: n + t(12, 3) forward steps and 12 backward steps, one complete event each.
        QCOMPARE(complete, int(12 + ckpt::revolveAdvances(12, 3) + 12));
        QCOMPARE(ckptRun({"solve", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "revolve", "--slots", "3",
                          "--out", csv})
                     .code,
                 0);
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        QCOMPARE(c.readAll().count('\n'), complete + 1);
    }

    void compareListsEverySchedulerAtEveryBudget() {
        QString csv = path("cmp.csv");
        Output o =
            ckptRun({"compare", example("small-hetero-12.ckpt-chain.json"), "--hardware",
                     hardware("gpu-a100.ckpt-hardware.json"), "--budgets", "none,45%,70%", "--json", "--csv", csv});
        QCOMPARE(o.code, 0);
        QJsonArray runs = QJsonDocument::fromJson(o.out).array();
        Output l = ckptRun({"list", "--json"});
        int schedulers = 0;
        for (const auto& s : QJsonDocument::fromJson(l.out).array())
            schedulers += s.toObject()["problem"].toString() == "chain";
        QVERIFY(schedulers >= 3);
        QCOMPARE(runs.size(), 3 * schedulers);
        for (const auto& r : runs) {
            QJsonObject o2 = r.toObject();
            if (o2["feasible"].toBool() && o2["budget_bytes"].toDouble() > 0)
                QVERIFY(o2["peak_bytes"].toArray()[0].toDouble() <= o2["budget_bytes"].toDouble());
        }
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        QCOMPARE(c.readAll().count('\n'), runs.size() + 1);
    }

    // A one-level machine cannot run the schedulers that write to a slower level: they are rows marked n/a with
    // the reason, one stderr line each, and the command still succeeds; asked for alone, it is bad input.
    void schedulersTheMachineCannotRunAreNotApplicable() {
        Output o = ckptRun({"compare", example("small-hetero-12.ckpt-chain.json"), "--budgets", "none,50%", "--json"});
        QCOMPARE(o.code, 0);
        int na = 0, ran = 0;
        for (const auto& r : QJsonDocument::fromJson(o.out).array()) {
            QJsonObject j = r.toObject();
            if (j["available"].toBool(true)) {
                ran += j["feasible"].toBool();
                continue;
            }
            ++na;
            QVERIFY(!j["feasible"].toBool());
            QVERIFY2(j["reason"].toString().contains("needs 2 memory levels"), qPrintable(j["reason"].toString()));
        }
        QCOMPARE(na, 2 * 5); // multistage, async-multistage, double-checkpointing, offload-all, offload-dp at both
        QVERIFY(ran >= 8);
        QCOMPARE(o.err.count("n/a"), 5);
        Output table = ckptRun({"compare", example("small-hetero-12.ckpt-chain.json"), "--schedulers", "multistage"});
        QCOMPARE(table.code, 0);
        QVERIFY2(table.out.contains("n/a [1]"), table.out);
        Output alone = ckptRun({"solve", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "multistage"});
        QCOMPARE(alone.code, 2);
        QVERIFY2(alone.err.contains("needs 2 memory levels"), alone.err);
        // The trade-off chart draws the rest and names the missing ones in its legend; a wrong name is refused first.
        Output chart = ckptRun({"render", example("small-hetero-12.ckpt-chain.json"), "--chart", "tradeoff", "--out",
                                path("na.pdf"), "--budgets", "none,50%"});
        if (chart.code == 2 && chart.err.contains("no charts")) return; // a build without the GUI
        QCOMPARE(chart.code, 0);
        QCOMPARE(chart.err.count("n/a"), 5);
        Output unknown = ckptRun({"render", example("lstm-h512-b32-fp32-1000.ckpt-chain.json"), "--chart", "tradeoff",
                                  "--out", path("x.pdf"), "--schedulers", "rotor,nosuch"});
        QCOMPARE(unknown.code, 2);
        QVERIFY2(unknown.err.contains("nosuch"), unknown.err);
        QVERIFY(!QFile::exists(path("x.pdf")));
    }

    // Korthikanti et al. 2022's closed form, measured as the issue asks: what store-all holds when the last forward
    // ends (held_after_forward_bytes of ckpt solve --json) for 3 layers less 2, with tensor and sequence parallelism
    // over 4 devices: sbh (34/t + 5as/(ht)) bytes.
    void transformerLayerMemoryThroughTheCommandLine() {
        auto held = [&](const char* layers) {
            const QString file = path(qPrintable(QString("tr%1.json").arg(layers)));
            Output gen = ckptRun({"generate", "--kind", "transformer", "--layers", layers, "--hidden", "256", "--heads",
                                  "8", "--seq", "64", "--batch", "2", "--tensor-parallel", "4", "--sequence-parallel",
                                  "--out", file});
            if (gen.code != 0) return -1.0;
            Output solved = ckptRun({"solve", file, "--scheduler", "store-all", "--json"});
            if (solved.code != 0) return -2.0;
            return QJsonDocument::fromJson(solved.out).object()["held_after_forward_bytes"].toDouble();
        };
        const double sbh = 64.0 * 2 * 256, as2b = 8.0 * 64 * 64 * 2;
        QCOMPARE(held("3") - held("2"), 34 * sbh / 4 + 5 * as2b / 4);
        // --vocab V adds the token ids (8 bytes each), the embedding's dropout mask (sbh/t bytes with sequence
        // parallelism) and the cross entropy's fp32 logits (4sbV/t), and nothing else.
        Output vocab = ckptRun({"generate",    "--kind",
                                "transformer", "--layers",
                                "2",           "--hidden",
                                "256",         "--heads",
                                "8",           "--seq",
                                "64",          "--batch",
                                "2",           "--tensor-parallel",
                                "4",           "--sequence-parallel",
                                "--vocab",     "1000",
                                "--out",       path("trv.json")});
        QVERIFY2(vocab.code == 0, vocab.err.constData());
        Output solved = ckptRun({"solve", path("trv.json"), "--scheduler", "store-all", "--json"});
        QVERIFY2(solved.code == 0, solved.err.constData());
        QCOMPARE(QJsonDocument::fromJson(solved.out).object()["held_after_forward_bytes"].toDouble() - held("2"),
                 8.0 * 64 * 2 + sbh / 4 + 4.0 * 64 * 2 * 1000 / 4);
    }

    // ckpt reproduce korthikanti2022: every model's layer memory equals the paper's closed forms, and the
    // overheads come in the paper's order (full recomputation above selective, selective above nothing).
    void reproducesKorthikanti() {
        Output o = ckptRun({"reproduce", "korthikanti2022", "--json"});
        QVERIFY2(o.code == 0, o.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(o.out).object();
        QVERIFY(j["closed_forms_equal"].toBool());
        const QJsonArray models = j["models"].toArray();
        QCOMPARE(models.size(), 4);
        for (const auto& m : models) {
            for (const auto& row : m.toObject()["memory"].toArray())
                QCOMPARE(row.toObject()["simulated_bytes"].toDouble(), row.toObject()["closed_form_bytes"].toDouble());
            std::map<QString, double> overhead;
            for (const auto& row : m.toObject()["time"].toArray())
                overhead[row.toObject()["technique"].toString()] = row.toObject()["overhead"].toDouble();
            QVERIFY(overhead["full recompute"] > overhead["selective recompute"]);
            QVERIFY(overhead["selective recompute"] > 0);
            QVERIFY(overhead["selective + sequence"] < overhead["selective recompute"]);
        }
        Output bad = ckptRun({"reproduce", "someone2023"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("korthikanti2022"), bad.err.constData());
    }

    void graphsSolveWriteAPlanAndReplayIt() {
        // A random DAG made by ckpt generate, solved by dtr at 60 % of store-all's peak: the plan file
        // replays through ckpt simulate to the same time and peak.
        Output gen = ckptRun({"generate", "--nodes", "24", "--seed", "3", "--out", path("g.ckpt-graph.json")});
        QCOMPARE(gen.code, 0);
        Output solved = ckptRun({"solve", path("g.ckpt-graph.json"), "--scheduler", "dtr", "--budget", "60%", "--json",
                                 "--out", path("g.plan.json")});
        QVERIFY2(solved.code == 0, solved.err.constData());
        QJsonObject a = QJsonDocument::fromJson(solved.out).object();
        QVERIFY(a["feasible"].toBool());
        QCOMPARE(a["steps"].toInt(), 24);
        QVERIFY(a["peak_bytes"].toArray()[0].toDouble() <= a["budget_bytes"].toDouble());
        Output replay = ckptRun({"simulate", path("g.ckpt-graph.json"), path("g.plan.json"), "--json"});
        QVERIFY2(replay.code == 0, replay.err.constData());
        QJsonObject b = QJsonDocument::fromJson(replay.out).object();
        QCOMPARE(b["makespan_s"].toDouble(), a["makespan_s"].toDouble());
        QCOMPARE(b["peak_bytes"].toArray()[0].toDouble(), a["peak_bytes"].toArray()[0].toDouble());
        // CSV and Chrome trace as for chains: one row, one event per timed action.
        const int timed = a["forward_steps"].toInt() + a["backward_steps"].toInt();
        Output csv = ckptRun(
            {"solve", path("g.ckpt-graph.json"), "--scheduler", "dtr", "--budget", "60%", "--out", path("g.csv")});
        QVERIFY2(csv.code == 0, csv.err.constData());
        QFile csvFile(path("g.csv"));
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        QCOMPARE(csvFile.readAll().count('\n'), timed + 1);
        Output trace = ckptRun({"solve", path("g.ckpt-graph.json"), "--scheduler", "dtr", "--budget", "60%", "--out",
                                path("g.json"), "--format", "trace"});
        QVERIFY2(trace.code == 0, trace.err.constData());
        QFile traceFile(path("g.json"));
        QVERIFY(traceFile.open(QIODevice::ReadOnly));
        int events = 0;
        for (const auto& e : QJsonDocument::fromJson(traceFile.readAll()).object()["traceEvents"].toArray())
            events += e.toObject()["ph"].toString() == "X";
        QCOMPARE(events, timed);
        // Too small a budget: exit 1, and the message names a budget that works.
        Output tight = ckptRun({"solve", path("g.ckpt-graph.json"), "--scheduler", "store-all", "--budget", "1KiB"});
        QCOMPARE(tight.code, 1);
        QVERIFY2(tight.err.contains("needs at least"), tight.err.constData());
        // A chain scheduler on a graph that is no chain runs on its segments between articulation points (the
        // U-Net has some); on a graph that none splits (a transformer whose input every block reads would), exit 2.
        Output segments = ckptRun({"solve", example("unet-small-b8-128.ckpt-graph.json"), "--scheduler", "revolve"});
        QVERIFY2(segments.code == 0, segments.err.constData());
    }

    void graphCompareListsEveryGraphScheduler() {
        // The MILPs (checkmate, monet) get a deterministic limit: one branch-and-bound node.
        Output o = ckptRun({"compare", example("transformer-4x-b8-s512.ckpt-graph.json"), "--budgets", "none,70%",
                            "--param", "checkmate.node_limit=1", "--param", "monet.node_limit=1", "--json"});
        QVERIFY2(o.code == 0, o.err.constData());
        QJsonArray runs = QJsonDocument::fromJson(o.out).array();
        Output list = ckptRun({"list", "--json"});
        int graphSchedulers = 0;
        for (const auto& s : QJsonDocument::fromJson(list.out).array())
            graphSchedulers += s.toObject()["problem"].toString() == "graph";
        QVERIFY(graphSchedulers >= 4);
        // Every graph scheduler, and rotor on the graph's segments between articulation points.
        QCOMPARE(runs.size(), 2 * (graphSchedulers + 1));
        int rotor = 0;
        for (const auto& r : runs)
            rotor += r.toObject()["scheduler"].toString() == "rotor" && r.toObject()["available"].toBool();
        QCOMPARE(rotor, 2);
        for (const auto& r : runs) {
            QJsonObject o2 = r.toObject();
            if (o2["scheduler"].toString() == "join-dp") { // a transformer is no join: n/a, saying why
                QVERIFY(!o2["available"].toBool());
                QVERIFY2(o2["reason"].toString().contains("feeds"), qPrintable(o2["reason"].toString()));
            }
            if (!o2["feasible"].toBool()) continue;
            QVERIFY(o2["overhead"].toDouble() >= 1.0 - 1e-12);
            QCOMPARE(o2["makespan_s"].toDouble(), o2["predicted_makespan_s"].toDouble());
        }
        // A chain written as a graph takes the chain schedulers too.
        Output lin = ckptRun({"generate", "--kind", "linear", "--nodes", "20", "--out", path("lin.ckpt-graph.json")});
        QCOMPARE(lin.code, 0);
        Output rev =
            ckptRun({"solve", path("lin.ckpt-graph.json"), "--scheduler", "revolve", "--slots", "3", "--json"});
        QVERIFY2(rev.code == 0, rev.err.constData());
        QCOMPARE(QJsonDocument::fromJson(rev.out).object()["steps"].toInt(), 20);
    }

    // A MILP's parameters run to hundreds of characters: the table cuts them with "…" (and says so), --csv keeps them
    // whole, quoted. Every size of a table is in one unit family: binary, or decimal when the budgets were typed so.
    void compareTableStaysReadable() {
        const QString graph = example("linear-32.ckpt-graph.json");
        Output o = ckptRun({"compare", graph, "--schedulers", "checkmate,dtr", "--budgets", "50%", "--param",
                            "checkmate.node_limit=1", "--csv", path("c.csv")});
        QVERIFY2(o.code == 0, o.err.constData());
        const QStringList lines = QString::fromUtf8(o.out).split('\n');
        QString checkmateRow;
        for (const QString& line : lines) {
            QVERIFY2(line.size() < 160, qPrintable(line));
            if (line.startsWith("checkmate ")) checkmateRow = line;
        }
        QVERIFY2(checkmateRow.contains("optimal=") && checkmateRow.contains(QString::fromUtf8("\u2026")),
                 qPrintable(checkmateRow));
        QVERIFY2(o.out.contains("--json or --csv FILE gives them whole"), o.out.constData());
        QFile csv(path("c.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(csv.readAll());
        const QString row = text.section('\n', 1, 1);
        QVERIFY2(row.startsWith("checkmate,"), qPrintable(row));
        const QString params = row.section('"', 1, 1); // the whole text, commas and all
        QVERIFY2(params.size() > 48 && params.contains("optimal=") && params.contains("milp_size="), qPrintable(row));
        QVERIFY2(row.section('"', 2).startsWith(",1,"), qPrintable(row)); // feasible, the columns after in place
        // Budgets typed in decimal units: every size in MB; otherwise binary, with no decimal unit beside it.
        Output dec = ckptRun({"compare", graph, "--schedulers", "dtr,chen-greedy", "--budgets", "19MB,30MB"});
        QVERIFY2(dec.code == 0, dec.err.constData());
        QVERIFY2(dec.out.contains(" MB") && !dec.out.contains("MiB"), dec.out.constData());
        Output bin = ckptRun({"compare", graph, "--schedulers", "dtr,chen-greedy", "--budgets", "19MiB,30MiB"});
        QVERIFY2(bin.code == 0, bin.err.constData());
        QVERIFY2(bin.out.contains("MiB") && !bin.out.contains(" MB"), bin.out.constData());
    }

    void joinDpPlansTheCrossModalExample() {
        // Two towers merging into one node: join-dp at 65 % of store-all's peak names its branch order, and its plan
        // file replays through ckpt simulate to the same time and peak.
        Output solved = ckptRun({"solve", example("cross-modal-b32.ckpt-graph.json"), "--scheduler", "join-dp",
                                 "--budget", "65%", "--json", "--out", path("x.plan.json")});
        QVERIFY2(solved.code == 0, solved.err.constData());
        QJsonObject a = QJsonDocument::fromJson(solved.out).object();
        QVERIFY(a["feasible"].toBool());
        QVERIFY(a["peak_bytes"].toArray()[0].toDouble() <= a["budget_bytes"].toDouble());
        QCOMPARE(a["makespan_s"].toDouble(), a["predicted_makespan_s"].toDouble());
        const QStringList order = a["params"].toObject()["branch_order"].toString().split(',');
        QCOMPARE(QSet<QString>(order.begin(), order.end()), (QSet<QString>{"img_fc", "aud_fc"}));
        Output replay =
            ckptRun({"simulate", example("cross-modal-b32.ckpt-graph.json"), path("x.plan.json"), "--json"});
        QVERIFY2(replay.code == 0, replay.err.constData());
        QJsonObject b = QJsonDocument::fromJson(replay.out).object();
        QCOMPARE(b["makespan_s"].toDouble(), a["makespan_s"].toDouble());
        // A generated join of three branches: join-dp plans it within 40 % at its predicted time; two branches
        // need at least three nodes.
        Output gen = ckptRun({"generate", "--kind", "join", "--nodes", "40", "--width", "3", "--seed", "5", "--out",
                              path("j.ckpt-graph.json")});
        QVERIFY2(gen.code == 0, gen.err.constData());
        QVERIFY2(gen.out.contains("40 nodes, 39 edges"), gen.out.constData());
        Output joined = ckptRun({"solve", path("j.ckpt-graph.json"), "--scheduler", "join-dp", "--budget", "40%",
                                 "--param", "guard=none", "--json"});
        QVERIFY2(joined.code == 0, joined.err.constData());
        QJsonObject j = QJsonDocument::fromJson(joined.out).object();
        QCOMPARE(j["params"].toObject()["branches"].toString(), QString("3"));
        QCOMPARE(j["makespan_s"].toDouble(), j["predicted_makespan_s"].toDouble());
        QVERIFY(j["peak_bytes"].toArray()[0].toDouble() <= j["budget_bytes"].toDouble());
        Output tooFew =
            ckptRun({"generate", "--kind", "join", "--nodes", "2", "--width", "2", "--out", path("k.json")});
        QCOMPARE(tooFew.code, 2);
        QVERIFY2(tooFew.err.contains("at least 3 nodes"), tooFew.err.constData());
        // Below what its class can do: exit 1, naming a budget that works.
        Output tight = ckptRun(
            {"solve", example("cross-modal-b32.ckpt-graph.json"), "--scheduler", "join-dp", "--budget", "100MiB"});
        QCOMPARE(tight.code, 1);
        QVERIFY2(tight.err.contains("needs about"), tight.err.constData());
    }

    void graphsRenderWithoutADisplay() {
        Output o = ckptRun({"render", example("unet-small-b8-128.ckpt-graph.json"), "--scheduler", "dtr", "--budget",
                            "50%", "--chart", "gantt", "--out", path("unet.png"), "--size", "800x500"});
        if (o.code == 2 && o.err.contains("no charts")) QSKIP("this build has no charts");
        QVERIFY2(o.code == 0, o.err.constData());
        QFile png(path("unet.png"));
        QVERIFY(png.open(QIODevice::ReadOnly));
        const QByteArray head = png.read(24); // the signature, then IHDR: width and height, big-endian
        QVERIFY(head.startsWith("\x89PNG"));
        auto be32 = [&](int at) {
            return (quint32(quint8(head[at])) << 24) | (quint32(quint8(head[at + 1])) << 16) |
                   (quint32(quint8(head[at + 2])) << 8) | quint32(quint8(head[at + 3]));
        };
        QCOMPARE(be32(16), 800u);
        QCOMPARE(be32(20), 500u);
        // The sweep diagram needs a chain's steps: a graph with skips is refused with the reason.
        Output sweep = ckptRun({"render", example("unet-small-b8-128.ckpt-graph.json"), "--scheduler", "dtr", "--chart",
                                "sweep", "--out", path("sweep.png")});
        QCOMPARE(sweep.code, 2);
        QVERIFY2(sweep.err.contains("not a chain"), sweep.err.constData());
    }

    void graphPlanWithTransfersReplays() {
        // A hand-written graph plan that sends a's output to level 1 and reads it back: ckpt simulate replays it on a
        // two-level machine (the figures are worked out in tst_graph_simulator), and a bad level names its place.
        writeFile(path("abc.ckpt-graph.json"), R"({"format":"ckpt-graph","version":1,"name":"abc","nodes":[
            {"id":"a","forward":1,"backward":2,"output_bytes":100},{"id":"b","forward":1,"backward":2,"output_bytes":200},
            {"id":"c","forward":1,"backward":2,"output_bytes":50}],"edges":[["a","b"],["b","c"]]})");
        writeFile(path("two.json"), R"({"format":"ckpt-hardware","version":1,"name":"two","levels":[{"name":"fast"},
            {"name":"slow","capacity_bytes":1000,"read_bytes_per_s":100,"write_bytes_per_s":100}]})");
        writeFile(path("abc.plan.json"), R"({"format":"ckpt-graph-plan","version":1,"actions":[["forward","a"],
            ["write","a",1],["forward","b"],["free","a"],["forward","c"],["backward","c"],["read","a",1],
            ["backward","b"],["backward","a"]]})");
        Output o = ckptRun(
            {"simulate", path("abc.ckpt-graph.json"), path("abc.plan.json"), "--hardware", path("two.json"), "--json"});
        QVERIFY2(o.code == 0, o.err.constData());
        QJsonObject j = QJsonDocument::fromJson(o.out).object();
        QCOMPARE(j["makespan_s"].toDouble(), 10.0);
        QCOMPARE(j["peak_bytes"].toArray()[0].toDouble(), 450.0);
        QCOMPARE(j["bytes_written"].toDouble(), 100.0);
        writeFile(path("bad.plan.json"), R"({"format":"ckpt-graph-plan","version":1,"actions":[["forward","a"],
            ["write","a","one"]]})");
        Output bad =
            ckptRun({"simulate", path("abc.ckpt-graph.json"), path("bad.plan.json"), "--hardware", path("two.json")});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("actions[1][2]"), bad.err.constData());
    }

    // Every command that reads a problem, a machine or a plan refuses a "format" of the wrong type with exit 2 and a
    // message naming the file and the field (it used to abort on an uncaught JSON type error).
    void formatOfTheWrongTypeIsExitTwo() {
        const QString chain = example("small-hetero-12.ckpt-chain.json");
        for (const char* format : {"1", "null", "[]"}) {
            writeFile(path("f.json"), QByteArray(R"({"format": )") + format + R"(, "version": 1})");
            const QString f = path("f.json");
            const QList<QStringList> runs = {
                {"solve", f, "--scheduler", "revolve"},
                {"compare", f},
                {"simulate", f, f},
                {"simulate", chain, f},
                {"solve", chain, "--scheduler", "revolve", "--hardware", f},
                {"render", f, "--scheduler", "revolve", "--chart", "gantt", "--out", path("f.png")},
            };
            for (const QStringList& args : runs) {
                Output o = ckptRun(args);
                if (args[0] == "render" && o.err.contains("no charts")) continue; // a build without the GUI
                QVERIFY2(o.code == 2, qPrintable(args.join(' ') + ": " + o.err));
                QVERIFY2(o.err.contains("f.json: ") && o.err.contains("\"format\""), o.err.constData());
            }
        }
    }

    // Bytes that are not UTF-8 in a --param value: a clear refusal, never an abort of the JSON output.
    void paramThatIsNotUtf8IsExitTwo() {
        QProcess sh;
        sh.start("/bin/sh",
                 {"-c", "exec \"$0\" solve \"$1\" --scheduler revolve --json --param \"slots=$(printf '\\377')\"",
                  CKPT_CLI, example("small-hetero-12.ckpt-chain.json")});
        QVERIFY(sh.waitForFinished(120000));
        QCOMPARE(sh.exitStatus(), QProcess::NormalExit);
        const QByteArray err = sh.readAllStandardError();
        QCOMPARE(sh.exitCode(), 2);
        QVERIFY2(err.contains("--param") && err.contains("not valid UTF-8"), err.constData());
        // In compare's SCHEDULER.NAME=VALUE form too.
        sh.start("/bin/sh", {"-c", "exec \"$0\" compare \"$1\" --json --param \"revolve.slots=$(printf '\\377')\"",
                             CKPT_CLI, example("small-hetero-12.ckpt-chain.json")});
        QVERIFY(sh.waitForFinished(120000));
        QCOMPARE(sh.exitCode(), 2);
        QVERIFY(sh.readAllStandardError().contains("not valid UTF-8"));
    }

    // Sums past 64 bits are refused on input, naming the file and the step or node (a 1-step chain of 5e18-byte
    // state and tape used to report a peak of 5e18 and exit 0).
    void bytesPastTheBoundAreExitTwo() {
        writeFile(path("huge.json"), R"({"format":"ckpt-chain","version":1,"steps":[
            {"forward":1,"backward":2,"state_bytes":5000000000000000000,"tape_bytes":5000000000000000000}]})");
        writeFile(path("huge.plan.json"), R"({"format":"ckpt-plan","version":1,"actions":[["F",1,"tape"],["B",1]]})");
        for (const QStringList& args : QList<QStringList>{{"simulate", path("huge.json"), path("huge.plan.json")},
                                                          {"solve", path("huge.json"), "--scheduler", "store-all"}}) {
            Output o = ckptRun(args);
            QCOMPARE(o.code, 2);
            QVERIFY2(o.err.contains("huge.json: step 1: ") && o.err.contains("256 PiB"), o.err.constData());
        }
        writeFile(path("huge.ckpt-graph.json"), R"({"format":"ckpt-graph","version":1,"nodes":[
            {"id":"a","forward":1,"output_bytes":9223372036854775000},{"id":"b","forward":1,"output_bytes":1000}],
            "edges":[["a","b"]]})");
        Output g = ckptRun({"solve", path("huge.ckpt-graph.json"), "--scheduler", "dtr"});
        QCOMPARE(g.code, 2);
        QVERIFY2(g.err.contains("huge.ckpt-graph.json: node 'a': "), g.err.constData());
    }

    // A time that would make the makespan infinite is refused on input; zero times give an overhead of 1, not nan.
    void timesAreBoundedAndRatiosFinite() {
        writeFile(path("slow.json"), R"({"format":"ckpt-chain","version":1,"steps":[
            {"forward":1,"backward":2,"state_bytes":10,"tape_bytes":20},
            {"forward":1e308,"backward":2,"state_bytes":10,"tape_bytes":20}]})");
        Output o = ckptRun({"compare", path("slow.json")});
        QCOMPARE(o.code, 2);
        QVERIFY2(o.err.contains("slow.json: step 2: forward time must be at most 1e9 s"), o.err.constData());
        writeFile(path("hw.json"), R"({"format":"ckpt-hardware","version":1,"levels":[{"name":"dev"},
            {"name":"host","read_bytes_per_s":1e-300,"write_bytes_per_s":1e9}]})");
        Output h = ckptRun({"compare", example("small-hetero-12.ckpt-chain.json"), "--hardware", path("hw.json")});
        QCOMPARE(h.code, 2);
        QVERIFY2(h.err.contains("hw.json: level 1 (host): read_bytes_per_s"), h.err.constData());
        writeFile(path("zero.json"), R"({"format":"ckpt-chain","version":1,"uniform":
            {"length":8,"forward":0,"backward":0,"state_bytes":10,"tape_bytes":20}})");
        Output z =
            ckptRun({"compare", path("zero.json"), "--schedulers", "store-all,revolve,rotor", "--budgets", "none,50%"});
        QVERIFY2(z.code == 0, z.err.constData());
        QVERIFY2(!z.out.contains("nan") && !z.out.contains("inf s") && z.out.contains("1.000x"), z.out.constData());
        Output zj = ckptRun({"compare", path("zero.json"), "--schedulers", "revolve", "--csv", path("zero.csv")});
        QCOMPARE(zj.code, 0);
        QFile csv(path("zero.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QVERIFY(!csv.readAll().contains("nan"));
    }

    // A FIFO with no writer and a device are refused at once (the open does not wait for a writer), a folder too.
    void onlyRegularFilesAreRead() {
        const QString fifo = path("fifo.json");
        QCOMPARE(QProcess::execute("mkfifo", {fifo}), 0);
        Output o = ckptRun({"solve", fifo, "--scheduler", "revolve"});
        QCOMPARE(o.code, 2);
        QVERIFY2(o.err.contains("fifo.json: cannot read (not a regular file"), o.err.constData());
        Output hw = ckptRun({"compare", example("small-hetero-12.ckpt-chain.json"), "--hardware", fifo});
        QCOMPARE(hw.code, 2);
        QVERIFY2(hw.err.contains("fifo.json: cannot read (not a regular file"), hw.err.constData());
        Output zero = ckptRun({"compare", "/dev/zero"});
        QCOMPARE(zero.code, 2);
        QVERIFY2(zero.err.contains("/dev/zero: cannot read (not a regular file"), zero.err.constData());
        Output folder = ckptRun({"compare", m_dir.path()});
        QCOMPARE(folder.code, 2);
        QVERIFY2(folder.err.contains("it is a folder"), folder.err.constData());
    }

    // --out onto a read-only file is refused as cp refuses it, and the file is kept (it used to be replaced).
    void outOntoAReadOnlyFileIsRefused() {
        const QString plan = path("read-only.plan.json");
        writeFile(plan, "keep\n");
        QVERIFY(QFile::setPermissions(plan, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
        Output o =
            ckptRun({"solve", example("small-hetero-12.ckpt-chain.json"), "--scheduler", "store-all", "--out", plan});
        QCOMPARE(o.code, 2);
        QVERIFY2(o.err.contains(plan.toUtf8() + ": cannot write (Permission denied: the file is read-only)"),
                 o.err.constData());
        QCOMPARE(readFile(plan), QByteArray("keep\n"));
    }

    // 1e5 steps (issue 10): half as many slots as steps ran out of stack (exit 139); now the plan validates and its
    // forward steps are n + t(n, s) = 100000 + (2n - C(50002, 50001)).
    void longChainManySlots() {
        writeFile(path("long.json"), R"({"format":"ckpt-chain","version":1,"uniform":{"length":100000,
            "forward":0.001,"backward":0.002,"state_bytes":1048576,"tape_bytes":3145728}})");
        Output o = ckptRun({"solve", path("long.json"), "--scheduler", "revolve", "--slots", "50000", "--json"});
        QCOMPARE(o.code, 0);
        QJsonObject j = QJsonDocument::fromJson(o.out).object();
        QCOMPARE(j["forward_steps"].toInt(), 100000 + 2 * 100000 - 50002);
    }

    // What would not fit in memory is refused at once with exit 2, the estimate and the limit.
    void longChainRefusedBySize() {
        writeFile(path("long.json"), R"({"format":"ckpt-chain","version":1,"uniform":{"length":100000,
            "forward":0.001,"backward":0.002,"state_bytes":1048576,"tape_bytes":3145728}})");
        Output two = ckptRun({"solve", path("long.json"), "--scheduler", "revolve", "--slots", "2"});
        QCOMPARE(two.code, 2);
        // 2n + t(n, 2): r = 446 repetitions, t = 446 n - C(448, 3).
        QVERIFY2(two.err.contains("29914304 actions") && two.err.contains("limit of 10000000"), two.err.constData());
        Output rotor = ckptRun({"solve", path("long.json"), "--scheduler", "rotor", "--budget", "1%"});
        QCOMPARE(rotor.code, 2);
        QVERIFY2(rotor.err.contains("100000 steps") && rotor.err.contains("limit of 20000"), rotor.err.constData());
        // In a compare, a scheduler over its size limit is a row, n/a with the estimate in its note, and the others
        // are listed: it used to end the command with exit 2 and no table.
        Output cmp =
            ckptRun({"compare", path("long.json"), "--schedulers", "rotor,revolve,periodic", "--budgets", "1%"});
        QCOMPARE(cmp.code, 0);
        QVERIFY2(QRegularExpression(R"(rotor +\S+ \S+ +- +n/a \[1\])").match(cmp.out).hasMatch(), cmp.out.constData());
        QVERIFY2(cmp.out.contains("[1] rotor: rotor's programme for 100000 uniform steps") &&
                     cmp.out.contains("over the limit of 20000"),
                 cmp.out.constData());
        QVERIFY2(QRegularExpression(R"(revolve +\S+ \S+ +slots=\d+ +\d+)").match(cmp.out).hasMatch(),
                 cmp.out.constData());
        Output json = ckptRun({"compare", path("long.json"), "--schedulers", "rotor", "--budgets", "1%", "--json"});
        QCOMPARE(json.code, 0);
        const QJsonObject row = QJsonDocument::fromJson(json.out).array().at(0).toObject();
        QCOMPARE(row["too_large"].toBool(), true);
        QCOMPARE(row["feasible"].toBool(), false);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
