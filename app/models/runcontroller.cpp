#include "runcontroller.h"

#include "document.h"

#include <QFutureWatcher>
#include <QtConcurrent>
#include <algorithm>

using namespace ckpt;

namespace {

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

// The runner turns what it meets into the run's message; a copy that runs out of memory must not end the program
// either (QFuture would rethrow it in the GUI thread).
Run guardedRun(const std::string& name, const Problem& problem, const Hardware& hw, const SolveRequest& req) {
    try {
        return runScheduler(name, problem, hw, req);
    } catch (const std::exception& e) {
        return failedRun(name, e);
    }
}

bool sameRequest(const RunInputs& a, const RunInputs& b) {
    return a.scheduler == b.scheduler && a.params == b.params && a.budget_bytes == b.budget_bytes;
}

QString describe(const Run& r) {
    QString s = QString::fromStdString(r.scheduler);
    for (const auto& [k, v] : r.params)
        s += QString::fromStdString(" " + k + "=" + v);
    return s;
}

} // namespace

RunController::RunController(Document* doc, QObject* parent) : QObject(parent), m_doc(doc) {
    m_preparePool.setMaxThreadCount(1);
    m_preparePool.setThreadPriority(QThread::LowPriority);
    connect(doc, &Document::chainChanged, this, [this] { problemChanged(tr("the chain changed"), false); });
    connect(doc, &Document::graphChanged, this, [this] { problemChanged(tr("the graph changed"), false); });
    connect(doc, &Document::hardwareChanged, this, [this] { problemChanged(tr("the machine changed"), false); });
    connect(doc, &Document::reset, this, [this] { problemChanged(tr("another problem was opened"), true); });
}

RunController::~RunController() {
    if (m_prepareStop) *m_prepareStop = true;
    m_preparePool.waitForDone();
    stopSolve();
    if (m_compareStop) *m_compareStop = true;
    for (QFutureWatcherBase* w : findChildren<QFutureWatcherBase*>())
        w->waitForFinished();
}

RunInputs RunController::inputsNow(const std::string& scheduler, const std::map<std::string, std::string>& params,
                                   std::int64_t budget) const {
    return RunInputs{m_doc->revision(), scheduler, params, budget};
}

void RunController::solve(const std::string& scheduler, const std::map<std::string, std::string>& params,
                          std::int64_t budget) {
    const RunInputs in = inputsNow(scheduler, params, budget);
    m_wanted = in;
    if (m_shown && m_shownInputs == in) { // back to what is shown: the solve for other inputs is moot
        dropSolve();
        return updateStale();
    }
    if (m_solving && m_solvingInputs == in) return updateStale();
    stopSolve();
    const int generation = m_generation;
    m_solving = true;
    m_solvingInputs = in;
    m_solveClock.start();
    m_solveStop = std::make_shared<std::atomic<bool>>(false);
    SolveRequest req;
    req.params = params;
    req.budget_bytes = budget;
    req.cancel = m_solveStop.get();
    auto* watcher = new QFutureWatcher<Run>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        solveArrived(generation, watcher->result());
    });
    watcher->setFuture(
        QtConcurrent::run([problem = m_doc->problem(), hw = m_doc->hardware(), req, stop = m_solveStop, scheduler] {
            if (*stop) return Run{}; // a newer request came before it started: dropped unseen
            return guardedRun(scheduler, problem, hw, req);
        }));
    emit runStarted(tr("Solving %1").arg(QString::fromStdString(scheduler)));
    updateStale();
}

void RunController::solveArrived(int generation, Run run) {
    if (generation != m_generation) return; // a newer request, an edit or Cancel made it moot
    m_solving = false;
    QString message = run.feasible ? QString() : QString::fromStdString(run.message);
    setShown(std::make_shared<const Run>(std::move(run)), m_solvingInputs);
    emit runFinished(message);
}

RunController::RunPtr RunController::solveNow(const std::string& scheduler,
                                              const std::map<std::string, std::string>& params, std::int64_t budget) {
    const RunInputs in = inputsNow(scheduler, params, budget);
    SolveRequest req;
    req.params = params;
    req.budget_bytes = budget;
    auto run = std::make_shared<const Run>(guardedRun(scheduler, m_doc->problem(), m_doc->hardware(), req));
    showAlone(run, in);
    return run;
}

void RunController::stopSolve() {
    if (m_solveStop) *m_solveStop = true;
    ++m_generation;
    m_solving = false;
}

void RunController::dropSolve() {
    if (!m_solving) return;
    stopSolve();
    emit runFinished({});
}

void RunController::cancel() {
    const bool solving = m_solving;
    stopSolve();
    if (m_compareStop) *m_compareStop = true; // Run all stops after its current run and shows what it did
    if (solving) emit runFinished(tr("Cancelled the solve of %1").arg(solvingWhat()));
    updateStale();
    emit cancelled();
}

