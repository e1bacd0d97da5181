#pragma once
// The memory of one level over time, stacked by category: one plottable per category over shared samples. A dense
// plan has many more samples than the chart has pixel columns; drawn as they are, thousands of thin antialiased
// steps beat against the pixel grid (moiré). So draw() reduces the visible samples to at most one step per pixel
// column, each holding the column's maximum of every stacked total (the outline keeps the exact peak), merges
// equal neighbours, and fills one polygon per category without antialiasing.
#include "sim/timeline.h"

#include <array>
#include <memory>
#include <qcustomplot.h>
#include <vector>

struct MemoryStep {
    double start = 0, end = 0;
    std::array<double, ckpt::kMemoryCategories> tops{};
};

// The samples of one level, each category summed with those below it (tops[c] is the top of category c).
struct StackedMemory {
    std::vector<double> times;                                     // sample i holds from times[i] to times[i + 1]
    std::vector<std::array<double, ckpt::kMemoryCategories>> tops; // per sample
    double end = 0;                                                // the last sample holds until here
    double peak = 0;                                               // the highest total

    static std::shared_ptr<const StackedMemory> of(const std::vector<ckpt::MemorySample>& curve, double end);

    // The last reduction (decimateMemory), shared by the categories' plottables: one pass per replot, not four.
    // Used from the GUI thread only.
    struct Reduced {
        double t0 = 0, t1 = 0;
        int columns = 0;
        std::vector<MemoryStep> steps;
    };
    mutable Reduced reduced;
};

// The steps drawn for [t0, t1] over `columns` pixel columns: a sample narrower than a column is pooled with the
// others in its column (the column takes each total's maximum); wider ones keep their values; equal neighbours merge.
std::vector<MemoryStep> decimateMemory(const StackedMemory& memory, double t0, double t1, int columns);

class MemoryAreaPlottable : public QCPAbstractPlottable {
    Q_OBJECT
public:
    MemoryAreaPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis, int category);

    void setMemory(std::shared_ptr<const StackedMemory> memory);
    bool holdsNothing() const; // the category is zero at every sample (or no memory is set): nothing is drawn
    // What draw() draws at the axes' current range and length.
    std::vector<MemoryStep> drawnSteps() const { return steps(); }

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    const std::vector<MemoryStep>& steps() const;
    std::shared_ptr<const StackedMemory> m_memory;
    int m_category;
};
