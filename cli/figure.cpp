// ckpt figure: several charts in one file, from a spec (io/figure_io.h) that a paper's sources can keep.
#include "charts.h"
#include "commands.h"
#include "common.h"
#include "io/graph_io.h"
#include "io/json_io.h"
#include "io/project_io.h"
#include "plots/chartexport.h"
#include "plots/printlayout.h"
#include "plots/sharedlegend.h"
#include "plots/timelineview.h"
#include "plots/tradeoffview.h"
#include "progress.h"
#include "run/scheduler_lookup.h"
#include "util/files.h"
#include "util/units.h"

#include <QApplication>
#include <QWidget>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <qcustomplot.h>

namespace ckpt::cli {
namespace {

// Panels are a, b, c ... as a caption names them (then p27, p28 ... past z).
std::string panelName(std::size_t k) {
    return k < 26 ? std::string(1, char('a' + k)) : "p" + std::to_string(k + 1);
}

std::string relativeTo(const std::string& folder, const std::string& path) {
    const std::filesystem::path p(path);
    return p.is_absolute() || folder.empty() ? path : (std::filesystem::path(folder) / p).string();
}

// A panel's problem and machine, loaded; messages name the spec and the panel's field.
struct Loaded {
    std::optional<Problem> problem;
    std::optional<Hardware> hw;
};

Result<Loaded> loadPanel(const FigurePanel& p, const std::string& folder, const std::string& where) {
    Loaded out;
    const std::string file = relativeTo(folder, p.problem);
    auto problem = ckpt::loadChainOrGraph(file);
    if (!problem) return fail(where + ".problem: " + problem.error());
    out.problem.emplace(std::move(*problem));
    if (p.hardware.empty()) {
        out.hw = Hardware::unbounded();
    } else {
        std::string path = p.hardware_is_preset ? presetPath(p.hardware) : relativeTo(folder, p.hardware);
        if (path.empty()) {
            std::string names;
            for (const std::string& n : presetNames())
                names += (names.empty() ? "" : ", ") + n;
            return fail(where + ".hardware: no preset named '" + p.hardware + "' (presets: " + names +
                        "; or give a file ending in .json)");
        }
        auto h = loadHardware(path);
        if (!h) return fail(where + ".hardware: " + h.error());
        out.hw = std::move(*h);
    }
    if (p.chart == FigureChart::Sweep && !out.problem->chain())
        return fail(where + ": the sweep diagram draws a chain's steps; " + out.problem->name() + " is not a chain");
    if (p.chart == FigureChart::Sweep) out.problem = Problem(*out.problem->chain());
    return out;
}

// The legend's name of each series: its scheduler, then the choices it sets ("bptt-dp hsm": a default choice only
// where the panel shows the scheduler more than once), then any other parameter that tells two series apart.
std::vector<std::string> seriesNames(const FigurePanel& p, const Problem& problem) {
    std::vector<std::string> names;
    for (const FigureSeries& s : p.series) {
        int same = 0;
        for (const FigureSeries& t : p.series)
            same += t.scheduler == s.scheduler;
        std::string name = s.scheduler;
        auto found = findSchedulerFor(s.scheduler, problem);
        for (const auto& [k, v] : s.params) {
            const ParamSpec* spec = nullptr;
            if (found)
                for (const ParamSpec& ps : found->params())
                    if (ps.name == k) spec = &ps;
            const bool choice = spec && spec->type == ParamType::Choice;
            bool differs = false;
            for (const FigureSeries& t : p.series)
                if (t.scheduler == s.scheduler) {
                    auto it = t.params.find(k);
                    differs |= it == t.params.end() || it->second != v;
                }
            if (choice && (same > 1 || v != spec->default_value))
                name += " " + v;
            else if (!choice && differs)
                name += " " + k + "=" + v;
        }
        names.push_back(name);
    }
    return names;
}

// Every run a panel asks for, series by series; an error names the panel's field.
Result<std::vector<Run>> runPanel(const FigurePanel& p, const Loaded& in, const std::string& where,
                                  std::vector<std::string>& names) {
    const Problem& problem = *in.problem;
    const Hardware& hw = *in.hw;
    for (std::size_t k = 0; k < p.series.size(); ++k)
        if (auto found = findSchedulerFor(p.series[k].scheduler, problem); !found)
            return fail(where + ".schedulers[" + std::to_string(k) + "]: " + found.error());
    auto budgets = parseBudgetList(p.budgets, problem, hw);
    if (!budgets) return fail(where + ": budgets: " + budgets.error());
    const std::vector<std::string> base = seriesNames(p, problem);
    std::vector<Run> runs;
    auto one = [&](std::size_t k, std::int64_t budget, long long count) -> std::optional<Error> {
        SolveRequest req;
        req.budget_bytes = budget;
        req.params = p.series[k].params;
        if (count > 0) {
            auto found = findSchedulerFor(p.series[k].scheduler, problem);
            std::string knob;
            for (const ParamSpec& spec : found->params())
                if (knob.empty() && (spec.name == "slots" || spec.name == "segments")) knob = spec.name;
            if (knob.empty() && p.chart == FigureChart::StepsVsSlots)
                return fail(where + ".schedulers[" + std::to_string(k) + "]: " + p.series[k].scheduler +
                            " has no slot count to sweep");
            // In a trade-off over slots, a scheduler without slots (store-all) is one point, run at the first count.
            if (knob.empty() && count != p.series[k].slot_counts.front()) return std::nullopt;
            if (!knob.empty()) req.params[knob] = std::to_string(count);
        }
        Run r = runScheduler(p.series[k].scheduler, problem, hw, req);
        if (r.bad_input) return fail(where + ".schedulers[" + std::to_string(k) + "]: " + r.message);
        runs.push_back(std::move(r));
        names.push_back(base[k]);
        return std::nullopt;
    };
    // Series by series, so that a legend lists them in the spec's order.
    for (std::size_t k = 0; k < p.series.size(); ++k) {
        for (long long s : p.series[k].slot_counts)
            if (auto e = one(k, budgets->front(), s)) return *e;
        if (p.series[k].slot_counts.empty())
            for (std::int64_t b : *budgets)
                if (auto e = one(k, b, 0)) return *e;
    }
    return runs;
}

// A title above a chart, in its own row of the chart's layout, bold at the figure's font size.
void addTitle(QCustomPlot* plot, const std::string& title, double fontPt) {
    if (title.empty()) return;
    QFont f = plot->font();
    f.setPixelSize(std::max(1, int(std::lround(fontPt))));
    f.setBold(true);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, QString::fromStdString(title), f));
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
}

