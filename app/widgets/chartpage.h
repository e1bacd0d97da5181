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
    void ensureCurrent();                                 // drawn for what it was given, if that changed since
    // What an export of this page draws: one chart, or two stacked on one page. nothingToExport says why there is
    // nothing (empty when there is).
    virtual QList<QCustomPlot*> charts() const = 0;
    virtual QString nothingToExport() const { return {}; }

protected:
    // Draws the page for the run (null: none) and the document's problem and machine.
    virtual void refresh(const std::shared_ptr<const ckpt::Run>& run) = 0;
    // Also stale when the problem or the machine changes (a page drawn from the problem, not only from the run).
    void followProblem();
    // Not redrawn for a new shown run (a page drawn from the problem alone).
    void ignoreRuns() { m_followsRuns = false; }
    void setDescription(const QString& text) { m_description = text; }
    void markStale();
    Document* document() const { return m_doc; }

private:
    QString m_name, m_description;
    bool m_followsRuns = true;
    Document* m_doc;
    std::shared_ptr<const ckpt::Run> m_run;
    bool m_stale = true;
};
