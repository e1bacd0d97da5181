#pragma once
// The line above the charts: the shown plan (its scheduler, budget, makespan, steps, peaks, parameters), or that it is
// out of date, or being solved. Always two lines of the window's font: a line more or less resized every chart below
// (which then drew itself again from new buffers, 120 ms) and moved the tab bar under the pointer. Long parameters
// are cut; the tooltip has them whole.
#include <QLabel>

class RunController;

class SummaryLine : public QLabel {
    Q_OBJECT
public:
    explicit SummaryLine(RunController* runs, QWidget* parent = nullptr);
    void refresh(); // after the shown run, or what is being solved, changed

protected:
    void changeEvent(QEvent* e) override; // presentation mode's larger font: two lines of it

private:
    void fitHeight();
    RunController* m_runs;
};
