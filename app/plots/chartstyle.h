#pragma once
// Chart colours from the window's palette, so the charts follow a dark style like the rest of the window, and the
// paper colours (black on white) that exports keep whatever the window looks like.
#include <QColor>
#include <QPalette>

class QCustomPlot;

struct ChartColours {
    QColor background; // behind everything
    QColor foreground; // axes, ticks, labels, legend text
    QColor grid;       // grid lines, between the two
    QColor subGrid;
};

ChartColours chartColours(const QPalette& palette); // the palette's Base behind its Text, as item views use them
ChartColours paperColours();

// WCAG contrast ratio, 1 (same luminance) to 21 (black on white).
double contrastRatio(const QColor& a, const QColor& b);
// `colour` (chosen for white paper) as it is when it reads on `background` (contrast 3:1 on a dark one, the least
// for lines and markers; 2.2:1 on a light one, as the scheduler colours have on white), else at its mirrored
// lightness or moved towards white (black) until it does. Its alpha is kept.
QColor readableOn(const QColor& colour, const QColor& background);

// Applies `colours` to the plot's background, axes, grids and legends, and makes the pens of its series and items
// readable on the background. Each element remembers the colour it was given, so paper colours restore it exactly.
void applyChartColours(QCustomPlot* plot, const ChartColours& colours);

// While alive, the plot has paper colours (for an export); then those of its palette again.
class PaperColours {
public:
    explicit PaperColours(QCustomPlot* plot);
    ~PaperColours();
    PaperColours(const PaperColours&) = delete;
    PaperColours& operator=(const PaperColours&) = delete;

private:
    QCustomPlot* m_plot;
};