bool RunController::compare(const CompareRequest& request) {
    if (m_comparing) return false;
    m_comparing = true;
    m_compareRequest = request;
    m_compareRevision = m_doc->revision();
    m_compareDone = 0;
    m_compareTotal = int(request.schedulers.size() * request.budgets.size());
    m_compareClock.start();
    m_compareStop = std::make_shared<std::atomic<bool>>(false);
    auto* watcher = new QFutureWatcher<std::vector<Run>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        compareArrived(watcher->result());
    });
    // `this` outlives the worker: the destructor waits for it.
    auto progress = [this](int done, int total) {
        QMetaObject::invokeMethod(
            this,
            [this, done, total] {
                m_compareDone = done;
                emit progressChanged(done, total);
            },
            Qt::QueuedConnection);
    };
    watcher->setFuture(QtConcurrent::run(
        [problem = m_doc->problem(), hw = m_doc->hardware(), request, progress, stop = m_compareStop] {
            try {
                return ckpt::compare(problem, hw, request, progress, stop.get());
            } catch (const std::exception& e) {
                return std::vector<Run>{failedRun(tr("the comparison").toStdString(), e)};
            }
        }));
    emit runStarted(tr("Running %1 solves").arg(m_compareTotal));
    return true;
}

void RunController::compareArrived(std::vector<Run> runs) {
    m_comparing = false;
    if (m_resetRevision > m_compareRevision) { // runs of a problem no longer open
        emit runFinished(tr("Run all was dropped: another problem was opened"));
        return updateStale();
    }
    QString note =
        *m_compareStop ? tr("Cancelled after %1 runs").arg(runs.size()) : tr("%1 runs done").arg(runs.size());
    for (const Run& r : runs)
        if (r.bad_input) { // a refused size or a run out of memory: say why, not only "done"
            note += tr(" · %1").arg(QString::fromStdString(r.message));
            break;
        }
    auto inputs = inputsOf(runs, m_compareRequest);
    std::vector<RunPtr> shared;
    for (Run& r : runs)
        shared.push_back(std::make_shared<const Run>(std::move(r)));
    setComparison(std::move(shared), std::move(inputs));
    emit runFinished(note);
}

void RunController::compareNow(const CompareRequest& request) {
    m_compareRevision = m_doc->revision();
    std::vector<Run> runs = ckpt::compare(m_doc->problem(), m_doc->hardware(), request);
    auto inputs = inputsOf(runs, request);
    std::vector<RunPtr> shared;
    for (Run& r : runs)
        shared.push_back(std::make_shared<const Run>(std::move(r)));
    setComparison(std::move(shared), std::move(inputs));
}

std::vector<RunInputs> RunController::inputsOf(const std::vector<Run>& runs, const CompareRequest& request) const {
    std::vector<RunInputs> out;
    for (const Run& r : runs) {
        auto p = request.params.find(r.scheduler);
        out.push_back(RunInputs{m_compareRevision, r.scheduler,
                                p == request.params.end() ? decltype(p->second){} : p->second, r.budget_bytes});
    }
    return out;
}

void RunController::showAlone(RunPtr run, const RunInputs& inputs) {
    dropSolve();
    m_wanted = inputs;
    setComparison({run}, {inputs});
    setShown(std::move(run), inputs);
}

bool RunController::showCompared(int index) {
    if (index < 0 || index >= int(m_compared.size()) || !m_compared[std::size_t(index)]->timeline) return false;
    dropSolve();
    m_wanted = m_comparedInputs[std::size_t(index)];
    setShown(m_compared[std::size_t(index)], m_wanted);
    return true;
}

void RunController::setShown(RunPtr run, const RunInputs& inputs) {
    m_shown = std::move(run);
    m_shownInputs = inputs;
    emit shownRunChanged();
    updateStale();
}

void RunController::setComparison(std::vector<RunPtr> runs, std::vector<RunInputs> inputs) {
    m_compared = std::move(runs);
    m_comparedInputs = std::move(inputs);
    emit comparisonChanged();
    updateStale();
}

void RunController::problemChanged(const QString& what, bool reset) {
    const quint64 revision = m_doc->revision();
    // An undo gives back an earlier revision: the changes after it are undone, and the one that made it is recorded.
    std::erase_if(m_changes, [&](const auto& change) { return change.first > revision; });
    if (m_changes.empty() || m_changes.back().first < revision) m_changes.emplace_back(revision, what);
    if (m_changes.size() > 64) { // older changes: "the problem changed"
        m_forgotten = std::max(m_forgotten, m_changes.front().first);
        m_changes.erase(m_changes.begin());
    }
    dropSolve();                              // its result would be of the old problem
    if (m_prepareStop) *m_prepareStop = true; // its tables would be of the old problem
    if (m_pinned && m_pinnedInputs.revision != revision) {
        m_unpinNote = tr("Unpinned %1: %2").arg(describe(*m_pinned), what);
        m_unpinRevision = revision;
        m_pinned.reset();
        emit pinDropped(m_unpinNote);
    }
    if (reset) {
        // Results of another problem are no use, not even marked stale: its views start empty.
        m_resetRevision = revision;
        if (m_compareStop) *m_compareStop = true;
        m_wanted = {};
        setComparison({}, {});
        setShown(nullptr, {});
    }
    updateStale();
}

