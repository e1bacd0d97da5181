#pragma once
// The chain as a table: one row per step; times and sizes shown and typed in human units ("3 ms", "512 KiB").
// A value the engine refuses is not applied; editRefused() says why.
#include "documenttablemodel.h"

#include <QAbstractTableModel>
#include <QColor>
#include <vector>

namespace ckpt {
struct Plan;
struct Narration;
} // namespace ckpt

class Document;

class ChainTableModel : public DocumentTableModel {
    Q_OBJECT
public:
    enum Column { Forward, Backward, State, Tape, ForwardTmp, BackwardTmp, ColumnCount };
    explicit ChainTableModel(Document* doc, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    // What the shown plan holds at the window's cursor, per row (row r is step r + 1, whose input is x_r): x_r a
    // checkpoint of level 0, x_r on a slower level, the tape of step r + 1 held, how often step r + 1 has run, and
    // the row of the cursor's action. Drawn as cell colours (state, tape, forward) and a bold row; empty: no marks.
    struct CursorMarks {
        std::vector<char> checkpoint, slower, tape;
        std::vector<int> runs;
        int current = -1;
    };
    // The marks of a chain plan's action `action` (-1 or past the end: none), as the narration of the plan tells it.
    static CursorMarks marksAt(const ckpt::Plan& plan, const ckpt::Narration& told, int action, int rows);
    void setCursorMarks(CursorMarks marks);
    const CursorMarks& cursorMarks() const { return m_marks; }

    // Sets one column of many rows at once (one undo step). Returns the refusal reason, or empty.
    QString setColumn(const QList<int>& rows, int column, const QString& text);

signals:
    void editRefused(const QModelIndex& index, const QString& reason);

private:
    QColor markColour(int row, int column) const;
    QString markText(int row, int column) const;
    Document* m_doc;
    CursorMarks m_marks;
};
