// The run controller: every result says which inputs it came from, a result whose inputs changed is dropped or marked
// stale, what runs is shown with its elapsed time and Cancel stops it; and the window shows what it holds.
#include "io/json_io.h"
#include "models/comparisonmodel.h"
#include "models/document.h"
#include "models/runcontroller.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "run/budget.h"
#include "widgets/mainwindow.h"
#include "widgets/runstatus.h"
#include "widgets/schedulerpanel.h"

#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStatusBar>
#include <QThreadPool>
#include <QtTest>

using namespace ckpt;

namespace {
const QString kSmall = QString(CKPT_SOURCE_DIR) + "/examples/small-hetero-12.ckpt-chain.json";
const QString kResnet = QString(CKPT_SOURCE_DIR) + "/examples/resnet18-b32-224.ckpt-graph.json";

// Step 1 takes a second: every makespan after this edit is over a second, every one before it under 0.06 s.
QString slowFirstStep(Document* doc) {
    auto steps = doc->steps();
    steps[0].forward = 1.0;
    return doc->editSteps(steps, "step 1 takes a second");
}

void openSmall(MainWindow& w) {
    w.setInteractive(false);
    QVERIFY2(w.openFile(kSmall), qPrintable(w.lastError()));
    w.document()->settings().schedulers = {"store-all", "rotor"};
    w.document()->settings().budgets = "none,75%";
}
} // namespace

class TestRunController : public QObject {
    Q_OBJECT
private slots:
    void revisionCountsProblemAndMachineChanges() {
        Document doc;
        const quint64 r0 = doc.revision();
        doc.setProject(Project{*loadChain(kSmall.toStdString()), Hardware::unbounded(), {}});
        QCOMPARE(doc.revision(), r0 + 1);
        QCOMPARE(slowFirstStep(&doc), QString());
        QCOMPARE(doc.revision(), r0 + 2);
        doc.undoStack()->undo(); // the chain as it was: the revision it had
        QCOMPARE(doc.revision(), r0 + 1);
        doc.undoStack()->redo();
        QCOMPARE(doc.revision(), r0 + 2);
        doc.undoStack()->undo();
        doc.settings().budget_bytes = 12345; // settings are the request's part, not the problem's
        QCOMPARE(doc.revision(), r0 + 1);
        auto levels = doc.levels();
        levels.push_back(MemoryLevel{"disk", 1LL << 40, 2e9, 1.5e9, 1e-4});
        QCOMPARE(doc.editLevels(levels, "a disk"), QString());
        QCOMPARE(doc.revision(), r0 + 3); // never given before: r0 + 2 named the undone chain
        doc.undoStack()->undo();
        QCOMPARE(doc.revision(), r0 + 1);
    }

    // A result that arrives after its chain changed is dropped; the solve for the chain as it is now is shown.
    void aResultOfOldInputsIsDropped() {
        Document doc;
        doc.setProject(Project{*loadChain(kSmall.toStdString()), Hardware::unbounded(), {}});
        RunController runs(&doc);
        QSignalSpy shown(&runs, &RunController::shownRunChanged);
        runs.solve("store-all", {}, 0);
        QVERIFY(runs.isSolving());
        QThreadPool::globalInstance()->waitForDone(); // made, not yet delivered
        QCOMPARE(slowFirstStep(&doc), QString());
        QVERIFY(!runs.isSolving()); // the edit made it moot
        QCoreApplication::processEvents();
        QCOMPARE(shown.count(), 0);
        QVERIFY(!runs.shownRun());
        runs.solve("store-all", {}, 0);
        QTRY_VERIFY_WITH_TIMEOUT(runs.shownRun(), 20000);
        QCOMPARE(runs.shownInputs().revision, doc.revision());
        QVERIFY(runs.shownRun()->timeline->totals.makespan_s > 1.0);
        QVERIFY(!runs.shownIsStale());
    }

