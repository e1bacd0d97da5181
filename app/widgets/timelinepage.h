#pragma once
// The Timeline tab: the shown plan's Gantt chart above the memory of level 0 (plots/timelineview.h).
#include "chartpage.h"

class TimelineView;

class TimelinePage : public ChartPage {
    Q_OBJECT
public:
    explicit TimelinePage(Document* doc, QWidget* parent = nullptr);
    TimelineView* view() const { return m_view; }
    ExportDialog::MakeCharts chartCopies() const override;

protected:
    QList<QCustomPlot*> charts() const override;
    void refresh(const std::shared_ptr<const ckpt::Run>& run) override;

private:
    TimelineView* m_view;
};
