#include "mainwindow.h"

#include "comparisonpage.h"
#include "graphpage.h"
#include "graphview.h"
#include "heldnowpanel.h"
#include "io/graph_io.h"
#include "io/json_io.h"
#include "io/project_io.h"
#include "layoutpage.h"
#include "lessonmode.h"
#include "models/chaintablemodel.h"
#include "models/comparisonmodel.h"
#include "models/document.h"
#include "models/focus.h"
#include "models/hardwaretablemodel.h"
#include "models/nodetablemodel.h"
#include "models/opening.h"
#include "models/runcontroller.h"
#include "models/startsettings.h"
#include "pipelinepage.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "presentation.h"
#include "problemeditor.h"
#include "run/node_fates.h"
#include "run/plan_files.h"
#include "runactions.h"
#include "sidebysidepage.h"
#include "summaryline.h"
#include "sweeppage.h"
#include "timelinepage.h"
#include "tradeoffpage.h"
#include "trainerpage.h"
#include "userguide.h"
#include "viewlinks.h"

#include "comparisontable.h"
#include "examplefiles.h"
#include "exportmenu.h"
#include "runstatus.h"
#include "schedulerpanel.h"
#include "trainerpanel.h"
#include "util/units.h"
#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolTip>
#include <QVBoxLayout>

using namespace ckpt;

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_doc(new Document(this)), m_focus(new Focus(this)), m_comparison(new ComparisonModel(this)),
      m_runs(new RunController(m_doc, this)) {
    setAcceptDrops(true);
    m_files = new ProjectFiles(m_doc, this);
    m_files->setBeforeSave([this] { m_doc->settings().budget_bytes = m_panel->budgetBytes(); });
    connect(m_files, &ProjectFiles::titleChanged, this, &QWidget::setWindowTitle);
    connect(m_files, &ProjectFiles::openRequested, this, &MainWindow::openFile);
    connect(m_files, &ProjectFiles::replacing, this, [this] { m_lesson->end(); });
    connect(m_files, &ProjectFiles::failed, this, &MainWindow::report);
    connect(m_files, &ProjectFiles::said, statusBar(), &QStatusBar::showMessage);
    connect(m_files, &ProjectFiles::autosaveFailed, this,
            [this](const QString& message) { statusBar()->showMessage(m_lastError = message); });
    buildUi();
    connect(m_doc, &Document::reset, this, [this] {
        updateMode();
        m_panel->reload();
        setWindowTitle(m_files->title());
    });
    m_runActions = new RunActions({m_doc, m_runs, m_panel, m_tabs, m_comparison, m_summary, m_staleBanner, m_links,
                                   statusBar(), timelineView(), sweepView(), tradeoffView()},
                                  this);
    connect(m_runActions, &RunActions::refused, this, &MainWindow::report);
    connect(tradeoffView(), &TradeoffView::runClicked, m_runActions, &RunActions::showCompared);
    connect(comparisonTable(), &ComparisonTable::runActivated, m_runActions, &RunActions::showCompared);
    // An edit may make the graph a chain, or stop it being one.
    connect(m_doc, &Document::graphChanged, m_panel, &SchedulerPanel::reload);
    buildMenus();
    auto* autosaveTimer = new QTimer(this);
    autosaveTimer->setInterval(60'000);
    connect(autosaveTimer, &QTimer::timeout, this, &MainWindow::autosaveNow);
    autosaveTimer->start();
    updateMode();
    setWindowTitle(m_files->title());
}

MainWindow::~MainWindow() {
    // The stack's destructor says it is no longer clean, after this window's part of the object is gone.
    m_doc->undoStack()->disconnect(this);
    delete m_runs; // first: it waits for the runs in progress
}

void MainWindow::buildUi() {
    resize(1600, 1000);
    buildChartTabs();
    buildCentral();
    buildDock();
    connectViews();
}

// The chart tabs, each a page (widgets/chartpage.h) in its own files: a new tab is one line here.
void MainWindow::buildChartTabs() {
    m_tabs = new QTabWidget(this);
    addPage(new TimelinePage(m_doc, m_tabs), tr("&Timeline"));
    addPage(new GraphPage(m_doc, m_tabs), tr("&Graph"));
    addPage(new SweepPage(m_doc, m_tabs), tr("S&weep"));
    addPage(new TradeoffPage(m_doc, m_tabs), tr("Trade-&off"));
    addPage(new ComparisonPage(m_doc, m_comparison, m_tabs), tr("&Comparison"));
    addPage(new SideBySidePage(m_doc, m_runs, m_tabs), tr("Side &by side"));
    addPage(new LayoutPage(m_doc, m_tabs), tr("&Layout"));
    addPage(new PipelinePage(m_doc, m_tabs), tr("Pi&peline"));
    addPage(new TrainerPage(m_doc, m_tabs), tr("Trai&ner"));
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        currentPage()->ensureCurrent();
        // The sweep's keys (Space, arrows, Home/End, B/R/T) work as soon as its tab is chosen.
        if (currentChartTab() == "sweep") sweepView()->setFocus();
    });
}

