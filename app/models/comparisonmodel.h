#pragma once
// One row per run: the fields of `ckpt solve --json` (engine/run/runner.h summaryJson), so the table and the
// command line always agree. Sort it through a QSortFilterProxyModel (numbers sort as numbers: Qt::UserRole).
#include "run/runner.h"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Scheduler,
        Params,
        Budget,
        Feasible,
        ForwardSteps,
        Recomputed,
        Makespan,
        Overhead,
        Peak0,
        SolveMs,
        ColumnCount
    };
    explicit ComparisonModel(QObject* parent = nullptr);

    void setRuns(std::vector<std::shared_ptr<const ckpt::Run>> runs);
    const std::vector<std::shared_ptr<const ckpt::Run>>& runs() const { return m_runs; }
    // Why the runs no longer match the document (empty: they do). Stale rows are greyed and their tooltip says why.
    void setStale(const QString& reason);
    bool isStale() const { return !m_stale.isEmpty(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<std::shared_ptr<const ckpt::Run>> m_runs;
    std::vector<nlohmann::json> m_rows; // summaryJson of each run
    QString m_stale;
};
