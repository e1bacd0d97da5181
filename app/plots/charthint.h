#pragma once
// A line in the middle of a chart that has nothing to show ("Run a scheduler (F5) to see its plan") in place of its
// axes, whose ranges would mean nothing ("0 B … 0 B"). Items belong to an axis rect in QCustomPlot (a hidden rect
// hides them), so the axes and legends are hidden one by one, and shown again as they were.
#include <QList>
#include <QString>

class QCustomPlot;
class QCPItemText;
class QCPLayerable;

class ChartHint {
public:
    explicit ChartHint(QCustomPlot* plot);
    void show(const QString& text); // hides every axis (with its grid) and legend of the plot
    void hide();                    // shows again what show() hid
    bool visible() const;
    QString text() const; // while shown, else empty
    // What an empty plan view says until a run is shown: "Run a scheduler (F5) to see its plan".
    static QString runHint();

private:
    QCustomPlot* m_plot;
    QCPItemText* m_item;
    QList<QCPLayerable*> m_hidden;
};
