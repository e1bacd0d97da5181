// The window's runs (in the background, with progress and cancel).
#include "chartpage.h"
#include "graphview.h"
#include "heldnowpanel.h"
#include "mainwindow.h"
#include "models/chaintablemodel.h"
#include "models/comparisonmodel.h"
#include "models/document.h"
#include "models/focus.h"
#include "models/runcontroller.h"
#include "plots/charthint.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "problemeditor.h"
#include "runstatus.h"
#include "schedulerpanel.h"
#include "sidebysidepage.h"
#include "summaryline.h"
#include "util/units.h"

#include <QStatusBar>
#include <QTabWidget>
#include <qcustomplot.h>

using namespace ckpt;

void MainWindow::connectRuns() {
    connect(m_runs, &RunController::shownRunChanged, this, &MainWindow::showShownRun);
    connect(m_runs, &RunController::comparisonChanged, this, [this] {
        m_comparison->setRuns(m_runs->comparison());
        tradeoffView()->setRuns(m_runs->comparison());
        updateStaleMarks();
    });
    connect(m_runs, &RunController::staleChanged, this, [this] {
        updateStaleMarks();
        updateSummary();
    });
    // Cancel (the menu, Esc or the status bar's button) and opening another problem drop a queued Run all.
    connect(m_runs, &RunController::cancelled, this, [this] { m_runAllQueued = false; });
    connect(m_doc, &Document::reset, this, [this] { m_runAllQueued = false; });
    connect(m_runs, &RunController::runStarted, this, [this] {
        clearStatusMessage(m_runMessage);
        updateSummary();
    });
    connect(m_runs, &RunController::runFinished, this, [this](const QString& message) {
        if (m_runAllQueued && !m_runs->isComparing()) { // the cancelled runs stopped: start the new ones
            m_runAllQueued = false;
            return runAll();
        }
        if (!message.isEmpty()) statusBar()->showMessage(m_runMessage = message, 15000);
        updateSummary();
    });
    connect(m_runs, &RunController::pinDropped, this, [this](const QString& message) {
        statusBar()->showMessage(message, 10000);
        page("side")->markStale();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateStaleMarks);
    // The sweep's keys (Space, arrows, Home/End, B/R/T) work as soon as its tab is chosen.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (currentChartTab() == "sweep") sweepView()->setFocus();
    });
}

void MainWindow::refreshBudgetRange() {
    const BudgetRange range = m_runs->budgetRange();
    m_panel->blockSignals(true);
    // The document's budget, not the slider's: after a new project the slider still holds the old one.
    std::int64_t keep = m_doc->settings().budget_bytes;
    m_panel->setBudgetRange(range.floor, range.ceiling);
    m_panel->setBudgetBytes(keep);
    m_panel->blockSignals(false);
}

std::shared_ptr<const Run> MainWindow::shownRun() const {
    return m_runs->shownRun();
}

void MainWindow::runCurrent() {
    m_runs->solve(m_panel->currentScheduler(), m_panel->currentParams(), m_panel->budgetBytes());
}

std::shared_ptr<const Run> MainWindow::runCurrentNow() {
    // The comparison table shows this run too, so the table and `ckpt solve --json` can be compared.
    return m_runs->solveNow(m_panel->currentScheduler(), m_panel->currentParams(), m_panel->budgetBytes());
}

bool MainWindow::sweepRequest(CompareRequest& req, QString* error) const {
    auto budgets = parseBudgetList(m_doc->settings().budgets, m_doc->problem(), m_doc->hardware());
    if (!budgets && error) return *error = QString::fromStdString(budgets.error()), false;
    req.schedulers = m_doc->settings().schedulers;
    // Every listed name, so that a chain graph compares the chain schedulers the panel offers too.
    if (req.schedulers.empty()) req.schedulers = m_panel->listedSchedulers();
    if (budgets) req.budgets = *budgets;
    req.params = m_doc->settings().params;
    return true;
}

void MainWindow::runAll() {
    if (m_runs->isCancellingComparison()) { // Cancel, then Run all: start again as soon as the old runs stop
        m_runAllQueued = true;
        return statusBar()->showMessage(m_runMessage = tr("Run all starts again once the cancelled runs stop"));
    }
    if (m_runs->isComparing()) return statusBar()->showMessage(tr("Runs already in progress"), 3000);
    CompareRequest req;
    QString error;
    if (!sweepRequest(req, &error)) return report(tr("Budgets to compare: %1").arg(error));
    m_runs->compare(req);
}

void MainWindow::prepareSlider() {
    m_runs->prepare(m_panel->currentScheduler(), m_panel->currentParams(), m_panel->sliderBudgets(),
                    m_panel->budgetBytes());
}

void MainWindow::runAllNow() {
    CompareRequest req;
    sweepRequest(req, nullptr);
    m_runs->compareNow(req);
}

void MainWindow::cancelRuns() {
    m_runs->cancel();
}

void MainWindow::showComparedRun(int index) {
    if (!m_runs->showCompared(index)) return;
    // The panel says what is shown, so that the next solve it asks for is this run (and does nothing).
    const RunInputs shown = m_runs->shownInputs();
    m_panel->setCurrentScheduler(shown.scheduler);
    m_panel->setBudgetBytes(shown.budget_bytes);
    showChartTab("timeline");
}

void MainWindow::updateStaleMarks() {
    const QString why = m_runs->comparisonStaleReason();
    m_comparison->setStale(why);
    tradeoffView()->setStale(!why.isEmpty());
    m_staleBanner->setText(
        why.isEmpty() ? QString() : tr("Out of date: %1 since these runs — Run all (Shift+F5) to refresh").arg(why));
    const QString tab = currentChartTab();
    m_staleBanner->setVisible(!why.isEmpty() && (tab == "comparison" || tab == "tradeoff"));
}

QString MainWindow::staleBanner() const {
    return m_staleBanner->text();
}

QString MainWindow::summary() const {
    return m_summary->text();
}

void MainWindow::updateSummary() {
    m_summary->refresh();
    // With no plan to show, the charts say that one is on its way rather than how to ask for one.
    const QString solving = tr("Solving %1…").arg(m_runs->solvingWhat());
    const QString empty = m_runs->isSolving() ? solving : ChartHint::runHint();
    timelineView()->setEmptyText(empty);
    sweepView()->setEmptyText(empty);
}

RunStatus* MainWindow::runStatus() const {
    return findChild<RunStatus*>();
}

void MainWindow::pinShownRun() {
    if (!m_runs->pin()) return statusBar()->showMessage(tr("Run a scheduler first: there is no plan to pin"), 5000);
    page("side")->markStale();
    statusBar()->showMessage(tr("Pinned %1; show another plan to compare them side by side")
                                 .arg(QString::fromStdString(m_runs->pinned()->scheduler)),
                             5000);
}

QString MainWindow::sideBySideSummary() const {
    return static_cast<SideBySidePage*>(page("side"))->summary();
}

void MainWindow::showShownRun() {
    const auto run = m_runs->shownRun();
    for (ChartPage* page : chartPages(m_tabs))
        page->setRun(run);
    m_links->planShown();
    updateSummary();
}

void MainWindow::clearStatusMessage(QString& shown) {
    if (!shown.isEmpty() && statusBar()->currentMessage() == shown) statusBar()->clearMessage();
    shown.clear();
}
