#include "replot.h"

#include <QEvent>
#include <qcustomplot.h>

namespace {
constexpr const char* kPending = "ckptReplotPending";
constexpr const char* kWatched = "ckptReplotWatched"; // the filter below is installed

// Replots its plot when the plot is shown with a replot pending (its tab was chosen).
class ReplotOnShow : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Show && watched->property(kPending).toBool()) {
            watched->setProperty(kPending, false);
            // At once, before the first paint shows the old picture.
            static_cast<QCustomPlot*>(watched)->replot(QCustomPlot::rpRefreshHint);
        }
        return false;
    }
};
} // namespace

bool hiddenInShownWindow(const QWidget* widget) {
    return widget && !widget->isVisible() && widget->window()->isVisible();
}

void replotWhenSeen(QCustomPlot* plot) {
    if (!hiddenInShownWindow(plot)) {
        plot->setProperty(kPending, false);
        plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    if (!plot->property(kWatched).toBool()) {
        plot->installEventFilter(new ReplotOnShow(plot));
        plot->setProperty(kWatched, true);
    }
    plot->setProperty(kPending, true);
}
