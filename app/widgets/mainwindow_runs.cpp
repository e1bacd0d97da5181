// The window's runs (in the background, with progress and cancel) and its exports.
#include "graphview.h"
#include "mainwindow.h"
#include "models/comparisonmodel.h"
#include "models/document.h"
#include "plots/chartexport.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "run/plan_files.h"
#include "schedulerpanel.h"
#include "schedulers/fit.h"
#include "schedulers/revolve.h"
#include "sim/simulator.h"
#include "util/units.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QtConcurrent>
#include <cmath>
#include <qcustomplot.h>

using namespace ckpt;

namespace {

SolveRequest requestOf(const SchedulerPanel* panel) {
    SolveRequest r;
    r.params = panel->currentParams();
    r.budget_bytes = panel->budgetBytes();
    return r;
}

// A run that could not be made, with the reason as its message.
Run failedRun(const std::string& what, const std::exception& e) {
    Run r;
    r.scheduler = what;
    r.bad_input = true;
    r.message = dynamic_cast<const std::bad_alloc*>(&e)
                    ? what + ": out of memory; the problem or the plan is too large for this machine"
                    : what + ": internal error: " + e.what();
    return r;
}

template <typename F> Run guardedRun(const std::string& what, F&& work) {
    try {
        return work();
    } catch (const std::exception& e) {
        return failedRun(what, e);
    }
}

} // namespace

void MainWindow::refreshBudgetRange() {
    const BudgetRange range = budgetRange(m_doc->problem(), m_doc->hardware());
    m_panel->blockSignals(true);
    // The document's budget, not the slider's: after a new project the slider still holds the old one.
    std::int64_t keep = m_doc->settings().budget_bytes;
    m_panel->setBudgetRange(range.floor, range.ceiling);
    m_panel->setBudgetBytes(keep);
    m_panel->blockSignals(false);
}

void MainWindow::setBusy(bool busy, const QString& what) {
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    if (busy) statusBar()->showMessage(what);
}

void MainWindow::runCurrent() {
    // The latest request wins: an older result that arrives later is dropped.
    const int generation = ++*m_generation;
    auto counter = m_generation;
    const Problem problem = m_doc->problem();
    Hardware hw = m_doc->hardware();
    std::string name = m_panel->currentScheduler();
    SolveRequest req = requestOf(m_panel);
    // A long solve (a MILP) that a newer request replaces stops instead of holding the worker (and CBC) up.
    if (m_solveStop) *m_solveStop = true;
    m_solveStop = std::make_shared<std::atomic<bool>>(false);
    auto stop = m_solveStop;
    req.cancel = stop.get();
    if (!m_solveWatcher) {
        m_solveWatcher = new QFutureWatcher<Run>(this);
        connect(m_solveWatcher, &QFutureWatcher<Run>::finished, this, [this] {
            Run r = m_solveWatcher->result();
            if (r.scheduler == "__stale__") return;
            if (!r.feasible) {
                m_summary->setText(
                    tr("<b>%1</b>: %2")
                        .arg(QString::fromStdString(r.scheduler), QString::fromStdString(r.message).toHtmlEscaped()));
                statusBar()->showMessage(QString::fromStdString(r.message), 10000);
                return;
            }
            showRun(std::make_shared<const Run>(std::move(r)));
        });
    }
    m_solveWatcher->setFuture(QtConcurrent::run([=, stop = std::move(stop)] {
        if (counter->load() != generation) return Run{"__stale__"};
        // The runner turns what it meets into the run's message; a copy that runs out of memory must not end the
        // program either (QFuture would rethrow it in the GUI thread).
        Run r = guardedRun(name, [&] { return runScheduler(name, problem, hw, req); });
        if (counter->load() != generation) return Run{"__stale__"};
        return r;
    }));
}

std::shared_ptr<const Run> MainWindow::runCurrentNow() {
    Run r = runScheduler(m_panel->currentScheduler(), m_doc->problem(), m_doc->hardware(), requestOf(m_panel));
    auto run = std::make_shared<const Run>(std::move(r));
    if (run->feasible)
        showRun(run);
    else
        m_summary->setText(QString::fromStdString(run->message));
    // The comparison table shows this run too, so the table and `ckpt solve --json` can be compared.
    m_comparison->setRuns({run});
    return run;
}

