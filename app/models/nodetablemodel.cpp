#include "nodetablemodel.h"

#include "document.h"
#include "util/units.h"

#include <QRegularExpression>

using namespace ckpt;

namespace {

QString flagsText(const GraphNode& n) {
    QStringList f;
    if (n.needs_inputs) f << "inputs";
    if (n.needs_output) f << "output";
    if (n.reversible) f << "reversible";
    if (n.in_place) f << "in-place";
    return f.join(' ');
}

// "inputs output", "output, reversible in-place", "" (none); the words may be abbreviated to their first letter
// (in-place to "inpl", as "in" is taken by inputs; "inplace" and "in_place" are read too).
QString parseFlags(const QString& text, GraphNode& n) {
    n.needs_inputs = n.needs_output = n.reversible = n.in_place = false;
    const QStringList words = text.toLower().split(QRegularExpression("[\\s,;|+]+"), Qt::SkipEmptyParts);
    for (const QString& w : words) {
        QString bare = w;
        bare.remove('-').remove('_');
        if (bare.size() >= 4 && QString("inplace").startsWith(bare))
            n.in_place = true;
        else if (QString("inputs").startsWith(w))
            n.needs_inputs = true;
        else if (QString("output").startsWith(w))
            n.needs_output = true;
        else if (QString("reversible").startsWith(w))
            n.reversible = true;
        else if (w != "none" && w != "-")
            return QObject::tr("'%1' is not a flag: expected inputs, output, reversible or in-place (or none)").arg(w);
    }
    return {};
}

} // namespace

NodeTableModel::NodeTableModel(Document* doc, QObject* parent) : DocumentTableModel(parent), m_doc(doc) {
    knowRows(rowCount());
    connect(doc, &Document::graphChanged, this, [this] { tableChanged(rowCount()); });
    connect(doc, &Document::reset, this, [this] { tableReplaced(rowCount()); });
}

int NodeTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_doc->nodes().size());
}
int NodeTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const GraphNode& n = m_doc->nodes()[std::size_t(index.row())];
    const int c = index.column();
    const bool time = c == Forward || c == Backward;
    const double v = c == Forward     ? n.forward
                     : c == Backward  ? n.backward
                     : c == Output    ? double(n.output_bytes)
                     : c == Workspace ? double(n.workspace_bytes)
                                      : 0.0;
    switch (role) {
    case Qt::DisplayRole:
        if (c == Id) return QString::fromStdString(n.id);
        if (c == Flags) return flagsText(n);
        if (c == Inputs) return m_doc->nodeInputs(index.row()).join(", ");
        return QString::fromStdString(time ? formatSeconds(v) : formatBytes(v));
    case Qt::EditRole:
        if (c == Id) return QString::fromStdString(n.id);
        if (c == Flags) return flagsText(n);
        if (c == Inputs) return m_doc->nodeInputs(index.row()).join(", ");
        return time ? QString::number(v, 'g', 12) : QString::number(qint64(v));
    case Qt::TextAlignmentRole:
        return int((c == Id || c == Flags || c == Inputs ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (c == Id) return tr("The node's name; renaming it renames it in the edges too");
        if (c == Flags)
            return tr("What the backward needs: inputs, output (both, or none); reversible if it can rebuild its input "
                      "from its output; in-place if its output may be written over its one input (as ReLU)");
        if (c == Inputs) return tr("The nodes this one consumes, comma-separated (edits the edges into it)");
        return time ? tr("%1 s. Type e.g. 3ms, 12us or 0.002").arg(v, 0, 'g', 12)
                    : tr("%1 bytes. Type e.g. 512KiB, 3MiB or 4096").arg(qint64(v));
    }
    return {};
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role == Qt::DisplayRole) {
        if (orientation == Qt::Vertical) return section + 1;
        static const char* names[] = {"id", "forward", "backward", "output", "workspace", "flags", "inputs"};
        if (section >= 0 && section < ColumnCount) return tr(names[section]);
    }
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal) {
        static const char* tips[] = {
            "The node's name",
            "Time of the node's forward",
            "Time of the node's backward",
            "Bytes of the node's output tensor",
            "Temporary bytes while its forward or backward runs",
            "What its backward needs (inputs, output), whether it is reversible or runs in place",
            "The nodes whose outputs it consumes"};
        if (section >= 0 && section < ColumnCount) return tr(tips[section]);
    }
    return {};
}

Qt::ItemFlags NodeTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable;
}

bool NodeTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid() || index.row() >= rowCount()) return false;
    QString reason = put(index.row(), index.column(), value.toString());
    if (!reason.isEmpty()) {
        emit editRefused(index, reason);
        return false;
    }
    return true;
}

QString NodeTableModel::put(int row, int column, const QString& text) {
    GraphNode n = m_doc->nodes()[std::size_t(row)];
    const QString where =
        tr("node %1, %2: ").arg(QString::fromStdString(n.id), headerData(column, Qt::Horizontal).toString());
    switch (column) {
    case Id: {
        QString id = text.trimmed();
        if (id.isEmpty()) return where + tr("the id cannot be empty");
        n.id = id.toStdString();
        break;
    }
    case Forward:
    case Backward: {
        auto v = parseSeconds(text.toStdString());
        if (!v) return where + QString::fromStdString(v.error());
        (column == Forward ? n.forward : n.backward) = *v;
        break;
    }
    case Output:
    case Workspace: {
        auto v = parseBytes(text.toStdString());
        if (!v) return where + QString::fromStdString(v.error());
        (column == Output ? n.output_bytes : n.workspace_bytes) = *v;
        break;
    }
    case Flags:
        if (QString bad = parseFlags(text, n); !bad.isEmpty()) return where + bad;
        break;
    case Inputs: {
        QStringList ids;
        for (const QString& s : text.split(',', Qt::SkipEmptyParts))
            if (!s.trimmed().isEmpty()) ids << s.trimmed();
        return m_doc->setNodeInputs(row, ids);
    }
    default:
        return tr("no column %1").arg(column);
    }
    return m_doc->editNode(row, n);
}
