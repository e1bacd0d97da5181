// `ckpt render --data`: the CSV beside a chart holds the numbers behind it, and they are the run's. Each file is
// read back as a CSV reader would (quoted fields included) and checked against `ckpt solve --json` and
// `ckpt compare --json` for the same request.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

#include "common/ckpt_process.h"
#include "common/csv_reader.h"

using ckpt::test::ckptRun;
using ckpt::test::csvRows;

namespace {

QString example(const char* name) {
    return QString(CKPT_SOURCE_DIR) + "/examples/" + name;
}
const QString kA100 = QString(CKPT_SOURCE_DIR) + "/resources/hardware/gpu-a100.ckpt-hardware.json";

} // namespace

class TestChartData : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    // Renders `chart` with --data and returns the CSV's path (empty after a failure).
    QString render(const QString& name, const QStringList& args) {
        const QString csv = m_dir.filePath(name + ".csv");
        auto o =
            ckptRun(QStringList{"render"} + args + QStringList{"--out", m_dir.filePath(name + ".pdf"), "--data", csv});
        if (o.code != 0) qWarning("%s", o.err.constData());
        return o.code == 0 ? csv : QString();
    }

    QJsonObject solve(const QStringList& args) {
        auto o = ckptRun(QStringList{"solve"} + args + QStringList{"--json"});
        return QJsonDocument::fromJson(o.out).object();
    }

