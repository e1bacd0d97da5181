#pragma once
// The Trade-off tab: every compared run's time overhead against its peak memory (plots/tradeoffview.h).
#include "chartpage.h"

class TradeoffView;

class TradeoffPage : public ChartPage {
    Q_OBJECT
public:
    explicit TradeoffPage(Document* doc, QWidget* parent = nullptr);
    TradeoffView* view() const { return m_view; }
    ExportDialog::MakeCharts chartCopies() const override;

protected:
    QList<QCustomPlot*> charts() const override;
    void refresh(const std::shared_ptr<const ckpt::Run>&) override {} // drawn from the comparison (the window's)

private:
    TradeoffView* m_view;
};