// "panel,element,x_pt,y_pt,width_pt,height_pt": where each chart's data area (axes), legend and title sit on the page.
std::string layoutCsv(const QList<ChartPanel>& panels, const std::vector<int>& panelOf) {
    std::string out = "panel,element,x_pt,y_pt,width_pt,height_pt\n";
    for (int i = 0; i < panels.size(); ++i) {
        const ChartPanel& cp = panels[i];
        auto row = [&](const char* what, QRect r) {
            if (r.isEmpty()) return;
            r.translate(cp.rect.topLeft());
            const int k = panelOf[std::size_t(i)];
            out += (k < 0 ? std::string("figure") : panelName(std::size_t(k))) + "," + what + "," +
                   std::to_string(r.x()) + "," + std::to_string(r.y()) + "," + std::to_string(r.width()) + "," +
                   std::to_string(r.height()) + "\n";
        };
        for (QCPLayoutElement* e : cp.plot->plotLayout()->elements(true)) {
            if (!e || !e->visible()) continue;
            if (auto* a = qobject_cast<QCPAxisRect*>(e); a && a->maximumSize().height() > 0) row("axes", a->rect());
            if (auto* l = qobject_cast<QCPLegend*>(e); l && l->itemCount() > 0) row("legend", l->outerRect());
            if (qobject_cast<QCPTextElement*>(e))
                row(e->objectName() == "footnote" ? "footnote" : "title", e->outerRect());
        }
    }
    return out;
}

} // namespace

