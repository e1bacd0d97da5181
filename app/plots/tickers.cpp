#include "tickers.h"

#include "util/units.h"

#include <cmath>

QString BytesTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    if (tick == 0) return QStringLiteral("0");
    return QString::fromStdString(ckpt::formatBytes(tick));
}

double BytesTicker::getTickStep(const QCPRange& range) {
    // Steps of 1, 2 or 5 times a power of 1024's sub-multiples read well as MiB.
    double exact = range.size() / double(tickCount() + 1e-10);
    if (exact <= 0) return 1;
    double unit = std::pow(1024.0, std::floor(std::log(exact) / std::log(1024.0)));
    double m = exact / unit;
    double nice = m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : m < 15 ? 10 : m < 35 ? 25 : m < 75 ? 50 : m < 150 ? 100 : m < 350 ? 250 : 500;
    return nice * unit;
}

QString SecondsTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    if (tick == 0) return QStringLiteral("0");
    return QString::fromStdString(ckpt::formatSeconds(tick));
}
