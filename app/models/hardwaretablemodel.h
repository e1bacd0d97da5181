#pragma once
// The machine's memory levels as a table: name, capacity, read and write bandwidth, latency.
#include "documenttablemodel.h"

#include <QAbstractTableModel>

class Document;

class HardwareTableModel : public DocumentTableModel {
    Q_OBJECT
public:
    enum Column { Name, Capacity, Read, Write, Latency, ColumnCount };
    explicit HardwareTableModel(Document* doc, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    void editRefused(const QModelIndex& index, const QString& reason);

private:
    Document* m_doc;
};
