#pragma once
// The Gantt chart as one QCustomPlot plottable: a lane per row (compute, then each transfer channel the plan uses: a
// channel with no transfer takes no room), intervals coloured by kind. It never creates an item per action: draw()
// binary-searches the visible time range, merges intervals narrower than a pixel and paints one batch of rectangles per
// colour.
#include "sim/timeline.h"

#include <memory>
#include <qcustomplot.h>
#include <vector>

class GanttPlottable : public QCPAbstractPlottable {
    Q_OBJECT
public:
    GanttPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis);

    void setTimeline(std::shared_ptr<const ckpt::Timeline> timeline);
    int intervalCount() const { return m_timeline ? int(m_timeline->intervals.size()) : 0; }
    int laneCount() const { return int(m_rows.size()); } // rows drawn
    // The timeline's lane index of each row, top first: compute, then the channels with at least one interval.
    const std::vector<int>& shownLanes() const { return m_rows; }

    // Index into the timeline's intervals of the one under the pixel (within two pixels), or -1.
    int intervalAt(const QPointF& pixel) const;
    void setHighlightedStep(int step); // outlines every compute interval of that step; -1: none
    void setSelectedInterval(int index);
    // Bars wide enough carry what they work on: a compute bar its step (or, given names, its node's name), a transfer
    // bar its state ("x3").
    void setNames(const QStringList& names);
    int labelsDrawn() const { return m_labelsDrawn; } // at the last draw

    static QColor kindColor(ckpt::IntervalKind kind);

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    std::shared_ptr<const ckpt::Timeline> m_timeline;
    std::vector<std::vector<int>> m_lanes; // interval indices per lane of the timeline, by start time
    std::vector<int> m_rows;               // the lanes drawn, one per row
    int m_highlightStep = -1;
    int m_selected = -1;
    QStringList m_names;
    int m_labelsDrawn = 0;
};

// A legend entry for one interval kind (the plottable itself draws all kinds).
class GanttKindLegendItem : public QCPAbstractLegendItem {
    Q_OBJECT
public:
    GanttKindLegendItem(QCPLegend* parent, ckpt::IntervalKind kind);
    ckpt::IntervalKind kind() const { return m_kind; }

protected:
    void draw(QCPPainter* painter) override;
    QSize minimumOuterSizeHint() const override;

private:
    ckpt::IntervalKind m_kind;
};
