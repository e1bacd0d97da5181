#pragma once
// A tab of the chart area, as hotspot's ResultsPage hosts its pages: it shows the window's shown run of the
// document's problem, says what an export of it draws, and does no work while hidden: a change marks it stale, and it
// draws again when it is the current tab (ensureCurrent). A new tab is a ChartPage in its own files and one
// registration line in the window (MainWindow::addPage).
#include "exportdialog.h" // ExportDialog::MakeCharts

#include <QList>
#include <QSize>
#include <QString>
#include <QWidget>
#include <memory>

class Document;
class QCustomPlot;
class QTabWidget;
class TimelineView;
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
    // Writes what the page shows to `path`, by its extension: its charts as PDF, SVG or PNG (two stacked on one
    // page); the error (naming the file), or empty. A table page writes CSV.
    virtual QString exportTo(const QString& path, int width, int height);
    virtual QSize exportSize() const; // what the export proposes: 1600 × 900, or × 1200 for two charts stacked
    virtual bool isTable() const { return false; } // exports as CSV only (the Comparison table)
    // Copies of the charts as the page shows them (the run, the level, the zoom, the axes), for the Export dialog's
    // preview and its sizes; none: the export asks for a size and writes exportTo.
    virtual ExportDialog::MakeCharts chartCopies() const { return {}; }
    // Why the page has nothing to show for a problem of this kind (a graph, or a chain), or empty: the window
    // disables its tab with that reason as the tooltip.
    virtual QString unavailableFor(bool graph) const {
        (void)graph;
        return {};
    }

protected:
    virtual QList<QCustomPlot*> charts() const = 0;
    virtual QString nothingToExport() const { return {}; } // why there is nothing to export (empty: there is)
    // Draws the page for the run (null: none) and the document's problem and machine.
    virtual void refresh(const std::shared_ptr<const ckpt::Run>& run) = 0;
    // Also stale when the problem or the machine changes (a page drawn from the problem, not only from the run).
    void followProblem();
    // Not redrawn for a new shown run (a page drawn from the problem alone).
    void ignoreRuns() { m_followsRuns = false; }
    // Drawn as soon as it is given a run, shown or not: its views wait until they are seen by themselves, and the
    // shared cursor's moves must reach them on the run they show.
    void drawWhileHidden() { m_eager = true; }
    // Why `path` cannot take a picture of the page (nothing to export, or a .csv file), or empty.
    QString pictureRefusal(const QString& path);
    // `text`: the tab's tooltip; `more`: what Help ▸ What's This (Shift+F1) adds about the page, how to use it.
    void setDescription(const QString& text, const QString& more) {
        m_description = text;
        setWhatsThis("<p>" + text.toHtmlEscaped() + ".</p><p>" + more.toHtmlEscaped() + "</p>");
    }
    Document* document() const { return m_doc; }
    const std::shared_ptr<const ckpt::Run>& run() const { return m_run; } // the window's shown run, as last given
    // A copy of the timeline as it shows (its run, level, zoom), for chartCopies.
    static std::unique_ptr<QWidget> timelineCopy(const TimelineView* from);

private:
    QString m_name, m_description;
    bool m_followsRuns = true;
    bool m_eager = false;
    Document* m_doc;
    std::shared_ptr<const ckpt::Run> m_run;
    bool m_stale = true;
};

// The pages of a tab widget whose every tab is one (the window's chart tabs), in tab order; the one named `name`, or
// null.
QList<ChartPage*> chartPages(const QTabWidget* tabs);
ChartPage* chartPage(const QTabWidget* tabs, const QString& name);
