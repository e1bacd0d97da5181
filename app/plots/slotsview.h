#pragma once
// Forward steps against slots, one series per scheduler over a sweep of its slot (or segment) count: the classic
// figure of Revolve's paper. The forward steps are the simulator's, taped re-runs included.
#include "run/runner.h"

#include <QWidget>
#include <memory>
#include <vector>

class QCustomPlot;

class SlotsView : public QWidget {
    Q_OBJECT
public:
    explicit SlotsView(QWidget* parent = nullptr);
    // Runs of one scheduler share a series, named by the run's scheduler; a run without a slots or segments
    // parameter, or infeasible, draws nothing.
    void setRuns(const std::vector<std::shared_ptr<const ckpt::Run>>& runs);
    QCustomPlot* plot() const { return m_plot; }

private:
    QCustomPlot* m_plot;
};
