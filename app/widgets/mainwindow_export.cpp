// The window's exports: what the current tab shows (a chart, the graph, the stacked timelines as PDF, SVG or PNG;
// the Comparison table as CSV) and the shown plan (JSON, CSV, Chrome trace).
#include "chartpage.h"
#include "comparisontable.h"
#include "exportdialog.h"
#include "graphview.h"
#include "mainwindow.h"
#include "models/comparisonmodel.h"
#include "models/document.h"
#include "models/runcontroller.h"
#include "plots/chartexport.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "run/plan_files.h"
#include "trainerpanel.h"
#include "viewexport.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QMenu>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <algorithm>
#include <qcustomplot.h>

using namespace ckpt;

QCustomPlot* MainWindow::chartByName(const QString& which) const {
    ChartPage* p = page(which);
    return p ? p->exportCharts().value(0) : nullptr; // null when it shows nothing or no chart
}

QString MainWindow::exportChart(const QString& which, const QString& path, int width, int height) {
    if (ChartPage* p = page(which))
        if (QString why = p->exportRefusal(); !why.isEmpty()) return why;
    QCustomPlot* plot = chartByName(which);
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

void MainWindow::updateExportMenu() {
    if (!m_exportMenu) return;
    const bool table = currentPage()->isTable();
    const QString title = m_tabs->tabText(m_tabs->currentIndex()).remove('&');
    for (QAction* a : m_exportMenu->actions()) {
        const QString format = a->data().toString();
        if (format == "csv") {
            a->setVisible(table);
        } else if (!format.isEmpty()) {
            a->setVisible(!table);
            const QString shown = format == "png" ? QStringLiteral("P&NG") : "&" + format.toUpper();
            a->setText(tr("%1 as %2…").arg(title, shown));
        }
    }
}

void MainWindow::exportComparisonDialog() {
    ChartPage* table = page("comparison");
    if (QString why = table->exportRefusal(); !why.isEmpty()) return report(why);
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save the comparison as CSV"), "comparison.csv", tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString err = table->exportTo(path, 0, 0);
    if (!err.isEmpty())
        report(err);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}

QString MainWindow::exportPlan(const QString& path, const QString& format) {
    if (!shownRun() || !shownRun()->plan) return tr("There is no plan to export yet: run a scheduler first");
    auto f = planFormatOf(format.toStdString());
    if (!f) return tr("unknown plan format '%1'").arg(format);
    auto ok = writePlanFile(path.toStdString(), *shownRun(), m_doc->problem(), *f);
    return ok ? QString() : QString::fromStdString(ok.error());
}

namespace {
// Asks for a size; false when cancelled.
bool askSize(QWidget* parent, int& w, int& h) {
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Chart size"));
    auto* form = new QFormLayout(&dialog);
    auto* ws = new QSpinBox(&dialog);
    auto* hs = new QSpinBox(&dialog);
    ws->setRange(16, 20000), hs->setRange(16, 20000);
    ws->setValue(w), hs->setValue(h);
    ws->setSuffix(" px"), hs->setSuffix(" px");
    form->addRow(QObject::tr("Width"), ws);
    form->addRow(QObject::tr("Height"), hs);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted) return false;
    w = ws->value(), h = hs->value();
    return true;
}
} // namespace

ExportDialog::MakeCharts MainWindow::chartCopies(const QString& tab) const {
    // Each copy drawn as the tab shows it, from the same views `ckpt render` draws with; the window's own charts stay
    // as they are on screen.
    ChartPage* p = page(tab);
    return p ? p->chartCopies() : ExportDialog::MakeCharts();
}

void MainWindow::exportChartDialog(const QString& format) {
    const QString which = currentChartTab();
    if (currentPage()->isTable()) return exportComparisonDialog();
    // Said before asking for a size and a file.
    if (QString nothing = currentPage()->exportRefusal(); !nothing.isEmpty()) return report(nothing);
    if (ExportDialog::MakeCharts make = chartCopies(which)) {
        const QString stem =
            m_path.isEmpty() && m_sourcePath.isEmpty()
                ? QStringLiteral("chart")
                : QFileInfo(m_path.isEmpty() ? m_sourcePath : m_path).completeBaseName().section('.', 0, 0);
        ExportDialog dialog(make, stem + "-" + which + "." + format, this);
        if (dialog.exec() == QDialog::Accepted)
            statusBar()->showMessage(tr("Wrote %1").arg(dialog.exportedPath()), 5000);
        return;
    }
    const QSize size = exportSize();
    int w = size.width(), h = size.height();
    if (!askSize(this, w, h)) return;
    QString path = QFileDialog::getSaveFileName(this, tr("Export the %1 tab").arg(which), which + "." + format,
                                                format.toUpper() + " (*." + format + ")");
    if (path.isEmpty()) return;
    QString err = exportCurrentTab(path, w, h);
    if (!err.isEmpty())
        report(err);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}

void MainWindow::exportAllDialog() {
    int w = 1600, h = 900;
    if (!askSize(this, w, h)) return;
    QString dir = QFileDialog::getExistingDirectory(this, tr("Folder for every chart"));
    if (dir.isEmpty()) return;
    for (QString f : {"pdf", "svg", "png"}) {
        QList<QPair<QString, QCustomPlot*>> charts;
        for (const char* tab : {"timeline", "sweep", "tradeoff"})
            charts.append({tab, page(tab)->exportCharts().value(0)});
        QString err = exportCharts(charts, dir, f, w, h);
        if (!err.isEmpty()) return report(err);
    }
    statusBar()->showMessage(tr("Wrote every chart to %1").arg(dir), 5000);
}

void MainWindow::exportPlanDialog(const QString& format) {
    auto f = planFormatOf(format.toStdString());
    QString suffix = f && shownRun() ? QString::fromStdString(planFileSuffix(*shownRun(), *f)) : QString(".json");
    QString path = QFileDialog::getSaveFileName(this, tr("Export the plan"), "plan" + suffix);
    if (path.isEmpty()) return;
    QString err = exportPlan(path, format);
    if (!err.isEmpty())
        report(err);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}
