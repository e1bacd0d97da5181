#pragma once
// The Comparison tab: the runs' table, sorted by scheduler then budget at first, columns sized to their text (long
// parameters are capped and shown whole in a tooltip). Ctrl+C copies the selected rows as tab-separated text with a
// header (for a spreadsheet); the context menu copies them too, or saves the table as CSV (ComparisonModel::toCsv).
#include <QList>
#include <QTableView>

class ComparisonModel;
class QSortFilterProxyModel;

class ComparisonTable : public QTableView {
    Q_OBJECT
public:
    ComparisonTable(ComparisonModel* model, QWidget* parent = nullptr);

    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QList<int> shownRows() const;    // the model's rows in the order shown
    QList<int> selectedRows() const; // the selected ones, in the order shown
    QString selectionText() const;   // what Ctrl+C copies: the selected rows (all when none is selected)
    void copySelection();
    // Writes the rows as shown; the error (naming the file) or empty.
    QString saveCsv(const QString& path) const;
    static constexpr int kMaxParamsWidth = 420; // px; the tooltip has the rest

signals:
    void runActivated(int row); // a double click on a row of the model
    void saveCsvRequested();    // "Save as CSV…" in the context menu

protected:
    void keyPressEvent(QKeyEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;

private:
    void fitColumns();
    ComparisonModel* m_model;
    QSortFilterProxyModel* m_proxy;
};
