#pragma once
// A table of the document's steps, nodes or levels. An edit that keeps the number of rows is told to views as
// changed cells, not as a reset: a view keeps its current cell, selection and scroll position, so the keyboard goes
// on from the edited cell (a reset also closed the editor while its value was being committed, and Qt warned that
// "an editor does not belong to this view"). A new row count, or another problem, resets.
#include <QAbstractTableModel>

class DocumentTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

protected:
    // The rows the views know, when the model is made.
    void knowRows(int rows) { m_rows = rows; }
    // The document's table changed; it now has `rows` rows.
    void tableChanged(int rows) {
        if (rows != m_rows) return tableReplaced(rows);
        if (rows == 0) return;
        emit dataChanged(index(0, 0), index(rows - 1, columnCount() - 1));
        emit headerDataChanged(Qt::Vertical, 0, rows - 1);
    }
    // Another problem was opened.
    void tableReplaced(int rows) {
        beginResetModel();
        m_rows = rows;
        endResetModel();
    }

private:
    int m_rows = 0;
};