private slots:
    // Every level's samples: the largest total is the simulator's peak of that level, each total is its categories'
    // sum, times rise to the makespan, and level 0's limit is the budget. A level name with a comma and quotes reads
    // back whole.
    void memoryIsTheTimelinesMemory() {
        const QString hw = m_dir.filePath("hw.json");
        QFile f(hw);
        QVERIFY(f.open(QIODevice::WriteOnly));
        // (Built as JSON rather than typed as a raw string: moc misreads a raw string that holds \".)
        QJsonObject fast{{"name", "HBM, \"fast\""}, {"capacity_bytes", "1 GiB"}};
        QJsonObject host{{"name", "host"},
                         {"capacity_bytes", "64 GiB"},
                         {"read_bytes_per_s", "25 GB/s"},
                         {"write_bytes_per_s", "25 GB/s"}};
        f.write(QJsonDocument(
                    QJsonObject{
                        {"format", "ckpt-hardware"}, {"version", 1}, {"name", "h"}, {"levels", QJsonArray{fast, host}}})
                    .toJson());
        f.close();
        const QStringList req = {example("small-hetero-12.ckpt-chain.json"),
                                 "--hardware",
                                 hw,
                                 "--scheduler",
                                 "async-multistage",
                                 "--budget",
                                 "60%"};
        const QString csv = render("memory", req + QStringList{"--chart", "memory"});
        QVERIFY(!csv.isEmpty());
        const QJsonObject run = solve(req);
        const QJsonArray peaks = run["peak_bytes"].toArray();
        QCOMPARE(peaks.size(), 2);
        QStringList header;
        const auto rows = csvRows(csv, &header);
        QCOMPARE(header, QStringList({"level", "level_name", "time_s", "states_bytes", "tapes_bytes", "gradients_bytes",
                                      "temporaries_bytes", "total_bytes", "limit_bytes"}));
        for (int level = 0; level < 2; ++level) {
            qint64 most = 0;
            double last = -1;
            int count = 0;
            for (const auto& r : rows) {
                if (r["level"].toInt() != level) continue;
                ++count;
                QCOMPARE(r["#fields"], QString("9"));
                QCOMPARE(r["level_name"], level == 0 ? QString("HBM, \"fast\"") : QString("host"));
                const qint64 total = r["total_bytes"].toLongLong();
                QCOMPARE(total, r["states_bytes"].toLongLong() + r["tapes_bytes"].toLongLong() +
                                    r["gradients_bytes"].toLongLong() + r["temporaries_bytes"].toLongLong());
                most = std::max(most, total);
                QVERIFY(r["time_s"].toDouble() >= last);
                last = r["time_s"].toDouble();
                QCOMPARE(r["limit_bytes"].toLongLong(),
                         level == 0 ? qint64(run["budget_bytes"].toDouble()) : qint64(64) << 30);
            }
            QVERIFY(count > 2);
            QCOMPARE(most, qint64(peaks[level].toDouble()));
            QCOMPARE(last, run["makespan_s"].toDouble());
        }
        QVERIFY(peaks[1].toDouble() > 0); // the plan used the slower level, so its curve was checked too
    }

    // The Gantt's numbers are the timeline, as `ckpt solve --out plan.csv` writes it, for a chain and for a graph.
    void ganttIsTheTimeline_data() {
        QTest::addColumn<QStringList>("request");
        QTest::newRow("chain") << QStringList{example("small-hetero-12.ckpt-chain.json"),
                                              "--hardware",
                                              kA100,
                                              "--scheduler",
                                              "revolve",
                                              "--budget",
                                              "50%"};
        QTest::newRow("graph") << QStringList{example("unet-small-b8-128.ckpt-graph.json"), "--scheduler", "chen-sqrt"};
    }
    void ganttIsTheTimeline() {
        QFETCH(QStringList, request);
        const QString csv = render("gantt", request + QStringList{"--chart", "gantt"});
        QVERIFY(!csv.isEmpty());
        const QString plan = m_dir.filePath("plan.csv");
        auto o = ckptRun(QStringList{"solve"} + request + QStringList{"--out", plan});
        QCOMPARE(o.code, 0);
        QFile a(csv), b(plan);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(a.readAll(), b.readAll());
        double end = 0;
        for (const auto& r : csvRows(csv))
            end = std::max(end, r["end_s"].toDouble());
        QCOMPARE(end, solve(request)["makespan_s"].toDouble());
    }

    // The sweep: one row per compute action, forwards rising a step and backwards falling one; as many forward rows
    // as the simulator counted forward steps, and one backward row per step.
    void sweepRowsAreTheComputeActions() {
        const QStringList req = {example("small-hetero-12.ckpt-chain.json"), "--scheduler", "revolve", "--slots", "3"};
        const QString csv = render("sweep", req + QStringList{"--chart", "sweep"});
        QVERIFY(!csv.isEmpty());
        const QJsonObject run = solve(req);
        int forwards = 0, backwards = 0, kept = 0;
        for (const auto& r : csvRows(csv)) {
            const int step = r["step"].toInt();
            if (r["kind"] == "backward") {
                ++backwards;
                QCOMPARE(r["from_step"].toInt(), step);
                QCOMPARE(r["to_step"].toInt(), step - 1);
                QVERIFY(r["keep"].isEmpty());
            } else {
                ++forwards;
                QCOMPARE(r["from_step"].toInt(), step - 1);
                QCOMPARE(r["to_step"].toInt(), step);
                QVERIFY(QStringList({"none", "state", "tape"}).contains(r["keep"]));
                kept += r["keep"] == "state";
            }
            QVERIFY(r["end_s"].toDouble() >= r["start_s"].toDouble());
        }
        QCOMPARE(forwards, run["forward_steps"].toInt());
        QCOMPARE(backwards, run["steps"].toInt());
        QVERIFY(kept >= 1); // Revolve keeps checkpoints: the marks are there
    }

    // The trade-off's rows are `ckpt compare --json`'s runs, in the same order, field for field; on one level the
    // schedulers that need a second are n/a with compare's reason.
    void tradeoffRowsAreCompares_data() {
        QTest::addColumn<QString>("hardware");
        QTest::newRow("a100") << kA100;
        QTest::newRow("one level") << QString();
    }
    void tradeoffRowsAreCompares() {
        QFETCH(QString, hardware);
        QStringList req = {example("small-hetero-12.ckpt-chain.json"), "--schedulers",
                           "store-all,revolve,multistage,periodic", "--budgets", "30%,60%,none"};
        if (!hardware.isEmpty()) req << "--hardware" << hardware;
        const QString csv = render("tradeoff", req + QStringList{"--chart", "tradeoff"});
        QVERIFY(!csv.isEmpty());
        auto o = ckptRun(QStringList{"compare"} + req + QStringList{"--json"});
        QCOMPARE(o.code, 0);
        const QJsonArray runs = QJsonDocument::fromJson(o.out).array();
        QStringList header;
        const auto rows = csvRows(csv, &header);
        QCOMPARE(rows.size(), runs.size());
        QCOMPARE(rows.size(), 12);
        int na = 0;
        for (int i = 0; i < rows.size(); ++i) {
            const auto& r = rows[i];
            const QJsonObject j = runs[i].toObject();
            QCOMPARE(r["#fields"].toInt(), header.size());
            QCOMPARE(r["scheduler"], j["scheduler"].toString());
            QCOMPARE(r["series"], j["scheduler"].toString());
            QCOMPARE(r["budget_bytes"].toLongLong(), qint64(j["budget_bytes"].toDouble()));
            QStringList params;
            const QJsonObject p = j["params"].toObject();
            for (auto it = p.begin(); it != p.end(); ++it)
                params << it.key() + "=" + it.value().toString();
            QCOMPARE(r["params"], params.join(' '));
            if (j["feasible"].toBool()) {
                QCOMPARE(r["status"], QString("ok"));
                const QJsonArray peaks = j["peak_bytes"].toArray();
                for (int l = 0; l < peaks.size(); ++l)
                    QCOMPARE(r[QString("peak_bytes_L%1").arg(l)].toLongLong(), qint64(peaks[l].toDouble()));
                QCOMPARE(r["makespan_s"].toDouble(), j["makespan_s"].toDouble());
                QCOMPARE(r["overhead"].toDouble(), j["overhead"].toDouble());
                QCOMPARE(r["forward_steps"].toInt(), j["forward_steps"].toInt());
                QCOMPARE(r["recomputed_steps"].toInt(), j["recomputed_steps"].toInt());
                // Store-all is the baseline and revolve optimal by construction; periodic is a heuristic.
                QCOMPARE(r["proven"], QString(r["scheduler"] == "periodic" ? "no" : "yes"));
                QVERIFY(r["reason"].isEmpty());
            } else {
                QCOMPARE(r["status"], QString(j["available"].toBool() ? "infeasible" : "n/a"));
                na += r["status"] == "n/a";
                QCOMPARE(r["reason"], j["message"].toString());
                QVERIFY(r["makespan_s"].isEmpty() && r["proven"].isEmpty());
            }
            QVERIFY(!r["optimality"].isEmpty());
        }
        QCOMPARE(na, hardware.isEmpty() ? 3 : 0); // multistage at each budget
    }
};

QTEST_GUILESS_MAIN(TestChartData)
#include "tst_chart_data.moc"