void MainWindow::runAll() {
    if (m_compareWatcher && m_compareWatcher->isRunning())
        return statusBar()->showMessage(tr("Runs already in progress"), 3000);
    const Problem problem = m_doc->problem();
    Hardware hw = m_doc->hardware();
    auto budgets = parseBudgetList(m_doc->settings().budgets, problem, hw);
    if (!budgets) return report(tr("Budgets to compare: %1").arg(QString::fromStdString(budgets.error())));
    CompareRequest req;
    req.schedulers = m_doc->settings().schedulers;
    // Every listed name, so that a chain graph compares the chain schedulers the panel offers too.
    if (req.schedulers.empty()) req.schedulers = m_panel->listedSchedulers();
    req.budgets = *budgets;
    req.params = m_doc->settings().params;
    m_cancelFlag = false;
    m_progress->setRange(0, int(req.schedulers.size() * req.budgets.size()));
    m_progress->setValue(0);
    setBusy(true, tr("Running %1 solves…").arg(m_progress->maximum()));
    if (!m_compareWatcher) {
        m_compareWatcher = new QFutureWatcher<std::vector<Run>>(this);
        connect(m_compareWatcher, &QFutureWatcher<std::vector<Run>>::finished, this, [this] {
            setBusy(false, {});
            std::vector<Run> runs = m_compareWatcher->result();
            QString note =
                m_cancelFlag ? tr("Cancelled after %1 runs").arg(runs.size()) : tr("%1 runs done").arg(runs.size());
            for (const Run& r : runs)
                if (r.bad_input) { // a refused size or a run out of memory: say why, not only "done"
                    note += tr(" · %1").arg(QString::fromStdString(r.message));
                    break;
                }
            statusBar()->showMessage(note, 15000);
            showRuns(std::move(runs));
        });
    }
    QPointer<QProgressBar> bar = m_progress;
    m_compareWatcher->setFuture(QtConcurrent::run([=, this] {
        auto progress = [bar](int done, int) {
            QMetaObject::invokeMethod(
                bar,
                [bar, done] {
                    if (bar) bar->setValue(done);
                },
                Qt::QueuedConnection);
        };
        try {
            return compare(problem, hw, req, progress, &m_cancelFlag);
        } catch (const std::exception& e) {
            return std::vector<Run>{failedRun(tr("the comparison").toStdString(), e)};
        }
    }));
}

void MainWindow::runAllNow() {
    const Problem problem = m_doc->problem();
    Hardware hw = m_doc->hardware();
    auto budgets = parseBudgetList(m_doc->settings().budgets, problem, hw);
    CompareRequest req;
    req.schedulers = m_doc->settings().schedulers;
    if (req.schedulers.empty()) req.schedulers = m_panel->listedSchedulers();
    if (budgets) req.budgets = *budgets;
    req.params = m_doc->settings().params;
    showRuns(compare(problem, hw, req));
}

void MainWindow::cancelRuns() {
    m_cancelFlag = true;
    if (m_solveStop) *m_solveStop = true;
    ++*m_generation;
}

void MainWindow::showRuns(std::vector<Run> runs) {
    std::vector<std::shared_ptr<const Run>> shared;
    for (Run& r : runs)
        shared.push_back(std::make_shared<const Run>(std::move(r)));
    m_comparison->setRuns(shared);
    m_tradeoff->setRuns(shared);
    // Show the current scheduler's run whose budget is nearest the slider's (no budget counts as the largest).
    auto distance = [this](const Run& r) {
        const double inf = 1e30;
        double a = r.budget_bytes > 0 ? double(r.budget_bytes) : inf,
               b = m_panel->budgetBytes() > 0 ? double(m_panel->budgetBytes()) : inf;
        return a == b ? 0.0 : (a == inf || b == inf) ? inf : std::abs(std::log(a / b));
    };
    std::shared_ptr<const Run> pick;
    for (const auto& r : shared)
        if (r->feasible && r->scheduler == m_panel->currentScheduler() && (!pick || distance(*r) < distance(*pick)))
            pick = r;
    if (pick) showRun(pick);
}

