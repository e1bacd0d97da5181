// Figure specs (figureFromJson). A spec that loads must describe a page that can be drawn: a size and font in range,
// every panel inside the grid and no two sharing a cell, each with its series, its budgets readable and a slot
// sweep within the documented limits.
#include "fuzz_target.h"
#include "io/figure_io.h"
#include "run/budget.h"

#include <vector>

using namespace ckpt;
using namespace ckpt::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto spec = loadInput(data, size, [](const auto& doc) { return figureFromJson(doc, kSource); });
    if (!spec) return 0;
    const PrintSize& page = spec->size;
    check(page.width_pt >= 36 && page.height_pt >= 36 && page.width_pt <= 20000 && page.height_pt <= 20000,
          "a page size out of range");
    check(page.font_pt >= 4 && page.font_pt <= 72, "a font size out of range");
    check(spec->rows >= 1 && spec->cols >= 1 && spec->rows <= kMaxFigureGrid && spec->cols <= kMaxFigureGrid,
          "a grid out of range");
    check(!spec->panels.empty() && spec->panels.size() <= std::size_t(kMaxFigurePanels), "a panel count out of range");
    std::vector<int> owner(std::size_t(spec->rows * spec->cols), -1);
    for (std::size_t k = 0; k < spec->panels.size(); ++k) {
        const FigurePanel& p = spec->panels[k];
        const std::string what = "panels[" + std::to_string(k) + "]";
        check(p.row >= 0 && p.col >= 0 && p.rows >= 1 && p.cols >= 1 && p.row + p.rows <= spec->rows &&
                  p.col + p.cols <= spec->cols,
              what + " is outside the grid");
        for (int r = p.row; r < p.row + p.rows; ++r)
            for (int c = p.col; c < p.col + p.cols; ++c) {
                int& o = owner[std::size_t(r * spec->cols + c)];
                check(o < 0, what + " shares a cell with panels[" + std::to_string(o) + "]");
                o = int(k);
            }
        check(!p.problem.empty(), what + " has no problem");
        check(!p.series.empty() && p.series.size() <= std::size_t(kMaxFigureSeries), what + ": a series count");
        for (const FigureSeries& s : p.series)
            check(!s.scheduler.empty(), what + ": a series without a scheduler");
        const bool sweep = p.chart == FigureChart::Tradeoff || p.chart == FigureChart::StepsVsSlots;
        check(sweep || p.series.size() == 1, what + ": a one-run chart with several series");
        auto budgets = parseBudgets(p.budgets, [] { return std::int64_t(1) << 30; });
        check(budgets.ok(), what + ": budgets that do not parse: " + p.budgets);
        check(sweep || budgets->size() == 1, what + ": a one-run chart with several budgets");
        std::size_t runs = 0;
        for (const FigureSeries& s : p.series) {
            check(sweep || s.slot_counts.empty(), what + ": a one-run chart sweeping slots");
            check(p.chart != FigureChart::StepsVsSlots || !s.slot_counts.empty(),
                  what + ": steps-vs-slots without slots");
            check(s.slot_counts.empty() || budgets->size() == 1, what + ": slots and several budgets");
            for (long long c : s.slot_counts)
                check(c >= 1 && c <= 10000000, what + ": a slot count out of range");
            runs += std::max<std::size_t>(s.slot_counts.size(), 1) * budgets->size();
        }
        check(runs <= std::size_t(kMaxFigureSweep), what + ": more runs than the limit");
    }
    return 0;
}