// The line about the shown plan above the tabs, the lesson's caption and the stale banner below them.
void MainWindow::buildCentral() {
    auto* central = new QWidget(this);
    auto* cl = new QVBoxLayout(central);
    cl->setContentsMargins(4, 4, 4, 0);
    m_summary = new SummaryLine(m_runs, central);
    cl->addWidget(m_summary);
    m_staleBanner = new QLabel(central);
    m_staleBanner->setStyleSheet(
        "QLabel { background: #fff3cd; color: #664d03; border: 1px solid #e0c060; padding: 3px; }");
    m_staleBanner->setWordWrap(true);
    m_staleBanner->setVisible(false);
    m_lesson = new LessonMode(central, this);
    // The tabs first: the banners come and go, and the captions differ in length, below them, so the tab bar never
    // moves under the pointer.
    cl->addWidget(m_tabs, 1);
    cl->addWidget(m_lesson->banner());
    cl->addWidget(m_staleBanner);
    setCentralWidget(central);
}

// The Problem dock (widgets/problemeditor.h) and the status bar's run status.
void MainWindow::buildDock() {
    auto* dock = new QDockWidget(tr("Problem"), this);
    dock->setObjectName("problem");
    // The problem editor (the chain's steps, or the graph's nodes when a graph is open), the machine, the schedulers.
    m_panel = new SchedulerPanel(m_doc, dock);
    m_editor = new ProblemEditor(m_doc, m_focus, m_panel, dock);
    connect(m_editor, &ProblemEditor::refused, this, &MainWindow::report);
    connect(m_editor, &ProblemEditor::status, statusBar(), &QStatusBar::showMessage);
    m_graphEditing = new GraphEditing(m_doc, graphView(), m_editor, m_focus, this);
    dock->setWidget(m_editor);
    dock->setWhatsThis(tr("<p>The problem: the chain's steps or the graph's nodes, the machine, and the schedulers. "
                          "F9 hides or shows this panel.</p>"));
    dock->setMinimumWidth(430);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    resizeDocks({dock}, {480}, Qt::Horizontal); // the chain table's six columns at their values' width

    statusBar()->addPermanentWidget(new RunStatus(m_runs, this));
}

// What a click in one view does in the others (widgets/viewlinks.h).
void MainWindow::connectViews() {
    m_links = new ViewLinks(m_doc, m_focus, m_runs, m_editor,
                            {timelineView(), sweepView(), heldNowPanel(), graphView()}, statusBar(), this);
}

void MainWindow::fitToScreen() {
    const QSize room = screen()->availableGeometry().size() * 0.95; // the window manager's frame around it
    resize(QSize(1600, 1000).boundedTo(room).expandedTo(minimumSizeHint()));
}

void MainWindow::addPage(ChartPage* page, const QString& title) {
    m_tabs->setTabToolTip(m_tabs->addTab(page, title), page->description());
}

ChartPage* MainWindow::page(const QString& name) const {
    return chartPage(m_tabs, name);
}

ChartPage* MainWindow::currentPage() const {
    return static_cast<ChartPage*>(m_tabs->currentWidget());
}

TimelineView* MainWindow::timelineView() const {
    return static_cast<TimelinePage*>(page("timeline"))->view();
}
GraphView* MainWindow::graphView() const {
    return static_cast<GraphPage*>(page("graph"))->view();
}
SweepView* MainWindow::sweepView() const {
    return static_cast<SweepPage*>(page("sweep"))->view();
}
HeldNowPanel* MainWindow::heldNowPanel() const {
    return static_cast<SweepPage*>(page("sweep"))->heldNow();
}
TradeoffView* MainWindow::tradeoffView() const {
    return static_cast<TradeoffPage*>(page("tradeoff"))->view();
}
ComparisonTable* MainWindow::comparisonTable() const {
    return static_cast<ComparisonPage*>(page("comparison"))->table();
}
TrainerPanel* MainWindow::trainerPanel() const {
    return static_cast<TrainerPage*>(page("trainer"))->panel();
}
TimelineView* MainWindow::sideView() const {
    auto* side = static_cast<SideBySidePage*>(page("side"));
    side->ensureCurrent();
    return side->shownView();
}
TimelineView* MainWindow::pinnedView() const {
    auto* side = static_cast<SideBySidePage*>(page("side"));
    side->ensureCurrent();
    return side->pinnedView();
}
PipelineView* MainWindow::pipelineView() const {
    return static_cast<PipelinePage*>(page("pipeline"))->view();
}