    // The latest request wins: the older one is stopped and never shown, even when it finishes first.
    void aNewerSolveDropsTheOlder() {
        Document doc;
        doc.setProject(Project{*loadChain(kSmall.toStdString()), Hardware::unbounded(), {}});
        RunController runs(&doc);
        QSignalSpy shown(&runs, &RunController::shownRunChanged);
        runs.solve("store-all", {}, 0);
        QThreadPool::globalInstance()->waitForDone();
        runs.solve("revolve", {{"slots", "3"}}, 0);
        QTRY_VERIFY_WITH_TIMEOUT(!runs.isSolving(), 20000);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(runs.shownRun()->scheduler, std::string("revolve"));
        QCOMPARE(runs.shownInputs().params.at("slots"), std::string("3"));
        // Asking again for what is shown and current solves nothing.
        runs.solve("revolve", {{"slots", "3"}}, 0);
        QVERIFY(!runs.isSolving());
        // Another budget: the shown plan is stale (and says why) until its successor arrives.
        runs.solve("revolve", {{"slots", "3"}}, 60 << 20);
        QVERIFY(runs.isSolving());
        QVERIFY(runs.shownIsStale());
        QCOMPARE(runs.shownStaleReason(), QString("the budget changed"));
        QTRY_VERIFY_WITH_TIMEOUT(!runs.isSolving(), 20000);
        QVERIFY(!runs.shownIsStale());
        QCOMPARE(runs.shownRun()->budget_bytes, std::int64_t(60 << 20));
    }