int cmdFigure(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "figure")) return BadInput;
    if (args.positional().size() != 1 || !args.has("out")) {
        complain("figure: expected SPEC.json and --out FILE.(pdf|svg|png) (see ckpt --help)");
        return BadInput;
    }
    double dpi = 300;
    if (args.has("dpi")) {
        auto v = parseSeconds(args.value("dpi"));
        if (!v || *v < 36 || *v > 2400) {
            complain("figure: --dpi: expected 36 to 2400, got '" + args.value("dpi") + "'");
            return BadInput;
        }
        dpi = *v;
    }
    const std::string specPath = args.positional()[0], out = args.value("out");
    auto spec = loadFigure(specPath);
    if (!spec) {
        complain(spec.error());
        return BadInput;
    }
    const bool png = out.size() >= 4 && out.compare(out.size() - 4, 4, ".png") == 0;
    if (spec->size.pixels && !png) {
        complain(specPath + ": size: px is for PNG; give a PDF or SVG size in in, cm, mm or pt");
        return BadInput;
    }
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) qputenv("QT_QPA_PLATFORM", "offscreen");
    int qargc = 1;
    char* qargv[] = {argv[0], nullptr};
    QApplication app(qargc, qargv);

    const std::string folder = std::filesystem::path(specPath).parent_path().string();
    std::vector<Chart> charts;
    Progress progress("figure");
    for (std::size_t k = 0; k < spec->panels.size(); ++k) {
        const FigurePanel& p = spec->panels[k];
        const std::string where = specPath + ": panels[" + std::to_string(k) + "]";
        progress.set((long long)k, (long long)spec->panels.size(), "panels",
                     "panels[" + std::to_string(k) + "] (" + panelName(k) + ")");
        // Memory running out past every estimate (a chart of millions of actions) names the panel, not only
        // "std::bad_alloc".
        try {
            auto loaded = loadPanel(p, folder, where);
            if (!loaded) {
                complain(loaded.error());
                return BadInput;
            }
            std::vector<std::string> names;
            auto runs = runPanel(p, *loaded, where, names);
            if (!runs) {
                complain(runs.error());
                return BadInput;
            }
            reportUnavailable(*runs);
            if (p.chart == FigureChart::Tradeoff || p.chart == FigureChart::StepsVsSlots) {
                charts.push_back(runsChart(p.chart, *runs, names, *loaded->hw, p.log));
            } else {
                auto run = std::make_shared<const Run>(std::move(runs->front()));
                if (!run->feasible) {
                    complain(where + ": " + run->message);
                    return exitCodeOf(*run);
                }
                charts.push_back(oneRunChart(p.chart, run, *loaded->problem, *loaded->hw, args.has("data")));
            }
        } catch (const std::bad_alloc&) {
            complain(where + ": out of memory while solving or drawing this panel; draw a shorter chain, fewer "
                             "schedulers or a trade-off chart");
            return BadInput;
        }
    }

    progress.set((long long)charts.size(), (long long)spec->panels.size(), "panels", "writing " + out);
    // Gantt and memory charts of one problem share their time axis, so that the plans compare by length at sight.
    std::map<std::string, double> longest;
    for (std::size_t k = 0; k < charts.size(); ++k)
        if (auto* t = dynamic_cast<TimelineView*>(charts[k].view.get()); t && t->run() && t->run()->timeline)
            longest[spec->panels[k].problem] =
                std::max(longest[spec->panels[k].problem], t->run()->timeline->totals.makespan_s);
    for (std::size_t k = 0; k < charts.size(); ++k)
        if (auto* t = dynamic_cast<TimelineView*>(charts[k].view.get()); t && t->run() && t->run()->timeline)
            t->setTimeRange(QCPRange(0, std::max(longest[spec->panels[k].problem], 1e-12) * 1.01));

    // The page: the figure's title on top, the grid's cells, each chart fitted to the cells it covers, and under them
    // the legend when every panel would repeat the same one.
    const QSize page = layoutSize(spec->size);
    const double font = spec->size.font_pt;
    const int top = spec->title.empty() ? 0 : int(std::lround(font * 1.9));
    QList<ChartPanel> panels;
    std::vector<int> panelOf;
    std::unique_ptr<QCustomPlot> heading;
    if (!spec->title.empty()) {
        heading = std::make_unique<QCustomPlot>();
        heading->plotLayout()->clear();
        addTitle(heading.get(), spec->title, font);
        panels << ChartPanel{heading.get(), QRect(0, 0, page.width(), top)};
        panelOf.push_back(-1);
    }
    QList<QCustomPlot*> plots;
    for (const Chart& c : charts)
        plots << c.plot;
    std::unique_ptr<QCustomPlot> legend = takeSharedLegend(plots);
    // What hollow markers mean, said once under the panels rather than under each trade-off.
    bool hollow = false;
    int tradeoffs = 0;
    for (const Chart& c : charts)
        tradeoffs += dynamic_cast<TradeoffView*>(c.view.get()) != nullptr;
    if (tradeoffs >= 2)
        for (const Chart& c : charts)
            if (auto* t = dynamic_cast<TradeoffView*>(c.view.get())) {
                hollow |= t->hollowCount() > 0;
                t->setHollowNote(false);
            }
    if (hollow) {
        if (!legend) {
            legend = std::make_unique<QCustomPlot>();
            legend->plotLayout()->clear();
        }
        auto* note = new QCPTextElement(legend.get(), TradeoffView::hollowNote());
        note->setObjectName("footnote");
        note->setProperty("brief", TradeoffView::briefHollowNote());
        note->setTextFlags(Qt::AlignLeft);
        legend->plotLayout()->addElement(legend->plotLayout()->rowCount(), 0, note);
    }
    int bottom = page.height();
    if (legend) {
        fitForPrint(legend.get(), page.width(), page.height(), font);
        int h = 2;
        for (int row = 0; row < legend->plotLayout()->rowCount(); ++row)
            if (QCPLayoutElement* e = legend->plotLayout()->element(row, 0)) h += e->minimumOuterSizeHint().height();
        bottom = page.height() - h;
        fitForPrint(legend.get(), page.width(), h, font);
    }
    auto edge = [](int i, int n, int from, int to) { return from + int(std::lround(double(to - from) * i / n)); };
    for (std::size_t k = 0; k < spec->panels.size(); ++k) {
        const FigurePanel& p = spec->panels[k];
        const int x0 = edge(p.col, spec->cols, 0, page.width()), x1 = edge(p.col + p.cols, spec->cols, 0, page.width());
        const int y0 = edge(p.row, spec->rows, top, bottom), y1 = edge(p.row + p.rows, spec->rows, top, bottom);
        const QRect cell(x0, y0, x1 - x0, y1 - y0);
        Chart& c = charts[k];
        addTitle(c.plot, p.title, font);
        c.view->resize(cell.size());
        fitForPrint(c.plot, cell.width(), cell.height(), font);
        panels << ChartPanel{c.plot, cell};
        panelOf.push_back(int(k));
    }
    if (legend) {
        panels << ChartPanel{legend.get(), QRect(0, bottom, page.width(), page.height() - bottom)};
        panelOf.push_back(-1);
    }
    if (QString err = exportPanels(panels, QString::fromStdString(out), spec->size, dpi); !err.isEmpty()) {
        complain(err.toStdString());
        return BadInput;
    }
    if (args.has("data")) {
        const std::string dir = args.value("data");
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (ec) {
            complain("figure: --data: " + dir + ": cannot create the folder (" + ec.message() + ")");
            return BadInput;
        }
        for (std::size_t k = 0; k < charts.size(); ++k) {
            const std::string file = (std::filesystem::path(dir) / ("panel-" + panelName(k) + ".csv")).string();
            if (auto saved = writeTextFileAtomic(file, charts[k].csv); !saved) {
                complain("figure: --data: " + saved.error());
                return BadInput;
            }
        }
        const std::string file = (std::filesystem::path(dir) / "layout.csv").string();
        if (auto saved = writeTextFileAtomic(file, layoutCsv(panels, panelOf)); !saved) {
            complain("figure: --data: " + saved.error());
            return BadInput;
        }
    }
    return Done;
}

} // namespace ckpt::cli
