#pragma once
// The Layout tab: every tensor the shown chain plan holds in level 0, placed at an address for its lifetime
// (sim/layout.h), as a map of address over time like PyTorch's memory snapshot viewer. A line marks the ideal peak
// (the most held at once); the gap up to the highest block is fragmentation.
#include "model/chain.h"
#include "model/hardware.h"
#include "run/runner.h"
#include "sim/layout.h"

#include <QWidget>
#include <memory>
#include <qcustomplot.h>

class QLabel;

// The blocks as one plottable (no item per tensor): rectangles coloured by category, one batch per colour.
class LayoutBlocks : public QCPAbstractPlottable {
    Q_OBJECT
public:
    LayoutBlocks(QCPAxis* keyAxis, QCPAxis* valueAxis);
    void setLayout(std::shared_ptr<const ckpt::MemoryLayout> layout);
    int blockCount() const { return m_layout ? int(m_layout->tensors.size()) : 0; }
    static QColor categoryColor(ckpt::MemoryCategory c);

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    std::shared_ptr<const ckpt::MemoryLayout> m_layout;
};

class LayoutView : public QWidget {
    Q_OBJECT
public:
    explicit LayoutView(QWidget* parent = nullptr);
    // Lays out the run's plan of `problem` (run/run_layout.h); nothing for an infeasible run, or a plan of another
    // problem, with the reason shown.
    void setRun(const std::shared_ptr<const ckpt::Run>& run, const ckpt::Problem& problem, const ckpt::Hardware& hw);
    QCustomPlot* plot() const { return m_plot; }
    const ckpt::MemoryLayout* layout() const { return m_layout.get(); }
    QString summary() const;

private:
    QLabel* m_summary;
    QCustomPlot* m_plot;
    LayoutBlocks* m_blocks;
    QCPItemStraightLine* m_ideal;
    std::shared_ptr<const ckpt::MemoryLayout> m_layout;
};
