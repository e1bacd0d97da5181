#pragma once
// The Pipeline tab: the chain cut into stages over devices in a line (plots/pipelineview.h), drawn from the problem,
// not from the shown run.
#include "chartpage.h"

class PipelineView;

class PipelinePage : public ChartPage {
    Q_OBJECT
public:
    explicit PipelinePage(Document* doc, QWidget* parent = nullptr);
    PipelineView* view() const { return m_view; }

protected:
    QList<QCustomPlot*> charts() const override;
    QString nothingToExport() const override;
    void refresh(const std::shared_ptr<const ckpt::Run>& run) override;

private:
    PipelineView* m_view;
};