void MainWindow::pinShownRun() {
    if (!m_shown) return statusBar()->showMessage(tr("Run a scheduler first: there is no plan to pin"), 5000);
    m_pinned = m_shown;
    updateSideBySide();
    statusBar()->showMessage(tr("Pinned %1; show another plan to compare them side by side")
                                 .arg(QString::fromStdString(m_pinned->scheduler)),
                             5000);
}

QString MainWindow::sideBySideSummary() const {
    return m_delta->text();
}

void MainWindow::updateSideBySide() {
    Hardware hw = m_doc->hardware();
    m_sideView->setRun(m_shown, hw);
    m_pinnedView->setRun(m_pinned, hw);
    if (!m_shown || !m_pinned || !m_shown->timeline || !m_pinned->timeline) return;
    // One axis for both: the longer plan sets it.
    double end = std::max(m_shown->timeline->totals.makespan_s, m_pinned->timeline->totals.makespan_s) * 1.01;
    m_sideView->setTimeRange(QCPRange(0, end));
    m_pinnedView->setTimeRange(QCPRange(0, end));
    const Totals &a = m_shown->timeline->totals, &b = m_pinned->timeline->totals;
    auto name = [](const Run& r) {
        return QString::fromStdString(r.scheduler + " " + formatParams(r.params, "\u00a0 ")).trimmed().toHtmlEscaped();
    };
    double dt = a.makespan_s - b.makespan_s;
    double dm = double(a.peak_bytes[0]) - double(b.peak_bytes[0]);
    m_delta->setText(tr("<b>top</b> %1 · <b>bottom (pinned)</b> %2<br>makespan %3 vs %4 (Δ %5%6, %7×) · peak L0 %8 vs "
                        "%9 (Δ %10%11) · "
                        "forward steps %12 vs %13 (Δ %14)")
                         .arg(name(*m_shown), name(*m_pinned), QString::fromStdString(formatSeconds(a.makespan_s)),
                              QString::fromStdString(formatSeconds(b.makespan_s)), dt < 0 ? "−" : "+",
                              QString::fromStdString(formatSeconds(std::abs(dt))))
                         .arg(b.makespan_s > 0 ? a.makespan_s / b.makespan_s : 1.0, 0, 'f', 3)
                         .arg(QString::fromStdString(formatBytes(double(a.peak_bytes[0]))),
                              QString::fromStdString(formatBytes(double(b.peak_bytes[0]))), dm < 0 ? "−" : "+",
                              QString::fromStdString(formatBytes(std::abs(dm))))
                         .arg(a.forward_steps)
                         .arg(b.forward_steps)
                         .arg(a.forward_steps - b.forward_steps));
}

void MainWindow::showRun(std::shared_ptr<const Run> run) {
    m_shown = run;
    Hardware hw = m_doc->hardware();
    QStringList ids;
    for (const GraphNode& n : m_doc->nodes()) // none for a chain
        ids << QString::fromStdString(n.id);
    m_timeline->setNodeNames(ids);
    m_timeline->setRun(run, hw);
    // The sweep diagram is drawn from a chain plan's steps (it ignores other runs); the graph view colours a graph's
    // nodes (it has no graph for a chain).
    m_sweep->setRun(run, m_doc->chain(), hw);
    m_graphView->setRun(run);
    if (m_pinned) updateSideBySide();
    if (!run || !run->timeline) return;
    const Totals& t = run->timeline->totals;
    const QString params = QString::fromStdString(formatParams(run->params, "\u00a0 ")).toHtmlEscaped();
    QString peaks;
    for (std::size_t l = 0; l < t.peak_bytes.size(); ++l)
        peaks += tr("  L%1 %2").arg(l).arg(QString::fromStdString(formatBytes(double(t.peak_bytes[l]))));
    m_summary->setText(
        tr("<b>%1</b> %2 · makespan <b>%3</b> (%4× store-all) · %5 forward steps (%6 recomputed) · peak%7 · %8 actions")
            .arg(QString::fromStdString(run->scheduler), params.trimmed(),
                 QString::fromStdString(formatSeconds(t.makespan_s)))
            .arg(t.makespan_s / run->baseline_makespan_s, 0, 'f', 3)
            .arg(t.forward_steps)
            .arg(t.recomputed_steps)
            .arg(peaks)
            .arg(run->plan ? run->plan->actionCount() : 0));
}

