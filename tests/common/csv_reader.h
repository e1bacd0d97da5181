#pragma once
// A CSV file as RFC 4180 writes it (quoted fields may hold commas, doubled quotes and line breaks), read into rows of
// named fields, so a test checks what a program wrote field by field.
#include <QFile>
#include <QMap>
#include <QString>
#include <QStringList>

namespace ckpt::test {

inline QList<QStringList> csvRecords(const QByteArray& bytes) {
    const QString text = QString::fromUtf8(bytes);
    QList<QStringList> out;
    QStringList row;
    QString field;
    bool quoted = false, any = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = any = true;
        } else if (c == ',') {
            row << field, field.clear();
        } else if (c == '\n') {
            row << field, field.clear();
            out << row, row.clear();
        } else if (c != '\r') {
            field += c, any = true;
        }
    }
    if (!field.isEmpty() || !row.isEmpty()) out << (row << field);
    return out;
}

// Rows as {column: value}; `header` gets the column names in order.
inline QList<QMap<QString, QString>> csvRows(const QString& path, QStringList* header = nullptr) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QList<QStringList> records = csvRecords(f.readAll());
    QList<QMap<QString, QString>> out;
    if (records.isEmpty()) return out;
    if (header) *header = records[0];
    for (qsizetype r = 1; r < records.size(); ++r) {
        QMap<QString, QString> row;
        for (qsizetype c = 0; c < records[0].size(); ++c)
            row[records[0][c]] = c < records[r].size() ? records[r][c] : QString();
        row["#fields"] = QString::number(records[r].size());
        out << row;
    }
    return out;
}

} // namespace ckpt::test
