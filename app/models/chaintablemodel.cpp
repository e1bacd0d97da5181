#include "chaintablemodel.h"

#include "document.h"
#include "plan/plan.h"
#include "run/narrate.h"
#include "util/units.h"

#include <QFont>

using namespace ckpt;

namespace {

bool isTime(int column) {
    return column == ChainTableModel::Forward || column == ChainTableModel::Backward;
}

double get(const Step& s, int column) {
    switch (column) {
    case ChainTableModel::Forward:
        return s.forward;
    case ChainTableModel::Backward:
        return s.backward;
    case ChainTableModel::State:
        return double(s.state_bytes);
    case ChainTableModel::Tape:
        return double(s.tape_bytes);
    case ChainTableModel::ForwardTmp:
        return double(s.forward_tmp_bytes);
    case ChainTableModel::BackwardTmp:
        return double(s.backward_tmp_bytes);
    }
    return 0;
}

// Parses `text` for `column` into the step; returns the reason on failure.
QString put(Step& s, int column, const QString& text) {
    if (isTime(column)) {
        auto v = parseSeconds(text.toStdString());
        if (!v) return QString::fromStdString(v.error());
        (column == ChainTableModel::Forward ? s.forward : s.backward) = *v;
        return {};
    }
    auto v = parseBytes(text.toStdString());
    if (!v) return QString::fromStdString(v.error());
    switch (column) {
    case ChainTableModel::State:
        s.state_bytes = *v;
        break;
    case ChainTableModel::Tape:
        s.tape_bytes = *v;
        break;
    case ChainTableModel::ForwardTmp:
        s.forward_tmp_bytes = *v;
        break;
    case ChainTableModel::BackwardTmp:
        s.backward_tmp_bytes = *v;
        break;
    }
    return {};
}

} // namespace

ChainTableModel::ChainTableModel(Document* doc, QObject* parent) : DocumentTableModel(parent), m_doc(doc) {
    knowRows(rowCount());
    connect(doc, &Document::chainChanged, this, [this] { tableChanged(rowCount()); });
    connect(doc, &Document::reset, this, [this] { tableReplaced(rowCount()); });
}

int ChainTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_doc->steps().size());
}
int ChainTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

void ChainTableModel::setCursorMarks(CursorMarks marks) {
    m_marks = std::move(marks);
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1),
                         {Qt::BackgroundRole, Qt::FontRole, Qt::ToolTipRole});
}

static bool marked(const std::vector<char>& v, int row) {
    return row >= 0 && std::size_t(row) < v.size() && v[std::size_t(row)];
}

// Colours light enough for dark text in either palette's table.
QColor ChainTableModel::markColour(int row, int column) const {
    if (column == State && marked(m_marks.checkpoint, row)) return QColor(190, 220, 245);
    if (column == State && marked(m_marks.slower, row)) return QColor(215, 215, 215);
    if (column == Tape && marked(m_marks.tape, row)) return QColor(246, 225, 160);
    if (column == Forward && row >= 0 && std::size_t(row) < m_marks.runs.size() && m_marks.runs[std::size_t(row)] > 1)
        return QColor(200, 235, 250);
    return {};
}

QString ChainTableModel::markText(int row, int column) const {
    if (column == State && marked(m_marks.checkpoint, row)) return tr("At the cursor: x%1 is a checkpoint").arg(row);
    if (column == State && marked(m_marks.slower, row)) return tr("At the cursor: x%1 is on a slower level").arg(row);
    if (column == Tape && marked(m_marks.tape, row))
        return tr("At the cursor: the tape of step %1 is held").arg(row + 1);
    if (column == Forward && row >= 0 && std::size_t(row) < m_marks.runs.size() && m_marks.runs[std::size_t(row)] > 1)
        return tr("At the cursor: step %1 has run %2 times (recomputed)")
            .arg(row + 1)
            .arg(m_marks.runs[std::size_t(row)]);
    return {};
}

