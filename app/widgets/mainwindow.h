#pragma once
// The explorer's window: problem and machine editors on the left, the charts in the middle, runs in the background.
#include "io/project_io.h"
#include "run/runner.h"
#include "widgets/examplefiles.h" // resourceRoot
#include "widgets/exportdialog.h"
#include "widgets/graphediting.h"
#include "widgets/projectfiles.h"
#include "widgets/runactions.h"
#include "widgets/viewlinks.h"

#include <QMainWindow>
#include <memory>

class ChartPage;
class LessonMode;
class Document;
class Focus;
class ProblemEditor;
class ChainTableModel;
class NodeTableModel;
class GraphView;
class HardwareTableModel;
class ComparisonModel;
class RunController;
class RunStatus;
class SummaryLine;
class ComparisonTable;
class SchedulerPanel;
class TimelineView;
class SweepView;
class HeldNowPanel;
class TradeoffView;
class PipelineView;
class TrainerPanel;
class QTableView;
class QTabWidget;
class QLabel;
class QMenu;
class QTimer;
class QToolBar;
class QCustomPlot;
namespace ckpt {
struct OnnxImportOptions;
}

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Without interaction (tests, --screenshot) errors go to lastError() and the status bar, never a dialog.
    void setInteractive(bool on) { m_interactive = on, m_files->setInteractive(on); }
    QString lastError() const { return m_lastError; }

    // A project, a chain, a graph, a hardware file, or a graph plan (for the open graph), judged by its "format".
    bool openFile(const QString& path);
    // A ckpt-lesson file (also through openFile): its first scene, then Page Down / Page Up (showScene).
    bool openLesson(const QString& path);
    bool showScene(int index); // the problem, machine, scheduler, parameters and budget of the scene; its caption
    int sceneIndex() const;
    QString lessonCaption() const; // the banner's text while a lesson is open
    // An ONNX model as a new, unsaved graph document, timed on the window's machine; false after a message. The
    // window's File > Import ONNX… (and openFile of a .onnx file) asks for the options first, or takes the dialog's
    // defaults without interaction.
    bool importOnnx(const QString& path, const ckpt::OnnxImportOptions& options);
    // The shared cursor at the shown plan's action `action` (-1: before the first); false when it has no such action.
    bool moveCursor(int action) { return m_links->moveCursor(action); }
    // The document as files (widgets/projectfiles.h): Save, unsaved changes, the name Save proposes, the autosave.
    ProjectFiles* files() const { return m_files; }
    bool saveProjectTo(const QString& path) { return m_files->saveTo(path); }
    bool isModified() const { return m_files->isModified(); }
    QString suggestedSavePath() const { return m_files->suggestedSavePath(); }
    static QString projectPathFor(const QString& source) { return ProjectFiles::projectPathFor(source); }
    void openDefault(); // the LSTM example on the A100 preset
    // The window's size (1600 × 1000 at most) within the screen's free area, before it is first shown: a 1280 × 800
    // display showed it cut at the right and bottom (the lesson's caption and the legends out of sight).
    void fitToScreen();
    // Autosaves of unsaved work no running window holds (a crash, a killed session), offered at every start.
    static QList<AutosaveEntry> recoverableAutosaves() { return Autosave::leftovers(); }
    // Shows them in the recovery dialog (interactive only) and does what the user chose. True if one was recovered.
    bool offerRecovery() { return m_files->offerRecovery(); }
    // Opens the autosave in this window as its original document, unsaved; this window then writes (and, once the
    // document is saved, deletes) that autosave file.
    bool recoverAutosave(const AutosaveEntry& entry) { return m_files->recover(entry); }
    // Writes this document's autosave now (the timer does every minute when there are unsaved changes). False on
    // failure, which the status bar and lastError() say.
    bool autosaveNow() { return m_files->autosaveNow(); }
    QString autosaveFile() const { return m_files->autosaveFile(); } // empty until the first autosave

    // The same paths the buttons take, run to completion on this thread.
    std::shared_ptr<const ckpt::Run> runCurrentNow() { return m_runActions->runCurrentNow(); }
    void runAllNow() { m_runActions->runAllNow(); }
    // Builds, in the background, the tables the current scheduler reads at the budget slider's positions (its
    // parameters, this problem and machine), nearest the slider first. The window does so half a second after the
    // scheduler, a parameter, the problem or the machine changes, so that the slider's moves read kept tables.
    void prepareSlider() { m_runActions->prepareSlider(); }
    // Every run of the window, and what each was made from; the views show what it holds.
    RunController* runController() const { return m_runs; }
    RunStatus* runStatus() const; // the status bar's line about the runs in progress
    QString summary() const;      // the line above the charts: the shown plan, its budget, whether it is current
    QString staleBanner() const;  // above Comparison and Trade-off while their runs are out of date (else empty)

    QString exportChart(const QString& which, const QString& path, int width, int height); // timeline|sweep|tradeoff
    // What the current tab shows, by the file's extension: a chart (pdf, svg, png), the graph view's picture, both
    // timelines of Side by side (or the trainer's predicted and measured ones) stacked, the Comparison table as csv.
    // The error (a tab with nothing to export says so), or empty.
    QString exportCurrentTab(const QString& path, int width, int height);
    QSize exportSize() const; // what the export dialog proposes for the current tab
    // Copies of the charts a tab shows, for the Export dialog (none for the graph and the Comparison table).
    ExportDialog::MakeCharts chartCopies(const QString& tab) const;
    QString exportPlan(const QString& path, const QString& format); // json|csv|trace
    // The chart tabs by name: timeline, graph, sweep, tradeoff, comparison, side, trainer. False if unknown.
    bool showChartTab(const QString& name);
    static QStringList chartTabNames();
    QString currentChartTab() const; // one of chartTabNames()
    QMenu* exportMenu() const;

    Document* document() const { return m_doc; }
    ChainTableModel* chainModel() const;
    NodeTableModel* nodeModel() const;
    QTableView* nodeTable() const;
    GraphView* graphView() const;
    PipelineView* pipelineView() const;
    QString graphMessage() const; // the refusal shown under the node table (empty after a good edit)
    // What the graph view's buttons do, on its selection: a new node fed by the selected ones; an edge from the first
    // selected to the second; the selected nodes deleted. They return the refusal (also shown), or empty.
    QString addNodeFromSelection() { return m_graphEditing->addNodeFromSelection(); }
    QString connectSelection() { return m_graphEditing->connectSelection(); }
    QString deleteSelection() { return m_graphEditing->deleteSelection(); }
    HardwareTableModel* hardwareModel() const;
    ComparisonModel* comparisonModel() const { return m_comparison; }
    SchedulerPanel* schedulerPanel() const { return m_panel; }
    // The pages' views (widgets/chartpage.h): what the tabs show.
    TimelineView* timelineView() const;
    SweepView* sweepView() const;
    HeldNowPanel* heldNowPanel() const;
    TradeoffView* tradeoffView() const;
    TrainerPanel* trainerPanel() const;
    // Side by side: the shown plan above a pinned one, on one time axis, with the differences in a line.
    void pinShownRun() { m_runActions->pin(); }
    QString sideBySideSummary() const;
    TimelineView* pinnedView() const; // Side by side's charts, drawn for the shown and the pinned plan
    TimelineView* sideView() const;
    QTableView* chainTable() const;
    Focus* focus() const { return m_focus; } // the shared cursor and node selection
    ComparisonTable* comparisonTable() const;
    QTabWidget* chartTabs() const { return m_tabs; }
    std::shared_ptr<const ckpt::Run> shownRun() const;

