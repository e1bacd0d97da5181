// The window's exports: charts (PDF, SVG, PNG), the Comparison table (CSV) and the shown plan (JSON, CSV, Chrome
// trace).
#include "comparisontable.h"
#include "mainwindow.h"
#include "models/comparisonmodel.h"
#include "models/document.h"
#include "plots/chartexport.h"
#include "plots/sweepview.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "run/plan_files.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <qcustomplot.h>

using namespace ckpt;

QCustomPlot* MainWindow::chartByName(const QString& which) const {
    if (which == "timeline") return m_timeline->plot();
    if (which == "sweep") return m_sweep->plot();
    if (which == "tradeoff") return m_tradeoff->plot();
    return nullptr;
}

QString MainWindow::exportChart(const QString& which, const QString& path, int width, int height) {
    QCustomPlot* plot = chartByName(which);
    if (!plot) return tr("no chart named '%1' (timeline, sweep, tradeoff)").arg(which);
    return ::exportChart(plot, path, width, height);
}

void MainWindow::exportComparisonDialog() {
    if (m_comparison->rowCount() == 0) return report(tr("The Comparison table is empty: run all first (Shift+F5)"));
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save the comparison as CSV"), "comparison.csv", tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString err = m_comparisonTable->saveCsv(path);
    if (!err.isEmpty())
        report(err);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}

QString MainWindow::exportPlan(const QString& path, const QString& format) {
    if (!m_shown || !m_shown->plan) return tr("There is no plan to export yet: run a scheduler first");
    auto f = planFormatOf(format.toStdString());
    if (!f) return tr("unknown plan format '%1'").arg(format);
    auto ok = writePlanFile(path.toStdString(), *m_shown, m_doc->problem(), *f);
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

void MainWindow::exportChartDialog(const QString& format) {
    const QString which = m_tabs->currentWidget() == m_sweep      ? "sweep"
                          : m_tabs->currentWidget() == m_tradeoff ? "tradeoff"
                                                                  : "timeline";
    int w = 1600, h = 900;
    if (!askSize(this, w, h)) return;
    QString path = QFileDialog::getSaveFileName(this, tr("Export the chart"), which + "." + format,
                                                format.toUpper() + " (*." + format + ")");
    if (path.isEmpty()) return;
    QString err = exportChart(which, path, w, h);
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
        QString err = exportCharts(
            {{"timeline", m_timeline->plot()}, {"sweep", m_sweep->plot()}, {"tradeoff", m_tradeoff->plot()}}, dir, f, w,
            h);
        if (!err.isEmpty()) return report(err);
    }
    statusBar()->showMessage(tr("Wrote every chart to %1").arg(dir), 5000);
}

void MainWindow::exportPlanDialog(const QString& format) {
    auto f = planFormatOf(format.toStdString());
    QString suffix = f && m_shown ? QString::fromStdString(planFileSuffix(*m_shown, *f)) : QString(".json");
    QString path = QFileDialog::getSaveFileName(this, tr("Export the plan"), "plan" + suffix);
    if (path.isEmpty()) return;
    QString err = exportPlan(path, format);
    if (!err.isEmpty())
        report(err);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}
