#include "exportmenu.h"

#include "chartpage.h"
#include "exportdialog.h"
#include "models/document.h"
#include "models/runcontroller.h"
#include "plots/chartexport.h"
#include "run/plan_files.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QSpinBox>
#include <QTabWidget>
#include <qcustomplot.h>

using namespace ckpt;

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

ExportMenu::ExportMenu(QTabWidget* tabs, Document* doc, RunController* runs, std::function<QString()> stem,
                       QWidget* parent)
    : QMenu(tr("&Export"), parent), m_tabs(tabs), m_doc(doc), m_runs(runs), m_stem(std::move(stem)) {
    // What the current tab shows: these say which tab and format (updateItems) before the menu opens.
    for (QString f : {"pdf", "svg", "png"})
        addAction(f, this, [this, f] { exportChartDialog(f); })->setData(f);
    addAction(tr("Co&mparison table as CSV…"), this, &ExportMenu::exportComparisonDialog)->setData("csv");
    addAction(tr("&All charts…"), this, &ExportMenu::exportAllDialog);
    addSeparator();
    addAction(tr("Plan as &JSON…"), this, [this] { exportPlanDialog("json"); });
    addAction(tr("Plan as &CSV…"), this, [this] { exportPlanDialog("csv"); });
    addAction(tr("Plan as Chrome &trace (Perfetto)…"), this, [this] { exportPlanDialog("trace"); });
    connect(this, &QMenu::aboutToShow, this, &ExportMenu::updateItems);
    connect(m_tabs, &QTabWidget::currentChanged, this, &ExportMenu::updateItems);
    updateItems();
}

ChartPage* ExportMenu::currentPage() const {
    return static_cast<ChartPage*>(m_tabs->currentWidget());
}

void ExportMenu::said(const QString& error, const QString& path) {
    if (!error.isEmpty())
        emit refused(error);
    else
        emit wrote(tr("Wrote %1").arg(path));
}

void ExportMenu::updateItems() {
    const bool table = currentPage()->isTable();
    const QString title = m_tabs->tabText(m_tabs->currentIndex()).remove('&');
    for (QAction* a : actions()) {
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

void ExportMenu::exportComparisonDialog() {
    ChartPage* table = chartPage(m_tabs, "comparison");
    if (QString why = table->exportRefusal(); !why.isEmpty()) return emit refused(why);
    QString path = QFileDialog::getSaveFileName(parentWidget(), tr("Save the comparison as CSV"), "comparison.csv",
                                                tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    said(table->exportTo(path, 0, 0), path);
}

QString ExportMenu::exportPlan(const QString& path, const QString& format) {
    const auto run = m_runs->shownRun();
    if (!run || !run->plan) return tr("There is no plan to export yet: run a scheduler first");
    auto f = planFormatOf(format.toStdString());
    if (!f) return tr("unknown plan format '%1'").arg(format);
    auto ok = writePlanFile(path.toStdString(), *run, m_doc->problem(), *f);
    return ok ? QString() : QString::fromStdString(ok.error());
}

void ExportMenu::exportChartDialog(const QString& format) {
    ChartPage* tab = currentPage();
    if (tab->isTable()) return exportComparisonDialog();
    // Said before asking for a size and a file.
    if (QString nothing = tab->exportRefusal(); !nothing.isEmpty()) return emit refused(nothing);
    QWidget* window = parentWidget();
    if (ExportDialog::MakeCharts make = tab->chartCopies()) {
        const QString stem = m_stem().isEmpty() ? QStringLiteral("chart") : m_stem();
        ExportDialog dialog(make, stem + "-" + tab->name() + "." + format, window);
        if (dialog.exec() == QDialog::Accepted) emit wrote(tr("Wrote %1").arg(dialog.exportedPath()));
        return;
    }
    const QSize size = tab->exportSize();
    int w = size.width(), h = size.height();
    if (!askSize(window, w, h)) return;
    QString path = QFileDialog::getSaveFileName(window, tr("Export the %1 tab").arg(tab->name()),
                                                tab->name() + "." + format, format.toUpper() + " (*." + format + ")");
    if (!path.isEmpty()) said(tab->exportTo(path, w, h), path);
}

void ExportMenu::exportAllDialog() {
    int w = 1600, h = 900;
    if (!askSize(parentWidget(), w, h)) return;
    QString dir = QFileDialog::getExistingDirectory(parentWidget(), tr("Folder for every chart"));
    if (dir.isEmpty()) return;
    for (QString f : {"pdf", "svg", "png"}) {
        QList<QPair<QString, QCustomPlot*>> charts;
        for (const char* tab : {"timeline", "sweep", "tradeoff"})
            charts.append({tab, chartPage(m_tabs, tab)->exportCharts().value(0)});
        if (QString err = exportCharts(charts, dir, f, w, h); !err.isEmpty()) return emit refused(err);
    }
    emit wrote(tr("Wrote every chart to %1").arg(dir));
}

void ExportMenu::exportPlanDialog(const QString& format) {
    const auto run = m_runs->shownRun();
    auto f = planFormatOf(format.toStdString());
    QString suffix = f && run ? QString::fromStdString(planFileSuffix(*run, *f)) : QString(".json");
    QString path = QFileDialog::getSaveFileName(parentWidget(), tr("Export the plan"), "plan" + suffix);
    if (!path.isEmpty()) said(exportPlan(path, format), path);
}
