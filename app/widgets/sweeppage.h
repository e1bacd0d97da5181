#pragma once
// The Sweep tab: a chain plan's steps against time (plots/sweepview.h), and beside it what the action the shared
// cursor has reached does and leaves held (heldnowpanel.h).
#include "chartpage.h"

class HeldNowPanel;
class SweepView;

class SweepPage : public ChartPage {
    Q_OBJECT
public:
    explicit SweepPage(Document* doc, QWidget* parent = nullptr);
    SweepView* view() const { return m_sweep; }
    HeldNowPanel* heldNow() const { return m_heldNow; }
    ExportDialog::MakeCharts chartCopies() const override;
    QString unavailableFor(bool graph) const override;

protected:
    QList<QCustomPlot*> charts() const override;
    void refresh(const std::shared_ptr<const ckpt::Run>& run) override;

private:
    SweepView* m_sweep;
    HeldNowPanel* m_heldNow;
};
