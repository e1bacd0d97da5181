#include "chartpage.h"

#include "models/document.h"
#include "plots/chartexport.h"
#include "plots/timelineview.h"
#include "viewexport.h"

#include <QFileInfo>
#include <QTabWidget>
#include <qcustomplot.h>

ChartPage::ChartPage(const QString& name, Document* doc, QWidget* parent) : QWidget(parent), m_name(name), m_doc(doc) {
    setObjectName(name);
}

void ChartPage::setRun(std::shared_ptr<const ckpt::Run> run) {
    m_run = std::move(run);
    if (m_followsRuns) markStale();
}

void ChartPage::markStale() {
    m_stale = true;
    // The current tab draws at once (also in a window not yet shown: tests, --screenshot); the others when chosen.
    if (m_eager || isVisibleTo(window())) ensureCurrent();
}

void ChartPage::ensureCurrent() {
    if (!m_stale) return;
    m_stale = false;
    refresh(m_run);
}

void ChartPage::followProblem() {
    for (auto signal : {&Document::chainChanged, &Document::graphChanged, &Document::hardwareChanged, &Document::reset})
        connect(m_doc, signal, this, &ChartPage::markStale);
}

QList<QCustomPlot*> ChartPage::exportCharts() {
    ensureCurrent();
    return nothingToExport().isEmpty() ? charts() : QList<QCustomPlot*>();
}

QString ChartPage::exportRefusal() {
    ensureCurrent();
    return nothingToExport();
}

QString ChartPage::pictureRefusal(const QString& path) {
    if (QString why = exportRefusal(); !why.isEmpty()) return why;
    if (QFileInfo(path).suffix().compare("csv", Qt::CaseInsensitive) == 0)
        return tr("%1: CSV is for the Comparison table; a chart exports as .pdf, .svg or .png").arg(path);
    return {};
}

QString ChartPage::exportTo(const QString& path, int width, int height) {
    if (QString why = pictureRefusal(path); !why.isEmpty()) return why;
    const QList<QCustomPlot*> plots = charts();
    if (plots.isEmpty()) return tr("%1: the %2 tab has no chart to export").arg(path, name());
    if (plots.size() == 2) return exportStacked(plots, path, width, height);
    return ::exportChart(plots.value(0), path, width, height);
}

QSize ChartPage::exportSize() const {
    return QSize(1600, charts().size() == 2 ? 1200 : 900); // two charts stacked get more height
}

std::unique_ptr<QWidget> ChartPage::timelineCopy(const TimelineView* from) {
    auto v = std::make_unique<TimelineView>();
    v->setNodeNames(from->nodeNames());
    v->setRun(from->run(), from->hardware());
    v->setMemoryLevel(from->memoryLevel());
    v->setMemoryOnly(from->memoryOnly());
    if (from->run()) v->setTimeRange(from->timeRange());
    return v;
}

QList<ChartPage*> chartPages(const QTabWidget* tabs) {
    QList<ChartPage*> out;
    for (int i = 0; i < tabs->count(); ++i)
        out << static_cast<ChartPage*>(tabs->widget(i));
    return out;
}

ChartPage* chartPage(const QTabWidget* tabs, const QString& name) {
    for (ChartPage* p : chartPages(tabs))
        if (p->name() == name) return p;
    return nullptr;
}
