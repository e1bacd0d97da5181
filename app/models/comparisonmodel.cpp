#include "comparisonmodel.h"

#include "util/units.h"

using namespace ckpt;

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonModel::setRuns(std::vector<std::shared_ptr<const Run>> runs) {
    beginResetModel();
    m_runs = std::move(runs);
    m_rows.clear();
    for (const auto& r : m_runs)
        m_rows.push_back(summaryJson(*r));
    endResetModel();
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}
int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const nlohmann::json& j = m_rows[std::size_t(index.row())];
    const bool ok = j.value("feasible", false);
    auto number = [&](const char* key) { return j.contains(key) ? j[key].get<double>() : 0.0; };
    if (role == Qt::UserRole) { // sort key
        switch (index.column()) {
        case Scheduler:
            return QString::fromStdString(j["scheduler"].get<std::string>());
        case Params:
            return QString::fromStdString(j["params"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        case Budget:
            return number("budget_bytes");
        case Feasible:
            return ok;
        case ForwardSteps:
            return number("forward_steps");
        case Recomputed:
            return number("recomputed_steps");
        case Makespan:
            return ok ? number("makespan_s") : 1e300;
        case Overhead:
            return ok ? number("overhead") : 1e300;
        case Peak0:
            return ok ? j["peak_bytes"][0].get<double>() : 1e300;
        case SolveMs:
            return number("solve_ms");
        }
    }
    const bool available = j.value("available", true);
    if (role == Qt::ToolTipRole && !available) return QString::fromStdString(j.value("reason", std::string()));
    if (role == Qt::ToolTipRole && !ok && j.contains("message"))
        return QString::fromStdString(j["message"].get<std::string>());
    if (role == Qt::TextAlignmentRole && index.column() >= Budget) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case Scheduler:
        return QString::fromStdString(j["scheduler"].get<std::string>());
    case Params: {
        QString s;
        for (auto it = j["params"].begin(); it != j["params"].end(); ++it)
            s += QString::fromStdString(it.key() + "=" + formatParamValue(it.key(), it.value().get<std::string>()) +
                                        "  ");
        return s.trimmed();
    }
    case Budget:
        return number("budget_bytes") > 0 ? QString::fromStdString(formatBytes(number("budget_bytes"))) : tr("none");
    case Feasible:
        return ok ? tr("yes") : available ? tr("no") : tr("n/a");
    }
    if (!ok) return index.column() == ForwardSteps ? (available ? tr("infeasible") : tr("n/a")) : QVariant();
    switch (index.column()) {
    case ForwardSteps:
        return qlonglong(number("forward_steps"));
    case Recomputed:
        return qlonglong(number("recomputed_steps"));
    case Makespan:
        return QString::fromStdString(formatSeconds(number("makespan_s")));
    case Overhead:
        return QString::number(number("overhead"), 'f', 3) + "×";
    case Peak0:
        return QString::fromStdString(formatBytes(j["peak_bytes"][0].get<double>()));
    case SolveMs:
        return QString::number(number("solve_ms"), 'f', 1) + " ms";
    }
    return {};
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* names[] = {"scheduler",  "parameters", "budget",   "feasible", "forward steps",
                                  "recomputed", "makespan",   "overhead", "peak L0",  "solve"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}