QCustomPlot* MainWindow::chartByName(const QString& which) const {
    if (which == "timeline") return m_timeline->plot();
    if (which == "sweep") return m_sweep->plot();
    if (which == "tradeoff") return m_tradeoff->plot();
    return nullptr;
}

QString MainWindow::exportChart(const QString& which, const QString& path, int width, int height) {
    QCustomPlot* plot = chartByName(which);
    if (!plot) return tr("no chart named '%1' (timeline, sweep, tradeoff)").arg(which);
    return ::exportChart(plot, path, width, height);
}

QString MainWindow::exportPlan(const QString& path, const QString& format) {
    if (!m_shown || !m_shown->plan) return tr("There is no plan to export yet: run a scheduler first");
    auto f = planFormatOf(format.toStdString());
    if (!f) return tr("unknown plan format '%1'").arg(format);
    auto ok = writePlanFile(path.toStdString(), *m_shown, m_doc->problem(), *f);
    return ok ? QString() : QString::fromStdString(ok.error());
}

namespace {
// Asks for a size; false when cancelled.
bool askSize(QWidget* parent, int& w, int& h) {
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Chart size"));
    auto* form = new QFormLayout(&dialog);
    auto* ws = new QSpinBox(&dialog);
    auto* hs = new QSpinBox(&dialog);
    ws->setRange(16, 20000), hs->setRange(16, 20000);
    ws->setValue(w), hs->setValue(h);
    ws->setSuffix(" px"), hs->setSuffix(" px");
    form->addRow(QObject::tr("Width"), ws);
    form->addRow(QObject::tr("Height"), hs);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted) return false;
    w = ws->value(), h = hs->value();
    return true;
}
} // namespace

void MainWindow::exportChartDialog(const QString& format) {
    const QString which = m_tabs->currentWidget() == m_sweep      ? "sweep"
                          : m_tabs->currentWidget() == m_tradeoff ? "tradeoff"
                                                                  : "timeline";
    int w = 1600, h = 900;
    if (!askSize(this, w, h)) return;
    QString path = QFileDialog::getSaveFileName(this, tr("Export the chart"), which + "." + format,
                                                format.toUpper() + " (*." + format + ")");
    if (path.isEmpty()) return;
    QString err = exportChart(which, path, w, h);
    if (!err.isEmpty())
        report(err);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}

void MainWindow::exportAllDialog() {
    int w = 1600, h = 900;
    if (!askSize(this, w, h)) return;
    QString dir = QFileDialog::getExistingDirectory(this, tr("Folder for every chart"));
    if (dir.isEmpty()) return;
    for (QString f : {"pdf", "svg", "png"}) {
        QString err = exportCharts(
            {{"timeline", m_timeline->plot()}, {"sweep", m_sweep->plot()}, {"tradeoff", m_tradeoff->plot()}}, dir, f, w,
            h);
        if (!err.isEmpty()) return report(err);
    }
    statusBar()->showMessage(tr("Wrote every chart to %1").arg(dir), 5000);
}

void MainWindow::exportPlanDialog(const QString& format) {
    auto f = planFormatOf(format.toStdString());
    QString suffix = f && m_shown ? QString::fromStdString(planFileSuffix(*m_shown, *f)) : QString(".json");
    QString path = QFileDialog::getSaveFileName(this, tr("Export the plan"), "plan" + suffix);
    if (path.isEmpty()) return;
    QString err = exportPlan(path, format);
    if (!err.isEmpty())
        report(err);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}
