#pragma once
// The Gantt chart (a lane for compute and one per transfer channel) above the memory-over-time plot of one level,
// stacked by category, with the budget as a line. Both share one time axis: zoom or pan one and both follow.
#include "model/chain.h"
#include "model/hardware.h"
#include "run/runner.h"

#include <QStringList>
#include <QWidget>
#include <memory>

class QCustomPlot;
class GanttPlottable;
class MemoryAreaPlottable;
class QCPRange;
class QMouseEvent;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    // Shows a feasible run (run->timeline set); a null run clears the view.
    void setRun(std::shared_ptr<const ckpt::Run> run, const ckpt::Hardware& hw);
    std::shared_ptr<const ckpt::Run> run() const;
    const ckpt::Hardware& hardware() const; // the machine the shown run was drawn for
    // A line at the end of the plan's action `action` on both charts (-1, or an action with no interval: none).
    void markAction(int action);
    int markedAction() const;
    void setMemoryLevel(int level);
    int memoryLevel() const;
    bool memoryOnly() const;
    QStringList nodeNames() const;

    QCustomPlot* plot() const;    // for export and tests
    int intervalCount() const;    // intervals held by the Gantt plottable (one per timed action)
    int laneNameStep() const;     // the lanes' names are on every n-th lane (1: all; more when lanes are thin)
    double memoryMaximum() const; // the highest stacked total drawn by the memory plot, in bytes
    GanttPlottable* gantt() const;
    MemoryAreaPlottable* memoryLayer(int category) const; // the stacked area of one MemoryCategory
    QString emptyHint() const; // the line shown instead of the charts when there is no plan, else empty
    // What to do to fill the view, shown while it has no run (default: "Run a scheduler (F5) to see its plan").
    void setEmptyText(const QString& text);
    // The legend under the charts (shown unless hidden: Side by side shows one for both of its charts).
    void setLegendShown(bool on);
    QStringList legendEntries() const; // what the legend names (the kinds of actions by number, then the areas')
    QStringList levelNames() const;    // what the "Memory of" picker offers: the shown plan's levels
    QCPRange timeRange() const;
    void setTimeRange(const QCPRange& range); // without touching the zoom history (for views kept in step)
    void zoomTo(double t0, double t1);        // pushes the current range on the zoom history
    void setMemoryOnly(bool on);              // hides the Gantt (the memory chart alone, for export)
    // The node ids of a graph run's intervals (Interval.index = node), for its tooltips; empty for chains.
    void setNodeNames(const QStringList& names);

public slots:
    void highlightStep(int step); // from the chain table: marks every action of that step
    void zoomBack();
    void resetZoom();

signals:
    void actionClicked(int actionIndex, int step); // a click on a Gantt interval
    void rangeSelected(double t0, double t1, double deltaTime, double deltaBytes);
    void timeRangeChanged(double t0, double t1);

protected:
    void changeEvent(QEvent* e) override; // a new palette (a dark style): new chart colours
    void resizeEvent(QResizeEvent* e) override;

private:
    void buildLevelPickerAndPlot(); // the "Memory of" picker above the chart
    void buildAxisRects();          // the Gantt's above the memory chart's, and their axes
    void buildPlottables();         // the Gantt and the stacked memory categories
    void buildMarkers();            // the budget line and its label, the marked action's lines, the measured range
    void buildLegend();
    void connectTimeAxes(); // zooming or panning one chart moves the other
    void connectMouse();
    void plotPressed(QMouseEvent* e);
    void plotMoved(QMouseEvent* e);
    void plotReleased(QMouseEvent* e);
    void refreshLegend();
    void updateLegendWrap();
    void updateGanttHeight();
    void nameLanes(bool inLayout = false); // inLayout: between a replot's layout and its drawing
    void showEmpty(const QString& hint);   // an empty hint shows the charts
    struct Impl;
    std::unique_ptr<Impl> d;
};
