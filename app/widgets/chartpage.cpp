#include "chartpage.h"

#include "models/document.h"

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
    if (isVisibleTo(window())) ensureCurrent();
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
