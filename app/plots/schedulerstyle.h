#pragma once
// One look per scheduler (colour, marker, dash), the same in every chart of the explorer and of `ckpt render`, so a
// reader matches series across figures by sight. Keyed by the registry's names; no two schedulers share a marker,
// so series that coincide stay distinguishable, and every colour reads on white. On a dark style the charts show
// the ones too dark to read there at their mirrored lightness (chartstyle.h: readableOn), so black becomes white.
#include <QColor>
#include <qcustomplot.h>
#include <string>

struct SchedulerStyle {
    QColor color;
    QCPScatterStyle::ScatterShape marker = QCPScatterStyle::ssCircle;
    Qt::PenStyle dash = Qt::SolidLine;
    bool listed = true; // false: a name the table does not know, given a stable look derived from the name
    int custom = 0;     // with marker ssCustom, the shape QCustomPlot lacks: 0 a pentagon, 1 a bow tie
};

// A name may also be "SCHEDULER CHOICE" (a figure's series "bptt-dp hsm"): a variant of the scheduler, in its hue.
SchedulerStyle schedulerStyle(const std::string& name);
// The pen and marker of a series in `style`, at the chart's scale (line width and marker size in device pixels).
QPen schedulerPen(const SchedulerStyle& style, double width = 1.5);
QCPScatterStyle schedulerScatter(const SchedulerStyle& style, double size = 7);
