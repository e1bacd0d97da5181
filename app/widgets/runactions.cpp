#include "runactions.h"

#include "chartpage.h"
#include "models/comparisonmodel.h"
#include "models/document.h"
#include "models/runcontroller.h"
#include "plots/charthint.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "schedulerpanel.h"
#include "summaryline.h"
#include "viewlinks.h"

#include <QLabel>
#include <QMenu>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>

using namespace ckpt;

RunActions::RunActions(Parts parts, QObject* parent) : QObject(parent), m_p(parts) {
    m_solveTimer = new QTimer(this);
    m_solveTimer->setSingleShot(true);
    m_solveTimer->setInterval(0); // coalesce bursts of slider moves into one solve
    connect(m_solveTimer, &QTimer::timeout, this, &RunActions::runCurrent);
    m_prepareTimer = new QTimer(this);
    m_prepareTimer->setSingleShot(true);
    m_prepareTimer->setInterval(500); // after the solve the change asked for has started
    connect(m_prepareTimer, &QTimer::timeout, this, &RunActions::prepareSlider);
    connectEdits();
    connectRuns();
}

void RunActions::addActions(QMenu* menu, QToolBar* bar) {
    auto action = [&](const QString& text, const QKeySequence& key, const QString& tip, auto slot) {
        QAction* a = menu->addAction(text, key, this, slot);
        a->setToolTip(tip + " (" + key.toString() + ")");
        bar->addAction(a);
    };
    action(tr("Run &current"), QKeySequence(Qt::Key_F5), tr("Solve and simulate the current scheduler"),
           &RunActions::runCurrent);
    action(tr("Run &all"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
           tr("Every ticked scheduler at every budget of the sweep"), &RunActions::runAll);
    action(tr("Ca&ncel"), QKeySequence(Qt::Key_Escape), tr("Stop the runs in progress"), &RunActions::cancel);
    action(tr("&Pin the shown plan"), QKeySequence(Qt::CTRL | Qt::Key_B),
           tr("Keep the shown plan for the side-by-side view"), &RunActions::pin);
}

// A change of what is solved: a solve at once, the slider's tables once changes settle.
void RunActions::connectEdits() {
    auto edited = [this] {
        refreshBudgetRange();
        m_solveTimer->start();
        m_prepareTimer->start();
    };
    connect(m_p.doc, &Document::chainChanged, this, edited);
    connect(m_p.doc, &Document::hardwareChanged, this, edited);
    connect(m_p.doc, &Document::graphChanged, this, edited);
    connect(m_p.doc, &Document::reset, this, [this] {
        m_runAllQueued = false; // opening another problem drops a queued Run all
        refreshBudgetRange();
        m_p.panel->setBudgetBytes(m_p.doc->settings().budget_bytes);
        m_solveTimer->start();
        m_prepareTimer->start();
    });
    connect(m_p.panel, &SchedulerPanel::currentChanged, this, [this] {
        m_solveTimer->start();
        m_prepareTimer->start();
    });
    connect(m_p.panel, &SchedulerPanel::budgetChanged, this, [this] { m_solveTimer->start(); });
}

void RunActions::connectRuns() {
    RunController* runs = m_p.runs;
    connect(runs, &RunController::shownRunChanged, this, &RunActions::showShownRun);
    connect(runs, &RunController::comparisonChanged, this, [this] {
        m_p.comparison->setRuns(m_p.runs->comparison());
        m_p.tradeoff->setRuns(m_p.runs->comparison());
        updateStaleMarks();
    });
    connect(runs, &RunController::staleChanged, this, [this] {
        updateStaleMarks();
        updateSummary();
    });
    // Cancel (the menu, Esc or the status bar's button) drops a queued Run all.
    connect(runs, &RunController::cancelled, this, [this] { m_runAllQueued = false; });
    connect(runs, &RunController::runStarted, this, [this] {
        clearRunMessage();
        updateSummary();
    });
    connect(runs, &RunController::runFinished, this, [this](const QString& message) {
        if (m_runAllQueued && !m_p.runs->isComparing()) { // the cancelled runs stopped: start the new ones
            m_runAllQueued = false;
            return runAll();
        }
        if (!message.isEmpty()) m_p.status->showMessage(m_runMessage = message, 15000);
        updateSummary();
    });
    connect(runs, &RunController::pinDropped, this, [this](const QString& message) {
        m_p.status->showMessage(message, 10000);
        chartPage(m_p.tabs, "side")->markStale();
    });
    connect(m_p.tabs, &QTabWidget::currentChanged, this, &RunActions::updateStaleMarks);
}

void RunActions::refreshBudgetRange() {
    const BudgetRange range = m_p.runs->budgetRange();
    m_p.panel->blockSignals(true);
    // The document's budget, not the slider's: after a new project the slider still holds the old one.
    std::int64_t keep = m_p.doc->settings().budget_bytes;
    m_p.panel->setBudgetRange(range.floor, range.ceiling);
    m_p.panel->setBudgetBytes(keep);
    m_p.panel->blockSignals(false);
}

void RunActions::runCurrent() {
    m_p.runs->solve(m_p.panel->currentScheduler(), m_p.panel->currentParams(), m_p.panel->budgetBytes());
}

std::shared_ptr<const Run> RunActions::runCurrentNow() {
    // The comparison table shows this run too, so the table and `ckpt solve --json` can be compared.
    return m_p.runs->solveNow(m_p.panel->currentScheduler(), m_p.panel->currentParams(), m_p.panel->budgetBytes());
}

bool RunActions::sweepRequest(CompareRequest& req, QString* error) const {
    const ProjectSettings& settings = m_p.doc->settings();
    auto budgets = parseBudgetList(settings.budgets, m_p.doc->problem(), m_p.doc->hardware());
    if (!budgets && error) return *error = QString::fromStdString(budgets.error()), false;
    req.schedulers = settings.schedulers;
    // Every listed name, so that a chain graph compares the chain schedulers the panel offers too.
    if (req.schedulers.empty()) req.schedulers = m_p.panel->listedSchedulers();
    if (budgets) req.budgets = *budgets;
    req.params = settings.params;
    return true;
}

void RunActions::runAll() {
    if (m_p.runs->isCancellingComparison()) { // Cancel, then Run all: start again as soon as the old runs stop
        m_runAllQueued = true;
        return m_p.status->showMessage(m_runMessage = tr("Run all starts again once the cancelled runs stop"));
    }
    if (m_p.runs->isComparing()) return m_p.status->showMessage(tr("Runs already in progress"), 3000);
    CompareRequest req;
    QString error;
    if (!sweepRequest(req, &error)) return emit refused(tr("Budgets to compare: %1").arg(error));
    m_p.runs->compare(req);
}

void RunActions::prepareSlider() {
    m_p.runs->prepare(m_p.panel->currentScheduler(), m_p.panel->currentParams(), m_p.panel->sliderBudgets(),
                      m_p.panel->budgetBytes());
}

void RunActions::runAllNow() {
    CompareRequest req;
    sweepRequest(req, nullptr);
    m_p.runs->compareNow(req);
}

void RunActions::cancel() {
    m_p.runs->cancel();
}

void RunActions::pin() {
    if (!m_p.runs->pin()) return m_p.status->showMessage(tr("Run a scheduler first: there is no plan to pin"), 5000);
    chartPage(m_p.tabs, "side")->markStale();
    m_p.status->showMessage(tr("Pinned %1; show another plan to compare them side by side")
                                .arg(QString::fromStdString(m_p.runs->pinned()->scheduler)),
                            5000);
}

void RunActions::showCompared(int index) {
    if (!m_p.runs->showCompared(index)) return;
    // The panel says what is shown, so that the next solve it asks for is this run (and does nothing).
    const RunInputs shown = m_p.runs->shownInputs();
    m_p.panel->setCurrentScheduler(shown.scheduler);
    m_p.panel->setBudgetBytes(shown.budget_bytes);
    m_p.tabs->setCurrentWidget(chartPage(m_p.tabs, "timeline"));
}

void RunActions::updateStaleMarks() {
    const QString why = m_p.runs->comparisonStaleReason();
    m_p.comparison->setStale(why);
    m_p.tradeoff->setStale(!why.isEmpty());
    m_p.staleBanner->setText(
        why.isEmpty() ? QString() : tr("Out of date: %1 since these runs — Run all (Shift+F5) to refresh").arg(why));
    const QString tab = static_cast<ChartPage*>(m_p.tabs->currentWidget())->name();
    m_p.staleBanner->setVisible(!why.isEmpty() && (tab == "comparison" || tab == "tradeoff"));
}

void RunActions::updateSummary() {
    m_p.summary->refresh();
    // With no plan to show, the charts say that one is on its way rather than how to ask for one.
    const QString empty = m_p.runs->isSolving() ? tr("Solving %1…").arg(m_p.runs->solvingWhat()) : ChartHint::runHint();
    m_p.timeline->setEmptyText(empty);
    m_p.sweep->setEmptyText(empty);
}

void RunActions::showShownRun() {
    const auto run = m_p.runs->shownRun();
    for (ChartPage* page : chartPages(m_p.tabs))
        page->setRun(run);
    m_p.links->planShown();
    updateSummary();
}

void RunActions::clearRunMessage() {
    if (!m_runMessage.isEmpty() && m_p.status->currentMessage() == m_runMessage) m_p.status->clearMessage();
    m_runMessage.clear();
}
