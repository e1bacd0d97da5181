#pragma once
// The sweep diagram of the textbooks: step index against time; forward sweeps as rising lines (recomputations in a
// lighter colour), kept checkpoints as marks, backward steps as the descending staircase. Play/step controls
// reveal the schedule action by action, for teaching.
#include "model/chain.h"
#include "model/hardware.h"
#include "run/runner.h"

#include <QWidget>
#include <memory>

class QCustomPlot;
class QCPGraph;
class ChartHint;
class QSlider;
class QTimer;
class QLabel;

class SweepView : public QWidget {
    Q_OBJECT
public:
    explicit SweepView(QWidget* parent = nullptr);
    ~SweepView() override;
    void setRun(std::shared_ptr<const ckpt::Run> run, const ckpt::Chain& chain, const ckpt::Hardware& hw);
    QCustomPlot* plot() const { return m_plot; }
    int segmentCount() const { return m_segments; } // compute intervals drawn (forward + backward)
    QString emptyHint() const; // the line shown instead of the chart when there is no chain plan, else empty

    int revealedAction() const;  // the plan's index of the last action shown (-1: none)
    void revealUpTo(int action); // every compute action up to the plan's action `action` shown

signals:
    void revealedActionChanged(int action); // the last action shown, as the slider, Step or Play move it

public slots:
    void setRevealed(int actions); // show the first `actions` compute intervals
    void play();
    void pause();
    void stepOnce();

protected:
    void changeEvent(QEvent* e) override; // a new palette (a dark style): new chart colours

private:
    void rebuild();
    QCustomPlot* m_plot;
    QCPGraph* m_forward;
    QCPGraph* m_recompute;
    QCPGraph* m_backward;
    QCPGraph* m_marks;
    QSlider* m_slider;
    QTimer* m_timer;
    QLabel* m_label;
    std::unique_ptr<ChartHint> m_hint;
    std::shared_ptr<const ckpt::Run> m_run;
    int m_segments = 0;
    int m_revealed = 0;
};
