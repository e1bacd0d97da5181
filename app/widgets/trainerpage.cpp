#include "trainerpage.h"

#include "plots/timelineview.h"
#include "trainerpanel.h"

#include <QVBoxLayout>

TrainerPage::TrainerPage(Document* doc, QWidget* parent)
    : ChartPage("trainer", doc, parent), m_panel(new TrainerPanel(this)) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_panel);
    setDescription(tr("Train a real RNN with a plan: measured time and memory beside the prediction"),
                   tr("Trains a small recurrent network (Eigen) with the shown plan, then compares measured time and "
                      "memory with the simulator's prediction and the gradients with store-all's."));
    ignoreRuns();
}

QString TrainerPage::unavailableFor(bool graph) const {
    return graph ? tr("The trainer runs chain plans on a real RNN; it has no graph model") : QString();
}

QList<QCustomPlot*> TrainerPage::charts() const {
    return {m_panel->predictedView()->plot(), m_panel->measuredView()->plot()};
}

QString TrainerPage::nothingToExport() const {
    return m_panel->predictedView()->intervalCount() == 0
               ? tr("The Trainer tab has no chart yet: train first (Train), then export its timelines")
               : QString();
}

ExportDialog::MakeCharts TrainerPage::chartCopies() const {
    return [this] {
        std::vector<std::unique_ptr<QWidget>> out;
        out.push_back(timelineCopy(m_panel->predictedView()));
        out.push_back(timelineCopy(m_panel->measuredView()));
        return out;
    };
}
