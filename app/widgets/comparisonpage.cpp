#include "comparisonpage.h"

#include "comparisontable.h"
#include "models/comparisonmodel.h"

#include <QFileInfo>
#include <QVBoxLayout>

ComparisonPage::ComparisonPage(Document* doc, ComparisonModel* model, QWidget* parent)
    : ChartPage("comparison", doc, parent), m_model(model), m_table(new ComparisonTable(model, this)) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_table);
    setDescription(tr("Every compared run in a row: time, peaks, overhead, whether proven optimal; double-click a row "
                      "to show its plan"),
                   tr("One row per scheduler and budget of Run all (Shift+F5). A click on a column's header sorts by "
                      "it; File ▸ Export writes the table as CSV."));
    ignoreRuns();
}

QString ComparisonPage::nothingToExport() const {
    return m_model->rowCount() == 0 ? tr("The Comparison table is empty: run all first (Shift+F5)") : QString();
}

QString ComparisonPage::exportTo(const QString& path, int, int) {
    if (QString why = exportRefusal(); !why.isEmpty()) return why;
    if (QFileInfo(path).suffix().compare("csv", Qt::CaseInsensitive) != 0)
        return tr("%1: the Comparison tab is a table: export it as CSV (.csv)").arg(path);
    return m_table->saveCsv(path);
}
