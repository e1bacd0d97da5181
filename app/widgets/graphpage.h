#pragma once
// The Graph tab: the open graph laid out by Graphviz, coloured by what the shown plan does with each node
// (graphview.h); it exports its picture.
#include "chartpage.h"

class GraphView;

class GraphPage : public ChartPage {
    Q_OBJECT
public:
    explicit GraphPage(Document* doc, QWidget* parent = nullptr);
    GraphView* view() const { return m_view; }
    QString exportTo(const QString& path, int width, int height) override;
    QSize exportSize() const override;
    QString unavailableFor(bool graph) const override;

protected:
    QList<QCustomPlot*> charts() const override { return {}; }
    QString nothingToExport() const override;
    void refresh(const std::shared_ptr<const ckpt::Run>& run) override;

private:
    void showGraph(); // the document's graph laid out again, or none for a chain

    GraphView* m_view;
};