QVariant ChainTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const Step& s = m_doc->steps()[std::size_t(index.row())];
    double v = get(s, index.column());
    switch (role) {
    case Qt::DisplayRole:
        return QString::fromStdString(isTime(index.column()) ? formatSeconds(v) : formatBytes(v));
    case Qt::EditRole:
        return isTime(index.column()) ? QString::number(v, 'g', 12) : QString::number(qint64(v));
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole: {
        QString tip = isTime(index.column()) ? tr("%1 s. Type e.g. 3ms, 12us or 0.002").arg(v, 0, 'g', 12)
                                             : tr("%1 bytes. Type e.g. 512KiB, 3MiB or 4096").arg(qint64(v));
        if (QString at = markText(index.row(), index.column()); !at.isEmpty()) tip += "\n" + at;
        return tip;
    }
    case Qt::BackgroundRole:
        if (QColor c = markColour(index.row(), index.column()); c.isValid()) return c;
        return {};
    case Qt::FontRole:
        if (index.row() == m_marks.current) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    }
    return {};
}

QVariant ChainTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role == Qt::DisplayRole) {
        if (orientation == Qt::Vertical) return section + 1;
        static const char* names[] = {"forward", "backward", "state", "tape", "fwd tmp", "bwd tmp"};
        if (section >= 0 && section < ColumnCount) return tr(names[section]);
    }
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal) {
        static const char* tips[] = {"Time of the step's forward",
                                     "Time of the step's backward",
                                     "Bytes of the step's input state (what a checkpoint holds)",
                                     "Bytes its backward needs, recorded by a taped forward",
                                     "Temporary bytes during the forward",
                                     "Temporary bytes during the backward"};
        if (section >= 0 && section < ColumnCount) return tr(tips[section]);
    }
    return {};
}

Qt::ItemFlags ChainTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable;
}

bool ChainTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid()) return false;
    QString reason = setColumn({index.row()}, index.column(), value.toString());
    if (!reason.isEmpty()) {
        emit editRefused(index, reason);
        return false;
    }
    return true;
}

QString ChainTableModel::setColumn(const QList<int>& rows, int column, const QString& text) {
    std::vector<Step> steps = m_doc->steps();
    for (int r : rows) {
        if (r < 0 || r >= int(steps.size())) continue;
        QString reason = put(steps[std::size_t(r)], column, text);
        if (!reason.isEmpty())
            return tr("step %1, %2: %3").arg(r + 1).arg(headerData(column, Qt::Horizontal).toString(), reason);
    }
    QString what = rows.size() == 1
                       ? tr("Edit step %1 %2").arg(rows.front() + 1).arg(headerData(column, Qt::Horizontal).toString())
                       : tr("Edit %1 steps").arg(rows.size());
    return m_doc->editSteps(steps, what);
}

ChainTableModel::CursorMarks ChainTableModel::marksAt(const ckpt::Plan& plan, const ckpt::Narration& told, int action,
                                                      int rows) {
    using namespace ckpt;
    CursorMarks marks;
    if (action < 0 || std::size_t(action) >= told.actions.size() || std::size_t(action) >= plan.actions.size())
        return marks;
    marks.checkpoint.assign(std::size_t(rows), 0);
    marks.slower.assign(std::size_t(rows), 0);
    marks.tape.assign(std::size_t(rows), 0);
    marks.runs.assign(std::size_t(rows), 0);
    const NarratedAction& now = told.actions[std::size_t(action)];
    auto set = [rows](std::vector<char>& v, int row) {
        if (row >= 0 && row < rows) v[std::size_t(row)] = 1;
    };
    for (int j : now.checkpoints)
        set(marks.checkpoint, j);
    for (std::size_t l = 1; l < now.held.states.size(); ++l)
        for (int j : now.held.states[l])
            set(marks.slower, j);
    for (int step : now.held.tapes)
        set(marks.tape, step - 1);
    for (int k = 0; k <= action; ++k)
        if (const Action& a = plan.actions[std::size_t(k)];
            a.kind == ActionKind::Forward && a.index >= 1 && a.index <= rows)
            ++marks.runs[std::size_t(a.index - 1)];
    const Action& a = plan.actions[std::size_t(action)];
    const bool compute = a.kind == ActionKind::Forward || a.kind == ActionKind::Backward;
    marks.current = compute ? a.index - 1 : a.index; // a step's row, or the row whose input is the state moved
    return marks;
}
