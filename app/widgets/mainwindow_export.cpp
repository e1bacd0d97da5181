// The window's exports, through the current tab's page (widgets/chartpage.h) and File ▸ Export (exportmenu.h).
#include "chartpage.h"
#include "exportmenu.h"
#include "mainwindow.h"
#include "plots/chartexport.h"

#include <QTabWidget>

using namespace ckpt;

QString MainWindow::exportChart(const QString& which, const QString& path, int width, int height) {
    ChartPage* p = page(which);
    if (p)
        if (QString why = p->exportRefusal(); !why.isEmpty()) return why;
    QCustomPlot* plot = p ? p->exportCharts().value(0) : nullptr; // null for a page of no chart
    if (!plot) return tr("no chart named '%1' (timeline, sweep, tradeoff, layout, pipeline)").arg(which);
    return ::exportChart(plot, path, width, height);
}

QString MainWindow::currentChartTab() const {
    return currentPage()->name();
}

QSize MainWindow::exportSize() const {
    return currentPage()->exportSize();
}

QString MainWindow::exportCurrentTab(const QString& path, int width, int height) {
    return currentPage()->exportTo(path, width, height);
}

QMenu* MainWindow::exportMenu() const {
    return findChild<ExportMenu*>();
}

QString MainWindow::exportPlan(const QString& path, const QString& format) {
    return findChild<ExportMenu*>()->exportPlan(path, format);
}

ExportDialog::MakeCharts MainWindow::chartCopies(const QString& tab) const {
    // Each copy drawn as the tab shows it, from the same views `ckpt render` draws with; the window's own charts stay
    // as they are on screen.
    ChartPage* p = page(tab);
    return p ? p->chartCopies() : ExportDialog::MakeCharts();
}
