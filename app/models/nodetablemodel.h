#pragma once
// The graph's nodes as a table: one row per node (in the file's order); times and sizes shown and typed in human
// units, flags as words ("inputs output reversible"), inputs as a comma-separated list of node ids. A value the
// engine refuses (a cycle, a duplicate id, a negative size) is not applied; editRefused() says why.
#include "documenttablemodel.h"

#include <QAbstractTableModel>

class Document;

class NodeTableModel : public DocumentTableModel {
    Q_OBJECT
public:
    enum Column { Id, Forward, Backward, Output, Workspace, Flags, Inputs, ColumnCount };
    explicit NodeTableModel(Document* doc, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    void editRefused(const QModelIndex& index, const QString& reason);

private:
    QString put(int row, int column, const QString& text); // the refusal, or empty
    Document* m_doc;
};
