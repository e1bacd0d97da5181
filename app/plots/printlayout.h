#pragma once
// Prepares a chart for a page of a given size: fonts at the size asked, tick counts from the room each axis has (so
// labels never run into each other), and legends outside the data, wrapped into as many columns as fit.
class QCustomPlot;

void fitForPrint(QCustomPlot* plot, double widthPt, double heightPt, double fontPt);
