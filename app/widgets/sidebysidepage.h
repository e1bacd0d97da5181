#pragma once
// Side by side: the shown plan above a pinned one (Run ▸ Pin the shown plan), on one time axis, with their differences
// in a line above.
#include "chartpage.h"

class QLabel;
class RunController;
class TimelineView;

class SideBySidePage : public ChartPage {
    Q_OBJECT
public:
    SideBySidePage(Document* doc, RunController* runs, QWidget* parent = nullptr);
    TimelineView* shownView() const { return m_shown; }
    TimelineView* pinnedView() const { return m_pinned; }
    QString summary() const; // the differences, as the line above the charts says them
    ExportDialog::MakeCharts chartCopies() const override;

protected:
    QList<QCustomPlot*> charts() const override;
    QString nothingToExport() const override;
    void refresh(const std::shared_ptr<const ckpt::Run>& run) override;

private:
    RunController* m_runs;
    QLabel* m_delta;
    TimelineView *m_shown, *m_pinned;
};