    // Until a problem's first plan arrives, its empty charts say that one is being solved (not "Run a scheduler"), and
    // once that solve is cancelled they say again how to get one.
    void theEmptyChartsSayAPlanIsOnItsWay() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY2(w.openFile(kResnet), qPrintable(w.lastError()));
        RunController* runs = w.runController();
        // No event has been handled yet, so no plan has arrived: start checkmate's MILP instead of the first solve.
        QVERIFY(!runs->shownRun());
        w.schedulerPanel()->setCurrentScheduler("checkmate");
        w.schedulerPanel()->setBudgetBytes(runs->budgetRange().ceiling / 2);
        w.runCurrent();
        QVERIFY(runs->isSolving() && !runs->shownRun());
        QCOMPARE(w.timelineView()->emptyHint(), QString("Solving checkmate…"));
        QCOMPARE(w.sweepView()->emptyHint(), QString("Solving checkmate…"));
        runs->cancel();
        QVERIFY(!runs->isSolving());
        QCOMPARE(w.timelineView()->emptyHint(), QString("Run a scheduler (F5) to see its plan"));
        QCOMPARE(w.sweepView()->emptyHint(), QString("Run a scheduler (F5) to see its plan"));
    }

    // While checkmate works on ResNet-18 (a MILP with a 60 s time limit) the window says what runs and for how long;
    // Cancel stops it and the plan shown before stays, marked out of date.
    void aRunningSolveIsShownAndCancelStopsIt() {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY2(w.openFile(kResnet), qPrintable(w.lastError()));
        RunController* runs = w.runController();
        QTRY_VERIFY_WITH_TIMEOUT(runs->shownRun() && !runs->isBusy(), 60000); // the plan the graph opens with
        const auto before = runs->shownRun();
        QVERIFY(before->scheduler != "checkmate");
        w.schedulerPanel()->setCurrentScheduler("checkmate");
        w.schedulerPanel()->setBudgetBytes(runs->budgetRange().ceiling / 2);
        w.runCurrent();
        // Queryable at once; the status bar waits a moment so that fast solves do not flicker.
        QVERIFY(runs->isSolving());
        QCOMPARE(runs->solvingWhat(), QString("checkmate"));
        QVERIFY2(runs->busyText().startsWith("Solving checkmate… 0."), qPrintable(runs->busyText()));
        QVERIFY(w.runStatus()->isHidden());
        QVERIFY(runs->shownRun() == before);
        QVERIFY(runs->shownIsStale());
        QVERIFY2(w.summary().contains("Out of date") && w.summary().contains("solving checkmate…"),
                 qPrintable(w.summary()));
        // Shown once it has taken a moment (or it finished first on a fast machine: then its result is shown).
        QTRY_VERIFY_WITH_TIMEOUT(!w.runStatus()->isHidden() || !runs->isSolving(), 30000);
        if (runs->isSolving()) {
            static const QRegularExpression text("^Solving checkmate… \\d+\\.\\d s$");
            QVERIFY2(text.match(w.runStatus()->text()).hasMatch(), qPrintable(w.runStatus()->text()));
            const QString first = w.runStatus()->text();
            QTRY_VERIFY_WITH_TIMEOUT(w.runStatus()->text() != first || !runs->isSolving(), 30000); // the clock runs
            w.runStatus()->cancelButton()->click();
            QVERIFY(!runs->isSolving());
            QVERIFY2(w.statusBar()->currentMessage().contains("Cancelled the solve of checkmate"),
                     qPrintable(w.statusBar()->currentMessage()));
            QVERIFY(w.runStatus()->isHidden());
            QVERIFY(runs->shownRun() == before);
            QVERIFY2(w.summary().contains("Run current (F5) to solve it"), qPrintable(w.summary()));
            // The worker stops well before the 60 s the MILP was given.
            QTRY_VERIFY_WITH_TIMEOUT(QThreadPool::globalInstance()->activeThreadCount() == 0, 30000);
            QCoreApplication::processEvents();
            QVERIFY(runs->shownRun() == before); // its "cancelled" result is not shown either
        }
    }

    // Run all just after Cancel, while the cancelled runs wind down, starts again once they stop (it used to say
    // "Runs already in progress" and do nothing); Cancel drops such a queued Run all. A new run clears the status
    // bar's message about the last one.
    void runAllAfterCancelStartsOnceTheOldRunsStop() {
        MainWindow w;
        openSmall(w);
        RunController* runs = w.runController();
        QTRY_VERIFY_WITH_TIMEOUT(runs->shownRun() && !runs->isBusy(), 30000); // the plan the chain opens with
        QSignalSpy started(runs, &RunController::runStarted);
        w.runAll();
        QVERIFY(runs->isComparing());
        w.cancelRuns(); // the worker's result has not been taken yet (no events processed): it winds down
        QVERIFY(runs->isCancellingComparison());
        w.runAll();
        QCOMPARE(w.statusBar()->currentMessage(), QString("Run all starts again once the cancelled runs stop"));
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 2, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!runs->isBusy(), 30000);
        QCOMPARE(int(runs->comparison().size()), 4); // all of the second Run all: store-all and rotor at 2 budgets
        QCOMPARE(w.statusBar()->currentMessage(), QString("4 runs done"));
        // Cancel drops a queued Run all, whichever way it is asked for.
        w.runAll();
        runs->cancel(); // as the status bar's Cancel button does
        w.runAll();
        QCOMPARE(w.statusBar()->currentMessage(), QString("Run all starts again once the cancelled runs stop"));
        w.cancelRuns();
        QTRY_VERIFY_WITH_TIMEOUT(!runs->isBusy(), 30000);
        QTest::qWait(50);
        QCOMPARE(started.count(), 3);
        QVERIFY2(w.statusBar()->currentMessage().startsWith("Cancelled after"),
                 qPrintable(w.statusBar()->currentMessage()));
        // A new run clears that message (it would otherwise stay for 15 s beside the new run's progress).
        w.runAll();
        QCOMPARE(started.count(), 4);
        QCOMPARE(w.statusBar()->currentMessage(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!runs->isBusy(), 30000);
    }

    // After an edit, Comparison and Trade-off say they are out of date; a new Run all is current again.
    void anEditMarksTheComparisonStale() {
        MainWindow w;
        openSmall(w);
        w.runAllNow();
        RunController* runs = w.runController();
        QCOMPARE(int(runs->comparison().size()), 4);
        QVERIFY(!runs->comparisonIsStale());
        QVERIFY(!w.comparisonModel()->isStale() && !w.tradeoffView()->isStale());
        QCOMPARE(w.staleBanner(), QString());
        QCOMPARE(slowFirstStep(w.document()), QString());
        QVERIFY(runs->comparisonIsStale());
        QCOMPARE(w.staleBanner(),
                 QString("Out of date: the chain changed since these runs — Run all (Shift+F5) to refresh"));
        QVERIFY(w.comparisonModel()->isStale() && w.tradeoffView()->isStale());
        // The store-all row still holds the old makespan, greyed and not presented as current.
        const QModelIndex makespan = w.comparisonModel()->index(0, ComparisonModel::Makespan);
        QCOMPARE(runs->comparison()[0]->scheduler, std::string("store-all"));
        QCOMPARE(makespan.data().toString(), QString("55.7 ms"));
        QCOMPARE(makespan.data(Qt::ForegroundRole).value<QColor>(), QColor(Qt::gray));
        // The banner is on the Comparison and Trade-off tabs only.
        w.showChartTab("comparison");
        QList<QLabel*> shown;
        for (QLabel* l : w.findChildren<QLabel*>())
            if (l->text() == w.staleBanner() && l->isVisibleTo(&w)) shown << l;
        QCOMPARE(shown.size(), 1);
        w.showChartTab("timeline");
        QVERIFY(!shown.front()->isVisibleTo(&w));
        w.showChartTab("tradeoff");
        QVERIFY(shown.front()->isVisibleTo(&w));
        w.runAllNow();
        QVERIFY(!runs->comparisonIsStale());
        QVERIFY(!shown.front()->isVisibleTo(&w));
        QVERIFY(runs->comparison()[0]->timeline->totals.makespan_s > 1.0);
        // Parameters of a compared scheduler count too.
        w.document()->settings().params["rotor"]["slots"] = "4";
        QCOMPARE(runs->comparisonStaleReason(), QString("the parameters of rotor changed"));
    }

    // Undoing every edit back to the inputs the runs were made from makes them current again: no banner, no grey
    // rows, the shown plan not stale; redo marks them again, naming what changed.
    void undoingBackToTheRunsInputsMakesThemCurrent() {
        MainWindow w;
        openSmall(w);
        w.runAllNow();
        QVERIFY(w.runCurrentNow());
        RunController* runs = w.runController();
        QVERIFY(!runs->comparisonIsStale() && !runs->shownIsStale());
        QCOMPARE(slowFirstStep(w.document()), QString());
        auto levels = w.document()->levels();
        levels.push_back(MemoryLevel{"disk", 1LL << 40, 2e9, 1.5e9, 1e-4});
        QCOMPARE(w.document()->editLevels(levels, "a disk"), QString());
        QVERIFY(runs->comparisonIsStale() && runs->shownIsStale());
        QCOMPARE(runs->comparisonStaleReason(), QString("the chain changed and the machine changed"));
        w.document()->undoStack()->undo();
        QVERIFY(runs->comparisonIsStale());
        QCOMPARE(runs->comparisonStaleReason(), QString("the chain changed"));
        w.document()->undoStack()->undo();
        QVERIFY(!runs->comparisonIsStale() && !runs->shownIsStale());
        QCOMPARE(w.staleBanner(), QString());
        QVERIFY(!w.comparisonModel()->isStale() && !w.tradeoffView()->isStale());
        w.document()->undoStack()->redo();
        QVERIFY(runs->comparisonIsStale() && w.comparisonModel()->isStale() && w.tradeoffView()->isStale());
        QCOMPARE(runs->comparisonStaleReason(), QString("the chain changed"));
    }

    // A trade-off point shows its run and sets the panel to it, so the slider and the plan agree and nothing is
    // solved again; the summary states the plan's budget.
    void aComparedRunSetsThePanel() {
        MainWindow w;
        openSmall(w);
        w.schedulerPanel()->setCurrentScheduler("store-all");
        w.schedulerPanel()->setBudgetBytes(0);
        QVERIFY(w.runCurrentNow()->feasible);
        QVERIFY2(w.summary().contains("store-all</b> · no budget ·"), qPrintable(w.summary()));
        w.runAllNow();
        RunController* runs = w.runController();
        int index = -1;
        for (int i = 0; i < int(runs->comparison().size()); ++i)
            if (runs->comparison()[std::size_t(i)]->scheduler == "rotor" &&
                runs->comparison()[std::size_t(i)]->budget_bytes > 0)
                index = i;
        QVERIFY(index >= 0);
        const auto picked = runs->comparison()[std::size_t(index)];
        emit w.tradeoffView()->runClicked(index);
        QVERIFY(w.shownRun() == picked);
        QCOMPARE(w.schedulerPanel()->currentScheduler(), std::string("rotor"));
        QCOMPARE(w.schedulerPanel()->budgetBytes(), picked->budget_bytes);
        QTest::qWait(100); // the panel's change asks for a solve (a 0 ms timer): of what is shown, so none
        QVERIFY(!runs->isSolving());
        QVERIFY(w.shownRun() == picked && !runs->shownIsStale());
        const std::int64_t peak = storeAllPeak(w.document()->chain(), w.document()->hardware());
        QCOMPARE(picked->budget_bytes, peak * 3 / 4);
        QVERIFY2(w.summary().contains("budget 75 MiB (75.0 % of store-all's peak)"), qPrintable(w.summary()));
    }

    // A pin goes with the problem it was made on: an edit of the machine drops it and says so.
    void aMachineEditUnpins() {
        MainWindow w;
        openSmall(w);
        QVERIFY(w.runCurrentNow()->feasible);
        w.pinShownRun();
        QVERIFY(w.runController()->pinned());
        QSignalSpy dropped(w.runController(), &RunController::pinDropped);
        auto levels = w.document()->levels();
        levels.push_back(MemoryLevel{"disk", 1LL << 40, 2e9, 1.5e9, 1e-4});
        QCOMPARE(w.document()->editLevels(levels, "a disk"), QString());
        QCOMPARE(dropped.count(), 1);
        QVERIFY(!w.runController()->pinned());
        QVERIFY2(w.statusBar()->currentMessage().startsWith("Unpinned ") &&
                     w.statusBar()->currentMessage().endsWith(": the machine changed"),
                 qPrintable(w.statusBar()->currentMessage()));
        QVERIFY2(w.sideBySideSummary().contains("the machine changed"), qPrintable(w.sideBySideSummary()));
    }
};

QTEST_MAIN(TestRunController)
#include "tst_runcontroller.moc"
