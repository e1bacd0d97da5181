#pragma once
// Redrawing only what the user sees. A chart on a page of the window that is not shown (another tab) is not
// replotted when its data changes; it is marked and replotted the moment it is shown. A chart outside a shown window
// (`ckpt render`, an export, a test without a window) replots at once, as before.
class QCustomPlot;

// A queued replot of `plot` if it can be seen (or has no shown window), else one when it is next shown.
void replotWhenSeen(QCustomPlot* plot);
// Whether `widget` is on a page of a shown window that is hidden: work for it can wait until it is shown.
class QWidget;
bool hiddenInShownWindow(const QWidget* widget);
