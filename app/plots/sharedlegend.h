#pragma once
// One legend for a figure whose panels would all repeat the same one: the panels give theirs up and a strip of its
// own (a QCustomPlot holding only the legend) lists the entries once, with the same icons.
#include <QList>
#include <QStringList>
#include <memory>

class QCustomPlot;

// The legends' entries as text, one list per chart ("forward", "revolve", ...): equal lists mean the same legend.
QList<QStringList> legendEntries(const QList<QCustomPlot*>& plots);
// When there are two charts or more, each with one legend sharing an entry with another's: takes the legends out of
// the charts and returns a plot that draws every entry once, in the charts' order; otherwise nullptr and the charts
// keep theirs.
std::unique_ptr<QCustomPlot> takeSharedLegend(const QList<QCustomPlot*>& plots);
