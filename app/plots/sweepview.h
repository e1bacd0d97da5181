#pragma once
// The sweep diagram of the textbooks: step index against time; forward sweeps as rising lines (recomputations in a
// lighter colour), the backward steps as the descending staircase, and each checkpoint's life as a bar at its state
// from the action that stores it to the one that frees it (a diamond where it is stored, a triangle where it is read
// back from a slower level, a ring where a recomputation starts again from it; a plan with too many to mark keeps the
// bars alone). States held on a slower level are dashed bars.
//
// A cursor (an action index of the plan) says how far the plan has run: the diagram draws what has happened up to
// it. Controls move it (Play/Pause at a chosen speed, step forward and back, Home/End, jumps to the next backward,
// recompute or transfer), as do the keyboard (Space, Left/Right, Home/End, B, R, T) and a click on the diagram.
// The window shares the cursor with its other views (cursorChanged / setCursor).
#include "model/chain.h"
#include "model/hardware.h"
#include "model/problem.h"
#include "run/narrate.h"
#include "run/runner.h"

#include <QVector>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPGraph;
class QCPCurve;
class ChartHint;
class QComboBox;
class QSlider;
class QTimer;
class QLabel;
class QToolButton;
class QVBoxLayout;
class QCPCurveData;
class QCPGraphData;

class SweepView : public QWidget {
    Q_OBJECT
public:
    enum class Jump { Backward, Recompute, Transfer };

    explicit SweepView(QWidget* parent = nullptr);
    ~SweepView() override;
    // A chain plan of the problem (for a graph: of its scheduling chain, the graph as a chain or its segments).
    void setRun(std::shared_ptr<const ckpt::Run> run, const ckpt::Problem& problem, const ckpt::Hardware& hw);
    QCustomPlot* plot();                                    // drawn for the shown run (an export of a hidden tab)
    int actionCount() const { return int(m_start.size()); } // the plan's actions (0 without a chain plan)
    QString emptyHint() const; // the line shown instead of the chart when there is no chain plan, else empty
    // What to do to fill the view, shown while it has no run (default: "Run a scheduler (F5) to see its plan").
    void setEmptyText(const QString& text);

    int cursor() const { return m_cursor; } // the last action done (-1: none yet)
    bool playing() const;
    double speed() const; // actions per second while playing
    // What is drawn at the cursor, for tests and the legend: checkpoint bars (lifetimes, open or closed), stores
    // marked, restores marked (0 when the plan is too dense to mark).
    int lifetimeCount();
    int storeMarkCount();
    int restoreMarkCount();

signals:
    void cursorChanged(int action); // the cursor moved (controls, keyboard, a click, setCursor)

public slots:
    void setCursor(int action); // clamped to -1 … actionCount() − 1
    void play();
    void pause();
    void togglePlay();
    void stepForward();
    void stepBack();
    void jumpTo(Jump kind); // the next action of that kind after the cursor; stays (and says so) when there is none

protected:
    void changeEvent(QEvent* e) override; // a new palette (a dark style): new chart colours
    void showEvent(QShowEvent* e) override;

private:
    void buildControls(QVBoxLayout* layout); // the player's buttons, its speed, the slider and the cursor's label
    void bindKeys();                         // the keyboard's shortcuts for the controls
    void buildAxes();
    void buildPlottables(); // the lifetime bars under the sweeps, then the marks
    void connectClicks();
    void ensureCurrent(); // narrates and draws the run set while the view was hidden
    void rebuild();
    void clearDrawing();
    void drawSweeps(); // the forward, recompute and backward lines up to the cursor
    void drawLifetimes(const ckpt::Plan& plan);
    void collectLifetimes(const ckpt::Plan& plan, QVector<QCPCurveData>& lives, QVector<QCPCurveData>& slow,
                          QVector<QCPGraphData>& stores, QVector<QCPGraphData>& readBacks);
    void collectRestores(const ckpt::Plan& plan, QVector<QCPGraphData>& restores) const;
    void updateLegend();      // lists the bars and marks that have data
    void updateCursorLabel(); // where the cursor is, and why a jump stayed
    void tick();
    void updateButtons();
    int actionAt(double t) const; // the action whose interval holds time t (the last started before it)

    QCustomPlot* m_plot;
    QCPGraph* m_forward;
    QCPGraph* m_recompute;
    QCPGraph* m_backward;
    QCPCurve* m_lives;     // level 0 checkpoints, from store to free
    QCPCurve* m_livesSlow; // states held on a slower level
    QCPGraph* m_marks;     // stores
    QCPGraph* m_restores;  // recomputations starting from a checkpoint
    QCPGraph* m_readBacks; // states read back from a slower level
    QSlider* m_slider;
    QTimer* m_timer;
    QLabel* m_label;
    QComboBox* m_speed;
    QToolButton* m_playButton;
    std::unique_ptr<ChartHint> m_hint;
    QString m_emptyText; // ChartHint::runHint() unless set
    std::shared_ptr<const ckpt::Run> m_run;
    std::shared_ptr<const ckpt::Narration> m_told; // what is held after each action (up to kMaxNarratedActions)
    std::optional<ckpt::Chain> m_chain;            // the run's chain and machine, for its narration
    ckpt::Hardware m_hw = ckpt::Hardware::unbounded();
    bool m_stale = false;               // the run changed while the view was hidden: not yet narrated nor drawn
    std::vector<double> m_start, m_end; // [action]: when it runs (an action without an interval: its moment)
    int m_cursor = -1;
    int m_lifetimes = 0;
    QString m_note; // why a jump stayed
};
