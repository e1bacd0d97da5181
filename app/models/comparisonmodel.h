#pragma once
// One row per run: the fields of `ckpt solve --json` (engine/run/runner.h summaryJson), so the table and the
// command line always agree. Sort it through a QSortFilterProxyModel (numbers sort as numbers: Qt::UserRole; the
// scheduler column sorts by scheduler, then budget). One peak column per memory level the runs have.
#include "run/runner.h"

#include <QAbstractTableModel>
#include <QList>
#include <memory>
#include <vector>

class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // The fixed columns; the peaks of levels 1, 2, ... follow Peak0, then the solve time (solveColumn()).
    enum Column { Scheduler, Params, Budget, Feasible, ForwardSteps, Recomputed, Makespan, Overhead, Peak0 };
    explicit ComparisonModel(QObject* parent = nullptr);

    void setRuns(std::vector<std::shared_ptr<const ckpt::Run>> runs);
    const std::vector<std::shared_ptr<const ckpt::Run>>& runs() const { return m_runs; }
    // Why the runs no longer match the document (empty: they do). Stale rows are greyed and their tooltip says why.
    void setStale(const QString& reason);
    bool isStale() const { return !m_stale.isEmpty(); }
    int levelCount() const { return m_levels; } // peak columns
    int peakColumn(int level) const { return Peak0 + level; }
    int solveColumn() const { return Peak0 + m_levels; }

    // The rows (source rows in this order; empty: all) with a header line, fields separated by `sep`, each quoted
    // (RFC 4180: in double quotes, quotes doubled) when it holds the separator, a quote or a line break. `raw`: plain
    // numbers in SI units (bytes, seconds) that a program reads back exactly; else the text the table shows.
    QString toText(const QList<int>& rows, QChar sep, bool raw) const;
    QString toCsv(const QList<int>& rows = {}) const { return toText(rows, ',', true); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString rawField(int row, int column) const;
    QString rawHeader(int column) const;
    std::vector<std::shared_ptr<const ckpt::Run>> m_runs;
    std::vector<nlohmann::json> m_rows; // summaryJson of each run
    QString m_stale;
    int m_levels = 1;
};
