#include "tickers.h"

#include "util/units.h"

#include <cmath>

QString BytesTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    if (tick == 0) return QStringLiteral("0");
    return QString::fromStdString(ckpt::formatBytes(tick));
}

double BytesTicker::getTickStep(const QCPRange& range) {
    // A step of 1, 2, 2.5 or 5 times a power of ten, in the binary unit of the range's top (KiB, MiB, GiB).
    double exact = range.size() / double(tickCount() + 1e-10);
    if (exact <= 0) return 1;
    double top = std::max(std::abs(range.upper), 1.0);
    double unit = std::pow(1024.0, std::floor(std::log(top) / std::log(1024.0)));
    double m = exact / unit;
    double p = std::pow(10.0, std::floor(std::log10(m)));
    double r = m / p;
    double nice = r < 1.5 ? 1 : r < 2.2 ? 2 : r < 3.5 ? 2.5 : r < 7.5 ? 5 : 10;
    // On a page the tick count is the most that fit (printlayout.cpp): round the step up, never to more ticks.
    if (tickStepStrategy() == tssMeetTickCount) nice = r <= 1 ? 1 : r <= 2 ? 2 : r <= 2.5 ? 2.5 : r <= 5 ? 5 : 10;
    return nice * p * unit;
}

QString SecondsTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    if (tick == 0) return QStringLiteral("0");
    return QString::fromStdString(ckpt::formatSeconds(tick));
}
