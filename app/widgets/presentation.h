#pragma once
// Presentation mode (View ▸ Presentation mode, F11): for a lecture hall or a screen share. The window goes full
// screen with its docks and toolbars hidden, its text larger, and every chart's text, lines and markers scaled up;
// leaving restores each as it was. Charts rebuild their series on every run, so the scale is applied before each
// replot, from sizes remembered the first time a piece is seen at scale 1.
#include <QByteArray>
#include <QFont>
#include <QObject>
#include <QPointer>

class QMainWindow;
class QCustomPlot;

class Presentation : public QObject {
    Q_OBJECT
public:
    static constexpr double kTextScale = 1.5; // the window's and the charts' text
    static constexpr double kLineScale = 2.0; // chart lines and markers

    explicit Presentation(QMainWindow* window);
    void setOn(bool on);
    bool isOn() const { return m_on; }

private:
    void scale(QCustomPlot* plot) const; // every font, pen and marker of the plot at the current scale

    QMainWindow* m_window;
    bool m_on = false;
    QByteArray m_state; // the docks and toolbars as they were
    bool m_wasMaximized = false;
    QFont m_font; // the window's font before
};
