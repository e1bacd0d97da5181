#pragma once
// Prepares a chart for a page of a given size: fonts at the size asked, tick counts from the room each axis has (so
// labels never run into each other), and legends outside the data, wrapped into as many columns as fit.
class QCustomPlot;

// What fitting made of the text: the legend and footnote step down a point at a time (to 6 pt) when at the size
// asked they would take more than 60 % of the page, or leave the data less than a fifth of it.
struct PrintFit {
    double legend_pt = 0; // the legend's and footnote's size: the size asked unless they had to shrink
    bool fits = true;     // false: even so the data keeps less than a fifth of the page (or nothing: rows overlap)
};
PrintFit fitForPrint(QCustomPlot* plot, double widthPt, double heightPt, double fontPt);

#include <QString>
struct PrintSize;
// What to tell the user about a fit on a page of `size`: empty when the text is as asked.
QString printFitNote(const PrintFit& fit, const PrintSize& size);

class QFont;
// `text` with line breaks between words so that no line is wider than `width` (a longer word keeps its own line).
QString wrapToWidth(const QString& text, const QFont& font, double width);
