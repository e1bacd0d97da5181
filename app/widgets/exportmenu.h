#pragma once
// File ▸ Export: what the current tab shows (its page's charts as PDF, SVG or PNG through the Export dialog, the
// graph's picture, the Comparison table as CSV), every chart at once, and the shown plan (JSON, CSV, Chrome trace).
// Its items name the current tab and the format before the menu opens.
#include <QMenu>
#include <functional>

class ChartPage;
class Document;
class QTabWidget;
class RunController;

class ExportMenu : public QMenu {
    Q_OBJECT
public:
    // `stem`: the name the proposed files start with (the document's file name, or empty for "chart").
    ExportMenu(QTabWidget* tabs, Document* doc, RunController* runs, std::function<QString()> stem,
               QWidget* parent = nullptr);
    QString exportPlan(const QString& path, const QString& format); // json|csv|trace; the error, or empty
    void exportComparisonDialog();

signals:
    void refused(const QString& message); // a failure or nothing to export, for the window to report
    void wrote(const QString& message);   // for the status bar

private:
    ChartPage* currentPage() const;
    void updateItems();
    void exportChartDialog(const QString& format);
    void exportAllDialog();
    void exportPlanDialog(const QString& format);
    void said(const QString& error, const QString& path); // the error reported, or "Wrote path" in the status bar

    QTabWidget* m_tabs;
    Document* m_doc;
    RunController* m_runs;
    std::function<QString()> m_stem;
};
