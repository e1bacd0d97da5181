#include "layoutpage.h"

#include "models/document.h"
#include "plots/layoutview.h"

#include <QVBoxLayout>

LayoutPage::LayoutPage(Document* doc, QWidget* parent)
    : ChartPage("layout", doc, parent), m_view(new LayoutView(this)) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_view);
    setDescription(tr("Every tensor of the shown plan at an address in level 0, over time: the packed peak against the "
                      "ideal one (fragmentation)"),
                   tr("An allocator packs the tensors of the shown plan into addresses: the packed peak beside the "
                      "ideal one is what fragmentation costs."));
}

void LayoutPage::refresh(const std::shared_ptr<const ckpt::Run>& run) {
    m_view->setRun(run, document()->problem(), document()->hardware());
}

QList<QCustomPlot*> LayoutPage::charts() const {
    return {m_view->plot()};
}

QString LayoutPage::nothingToExport() const {
    return m_view->layout() ? QString() : tr("The Layout tab shows no plan: %1").arg(m_view->summary());
}
