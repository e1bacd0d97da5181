#pragma once
// Axis tick labels in the units people read: bytes in KiB/MiB/GiB, time in µs/ms/s.
#include <qcustomplot.h>

class BytesTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
    double getTickStep(const QCPRange& range) override;
};

class SecondsTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
};

// Plain numbers at a step of 1, 2, 2.5 or 5 times a power of ten (QCustomPlot's own count-meeting steps may be 0.08
// or 0.35); on a page, where the tick count is the most that fit, the step is rounded up.
class NiceTicker : public QCPAxisTicker {
protected:
    double getTickStep(const QCPRange& range) override;
};

// A logarithmic axis of bytes: ticks at powers of two (1 MiB, 2 MiB, 4 MiB...) labelled in binary units.
class BytesLogTicker : public QCPAxisTickerLog {
public:
    BytesLogTicker() { setLogBase(2); }

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
    // Over less than a power of two per tick, QCustomPlot steps evenly: by BytesTicker's steps then.
    double getTickStep(const QCPRange& range) override;
};

// On screen: once laid out, an axis gets the most ticks (up to `most`) whose labels, as its ticker writes them, stand
// apart: two characters on a horizontal axis, half a line on a vertical one. A narrow Sweep tab (a 1024 × 700 window)
// ran its time labels together, and Side by side's short memory charts their sizes.
void fitTicks(QCPAxis* axis, int most = 8);
