#pragma once
// The Layout tab: the shown plan's tensors at addresses in level 0 (plots/layoutview.h).
#include "chartpage.h"

class LayoutView;

class LayoutPage : public ChartPage {
    Q_OBJECT
public:
    explicit LayoutPage(Document* doc, QWidget* parent = nullptr);
    LayoutView* view() const { return m_view; }

protected:
    QList<QCustomPlot*> charts() const override;
    QString nothingToExport() const override;
    void refresh(const std::shared_ptr<const ckpt::Run>& run) override;

private:
    LayoutView* m_view;
};
