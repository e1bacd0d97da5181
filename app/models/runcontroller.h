#pragma once
// Every background solve of the explorer: the single solve behind the shown plan (the scheduler, parameters and budget
// the panel asks for) and "Run all" (compare over the sweep). Each result keeps the inputs it was made from, so one
// whose problem, machine or request changed meanwhile is dropped, or kept and marked stale, never shown as current.
// Views ask here for results; the window asks here what runs (for its status bar) and cancels here.
#include "run/runner.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

class Document;

// What a result was made from. Two results with equal inputs are the same plan (every solve is deterministic).
struct RunInputs {
    quint64 revision = 0; // the document's problem and machine (Document::revision)
    std::string scheduler;
    std::map<std::string, std::string> params; // as asked for (the run's own params add defaults and fits)
    std::int64_t budget_bytes = 0;             // 0: no budget
    bool operator==(const RunInputs&) const = default;
};

class RunController : public QObject {
    Q_OBJECT
public:
    using RunPtr = std::shared_ptr<const ckpt::Run>;
    explicit RunController(Document* doc, QObject* parent = nullptr);
    ~RunController() override; // stops what runs and waits for it: a worker must not outlive the document

    // The single solve for these inputs on the document as it is now, in the background. It becomes the shown run
    // when it arrives, unless a newer request, an edit or Cancel made it moot (then it is stopped and dropped).
    // Asking for what is already shown and current, or already being solved, does nothing.
    void solve(const std::string& scheduler, const std::map<std::string, std::string>& params, std::int64_t budget);
    // The same on this thread; the result is shown, and is the comparison's only row (to set beside `ckpt solve`).
    RunPtr solveNow(const std::string& scheduler, const std::map<std::string, std::string>& params,
                    std::int64_t budget);
    // "Run all" in the background: false, and nothing started, while one runs.
    bool compare(const ckpt::CompareRequest& request);
    void compareNow(const ckpt::CompareRequest& request);
    void cancel(); // the single solve and Run all
    // A run made elsewhere (a plan file) shown alone: the shown run and the comparison's only row.
    void showAlone(RunPtr run, const RunInputs& inputs);
    // Shows the comparison's run at `index` (a trade-off point, a table row); false if there is none or no plan.
    // The caller sets the panel to shownInputs() so that they agree.
    bool showCompared(int index);

    RunPtr shownRun() const { return m_shown; }
    const RunInputs& shownInputs() const { return m_shownInputs; }
    // The shown run is not the result for the last request on the document as it is now (a solve for the new inputs
    // runs, failed, or was cancelled); staleReason() says what changed.
    bool shownIsStale() const;
    QString shownStaleReason() const;
    const std::vector<RunPtr>& comparison() const { return m_compared; }
    const std::vector<RunInputs>& comparisonInputs() const { return m_comparedInputs; }
    // The problem or machine changed since Run all, or the parameters of a compared scheduler did.
    bool comparisonIsStale() const;
    QString comparisonStaleReason() const;

    // Side by side: the shown plan kept. An edit of the problem or machine, or another problem, drops it (pinDropped).
    bool pin();
    RunPtr pinned() const { return m_pinned; }
    QString unpinNote() const; // why the pin went, while nothing else changed since

    // What runs, readable at once (the status bar shows it after a short delay).
    bool isSolving() const { return m_solving; }
    bool isComparing() const { return m_comparing; }
    // Run all was cancelled and stops after its current solve.
    bool isCancellingComparison() const { return m_comparing && m_compareStop && *m_compareStop; }
    bool isBusy() const { return m_solving || m_comparing; }
    QString solvingWhat() const { return QString::fromStdString(m_solvingInputs.scheduler); }
    double busySeconds() const; // since the oldest run in progress started
    int compareDone() const { return m_compareDone; }
    int compareTotal() const { return m_compareTotal; }
    QString busyText() const; // "Solving checkmate… 3.2 s", "Run all: 5 of 24 solves… 12.0 s"

    // Store-all's peak and the slider's floor for the document as it is now (computed once per revision).
    ckpt::BudgetRange budgetRange() const;

    // Builds ahead, in the background, the tables the scheduler keeps between solves that a solve at any of `budgets`
    // (the slider's positions) reads, nearest `near` first (ckpt::prepareTables), so that moving the slider reads them
    // instead of building them. Replaces a preparation for other inputs; an edit of the problem or machine stops it.
    void prepare(const std::string& scheduler, const std::map<std::string, std::string>& params,
                 const std::vector<std::int64_t>& budgets, std::int64_t near);
    bool isPreparing() const { return m_preparing.isValid() && !m_preparing.isFinished(); }
    // Waits until the preparation in progress ends (benchmarks, tests); what the last one did.
    ckpt::PreparedTables waitForPrepared();

signals:
    void runStarted(const QString& what);
    void runFinished(const QString& message); // done, failed or cancelled, for the status bar
    void progressChanged(int done, int total);
    void shownRunChanged();
    void comparisonChanged();
    void staleChanged();
    void pinDropped(const QString& message);
    void cancelled(); // Cancel was asked for (whether or not anything ran)

private:
    void problemChanged(const QString& what, bool reset);
    void setShown(RunPtr run, const RunInputs& inputs);
    void setComparison(std::vector<RunPtr> runs, std::vector<RunInputs> inputs);
    void stopSolve(); // the running single solve is moot: stopped, its result dropped
    void dropSolve(); // the same, said (runFinished) if one ran
    void solveArrived(int generation, ckpt::Run run);
    void compareArrived(std::vector<ckpt::Run> runs);
    void updateStale();
    QString changedSince(quint64 revision) const;
    RunInputs inputsNow(const std::string& scheduler, const std::map<std::string, std::string>& params,
                        std::int64_t budget) const;
    std::vector<RunInputs> inputsOf(const std::vector<ckpt::Run>& runs, const ckpt::CompareRequest& request) const;

    Document* m_doc;
    RunPtr m_shown, m_pinned;
    RunInputs m_shownInputs, m_wanted, m_pinnedInputs;
    std::vector<RunPtr> m_compared;
    std::vector<RunInputs> m_comparedInputs;
    std::vector<std::pair<quint64, QString>> m_changes; // the revision each change made, and what it changed
    quint64 m_forgotten = 0;                            // the latest revision of a change dropped from m_changes
    quint64 m_resetRevision = 0;                        // the last new problem: older results are of another
    QString m_unpinNote;
    quint64 m_unpinRevision = 0;

    int m_generation = 0; // of the single solve; a result of another generation is moot
    bool m_solving = false, m_comparing = false;
    RunInputs m_solvingInputs;
    std::shared_ptr<std::atomic<bool>> m_solveStop; // stops the running solve (a MILP checks it)
    std::shared_ptr<std::atomic<bool>> m_compareStop;
    ckpt::CompareRequest m_compareRequest;
    quint64 m_compareRevision = 0;
    int m_compareDone = 0, m_compareTotal = 0;
    QElapsedTimer m_solveClock, m_compareClock;
    bool m_lastShownStale = false, m_lastComparisonStale = false;
    QThreadPool m_preparePool; // its own thread, at low priority: a solve the user asks for never waits for it
    QFuture<ckpt::PreparedTables> m_preparing;
    RunInputs m_preparedInputs; // budget_bytes unused
    std::shared_ptr<std::atomic<bool>> m_prepareStop;
    mutable quint64 m_rangeRevision = ~quint64(0);
    mutable ckpt::BudgetRange m_range;
};
