#pragma once
// Time overhead (makespan ÷ store-all's) against peak memory in level 0, one series per scheduler over a budget
// sweep. A click on a point says which run it is.
#include "run/runner.h"

#include <QWidget>
#include <memory>
#include <vector>

class QCustomPlot;
class ChartHint;

class TradeoffView : public QWidget {
    Q_OBJECT
public:
    explicit TradeoffView(QWidget* parent = nullptr);
    ~TradeoffView() override;
    void setRuns(std::vector<std::shared_ptr<const ckpt::Run>> runs);
    QCustomPlot* plot() const { return m_plot; }
    int seriesCount() const;    // schedulers drawn (their best trade-offs joined by a line)
    int dominatedCount() const; // points drawn faint: another run of the same scheduler is as good or better
    // Runs made before the problem or machine changed: drawn grey (the window says why).
    void setStale(bool stale);
    bool isStale() const { return m_stale; }
    QString emptyHint() const; // the line shown instead of the chart before any run, else empty

signals:
    void runClicked(int indexInRuns);

protected:
    void changeEvent(QEvent* e) override; // a new palette (a dark style): new chart colours

private:
    QCustomPlot* m_plot;
    std::unique_ptr<ChartHint> m_hint;
    std::vector<std::shared_ptr<const ckpt::Run>> m_runs;
    int m_series = 0;
    std::vector<std::vector<int>> m_pointRun; // per graph, the run index of each point (in key order)
    bool m_stale = false;
};
