#include "tradeoffpage.h"

#include "plots/tradeoffview.h"

#include <QVBoxLayout>

TradeoffPage::TradeoffPage(Document* doc, QWidget* parent)
    : ChartPage("tradeoff", doc, parent), m_view(new TradeoffView(this)) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_view);
    setDescription(
        tr("Time overhead against peak memory for every scheduler over the budget sweep; click a point to open it"),
        tr("One point per scheduler and budget of Run all (Shift+F5): peak memory across, time over store-all's up, so "
           "lower left is better; a line joins one scheduler's points."));
    ignoreRuns();
}

QList<QCustomPlot*> TradeoffPage::charts() const {
    return {m_view->plot()};
}

ExportDialog::MakeCharts TradeoffPage::chartCopies() const {
    return [this] {
        auto v = std::make_unique<TradeoffView>();
        v->setLogAxes(m_view->logMemory(), m_view->logTime());
        v->setStale(m_view->isStale());
        v->setRuns(m_view->runs());
        std::vector<std::unique_ptr<QWidget>> out;
        out.push_back(std::move(v));
        return out;
    };
}
