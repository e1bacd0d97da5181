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
    if (which == "timeline") return m_timeline->plot();
    if (which == "sweep") return m_sweep->plot();
    if (which == "tradeoff") return m_tradeoff->plot();
    if (ChartPage* p = page(which)) return p->exportCharts().value(0); // null when it shows nothing
    return nullptr;
}

QString MainWindow::exportChart(const QString& which, const QString& path, int width, int height) {
    if (ChartPage* p = page(which))
        if (QString why = p->exportRefusal(); !why.isEmpty()) return why;
    QCustomPlot* plot = chartByName(which);
    if (!plot) return tr("no chart named '%1' (timeline, sweep, tradeoff, layout, pipeline)").arg(which);
    return ::exportChart(plot, path, width, height);
}

QString MainWindow::currentChartTab() const {
    const QWidget* w = m_tabs->currentWidget();
    const QList<std::pair<const QWidget*, QString>> tabs{
        {m_timeline, "timeline"},          {m_graphView, "graph"}, {m_sweepTab, "sweep"}, {m_tradeoff, "tradeoff"},
        {m_comparisonTable, "comparison"}, {m_trainer, "trainer"}};
    for (const auto& [widget, name] : tabs)
        if (widget == w) return name;
    if (auto* p = qobject_cast<const ChartPage*>(w)) return p->name();
    return {};
}

QString MainWindow::nothingToExport() const {
    const QString tab = currentChartTab();
    if (tab == "comparison" && m_comparison->rowCount() == 0)
        return tr("The Comparison table is empty: run all first (Shift+F5)");
    if (tab == "graph" && m_graphView->nodeCount() == 0) return tr("The Graph tab shows no graph: open a graph file");
    if (ChartPage* p = page(tab)) return p->exportRefusal();
    if (tab == "trainer" && m_trainer->predictedView()->intervalCount() == 0)
        return tr("The Trainer tab has no chart yet: train first (Train), then export its timelines");
    return {};
}

QSize MainWindow::exportSize() const {
    const QString tab = currentChartTab();
    if (tab == "graph") { // the view's unzoomed scale, where labels read: a deep graph makes a tall picture
        const QSizeF scene = m_graphView->view()->scene()->itemsBoundingRect().size() + QSizeF(24, 24);
        const double fit = std::min(1.0, 20000.0 / std::max(scene.width(), scene.height()));
        return QSize(std::max(16, int(scene.width() * fit)), std::max(16, int(scene.height() * fit)));
    }
    return QSize(1600, tab == "side" || tab == "trainer" ? 1200 : 900); // two charts stacked get more height
}

QString MainWindow::exportCurrentTab(const QString& path, int width, int height) {
    if (QString nothing = nothingToExport(); !nothing.isEmpty()) return nothing;
    const QString tab = currentChartTab();
    const bool csv = QFileInfo(path).suffix().compare("csv", Qt::CaseInsensitive) == 0;
    if (tab == "comparison")
        return csv ? m_comparisonTable->saveCsv(path)
                   : tr("%1: the Comparison tab is a table: export it as CSV (.csv)").arg(path);
    if (csv) return tr("%1: CSV is for the Comparison table; a chart exports as .pdf, .svg or .png").arg(path);
    if (tab == "graph") return exportScene(m_graphView->view()->scene(), path, width, height);
    if (ChartPage* p = page(tab))
        if (const QList<QCustomPlot*> charts = p->exportCharts(); charts.size() == 2)
            return exportStacked(charts, path, width, height);
    if (tab == "trainer")
        return exportStacked({m_trainer->predictedView()->plot(), m_trainer->measuredView()->plot()}, path, width,
                             height);
    return exportChart(tab, path, width, height);
}

void MainWindow::updateExportMenu() {
    if (!m_exportMenu) return;
    const QString tab = currentChartTab();
    const QString title = m_tabs->tabText(m_tabs->currentIndex()).remove('&');
    for (QAction* a : m_exportMenu->actions()) {
        const QString format = a->data().toString();
        if (format == "csv") {
            a->setVisible(tab == "comparison");
        } else if (!format.isEmpty()) {
            a->setVisible(tab != "comparison");
            const QString shown = format == "png" ? QStringLiteral("P&NG") : "&" + format.toUpper();
            a->setText(tr("%1 as %2…").arg(title, shown));
        }
    }
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
    // Each copy drawn as the tab shows it (the run, the memory level, the zoom, the log axes), from the same views
    // `ckpt render` draws with; the window's own charts stay as they are on screen.
    auto timeline = [](const TimelineView* from) {
        auto v = std::make_unique<TimelineView>();
        v->setNodeNames(from->nodeNames());
        v->setRun(from->run(), from->hardware());
        v->setMemoryLevel(from->memoryLevel());
        v->setMemoryOnly(from->memoryOnly());
        if (from->run()) v->setTimeRange(from->timeRange());
        return v;
    };
    using Views = std::vector<std::unique_ptr<QWidget>>;
    if (tab == "timeline")
        return [this, timeline] {
            Views out;
            out.push_back(timeline(m_timeline));
            return out;
        };
    if (tab == "side")
        return [this, timeline] {
            Views out;
            out.push_back(timeline(sideView()));
            out.push_back(timeline(pinnedView()));
            return out;
        };
    if (tab == "trainer")
        return [this, timeline] {
            Views out;
            out.push_back(timeline(m_trainer->predictedView()));
            out.push_back(timeline(m_trainer->measuredView()));
            return out;
        };
    if (tab == "sweep")
        return [this] {
            auto v = std::make_unique<SweepView>();
            v->setRun(m_runs->shownRun(), m_doc->problem(), m_doc->hardware());
            Views out;
            out.push_back(std::move(v));
            return out;
        };
    if (tab == "tradeoff")
        return [this] {
            auto v = std::make_unique<TradeoffView>();
            v->setLogAxes(m_tradeoff->logMemory(), m_tradeoff->logTime());
            v->setStale(m_tradeoff->isStale());
            v->setRuns(m_tradeoff->runs());
            Views out;
            out.push_back(std::move(v));
            return out;
        };
    return {};
}

void MainWindow::exportChartDialog(const QString& format) {
    const QString which = currentChartTab();
    if (which == "comparison") return exportComparisonDialog();
    // Said before asking for a size and a file.
    if (QString nothing = nothingToExport(); !nothing.isEmpty()) return report(nothing);
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
        QString err = exportCharts(
            {{"timeline", m_timeline->plot()}, {"sweep", m_sweep->plot()}, {"tradeoff", m_tradeoff->plot()}}, dir, f, w,
            h);
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
