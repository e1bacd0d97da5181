// The Comparison table: a peak per memory level, parameters shown whole, sorted by scheduler then budget at first,
// Ctrl+C copies the selected rows as tab-separated text, and the CSV it saves reads back to the runs' numbers.
#include "io/json_io.h"
#include "models/comparisonmodel.h"
#include "models/document.h"
#include "util/units.h"
#include "widgets/comparisontable.h"
#include "widgets/mainwindow.h"

#include <QAbstractItemModelTester>
#include <QClipboard>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QtTest>

using namespace ckpt;

namespace {
const QString kSmall = QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json";

// RFC 4180: fields in double quotes may hold commas, line breaks and doubled quotes.
QList<QStringList> parseCsv(const QString& text, QChar sep = ',') {
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
                field += '"', ++i;
            else if (c == '"')
                quoted = false;
            else
                field += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == sep) {
            row << field, field.clear();
        } else if (c == '\n') {
            row << field, field.clear();
            rows << row, row.clear();
        } else {
            field += c;
        }
    }
    if (!field.isEmpty() || !row.isEmpty()) rows << (row << field);
    return rows;
}

Hardware twoLevels() { // DRAM and an SSD
    return *loadHardware(QString(CKPT_SOURCE_DIR).toStdString() + "/resources/hardware/cpu-server.ckpt-hardware.json");
}

std::shared_ptr<const Run> shared(Run r) {
    return std::make_shared<const Run>(std::move(r));
}
} // namespace

