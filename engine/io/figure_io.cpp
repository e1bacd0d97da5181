// Figure specs ("ckpt-figure"): the layout of a figure and what each panel runs.
#include "io/figure_io.h"

#include "io/json_io.h"
#include "io/json_reader.h"
#include "io/presets.h"
#include "util/budget_list.h"

#include <cmath>

namespace ckpt {

namespace {

using io::FieldReader;
using io::JsonPath;
using nlohmann::json;

constexpr const char* kFormat = "ckpt-figure";
constexpr const char* kDefaultBudgets = "5%,10%,20%,35%,50%,75%,100%";

struct Reading {
    const std::string& source;
    Error fail(const JsonPath& path, const std::string& what) const { return io::pathError(source, path, what); }
    Error expected(const JsonPath& path, const std::string& what, const json& got) const {
        return io::expected(source, path, what, got);
    }
};

// {"name": value} into `out` (io/json_reader.h).
std::optional<Error> readParams(const json& v, const JsonPath& path, const Reading& in,
                                std::map<std::string, std::string>& out) {
    return io::readParamTexts(v, path, in.source, out);
}

// "5%,none" or ["5%", "1 GiB", 1048576] into one list text; `single` asks for exactly one budget.
Result<std::string> readBudgets(const json& v, const JsonPath& path, const Reading& in, bool single) {
    std::string text;
    if (v.is_string()) {
        text = v.get<std::string>();
    } else if (v.is_number()) {
        auto b = io::toBytes(v, path, in.source);
        if (!b) return b.errorValue();
        text = std::to_string(*b);
    } else if (v.is_array() && !single) {
        if (v.size() > std::size_t(kMaxFigureSweep))
            return in.fail(path,
                           "at most " + std::to_string(kMaxFigureSweep) + " budgets, got " + std::to_string(v.size()));
        for (std::size_t k = 0; k < v.size(); ++k) {
            JsonPath at = path.element(k);
            if (v[k].is_string()) {
                const std::string& s = v[k].get_ref<const std::string&>();
                if (s.find(',') != std::string::npos) return in.expected(at, "one budget", v[k]);
                text += (text.empty() ? "" : ",") + s;
            } else {
                auto b = io::toBytes(v[k], at, in.source);
                if (!b) return b.errorValue();
                text += (text.empty() ? "" : ",") + std::to_string(*b);
            }
        }
    } else {
        return in.expected(path,
                           single ? "a budget such as \"50%\", \"64 MiB\" or \"none\""
                                  : "a budget list such as \"5%,10%,none\" or an array of budgets",
                           v);
    }
    // The syntax now; percentages become bytes once the problem is loaded.
    auto parsed = checkBudgets(text);
    if (!parsed) return in.fail(path, parsed.error());
    if (parsed->size() > std::size_t(kMaxFigureSweep))
        return in.fail(path, "at most " + std::to_string(kMaxFigureSweep) + " budgets");
    if (single && parsed->size() != 1) return in.expected(path, "one budget", v);
    return text;
}

Result<long long> slotCount(const json& v, const JsonPath& path, const Reading& in) {
    if ((v.is_number_integer() || v.is_number_unsigned()) && v.get<long long>() >= 1 && v.get<long long>() <= 10000000)
        return v.get<long long>();
    return in.expected(path, "a slot count from 1 to 10000000", v);
}

// [2, 3, 4] or {"from": 2, "to": 40, "step": 2}.
Result<std::vector<long long>> readSlots(const json& v, const JsonPath& path, const Reading& in) {
    std::vector<long long> out;
    if (v.is_array()) {
        if (v.empty() || v.size() > std::size_t(kMaxFigureSweep))
            return in.expected(path, "from 1 to " + std::to_string(kMaxFigureSweep) + " slot counts", v);
        for (std::size_t k = 0; k < v.size(); ++k) {
            JsonPath at = path.element(k);
            auto s = slotCount(v[k], at, in);
            if (!s) return s.errorValue();
            out.push_back(*s);
        }
        return out;
    }
    if (!v.is_object()) return in.expected(path, "an array of slot counts or {\"from\", \"to\", \"step\"}", v);
    FieldReader r(v, path, in.source);
    long long from = 1, to = 1, step = 1;
    r.integer("from", from, 1, 10000000);
    r.integer("to", to, 1, 10000000);
    r.integer("step", step, 1, 10000000, false);
    if (!r.ok()) return r.error();
    if (to < from)
        return in.fail(path, "\"to\" (" + std::to_string(to) + ") is below \"from\" (" + std::to_string(from) + ")");
    if ((to - from) / step + 1 > kMaxFigureSweep)
        return in.fail(path, "the range gives " + std::to_string((to - from) / step + 1) + " slot counts; at most " +
                                 std::to_string(kMaxFigureSweep));
    for (long long s = from; s <= to; s += step)
        out.push_back(s);
    return out;
}

} // namespace

std::optional<LogAxes> parseLogAxes(const std::string& text) {
    if (text == "none") return LogAxes{};
    if (text == "memory") return LogAxes{true, false};
    if (text == "time") return LogAxes{false, true};
    if (text == "both") return LogAxes{true, true};
    return std::nullopt;
}

namespace {

Result<FigureChart> chartOf(const json& v, const JsonPath& path, const Reading& in) {
    if (v.is_string())
        for (FigureChart c : {FigureChart::Gantt, FigureChart::Memory, FigureChart::Sweep, FigureChart::Tradeoff,
                              FigureChart::StepsVsSlots})
            if (v.get_ref<const std::string&>() == figureChartName(c)) return c;
    return in.expected(path, "\"gantt\", \"memory\", \"sweep\", \"tradeoff\" or \"steps-vs-slots\"", v);
}

// The series: "name" or {"name": ..., "params": {...}}, with the panel's params for that scheduler first.
std::optional<Error> readSeries(const json& list, const JsonPath& path, const Reading& in,
                                const std::map<std::string, std::map<std::string, std::string>>& shared,
                                std::vector<FigureSeries>& out) {
    const bool one = list.is_string();
    if (!one && (!list.is_array() || list.empty()))
        return in.expected(path, "a non-empty array of scheduler names or {\"name\", \"params\"}", list);
    if (!one && list.size() > std::size_t(kMaxFigureSeries))
        return in.fail(path,
                       "at most " + std::to_string(kMaxFigureSeries) + " series, got " + std::to_string(list.size()));
    for (std::size_t k = 0; k < (one ? 1 : list.size()); ++k) {
        const json& v = one ? list : list[k];
        JsonPath at = one ? path : path.element(k);
        FigureSeries s;
        const json* params = nullptr;
        if (v.is_string()) {
            s.scheduler = v.get<std::string>();
        } else if (v.is_object()) {
            FieldReader r(v, at, in.source);
            r.string("name", s.scheduler, true);
            params = r.find("params", false);
            const json* slots = r.find("slots", false);
            if (!r.ok()) return r.error();
            if (slots) {
                JsonPath sp = at.member("slots");
                auto counts = readSlots(*slots, sp, in);
                if (!counts) return counts.errorValue();
                s.slot_counts = std::move(*counts);
            }
        } else {
            return in.expected(at, "a scheduler name or {\"name\", \"params\"}", v);
        }
        if (s.scheduler.empty()) return in.expected(at, "a scheduler name", v);
        if (auto it = shared.find(s.scheduler); it != shared.end()) s.params = it->second;
        if (params) {
            JsonPath p = at.member("params");
            if (auto e = readParams(*params, p, in, s.params)) return e;
        }
        out.push_back(std::move(s));
    }
    return std::nullopt;
}

// A panel's series ("schedulers" or "scheduler", with the panel's "params" per scheduler) and slot counts;
// `sweepsSlots` tells whether a series sweeps slot counts.
std::optional<Error> readPanelSeries(const json* schedulers, const json* scheduler, const json* params,
                                     const json* slots, const JsonPath& path, const Reading& in, FigurePanel& p,
                                     bool& sweepsSlots) {
    std::map<std::string, std::map<std::string, std::string>> shared;
    if (params) {
        JsonPath at = path.member("params");
        if (!params->is_object()) return in.expected(at, "an object of {scheduler: {parameter: value}}", *params);
        for (const auto& [name, each] : params->items()) {
            JsonPath one = at.member(name.c_str());
            if (auto e = readParams(each, one, in, shared[name])) return *e;
        }
    }
    if (schedulers && scheduler) return in.fail(path, "give \"schedulers\" or \"scheduler\", not both");
    if (!schedulers && !scheduler) return in.fail(path, "missing \"schedulers\" (or \"scheduler\")");
    {
        JsonPath at = path.member(schedulers ? "schedulers" : "scheduler");
        if (scheduler && !scheduler->is_string()) return in.expected(at, "a scheduler name", *scheduler);
        if (auto e = readSeries(schedulers ? *schedulers : *scheduler, at, in, shared, p.series)) return *e;
    }
    const bool sweep = p.chart == FigureChart::Tradeoff || p.chart == FigureChart::StepsVsSlots;
    if (!sweep && p.series.size() != 1) {
        JsonPath at = path.member("schedulers");
        return in.fail(at, std::string("a ") + figureChartName(p.chart) + " chart shows one scheduler, got " +
                               std::to_string(p.series.size()));
    }
    if (slots) {
        JsonPath at = path.member("slots");
        auto s = readSlots(*slots, at, in);
        if (!s) return s.errorValue();
        p.slot_counts = std::move(*s);
    }
    sweepsSlots = false;
    for (std::size_t k = 0; k < p.series.size(); ++k) {
        FigureSeries& s = p.series[k];
        if (s.slot_counts.empty()) s.slot_counts = p.slot_counts;
        sweepsSlots |= !s.slot_counts.empty();
        JsonPath list = path.member("schedulers");
        JsonPath at = list.element(k);
        if (!s.slot_counts.empty() && !sweep)
            return in.fail(slots ? path.member("slots") : at,
                           std::string("a ") + figureChartName(p.chart) +
                               " chart shows one run; give the scheduler's params instead of slots");
        if (s.slot_counts.empty() && p.chart == FigureChart::StepsVsSlots)
            return in.fail(path, "missing \"slots\" (the slot counts a steps-vs-slots chart sweeps)");
    }
    return std::nullopt;
}

// A panel's budgets ("budgets" or "budget", else the default for its chart), and the count of runs they make.
std::optional<Error> readPanelBudgets(const json* budgets, const json* budget, bool sweepsSlots, const JsonPath& path,
                                      const Reading& in, FigurePanel& p) {
    if (budgets && budget) return in.fail(path, "give \"budgets\" or \"budget\", not both");
    if (budgets && (p.chart != FigureChart::Tradeoff || sweepsSlots)) {
        JsonPath at = path.member("budgets");
        return in.fail(at, sweepsSlots ? "a sweep over slots takes one \"budget\"; give \"budget\""
                                       : "only a tradeoff chart sweeps budgets; give one \"budget\"");
    }
    if (budgets || budget) {
        JsonPath at = path.member(budgets ? "budgets" : "budget");
        auto b = readBudgets(budgets ? *budgets : *budget, at, in, budget != nullptr);
        if (!b) return b.errorValue();
        p.budgets = std::move(*b);
    } else {
        p.budgets = p.chart == FigureChart::Tradeoff && !sweepsSlots ? kDefaultBudgets : "none";
    }
    const std::size_t budgetCount = checkBudgets(p.budgets)->size();
    long long runs = 0;
    for (const FigureSeries& s : p.series)
        runs += (long long)std::max<std::size_t>(s.slot_counts.size(), 1) * (long long)budgetCount;
    if (runs > kMaxFigureSweep)
        return in.fail(path, "the panel asks for " + std::to_string(runs) + " runs; at most " +
                                 std::to_string(kMaxFigureSweep));
    return std::nullopt;
}

Result<FigurePanel> readPanel(const json& v, const JsonPath& path, const Reading& in) {
    FieldReader r(v, path, in.source);
    FigurePanel p;
    const json* chart = r.find("chart", true);
    r.string("problem", p.problem, true);
    r.string("hardware", p.hardware, false);
    r.string("title", p.title, false);
    const json* schedulers = r.find("schedulers", false);
    const json* scheduler = r.find("scheduler", false);
    const json* params = r.find("params", false);
    const json* budgets = r.find("budgets", false);
    const json* budget = r.find("budget", false);
    const json* slots = r.find("slots", false);
    const json* log = r.find("log", false);
    if (!r.ok()) return r.error();
    if (log) {
        JsonPath at = path.member("log");
        auto axes = log->is_string() ? parseLogAxes(log->get<std::string>()) : std::nullopt;
        if (!axes) return in.expected(at, "\"none\", \"memory\", \"time\" or \"both\"", *log);
        p.log = *axes;
    }
    {
        JsonPath at = path.member("chart");
        auto c = chartOf(*chart, at, in);
        if (!c) return c.errorValue();
        p.chart = *c;
    }
    if (log && (p.log.memory || p.log.time) && p.chart != FigureChart::Tradeoff)
        return in.fail(path.member("log"), "only a tradeoff chart has logarithmic axes");
    if (p.problem.empty()) {
        JsonPath at = path.member("problem");
        return in.expected(at, "the path of a ckpt-chain or ckpt-graph file", v.at("problem"));
    }
    // A name with a folder or a .json ending is a file; any other name is a shipped preset.
    p.hardware_is_preset = isPresetName(p.hardware);
    bool sweepsSlots = false;
    if (auto e = readPanelSeries(schedulers, scheduler, params, slots, path, in, p, sweepsSlots)) return *e;
    if (auto e = readPanelBudgets(budgets, budget, sweepsSlots, path, in, p)) return *e;
    p.row = p.col = -1;
    return p;
}

// Puts each panel in its cell ("cell", or the next free one row by row); cells must be inside the grid and apart.
std::optional<Error> place(FigureSpec& spec, const json& list, const JsonPath& path, const Reading& in) {
    std::vector<int> owner(std::size_t(spec.rows * spec.cols), -1);
    auto take = [&](int k, const JsonPath& at) -> std::optional<Error> {
        FigurePanel& p = spec.panels[std::size_t(k)];
        if (p.row + p.rows > spec.rows || p.col + p.cols > spec.cols)
            return in.fail(at, "the cell (row " + std::to_string(p.row) + ", col " + std::to_string(p.col) + ", " +
                                   std::to_string(p.rows) + "x" + std::to_string(p.cols) + ") is outside the " +
                                   std::to_string(spec.rows) + "x" + std::to_string(spec.cols) + " grid");
        for (int r = p.row; r < p.row + p.rows; ++r)
            for (int c = p.col; c < p.col + p.cols; ++c) {
                int& o = owner[std::size_t(r * spec.cols + c)];
                if (o >= 0)
                    return in.fail(at, "the cell (row " + std::to_string(r) + ", col " + std::to_string(c) +
                                           ") is taken by panels[" + std::to_string(o) + "]");
                o = k;
            }
        return std::nullopt;
    };
    // Panels with a cell first, so that the others fill around them.
    for (std::size_t k = 0; k < spec.panels.size(); ++k) {
        auto cell = list[k].find("cell");
        if (cell == list[k].end()) continue;
        JsonPath at = path.element(k);
        JsonPath cp = at.member("cell");
        FieldReader r(*cell, cp, in.source);
        long long row = 0, col = 0, rows = 1, cols = 1;
        r.integer("row", row, 0, kMaxFigureGrid - 1);
        r.integer("col", col, 0, kMaxFigureGrid - 1);
        r.integer("rows", rows, 1, kMaxFigureGrid, false);
        r.integer("cols", cols, 1, kMaxFigureGrid, false);
        if (!r.ok()) return r.error();
        FigurePanel& p = spec.panels[k];
        p.row = int(row), p.col = int(col), p.rows = int(rows), p.cols = int(cols);
        if (auto e = take(int(k), cp)) return e;
    }
    std::size_t next = 0;
    for (std::size_t k = 0; k < spec.panels.size(); ++k) {
        FigurePanel& p = spec.panels[k];
        if (p.row >= 0) continue;
        while (next < owner.size() && owner[next] >= 0)
            ++next;
        JsonPath at = path.element(k);
        if (next == owner.size())
            return in.fail(at, "no free cell left in the " + std::to_string(spec.rows) + "x" +
                                   std::to_string(spec.cols) + " grid; enlarge \"grid\"");
        p.row = int(next) / spec.cols, p.col = int(next) % spec.cols;
        if (auto e = take(int(k), at)) return e;
    }
    return std::nullopt;
}

Result<FigureSpec> readFigure(const json& doc, const std::string& source) {
    if (auto e = io::checkHeader(doc, kFormat, source)) return *e;
    const Reading in{source};
    const JsonPath root;
    FieldReader top(doc, root, source);
    FigureSpec spec;
    std::string preset = "column", size;
    top.string("title", spec.title, false);
    top.string("preset", preset, false);
    top.string("size", size, false);
    const json* font = top.find("font_size", false);
    const json* grid = top.find("grid", false);
    const json* panels = top.find("panels", true);
    if (!top.ok()) return top.error();
    if (!printPreset(preset, spec.size)) {
        JsonPath at = root.member("preset");
        return in.expected(at, "\"column\", \"two-column\" or \"slide\"", doc.at("preset"));
    }
    if (!size.empty()) {
        JsonPath at = root.member("size");
        if (std::string err = parsePrintSize(size, spec.size); !err.empty()) return in.fail(at, err);
    }
    if (font) {
        JsonPath at = root.member("font_size");
        if (!font->is_number() || !(font->get<double>() >= 4 && font->get<double>() <= 72))
            return in.expected(at, "points from 4 to 72", *font);
        spec.size.font_pt = font->get<double>();
    }
    JsonPath list = root.member("panels");
    if (!panels->is_array() || panels->empty() || panels->size() > std::size_t(kMaxFigurePanels))
        return in.expected(list, "an array of 1 to " + std::to_string(kMaxFigurePanels) + " panels", *panels);
    spec.rows = 1, spec.cols = int(std::min<std::size_t>(panels->size(), kMaxFigureGrid));
    if (grid) {
        JsonPath at = root.member("grid");
        FieldReader g(*grid, at, source);
        long long rows = 1, cols = 1;
        g.integer("rows", rows, 1, kMaxFigureGrid);
        g.integer("cols", cols, 1, kMaxFigureGrid);
        if (!g.ok()) return g.error();
        spec.rows = int(rows), spec.cols = int(cols);
    }
    for (std::size_t k = 0; k < panels->size(); ++k) {
        JsonPath at = list.element(k);
        auto p = readPanel((*panels)[k], at, in);
        if (!p) return p.errorValue();
        spec.panels.push_back(std::move(*p));
    }
    if (auto e = place(spec, *panels, list, in)) return *e;
    return spec;
}

} // namespace

const char* figureChartName(FigureChart chart) {
    switch (chart) {
    case FigureChart::Gantt:
        return "gantt";
    case FigureChart::Memory:
        return "memory";
    case FigureChart::Sweep:
        return "sweep";
    case FigureChart::Tradeoff:
        return "tradeoff";
    case FigureChart::StepsVsSlots:
        return "steps-vs-slots";
    }
    return "?";
}

Result<FigureSpec> figureFromJson(const nlohmann::json& doc, const std::string& source) {
    try {
        return readFigure(doc, source);
    } catch (const std::exception& e) {
        return fail(source + ": " + e.what());
    }
}

Result<FigureSpec> loadFigure(const std::string& path) {
    auto doc = loadJson(path);
    if (!doc) return doc.errorValue();
    return figureFromJson(*doc, path);
}

} // namespace ckpt