void MainWindow::buildMenus() {
    buildFileMenu();
    buildViewMenu(buildRunMenus());
}

void MainWindow::buildFileMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QMenu* fromExample = file->addMenu(tr("&New from example"));
    for (const ExampleFile& example : exampleFiles(resourceRoot() + "/examples"))
        fromExample->addAction(example.label, this, [this, p = example.path] {
            if (!confirmDiscard()) return;
            // Named in the title, without its folder: Save proposes a project in the current one, not the examples'.
            const QString name = QFileInfo(p).fileName();
            auto doc = loadJson(p.toStdString());
            if (!doc || documentKindOf(*doc) != DocumentKind::Chain) {
                if (openFile(p)) m_files->took({}, name);
                return;
            }
            auto chain = chainFromJson(*doc, p.toStdString());
            if (!chain) return report(QString::fromStdString(chain.error()));
            Project proj{*chain, m_doc->hardware(), {}};
            m_doc->setProject(proj);
            newDocument({}, name);
        });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        if (!confirmDiscard()) return;
        // Open reads ONNX models too (through the import dialog), so the filter lists them.
        QString p = QFileDialog::getOpenFileName(
            this, tr("Open a project, chain, graph, hardware, lesson or ONNX file"), QString(),
            tr("Explorer files and ONNX models (*.json *.onnx);;JSON (*.json);;ONNX models (*.onnx);;All files (*)"));
        if (!p.isEmpty()) openFile(p);
    });
    file->addAction(tr("&Import ONNX…"), QKeySequence(tr("Ctrl+I")), this, [this] {
        if (!confirmDiscard()) return;
        QString p = QFileDialog::getOpenFileName(this, tr("Import an ONNX model"), QString(),
                                                 tr("ONNX models (*.onnx);;All files (*)"));
        if (!p.isEmpty()) importOnnxDialog(p);
    });
    m_files->setRecentMenu(file->addMenu(tr("Open &recent")));
    file->addAction(tr("&Save"), QKeySequence::Save, m_files, &ProjectFiles::save);
    // Ctrl+Shift+S spelt out: QKeySequence::SaveAs is empty outside KDE and GNOME.
    file->addAction(tr("Save &as…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), m_files, &ProjectFiles::saveAs);
    file->addSeparator();
    auto* exports = new ExportMenu(
        m_tabs, m_doc, m_runs, [this] { return m_files->baseName(); }, this);
    connect(exports, &ExportMenu::refused, this, &MainWindow::report);
    connect(exports, &ExportMenu::wrote, this, [this](const QString& said) { statusBar()->showMessage(said, 5000); });
    connect(comparisonTable(), &ComparisonTable::saveCsvRequested, exports, &ExportMenu::exportComparisonDialog);
    file->addMenu(exports);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

// Edit and Run, and the toolbar with Run's actions, which the View menu adds to.
QToolBar* MainWindow::buildRunMenus() {
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_doc->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_doc->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    QToolBar* bar = addToolBar(tr("Run"));
    bar->setObjectName("run");
    m_runActions->addActions(run, bar);
    bar->addSeparator();
    return bar;
}

// View (zoom, the lesson's scenes, the Problem panel, presentation mode) and Help (widgets/userguide.h).
void MainWindow::buildViewMenu(QToolBar* bar) {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* back =
        view->addAction(tr("Zoom &back"), QKeySequence(Qt::Key_Backspace), timelineView(), &TimelineView::zoomBack);
    QAction* reset = view->addAction(tr("&Reset zoom"), QKeySequence(Qt::CTRL | Qt::Key_0), timelineView(),
                                     &TimelineView::resetZoom);
    back->setToolTip(tr("Back to the Timeline's previous zoom (Backspace)"));
    reset->setToolTip(tr("Show the whole plan on the Timeline (Ctrl+0)"));
    bar->addAction(back);
    bar->addAction(reset);
    view->addSeparator();
    auto* presentation = new Presentation(this);
    QAction* next = view->addAction(tr("&Next scene of the lesson"), QKeySequence(Qt::Key_PageDown), this, [this] {
        if (m_lesson->active() && confirmDiscard()) showScene(m_lesson->scene() + 1);
    });
    QAction* previous =
        view->addAction(tr("Previous scene of the &lesson"), QKeySequence(Qt::Key_PageUp), this, [this] {
            if (m_lesson->active() && confirmDiscard()) showScene(m_lesson->scene() - 1);
        });
    for (QAction* a : {next, previous}) {
        a->setShortcutContext(Qt::WindowShortcut);
        addAction(a); // with the menu bar hidden too (presentation mode)
    }
    next->setToolTip(tr("Open a lesson (File ▸ Open, a .ckpt-lesson.json file) to step through its scenes"));
    m_lesson->setActions(next, previous);
    // The dock has a close button: View ▸ Problem panel (F9) brings it back (a toolbar's context menu was the only
    // way).
    QAction* panel = findChild<QDockWidget*>("problem")->toggleViewAction();
    panel->setText(tr("Problem p&anel"));
    panel->setShortcut(QKeySequence(Qt::Key_F9));
    panel->setToolTip(tr("Show or hide the Problem panel: the chain or graph, the machine and the schedulers (F9)"));
    view->addAction(panel);
    QAction* present = view->addAction(tr("&Presentation mode"));
    present->setCheckable(true);
    present->setShortcut(QKeySequence(Qt::Key_F11));
    present->setToolTip(tr("Full screen with large text and lines and the docks hidden, for teaching (F11)"));
    connect(present, &QAction::toggled, presentation, &Presentation::setOn);
    addAction(present); // its shortcut works with the menu bar hidden too
    buildHelpMenu(menuBar(), this);
}

void MainWindow::report(const QString& message) {
    m_lastError = message;
    statusBar()->showMessage(message, 15000);
    if (m_interactive) QMessageBox::warning(this, tr("Checkpoint Explorer"), message);
}

bool MainWindow::openFile(const QString& path) {
    if (path.endsWith(".onnx", Qt::CaseInsensitive)) return importOnnxDialog(path);
    auto opened = openInto(*m_doc, path);
    if (!opened) return report(QString::fromStdString(opened.error())), false;
    switch (opened->kind) {
    case Opened::Kind::Lesson:
        return openLesson(path);
    case Opened::Kind::Hardware:
        return true;
    case Opened::Kind::GraphPlan:
        m_runs->showAlone(opened->run, RunInputs{m_doc->revision(), opened->run->scheduler, opened->run->params,
                                                 opened->run->budget_bytes});
        m_lastError.clear();
        return true;
    case Opened::Kind::Project:
        newDocument(path, {});
        break;
    default:
        newDocument({}, path); // named in the title; Save proposes a project beside it, never this file
    }
    m_lastError.clear();
    m_files->addRecent(path);
    const QString unpinned = m_runs->unpinNote(); // said here too: this message replaces the one that said it
    statusBar()->showMessage(tr("Opened %1").arg(path) + (unpinned.isEmpty() ? QString() : " · " + unpinned), 8000);
    return true;
}

void MainWindow::openDefault() {
    const QString root = resourceRoot();
    const QString chainPath = root + "/examples/lstm-h512-b32-fp32-1000.ckpt-chain.json";
    auto c = loadChain(chainPath.toStdString());
    auto h = loadHardware((root + "/resources/hardware/gpu-a100.ckpt-hardware.json").toStdString());
    if (!c) return report(QString::fromStdString(c.error()));
    ProjectSettings s;
    s.scheduler = "revolve";
    Hardware hw = h ? *h : Hardware::unbounded();
    s.budget_bytes = storeAllPeak(*c, hw) / 20; // 5 %: where checkpointing shows
    m_doc->setProject(Project{*c, hw, s});
    newDocument({}, QFileInfo(chainPath).fileName()); // no folder: Save proposes the current one, not the examples
}

void MainWindow::newDocument(const QString& project, const QString& source, bool lessonScene) {
    if (!lessonScene) m_lesson->end(); // another document ends the lesson
    m_files->took(project, source);
}

void MainWindow::changeEvent(QEvent* e) {
    QMainWindow::changeEvent(e);
    if (e->type() != QEvent::FontChange || !m_summary) return;
    // Presentation mode enlarges the window's font; a label with a style sheet of its own does not follow it.
    for (QLabel* banner : {m_lesson->banner(), m_staleBanner})
        if (banner) banner->setFont(font());
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!confirmDiscard()) return e->ignore();
    cancelRuns();
    m_files->closing();
    e->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const auto urls = e->mimeData()->urls();
    if (urls.isEmpty() || !confirmDiscard()) return;
    openFile(urls.front().toLocalFile());
}