public slots:
    void runCurrent() { m_runActions->runCurrent(); } // in the background
    void runAll() { m_runActions->runAll(); } // every ticked scheduler at every budget of the sweep, in the background
    void cancelRuns() { m_runActions->cancel(); }

protected:
    void closeEvent(QCloseEvent* e) override;
    void changeEvent(QEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void buildUi();
    void buildChartTabs();
    void buildCentral();
    void buildDock();
    void connectViews();
    void buildMenus();
    void buildFileMenu();
    QToolBar* buildRunMenus();
    void buildViewMenu(QToolBar* bar);
    bool importOnnxDialog(const QString& path); // mainwindow_onnx.cpp
    void updateMode(); // the chain or graph editors, tabs and views after the document's kind changed
    void report(const QString& message);
    bool confirmDiscard() { return m_files->confirmDiscard(); }
    // Another document takes the window, from this project file or else this other file: the last one's autosave
    // stays if it holds unsaved work. Anything but the next scene of the lesson (lessonScene) ends the lesson.
    void newDocument(const QString& project, const QString& source, bool lessonScene = false);
    ChartPage* currentPage() const;

    Document* m_doc;
    Focus* m_focus;
    ComparisonModel* m_comparison;
    ProblemEditor* m_editor = nullptr; // the Problem dock's tabs
    SchedulerPanel* m_panel = nullptr;
    void addPage(ChartPage* page, const QString& title);
    ChartPage* page(const QString& name) const; // null: no page of that name
    QTabWidget* m_tabs = nullptr;
    RunController* m_runs = nullptr;
    QLabel* m_staleBanner = nullptr;
    LessonMode* m_lesson = nullptr; // the open lesson, its scene and caption (widgets/lessonmode.h)
    SummaryLine* m_summary = nullptr;
    RunActions* m_runActions = nullptr; // Run, Run all, Cancel, Pin; a solve after each change
    ProjectFiles* m_files;
    GraphEditing* m_graphEditing = nullptr; // the graph view's and the node table's edit buttons
    ViewLinks* m_links = nullptr;           // the shared cursor and selection in every view
    QString m_lastError;
    bool m_interactive = true;
};
