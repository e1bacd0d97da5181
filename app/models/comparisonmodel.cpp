#include "comparisonmodel.h"

#include "util/units.h"

#include <QColor>
#include <algorithm>

using namespace ckpt;

namespace {
// As a person reads them (units, few digits), or `raw` as the scheduler took them (the CSV: a program reads it).
QString paramsText(const nlohmann::json& j, bool raw = false) {
    QString s;
    for (auto it = j["params"].begin(); it != j["params"].end(); ++it) {
        const std::string v = it.value().get<std::string>();
        s += QString::fromStdString(it.key() + "=" + (raw ? v : formatParamValue(it.key(), v)) + " ");
    }
    return s.trimmed();
}

// Enough digits that the number reads back as the same double.
QString exact(double v) {
    return QString::number(v, 'g', 17);
}

QString quoted(const QString& field, QChar sep) {
    if (!field.contains(sep) && !field.contains('"') && !field.contains('\n') && !field.contains('\r')) return field;
    QString q = field;
    q.replace('"', "\"\"");
    return '"' + q + '"';
}

constexpr double kNone = 1e300; // sorts after every number: no budget, no result
} // namespace

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonModel::setRuns(std::vector<std::shared_ptr<const Run>> runs) {
    beginResetModel();
    m_runs = std::move(runs);
    m_rows.clear();
    m_levels = 1;
    for (const auto& r : m_runs) {
        m_rows.push_back(summaryJson(*r));
        if (r->timeline) m_levels = std::max(m_levels, int(r->timeline->totals.peak_bytes.size()));
    }
    endResetModel();
}

void ComparisonModel::setStale(const QString& reason) {
    if (reason == m_stale) return;
    m_stale = reason;
    if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}
int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : solveColumn() + 1;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    const nlohmann::json& j = m_rows[std::size_t(index.row())];
    const bool ok = j.value("feasible", false);
    const int column = index.column();
    auto number = [&](const char* key) { return j.contains(key) ? j[key].get<double>() : 0.0; };
    auto peak = [&](int level) { // -1: none (an infeasible run, or a level this run's machine lacks)
        if (!ok || !j.contains("peak_bytes") || level >= int(j["peak_bytes"].size())) return -1.0;
        return j["peak_bytes"][std::size_t(level)].get<double>();
    };
    const int level = column - Peak0;
    const bool isPeak = column >= Peak0 && column < solveColumn();
    if (role == Qt::UserRole) { // sort key
        if (isPeak) return peak(level) >= 0 ? peak(level) : kNone;
        if (column == solveColumn()) return number("solve_ms");
        const double budget = number("budget_bytes") > 0 ? number("budget_bytes") : kNone;
        switch (column) {
        case Scheduler: // then by budget: a comparison reads scheduler by scheduler, smallest budget first
            return QString::fromStdString(j["scheduler"].get<std::string>()) + '\t' +
                   (budget == kNone ? QStringLiteral("~") : QString::number(qint64(budget)).rightJustified(20, '0'));
        case Params:
            return paramsText(j);
        case Budget:
            return budget;
        case Feasible:
            return ok;
        case ForwardSteps:
            return number("forward_steps");
        case Recomputed:
            return number("recomputed_steps");
        case Makespan:
            return ok ? number("makespan_s") : kNone;
        case Overhead:
            return ok ? number("overhead") : kNone;
        }
        return {};
    }
    if (!m_stale.isEmpty() && role == Qt::ForegroundRole) return QColor(Qt::gray);
    if (!m_stale.isEmpty() && role == Qt::ToolTipRole)
        return tr("Out of date: %1 since this run; Run all (Shift+F5) to refresh").arg(m_stale);
    const bool available = j.value("available", true);
    if (role == Qt::ToolTipRole) {
        // The whole text, which a narrow column cuts.
        if (column == Params && !paramsText(j).isEmpty()) return paramsText(j);
        if (!available) return QString::fromStdString(j.value("reason", std::string()));
        if (!ok && j.contains("message")) return QString::fromStdString(j["message"].get<std::string>());
        return {};
    }
    if (role == Qt::TextAlignmentRole && column >= Budget) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    switch (column) {
    case Scheduler:
        return QString::fromStdString(j["scheduler"].get<std::string>());
    case Params:
        return paramsText(j);
    case Budget:
        return number("budget_bytes") > 0 ? QString::fromStdString(formatBytes(number("budget_bytes"))) : tr("none");
    case Feasible:
        return ok ? tr("yes") : available ? tr("no") : tr("n/a");
    }
    if (!ok) return column == ForwardSteps ? (available ? tr("infeasible") : tr("n/a")) : QVariant();
    if (isPeak) return peak(level) >= 0 ? QString::fromStdString(formatBytes(peak(level))) : QVariant();
    if (column == solveColumn()) return QString::number(number("solve_ms"), 'f', 1) + " ms";
    switch (column) {
    case ForwardSteps:
        return qlonglong(number("forward_steps"));
    case Recomputed:
        return qlonglong(number("recomputed_steps"));
    case Makespan:
        return QString::fromStdString(formatSeconds(number("makespan_s")));
    case Overhead:
        return QString::number(number("overhead"), 'f', 3) + "×";
    }
    return {};
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* names[] = {"scheduler",     "parameters", "budget",   "feasible",
                                  "forward steps", "recomputed", "makespan", "overhead"};
    if (section >= 0 && section < Peak0) return tr(names[section]);
    if (section >= Peak0 && section < solveColumn()) return tr("peak L%1").arg(section - Peak0);
    if (section == solveColumn()) return tr("solve");
    return {};
}

