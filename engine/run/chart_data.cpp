#include "run/chart_data.h"

#include "io/export.h"
#include "schedulers/graph_registry.h"

#include <cmath>

namespace ckpt {
namespace {

void field(std::string& out, const std::string& s) {
    appendCsvField(out, s);
}

// The shortest text that reads back to the same double; a non-finite one is an empty field (no value).
void number(std::string& out, double v) {
    if (std::isfinite(v)) appendDouble(out, v);
}

// The line the memory chart draws for `level`: the budget (level 0) or the capacity, the smaller; 0 for none.
std::int64_t limitOf(const Run& run, const Hardware& hw, int level) {
    std::int64_t limit = level == 0 && run.budget_bytes > 0 ? run.budget_bytes : 0;
    if (level < hw.levelCount() && !hw.isUnbounded(level))
        limit = limit ? std::min(limit, hw.level(level).capacity_bytes) : hw.level(level).capacity_bytes;
    return limit;
}

std::string paramsText(const Run& run) {
    std::string out;
    for (const auto& [k, v] : run.params)
        out += (out.empty() ? "" : " ") + k + "=" + v;
    return out;
}

} // namespace

std::string ganttCsv(const Run& run, const Problem& problem) {
    if (!run.timeline) return {};
    if (const Plan* p = run.chainPlan()) return timelineToCsv(*p, *run.timeline);
    if (const GraphPlan* g = run.graphPlan(); g && problem.graph())
        return timelineToCsv(*g, *problem.graph(), *run.timeline);
    return {};
}

std::string memoryCsv(const Run& run, const Hardware& hw) {
    std::string out = "level,level_name,time_s,states_bytes,tapes_bytes,gradients_bytes,temporaries_bytes,total_bytes,"
                      "limit_bytes\n";
    if (!run.timeline) return out;
    const Timeline& tl = *run.timeline;
    for (int l = 0; l < int(tl.memory.size()); ++l) {
        std::string head;
        appendInt(head, l);
        head += ',';
        field(head, l < hw.levelCount() ? hw.level(l).name : std::string());
        head += ',';
        std::string tail = ",";
        if (std::int64_t limit = limitOf(run, hw, l)) appendInt(tail, limit);
        tail += '\n';
        auto row = [&](double time, const MemorySample& m) {
            out += head;
            number(out, time);
            for (std::int64_t b : m.bytes) {
                out += ',';
                appendInt(out, b);
            }
            out += ',';
            appendInt(out, m.total());
            out += tail;
        };
        const auto& curve = tl.memory[std::size_t(l)];
        for (const MemorySample& m : curve)
            row(m.time, m);
        if (!curve.empty() && curve.back().time < tl.totals.makespan_s) row(tl.totals.makespan_s, curve.back());
    }
    return out;
}

std::string sweepCsv(const Run& run) {
    std::string out = "action,kind,step,start_s,end_s,from_step,to_step,keep\n";
    const Plan* plan = run.chainPlan();
    if (!plan || !run.timeline) return out;
    for (const Interval& iv : run.timeline->intervals) {
        if (iv.lane != 0) continue;
        const bool back = iv.kind == IntervalKind::Backward;
        appendInt(out, iv.action);
        out += ',';
        out += intervalKindName(iv.kind);
        out += ',';
        appendInt(out, iv.index);
        out += ',';
        number(out, iv.start);
        out += ',';
        number(out, iv.end);
        out += ',';
        appendInt(out, back ? iv.index : iv.index - 1);
        out += ',';
        appendInt(out, back ? iv.index - 1 : iv.index);
        out += ',';
        const Action& a = plan->actions[std::size_t(iv.action)];
        if (a.kind == ActionKind::Forward)
            out += a.keep == Keep::State ? "state" : a.keep == Keep::Tape ? "tape" : "none";
        out += '\n';
    }
    return out;
}

std::string optimalityOf(const Run& run) {
    // A figure's series may be named "SCHEDULER CHOICE" ("bptt-dp ism"); scheduler names have no spaces.
    const std::string name = run.scheduler.substr(0, run.scheduler.find(' '));
    if (run.graphPlan()) {
        if (const GraphSchedulerInfo* g = findGraphScheduler(name)) return optimalityName(g->optimality);
    }
    if (const SchedulerInfo* s = findScheduler(name)) return optimalityName(s->optimality);
    if (const GraphSchedulerInfo* g = findGraphScheduler(name)) return optimalityName(g->optimality);
    return {};
}

bool provenOptimal(const Run& run) {
    const std::string kind = optimalityOf(run);
    if (kind != "optimal" && kind != "baseline") return false;
    auto it = run.params.find("optimal"); // set by a solver with limits: "yes", or why not
    return it == run.params.end() || it->second == "yes";
}

std::string runsCsv(const std::vector<Run>& runs, const Hardware& hw, const std::vector<std::string>& series) {
    std::string out = "series,scheduler,params,slots,budget_bytes,status";
    for (int l = 0; l < hw.levelCount(); ++l)
        out += ",peak_bytes_L" + std::to_string(l);
    out += ",makespan_s,overhead,forward_steps,recomputed_steps,optimality,proven,reason\n";
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const Run& r = runs[i];
        field(out, i < series.size() && !series[i].empty() ? series[i] : r.scheduler);
        out += ',';
        field(out, r.scheduler);
        out += ',';
        field(out, paramsText(r));
        out += ',';
        for (const char* knob : {"slots", "segments"})
            if (auto it = r.params.find(knob); it != r.params.end()) {
                field(out, it->second);
                break;
            }
        out += ',';
        appendInt(out, r.budget_bytes);
        out += ',';
        out += r.feasible ? "ok" : r.available ? "infeasible" : "n/a";
        const Totals* t = r.feasible && r.timeline ? &r.timeline->totals : nullptr;
        for (int l = 0; l < hw.levelCount(); ++l) {
            out += ',';
            if (t && std::size_t(l) < t->peak_bytes.size()) appendInt(out, t->peak_bytes[std::size_t(l)]);
        }
        out += ',';
        if (t) {
            number(out, t->makespan_s);
            out += ',';
            number(out, r.baseline_makespan_s > 0 ? t->makespan_s / r.baseline_makespan_s : 1.0);
            out += ',';
            appendInt(out, t->forward_steps);
            out += ',';
            appendInt(out, t->recomputed_steps);
        } else {
            out += ",,,";
        }
        out += ',';
        out += optimalityOf(r);
        out += ',';
        if (t) out += provenOptimal(r) ? "yes" : "no";
        out += ',';
        if (!r.feasible) field(out, r.message);
        out += '\n';
    }
    return out;
}

} // namespace ckpt
