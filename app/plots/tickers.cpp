#include "tickers.h"

#include "util/units.h"

#include <algorithm>
#include <cmath>

QString BytesTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    if (tick == 0) return QStringLiteral("0");
    return QString::fromStdString(ckpt::formatBytes(tick));
}

namespace {

// A step of 1, 2, 2.5 or 5 times a power of ten near `exact` (in `unit`s); rounded up when `roundUp`.
double niceStep(double exact, double unit, bool roundUp) {
    if (exact <= 0) return unit;
    double m = exact / unit;
    double p = std::pow(10.0, std::floor(std::log10(m)));
    double r = m / p;
    double nice = r < 1.5 ? 1 : r < 2.2 ? 2 : r < 3.5 ? 2.5 : r < 7.5 ? 5 : 10;
    if (roundUp) nice = r <= 1 ? 1 : r <= 2 ? 2 : r <= 2.5 ? 2.5 : r <= 5 ? 5 : 10;
    return nice * p * unit;
}

// In the binary unit of the range's top (KiB, MiB, GiB). On a page the tick count is the most that fit
// (printlayout.cpp): the step is rounded up, never to more ticks.
double bytesStep(const QCPRange& range, int count, bool roundUp) {
    const double top = std::max(std::abs(range.upper), 1.0);
    const double unit = std::pow(1024.0, std::floor(std::log(top) / std::log(1024.0)));
    return niceStep(range.size() / double(count + 1e-10), unit, roundUp);
}

} // namespace

double BytesTicker::getTickStep(const QCPRange& range) {
    return bytesStep(range, tickCount(), tickStepStrategy() == tssMeetTickCount);
}

double BytesLogTicker::getTickStep(const QCPRange& range) {
    return bytesStep(range, tickCount(), tickStepStrategy() == tssMeetTickCount);
}

double NiceTicker::getTickStep(const QCPRange& range) {
    return niceStep(range.size() / double(tickCount() + 1e-10), 1, tickStepStrategy() == tssMeetTickCount);
}

QString BytesLogTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    return QString::fromStdString(ckpt::formatBytes(tick));
}

QString SecondsTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    if (tick == 0) return QStringLiteral("0");
    return QString::fromStdString(ckpt::formatSeconds(tick));
}

void fitTicks(QCPAxis* axis, int most) {
    QObject::connect(axis->parentPlot(), &QCustomPlot::afterLayout, axis, [axis, most] {
        // A file's export lays the chart out at the page's size for a moment: its ticks stay as they are.
        if (axis->parentPlot()->viewport() != axis->parentPlot()->rect()) return;
        const QFontMetricsF fm(axis->tickLabelFont());
        const bool across = axis->orientation() == Qt::Horizontal;
        const double gap = across ? 2 * fm.horizontalAdvance(QLatin1Char('0')) : fm.height() / 2;
        auto extent = [&](const QString& label) { return across ? fm.horizontalAdvance(label) : fm.height(); };
        const QChar format = axis->numberFormat().isEmpty() ? QLatin1Char('g') : axis->numberFormat().at(0);
        // The most ticks whose labels, as the ticker writes them, fit apart (its steps may be denser than asked).
        const int before = axis->ticker()->tickCount();
        int count = most;
        for (; count > 2; --count) {
            axis->ticker()->setTickCount(count);
            QVector<double> ticks;
            QVector<QString> labels;
            axis->ticker()->generate(axis->range(), axis->parentPlot()->locale(), format, axis->numberPrecision(),
                                     ticks, nullptr, &labels);
            bool apart = true;
            for (int i = 0; apart && i + 1 < ticks.size(); ++i)
                apart = std::abs(axis->coordToPixel(ticks[i + 1]) - axis->coordToPixel(ticks[i])) >=
                        (extent(labels[i]) + extent(labels[i + 1])) / 2 + gap;
            if (apart) break;
        }
        axis->ticker()->setTickCount(count);
        // The ticks of this replot were made with the count before (during the layout): another replot draws these.
        if (count != before) axis->parentPlot()->replot(QCustomPlot::rpQueuedReplot);
    });
}
