#pragma once
// A tab of the chart area, as hotspot's ResultsPage hosts its pages: it shows the window's shown run of the
// document's problem, says what an export of it draws, and does no work while hidden: a change marks it stale, and it
// draws again when it is the current tab (ensureCurrent). A new tab is a ChartPage in its own files and one
// registration line in the window (MainWindow::addPage).
#include <QList>
#include <QString>
#include <QWidget>
#include <memory>

class Document;
class QCustomPlot;
namespace ckpt {
struct Run;
}

class ChartPage : public QWidget {
    Q_OBJECT
public:
    // `name`: as the window's chart tabs are named (MainWindow::chartTabNames, a lesson scene's "tab").
    ChartPage(const QString& name, Document* doc, QWidget* parent = nullptr);
    QString name() const { return m_name; }
    QString description() const { return m_description; } // the tab's tooltip
    void setRun(std::shared_ptr<const ckpt::Run> run);    // the window's shown run (null: none)
    void markStale();     // what it shows changed: drawn now if it is the current tab, else when it becomes it
    void ensureCurrent(); // drawn for what it was given, if that changed since
    // What an export of this page draws (drawn first if stale): one chart, or two stacked on one page; empty, with
    // the reason from exportRefusal, when there is nothing to export.
    QList<QCustomPlot*> exportCharts();
    QString exportRefusal();

protected:
    virtual QList<QCustomPlot*> charts() const = 0;
    virtual QString nothingToExport() const { return {}; } // why there is nothing to export (empty: there is)
    // Draws the page for the run (null: none) and the document's problem and machine.
    virtual void refresh(const std::shared_ptr<const ckpt::Run>& run) = 0;
    // Also stale when the problem or the machine changes (a page drawn from the problem, not only from the run).
    void followProblem();
    // Not redrawn for a new shown run (a page drawn from the problem alone).
    void ignoreRuns() { m_followsRuns = false; }
    void setDescription(const QString& text) { m_description = text; }
    Document* document() const { return m_doc; }

private:
    QString m_name, m_description;
    bool m_followsRuns = true;
    Document* m_doc;
    std::shared_ptr<const ckpt::Run> m_run;
    bool m_stale = true;
};