class TestComparison : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    // One peak column per level of the machine: a plan that writes to the slow level shows that level's peak.
    void aPeakPerLevel() {
        const Chain chain = *loadChain(kSmall.toStdString());
        Run offload = runScheduler("async-multistage", chain, twoLevels(), {{}, 0});
        QVERIFY2(offload.feasible, offload.message.c_str());
        QVERIFY(offload.timeline->totals.peak_bytes.size() == 2 && offload.timeline->totals.peak_bytes[1] > 0);
        ComparisonModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setRuns({shared(offload)});
        QCOMPARE(m.levelCount(), 2);
        QCOMPARE(m.columnCount(), ComparisonModel::Peak0 + 3);
        QCOMPARE(m.headerData(m.peakColumn(1), Qt::Horizontal).toString(), QString("peak L1"));
        QCOMPARE(m.headerData(m.solveColumn(), Qt::Horizontal).toString(), QString("solve"));
        QCOMPARE(m.index(0, m.peakColumn(1)).data().toString(),
                 QString::fromStdString(formatBytes(double(offload.timeline->totals.peak_bytes[1]))));
        QCOMPARE(m.index(0, m.peakColumn(1)).data(Qt::UserRole).toDouble(),
                 double(offload.timeline->totals.peak_bytes[1]));
    }

    // Every field reads back: names and parameters with separators, quotes and line breaks, numbers to the bit.
    void csvReadsBack() {
        const Chain chain = *loadChain(kSmall.toStdString());
        Run a = runScheduler("revolve", chain, twoLevels(), {{{"slots", "3"}}, 0});
        Run b = runScheduler("store-all", chain, twoLevels(), {{}, 1000}); // infeasible
        Run odd = a;
        odd.scheduler = "odd, \"quoted\"\nname";
        odd.params = {{"note", "a,b \"c\"\td"}};
        QVERIFY(a.feasible && !b.feasible);
        ComparisonModel m;
        m.setRuns({shared(a), shared(b), shared(odd)});
        const QList<QStringList> rows = parseCsv(m.toCsv());
        QCOMPARE(rows.size(), 4);
        const QStringList header = rows[0];
        QCOMPARE(header, QStringList({"scheduler", "parameters", "budget_bytes", "feasible", "forward_steps",
                                      "recomputed_steps", "makespan_s", "overhead", "peak_L0_bytes", "peak_L1_bytes",
                                      "solve_ms"}));
        for (const QStringList& r : rows)
            QCOMPARE(r.size(), header.size());
        auto field = [&](int row, const char* name) { return rows[row][header.indexOf(name)]; };
        QCOMPARE(field(1, "scheduler"), QString("revolve"));
        QCOMPARE(field(1, "parameters"), QString("slots=3"));
        QCOMPARE(field(1, "makespan_s").toDouble(), a.timeline->totals.makespan_s);
        QCOMPARE(field(1, "forward_steps").toLongLong(), a.timeline->totals.forward_steps);
        QCOMPARE(field(1, "peak_L0_bytes").toLongLong(), a.timeline->totals.peak_bytes[0]);
        QCOMPARE(field(1, "peak_L1_bytes").toLongLong(), a.timeline->totals.peak_bytes[1]);
        QCOMPARE(field(1, "solve_ms").toDouble(), a.solve_ms);
        QCOMPARE(field(2, "budget_bytes"), QString("1000"));
        QCOMPARE(field(2, "feasible"), QString("no"));
        QCOMPARE(field(2, "makespan_s"), QString());
        QCOMPARE(field(3, "scheduler"), odd.scheduler.c_str());
        QCOMPARE(field(3, "parameters"), QString("note=a,b \"c\"\td"));
        // The rows given, in that order.
        const QList<QStringList> two = parseCsv(m.toCsv({2, 0}));
        QCOMPARE(two.size(), 3);
        QCOMPARE(two[1][0], odd.scheduler.c_str());
        QCOMPARE(two[2][0], QString("revolve"));
    }

    // The table started sorted reverse-alphabetically; now by scheduler, then budget from the smallest (none last).
    void startsSortedBySchedulerThenBudget() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        w.document()->settings().schedulers = {"store-all", "revolve", "periodic"};
        w.document()->settings().budgets = "none,60%,30%";
        w.runAllNow();
        QSortFilterProxyModel* proxy = w.comparisonTable()->proxy();
        QCOMPARE(proxy->rowCount(), 9);
        QStringList shown;
        for (int r = 0; r < proxy->rowCount(); ++r)
            shown << proxy->index(r, ComparisonModel::Scheduler).data().toString() + " " +
                         proxy->index(r, ComparisonModel::Budget).data().toString();
        const std::int64_t peak = storeAllPeak(w.document()->problem(), w.document()->hardware());
        const QString b30 = QString::fromStdString(formatBytes(double(std::int64_t(double(peak) * 0.3)))),
                      b60 = QString::fromStdString(formatBytes(double(std::int64_t(double(peak) * 0.6))));
        QCOMPARE(shown,
                 QStringList({"periodic " + b30, "periodic " + b60, "periodic none", "revolve " + b30, "revolve " + b60,
                              "revolve none", "store-all " + b30, "store-all " + b60, "store-all none"}));
    }

    // Long parameters widen their column up to a cap; the tooltip has the whole text.
    void parametersAreShownWhole() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        Run r = runScheduler("revolve", w.document()->chain(), w.document()->hardware(), {});
        Run longer = r;
        longer.params = {{"time_limit", "40.3"}, {"unit_bytes", "65536"}, {"slots", "500"}};
        Run longest = r;
        longest.params = {{"note", std::string(200, 'x')}};
        w.comparisonModel()->setRuns({shared(r), shared(longer), shared(longest)});
        ComparisonTable* table = w.comparisonTable();
        const QFontMetrics fm(table->font());
        const QString text = w.comparisonModel()->index(1, ComparisonModel::Params).data().toString();
        QCOMPARE(text, QString("slots=500 time_limit=40.3 s unit_bytes=64 KiB"));
        QVERIFY2(table->columnWidth(ComparisonModel::Params) >= fm.horizontalAdvance(text),
                 qPrintable(QString::number(table->columnWidth(ComparisonModel::Params))));
        QCOMPARE(table->columnWidth(ComparisonModel::Params), ComparisonTable::kMaxParamsWidth);
        for (int row = 0; row < 3; ++row) {
            const QModelIndex i = w.comparisonModel()->index(row, ComparisonModel::Params);
            if (!i.data().toString().isEmpty()) QCOMPARE(i.data(Qt::ToolTipRole).toString(), i.data().toString());
        }
    }

    // Ctrl+C copied the current cell only; now the selected rows, tab-separated, under a header, as shown.
    void ctrlCCopiesTheSelectedRows() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(kSmall));
        w.document()->settings().schedulers = {"store-all", "revolve"};
        w.document()->settings().budgets = "none,60%";
        w.runAllNow();
        ComparisonTable* table = w.comparisonTable();
        table->selectRow(0);
        table->selectionModel()->select(table->model()->index(2, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QApplication::clipboard()->clear();
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        const QList<QStringList> rows = parseCsv(QApplication::clipboard()->text(), '\t');
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[0].mid(0, 3), QStringList({"scheduler", "parameters", "budget"}));
        QCOMPARE(rows[0].size(), w.comparisonModel()->columnCount());
        for (int k : {1, 2}) {
            const int shownRow = k == 1 ? 0 : 2;
            for (int c = 0; c < w.comparisonModel()->columnCount(); ++c)
                QCOMPARE(rows[k][c], table->model()->index(shownRow, c).data().toString());
        }
        // Saved as CSV: every row, in the order shown.
        const QString csv = m_dir.filePath("table.csv");
        QCOMPARE(table->saveCsv(csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QStringList> saved = parseCsv(QString::fromUtf8(f.readAll()));
        QCOMPARE(saved.size(), w.comparisonModel()->rowCount() + 1);
        for (int r = 0; r < table->model()->rowCount(); ++r)
            QCOMPARE(saved[r + 1][0], table->model()->index(r, 0).data().toString());
    }
};

QTEST_MAIN(TestComparison)
#include "tst_comparison.moc"
