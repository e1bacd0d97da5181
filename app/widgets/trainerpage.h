#pragma once
// The Trainer tab: a real RNN trained with a plan, its measured timeline beside the predicted one (trainerpanel.h).
#include "chartpage.h"

class TrainerPanel;

class TrainerPage : public ChartPage {
    Q_OBJECT
public:
    explicit TrainerPage(Document* doc, QWidget* parent = nullptr);
    TrainerPanel* panel() const { return m_panel; }
    ExportDialog::MakeCharts chartCopies() const override;
    QString unavailableFor(bool graph) const override;

protected:
    QList<QCustomPlot*> charts() const override;
    QString nothingToExport() const override;
    void refresh(const std::shared_ptr<const ckpt::Run>&) override {} // the panel trains and draws by itself

private:
    TrainerPanel* m_panel;
};
