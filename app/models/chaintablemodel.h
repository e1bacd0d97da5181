#pragma once
// The chain as a table: one row per step; times and sizes shown and typed in human units ("3 ms", "512 KiB").
// A value the engine refuses is not applied; editRefused() says why.
#include <QAbstractTableModel>

class Document;

class ChainTableModel : public QAbstractTableModel {
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

    // Sets one column of many rows at once (one undo step). Returns the refusal reason, or empty.
    QString setColumn(const QList<int>& rows, int column, const QString& text);

signals:
    void editRefused(const QModelIndex& index, const QString& reason);

private:
    Document* m_doc;
};
