#pragma once
// The Comparison tab: a row per compared run (comparisontable.h); it exports as CSV.
#include "chartpage.h"

class ComparisonModel;
class ComparisonTable;

class ComparisonPage : public ChartPage {
    Q_OBJECT
public:
    ComparisonPage(Document* doc, ComparisonModel* model, QWidget* parent = nullptr);
    ComparisonTable* table() const { return m_table; }
    QString exportTo(const QString& path, int width, int height) override;
    bool isTable() const override { return true; }

protected:
    QList<QCustomPlot*> charts() const override { return {}; }
    QString nothingToExport() const override;
    void refresh(const std::shared_ptr<const ckpt::Run>&) override {} // filled from the comparison (the window's)

private:
    ComparisonModel* m_model;
    ComparisonTable* m_table;
};
