#pragma once
// The window's runs as the user drives them: Run current (F5), Run all (Shift+F5), Cancel (Esc) and Pin the shown
// plan (Ctrl+B) in the Run menu and on the toolbar; a solve as soon as the scheduler, its parameters, the budget, the
// problem or the machine change (bursts of slider moves coalesced into one), and the slider's tables built ahead
// half a second later; what the runs bring: every page's plan, the comparison, the stale marks, the summary line and
// the status bar's message about the last run.
#include "run/runner.h"

#include <QObject>
#include <QString>
#include <memory>

class ComparisonModel;
class Document;
class QLabel;
class QMenu;
class QStatusBar;
class QTabWidget;
class QTimer;
class QToolBar;
class RunController;
class SchedulerPanel;
class SummaryLine;
class SweepView;
class TimelineView;
class TradeoffView;
class ViewLinks;

class RunActions : public QObject {
    Q_OBJECT
public:
    struct Parts {
        Document* doc;
        RunController* runs;
        SchedulerPanel* panel;
        QTabWidget* tabs; // the chart pages (widgets/chartpage.h)
        ComparisonModel* comparison;
        SummaryLine* summary;
        QLabel* staleBanner; // above Comparison and Trade-off while their runs are out of date
        ViewLinks* links;
        QStatusBar* status;
        TimelineView* timeline; // the pages' views that say a solve is on its way, and the trade-off
        SweepView* sweep;
        TradeoffView* tradeoff;
    };
    RunActions(Parts parts, QObject* parent);
    void addActions(QMenu* menu, QToolBar* bar);

    void runCurrent(); // in the background
    void runAll();     // every ticked scheduler at every budget of the sweep, in the background
    void cancel();
    void pin();
    // The same paths, run to completion on this thread.
    std::shared_ptr<const ckpt::Run> runCurrentNow();
    void runAllNow();
    void prepareSlider();         // the tables the current scheduler reads at the slider's positions, nearest it first
    void showCompared(int index); // a trade-off point or comparison row, the panel set to agree
    void refreshBudgetRange();    // the slider's range for this problem, keeping the document's budget

signals:
    void refused(const QString& message);

private:
    void connectRuns();
    void connectEdits();
    void showShownRun();
    void updateStaleMarks();
    void updateSummary();
    bool sweepRequest(ckpt::CompareRequest& request, QString* error) const;
    void clearRunMessage();

    Parts m_p;
    QTimer* m_solveTimer;
    QTimer* m_prepareTimer;
    bool m_runAllQueued = false; // Run all asked for while a cancelled one winds down: it starts when that one stops
    QString m_runMessage;        // the status bar's last message about a run, cleared when another run starts
};