QString RunController::changedSince(quint64 revision) const {
    QStringList what;
    for (const auto& [r, w] : m_changes)
        if (r > revision && !what.contains(w)) what << w;
    if (what.isEmpty() || revision < m_forgotten) return tr("the problem changed");
    return what.join(tr(" and "));
}

bool RunController::shownIsStale() const {
    return m_shown && (m_shownInputs.revision != m_doc->revision() || !sameRequest(m_shownInputs, m_wanted));
}

QString RunController::shownStaleReason() const {
    if (!shownIsStale()) return {};
    if (m_shownInputs.revision != m_doc->revision()) return changedSince(m_shownInputs.revision);
    QStringList what;
    if (m_shownInputs.scheduler != m_wanted.scheduler) what << tr("the scheduler");
    if (m_shownInputs.params != m_wanted.params) what << tr("the parameters");
    if (m_shownInputs.budget_bytes != m_wanted.budget_bytes) what << tr("the budget");
    return tr("%1 changed").arg(what.join(tr(" and ")));
}

bool RunController::comparisonIsStale() const {
    return !comparisonStaleReason().isEmpty();
}

QString RunController::comparisonStaleReason() const {
    const auto& now = m_doc->settings().params;
    for (const RunInputs& in : m_comparedInputs)
        if (in.revision != m_doc->revision()) return changedSince(in.revision);
    for (const RunInputs& in : m_comparedInputs) {
        auto p = now.find(in.scheduler);
        if (in.params != (p == now.end() ? std::map<std::string, std::string>{} : p->second))
            return tr("the parameters of %1 changed").arg(QString::fromStdString(in.scheduler));
    }
    return {};
}

void RunController::updateStale() {
    const bool shown = shownIsStale(), compared = comparisonIsStale();
    if (shown == m_lastShownStale && compared == m_lastComparisonStale) return;
    m_lastShownStale = shown;
    m_lastComparisonStale = compared;
    emit staleChanged();
}

bool RunController::pin() {
    if (!m_shown || !m_shown->timeline) return false;
    m_pinned = m_shown;
    m_pinnedInputs = m_shownInputs;
    m_unpinNote.clear();
    return true;
}

QString RunController::unpinNote() const {
    return m_unpinRevision == m_doc->revision() ? m_unpinNote : QString();
}

double RunController::busySeconds() const {
    double s = 0;
    if (m_solving) s = std::max(s, double(m_solveClock.elapsed()) / 1000);
    if (m_comparing) s = std::max(s, double(m_compareClock.elapsed()) / 1000);
    return s;
}

QString RunController::busyText() const {
    QStringList parts;
    if (m_solving)
        parts << tr("Solving %1… %2 s").arg(solvingWhat()).arg(double(m_solveClock.elapsed()) / 1000, 0, 'f', 1);
    if (m_comparing)
        parts << (m_compareStop && *m_compareStop ? tr("Cancelling Run all after its current solve…")
                                                  : tr("Run all: %1 of %2 solves… %3 s")
                                                        .arg(m_compareDone)
                                                        .arg(m_compareTotal)
                                                        .arg(double(m_compareClock.elapsed()) / 1000, 0, 'f', 1));
    return parts.join(QStringLiteral(" · "));
}

BudgetRange RunController::budgetRange() const {
    if (m_rangeRevision != m_doc->revision()) {
        m_range = ckpt::budgetRange(m_doc->problem(), m_doc->hardware());
        m_rangeRevision = m_doc->revision();
    }
    return m_range;
}

void RunController::prepare(const std::string& scheduler, const std::map<std::string, std::string>& params,
                            const std::vector<std::int64_t>& budgets, std::int64_t near) {
    const RunInputs in = inputsNow(scheduler, params, 0);
    if (isPreparing() && m_preparedInputs == in) return; // already under way
    if (m_prepareStop) *m_prepareStop = true;
    const SchedulerInfo* info = findScheduler(scheduler);
    if (!info || !info->table_budgets || !m_doc->problem().schedulingChain()) { // nothing it could keep
        m_preparing = {};
        m_preparedInputs = {};
        return;
    }
    m_preparedInputs = in;
    m_prepareStop = std::make_shared<std::atomic<bool>>(false);
    m_preparing = QtConcurrent::run(&m_preparePool, [problem = m_doc->problem(), hw = m_doc->hardware(), scheduler,
                                                     params, budgets, near, stop = m_prepareStop] {
        return prepareTables(scheduler, problem, hw, params, budgets, near, stop.get());
    });
}

PreparedTables RunController::waitForPrepared() {
    if (!m_preparing.isValid()) return {};
    m_preparing.waitForFinished();
    return m_preparing.result();
}