QString ComparisonModel::rawHeader(int column) const {
    static const char* names[] = {"scheduler",     "parameters",       "budget_bytes", "feasible",
                                  "forward_steps", "recomputed_steps", "makespan_s",   "overhead"};
    if (column < Peak0) return names[column];
    if (column < solveColumn()) return QStringLiteral("peak_L%1_bytes").arg(column - Peak0);
    return QStringLiteral("solve_ms");
}

QString ComparisonModel::rawField(int row, int column) const {
    const nlohmann::json& j = m_rows[std::size_t(row)];
    const bool ok = j.value("feasible", false);
    auto number = [&](const char* key) { return j.contains(key) ? exact(j[key].get<double>()) : QString(); };
    if (column == Scheduler) return QString::fromStdString(j["scheduler"].get<std::string>());
    if (column == Params) return paramsText(j, true);
    if (column == Budget) return QString::number(j.value("budget_bytes", std::int64_t(0)));
    if (column == Feasible) return data(index(row, column)).toString();
    if (column == solveColumn()) return number("solve_ms");
    if (!ok) return {};
    if (column >= Peak0) {
        const auto& p = j["peak_bytes"];
        const std::size_t level = std::size_t(column - Peak0);
        return level < p.size() ? QString::number(p[level].get<std::int64_t>()) : QString();
    }
    switch (column) {
    case ForwardSteps:
        return QString::number(j["forward_steps"].get<std::int64_t>());
    case Recomputed:
        return QString::number(j["recomputed_steps"].get<std::int64_t>());
    case Makespan:
        return number("makespan_s");
    case Overhead:
        return number("overhead");
    }
    return {};
}

QString ComparisonModel::toText(const QList<int>& rows, QChar sep, bool raw) const {
    QList<int> order = rows;
    if (order.isEmpty())
        for (int r = 0; r < rowCount(); ++r)
            order << r;
    QStringList fields;
    for (int c = 0; c < columnCount(); ++c)
        fields << quoted(raw ? rawHeader(c) : headerData(c, Qt::Horizontal).toString(), sep);
    QString out = fields.join(sep) + '\n';
    for (int r : order) {
        if (r < 0 || r >= rowCount()) continue;
        fields.clear();
        for (int c = 0; c < columnCount(); ++c)
            fields << quoted(raw ? rawField(r, c) : data(index(r, c)).toString(), sep);
        out += fields.join(sep) + '\n';
    }
    return out;
}
