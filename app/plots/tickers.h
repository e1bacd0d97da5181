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
