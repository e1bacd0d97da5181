#include "comparisontable.h"

#include "models/comparisonmodel.h"
#include "util/files.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <algorithm>

ComparisonTable::ComparisonTable(ComparisonModel* model, QWidget* parent)
    : QTableView(parent), m_model(model), m_proxy(new QSortFilterProxyModel(this)) {
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(Qt::UserRole);
    setModel(m_proxy);
    setSortingEnabled(true);
    // The header's default indicator is descending: the table started reverse-alphabetical.
    sortByColumn(ComparisonModel::Scheduler, Qt::AscendingOrder);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    verticalHeader()->setVisible(false);
    setWordWrap(false);
    setTextElideMode(Qt::ElideRight);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &ComparisonTable::fitColumns);
    connect(this, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { emit runActivated(m_proxy->mapToSource(index).row()); });
}

void ComparisonTable::fitColumns() {
    resizeColumnsToContents();
    if (columnWidth(ComparisonModel::Params) > kMaxParamsWidth)
        setColumnWidth(ComparisonModel::Params, kMaxParamsWidth);
    resizeRowsToContents();
}

QList<int> ComparisonTable::shownRows() const {
    QList<int> rows;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        rows << m_proxy->mapToSource(m_proxy->index(r, 0)).row();
    return rows;
}

QList<int> ComparisonTable::selectedRows() const {
    QList<int> shown;
    for (const QModelIndex& i : selectionModel()->selectedRows())
        shown << i.row();
    std::sort(shown.begin(), shown.end());
    QList<int> rows;
    for (int r : shown)
        rows << m_proxy->mapToSource(m_proxy->index(r, 0)).row();
    return rows;
}

QString ComparisonTable::selectionText() const {
    const QList<int> rows = selectedRows();
    return m_model->toText(rows.isEmpty() ? shownRows() : rows, '\t', false);
}

void ComparisonTable::copySelection() {
    QApplication::clipboard()->setText(selectionText());
}

QString ComparisonTable::saveCsv(const QString& path) const {
    auto ok = ckpt::writeTextFileAtomic(path.toStdString(), m_model->toCsv(shownRows()).toStdString());
    return ok ? QString() : QString::fromStdString(ok.error());
}

void ComparisonTable::keyPressEvent(QKeyEvent* e) {
    // QTableView's own Ctrl+C copies the current cell only.
    if (e->matches(QKeySequence::Copy)) {
        copySelection();
        return e->accept();
    }
    QTableView::keyPressEvent(e);
}

void ComparisonTable::contextMenuEvent(QContextMenuEvent* e) {
    QMenu menu(this);
    QAction* copy = menu.addAction(selectedRows().isEmpty() ? tr("&Copy the table") : tr("&Copy the selected rows"),
                                   this, &ComparisonTable::copySelection);
    copy->setShortcut(QKeySequence::Copy);
    QAction* save = menu.addAction(tr("&Save as CSV…"), this, &ComparisonTable::saveCsvRequested);
    copy->setEnabled(m_model->rowCount() > 0);
    save->setEnabled(m_model->rowCount() > 0);
    menu.exec(e->globalPos());
}
