#include "hardwaretablemodel.h"

#include "document.h"
#include "util/units.h"

#include <limits>
#include <utility>

using namespace ckpt;

namespace {
const std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max();
QString rate(double r) {
    return r > 0 ? QString::fromStdString(formatBytes(r)) + "/s" : QStringLiteral("—");
}
} // namespace

HardwareTableModel::HardwareTableModel(Document* doc, QObject* parent) : DocumentTableModel(parent), m_doc(doc) {
    knowRows(rowCount());
    connect(doc, &Document::hardwareChanged, this, [this] { tableChanged(rowCount()); });
    connect(doc, &Document::reset, this, [this] { tableReplaced(rowCount()); });
}

int HardwareTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_doc->levels().size());
}
int HardwareTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HardwareTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const MemoryLevel& l = m_doc->levels()[std::size_t(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name:
            return QString::fromStdString(l.name);
        case Capacity:
            return l.capacity_bytes == kUnbounded ? tr("unbounded")
                                                  : QString::fromStdString(formatBytes(double(l.capacity_bytes)));
        case Read:
            return rate(l.read_bytes_per_s);
        case Write:
            return rate(l.write_bytes_per_s);
        case Latency:
            return QString::fromStdString(formatSeconds(l.latency_s));
        }
    }
    if (role == Qt::EditRole) {
        switch (index.column()) {
        case Name:
            return QString::fromStdString(l.name);
        case Capacity:
            return l.capacity_bytes == kUnbounded ? QStringLiteral("unbounded") : QString::number(l.capacity_bytes);
        case Read:
            return QString::number(l.read_bytes_per_s, 'g', 12);
        case Write:
            return QString::number(l.write_bytes_per_s, 'g', 12);
        case Latency:
            return QString::number(l.latency_s, 'g', 12);
        }
    }
    if (role == Qt::ToolTipRole) {
        static const char* tips[] = {"The level's name", "Capacity: e.g. 40GiB, or 'unbounded'",
                                     "Bytes per second from this level to level 0, e.g. 25GB",
                                     "Bytes per second from level 0 to this level",
                                     "Fixed cost of each transfer, e.g. 10us"};
        return tr(tips[index.column()]);
    }
    if (role == Qt::TextAlignmentRole && index.column() != Name) return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant HardwareTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) return {};
    if (orientation == Qt::Vertical) return tr("L%1").arg(section);
    static const char* names[] = {"name", "capacity", "read", "write", "latency"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

Qt::ItemFlags HardwareTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable;
}

bool HardwareTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid()) return false;
    std::vector<MemoryLevel> levels = m_doc->levels();
    MemoryLevel& l = levels[std::size_t(index.row())];
    const std::string text = value.toString().trimmed().toStdString();
    QString reason;
    switch (index.column()) {
    case Name:
        l.name = text;
        break;
    case Capacity:
        if (text == "unbounded" || text.empty())
            l.capacity_bytes = kUnbounded;
        else if (auto b = parseBytes(text))
            l.capacity_bytes = *b;
        else
            reason = QString::fromStdString(b.error());
        break;
    case Read:
    case Write: {
        std::string t = text;
        if (t.size() > 2 && t.substr(t.size() - 2) == "/s") t.resize(t.size() - 2);
        if (auto b = parseBytes(t))
            (index.column() == Read ? l.read_bytes_per_s : l.write_bytes_per_s) = double(*b);
        else
            reason = QString::fromStdString(b.error());
        break;
    }
    case Latency:
        if (auto s = parseSeconds(text))
            l.latency_s = *s;
        else
            reason = QString::fromStdString(s.error());
        break;
    }
    const QString columnName = headerData(index.column(), Qt::Horizontal).toString();
    if (!reason.isEmpty()) { // which cell, as the step table says it (the engine's refusals name their level)
        reason = tr("level %1, %2: %3").arg(index.row()).arg(columnName, reason);
    } else {
        reason = m_doc->editLevels(levels, tr("Edit level %1 %2").arg(index.row()).arg(columnName));
        // The engine names a file's fields; here they are the table's columns.
        for (const auto& [field, column] : {std::pair{"capacity_bytes", Capacity},
                                            {"read_bytes_per_s", Read},
                                            {"write_bytes_per_s", Write},
                                            {"latency_s", Latency}})
            reason.replace(QLatin1String(field), headerData(column, Qt::Horizontal).toString());
    }
    if (!reason.isEmpty()) {
        emit editRefused(index, reason);
        return false;
    }
    return true;
}
