// CSV and Chrome trace exports, written by hand into one reserved string: a timeline has up to millions of intervals
// and building a JSON tree for them would cost more than the simulation.
#include "io/export.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace ckpt {

namespace {

// Microseconds with nanosecond resolution, as trace viewers expect.
void appendMicros(std::string& out, double seconds) {
    double us = std::isfinite(seconds) ? seconds * 1e6 : 0;
    char buf[48];
    auto r = std::to_chars(buf, buf + sizeof buf, us, std::chars_format::fixed, 3);
    out.append(buf, r.ptr);
}

void appendJsonString(std::string& out, const std::string& s) {
    out += '"';
    for (char c : s) {
        auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    out += '"';
}

bool isTransfer(IntervalKind k) {
    return k == IntervalKind::Write || k == IntervalKind::Read;
}

std::string laneName(const Timeline& tl, int lane) {
    if (lane >= 0 && static_cast<std::size_t>(lane) < tl.lanes.size()) return tl.lanes[static_cast<std::size_t>(lane)];
    return lane == 0 ? "compute" : "level " + std::to_string(lane);
}

// The letter of an interval in trace event names: F, R (a recomputation, or a read), B, W.
char eventLetter(IntervalKind k) {
    switch (k) {
    case IntervalKind::Forward:
        return 'F';
    case IntervalKind::Recompute:
    case IntervalKind::Read:
        return 'R';
    case IntervalKind::Backward:
        return 'B';
    case IntervalKind::Write:
        return 'W';
    }
    return '?';
}

void appendTransferArrow(std::string& out, const Interval& iv) {
    if (!isTransfer(iv.kind)) return;
    out += iv.kind == IntervalKind::Write ? "\u2192L" : "\u2190L";
    appendInt(out, iv.lane);
}

// What the exports say about a chain plan's actions: steps and states by number.
struct ChainText {
    const Plan& plan;
    const Action* actionOf(const Interval& iv) const {
        if (iv.action < 0 || static_cast<std::size_t>(iv.action) >= plan.actions.size()) return nullptr;
        return &plan.actions[static_cast<std::size_t>(iv.action)];
    }
    const std::string& scheduler() const { return plan.scheduler; }
    // "F12/tape", "B7", "W40@1", "R40@1", "D40@0", and for tapes "WT12@1", "RT12@1", "DT12@0".
    void code(std::string& out, const Interval& iv) const {
        const Action* a = actionOf(iv);
        if (!a) return;
        static const char* const codes[] = {"F", "B", "W", "R", "D", "WT", "RT", "DT"};
        out += codes[static_cast<int>(a->kind)];
        appendInt(out, a->index);
        if (a->kind == ActionKind::Forward) {
            out += '/';
            out += keepName(a->keep);
        } else if (a->kind != ActionKind::Backward) {
            out += '@';
            appendInt(out, a->level);
        }
    }
    void keep(std::string& out, const Interval& iv) const {
        const Action* a = actionOf(iv);
        if (a && a->kind == ActionKind::Forward) out += keepName(a->keep);
    }
    void level(std::string& out, const Interval& iv) const {
        const Action* a = actionOf(iv);
        if (a && a->kind != ActionKind::Forward && a->kind != ActionKind::Backward)
            appendInt(out, a->level);
        else if (!a && isTransfer(iv.kind))
            appendInt(out, iv.lane);
    }
    // "F12", "R12" (a recomputation), "B12", "W40→L1", "R40←L1", and for the tape of step 12 "WT12→L1", "RT12←L1".
    void eventName(std::string& out, const Interval& iv) const {
        out += eventLetter(iv.kind);
        if (iv.tape) out += 'T';
        appendInt(out, iv.index);
        appendTransferArrow(out, iv);
    }
    void eventArgs(std::string& out, const Interval& iv) const {
        out += isTransfer(iv.kind) && !iv.tape ? ",\"state\":" : ",\"step\":";
        appendInt(out, iv.index);
    }
};

// The same for a graph plan: nodes by id.
struct GraphText {
    const GraphPlan& plan;
    const Graph& graph;
    const std::string& scheduler() const { return plan.scheduler; }
    const std::string* idOf(int node) const {
        return node >= 0 && node < graph.size() ? &graph.node(node).id : nullptr;
    }
    // "F:conv1", "B:fc", "I:block2" (invert), "W:conv1@1", "R:conv1@1", "D:conv1@0" (free).
    void code(std::string& out, const Interval& iv) const {
        if (iv.action < 0 || static_cast<std::size_t>(iv.action) >= plan.actions.size()) return;
        const GraphAction& a = plan.actions[static_cast<std::size_t>(iv.action)];
        static const char codes[] = {'F', 'B', 'D', 'I', 'W', 'R'};
        out += codes[static_cast<int>(a.kind)];
        out += ':';
        if (const std::string* id = idOf(a.node)) out += *id;
        if (a.kind == GraphActionKind::Free || a.kind == GraphActionKind::Write || a.kind == GraphActionKind::Read) {
            out += '@';
            appendInt(out, a.level);
        }
    }
    void keep(std::string&, const Interval&) const {}
    void level(std::string& out, const Interval& iv) const {
        if (isTransfer(iv.kind)) appendInt(out, iv.lane);
    }
    // "F conv1", "R conv1" (a recomputation), "B fc", "W conv1→L1", "R conv1←L1".
    void eventName(std::string& out, const Interval& iv) const {
        std::string name(1, eventLetter(iv.kind));
        name += ' ';
        if (const std::string* id = idOf(iv.index)) name += *id;
        appendTransferArrow(name, iv);
        std::string quoted;
        appendJsonString(quoted, name);
        out.append(quoted, 1, quoted.size() - 2); // inside the quotes the caller writes
    }
    void eventArgs(std::string& out, const Interval& iv) const {
        out += ",\"node\":";
        appendInt(out, iv.index);
        out += ",\"id\":";
        const std::string* id = idOf(iv.index);
        appendJsonString(out, id ? *id : std::string());
    }
};

template <typename Text> std::string csvOf(const Text& text, const Timeline& tl) {
    std::string out;
    out.reserve(96 + tl.intervals.size() * 80);
    out += "index,action,kind,step_or_state,keep,level,lane,start_s,end_s,bytes\n";
    std::vector<std::string> lanes;
    for (int l = 0; l < static_cast<int>(tl.lanes.size()); ++l) {
        std::string field;
        appendCsvField(field, laneName(tl, l));
        lanes.push_back(std::move(field));
    }
    for (const Interval& iv : tl.intervals) {
        appendInt(out, iv.action);
        out += ',';
        std::string code;
        text.code(code, iv);
        appendCsvField(out, code);
        out += ',';
        out += intervalKindName(iv.kind);
        out += ',';
        appendInt(out, iv.index);
        out += ',';
        text.keep(out, iv);
        out += ',';
        text.level(out, iv);
        out += ',';
        if (iv.lane >= 0 && static_cast<std::size_t>(iv.lane) < lanes.size())
            out += lanes[static_cast<std::size_t>(iv.lane)];
        else
            appendCsvField(out, laneName(tl, iv.lane));
        out += ',';
        appendDouble(out, iv.start);
        out += ',';
        appendDouble(out, iv.end);
        out += ',';
        appendInt(out, iv.bytes);
        out += '\n';
    }
    return out;
}

template <typename Text> std::string traceOf(const Text& text, const Timeline& tl) {
    std::size_t samples = 0;
    for (const auto& curve : tl.memory)
        samples += curve.size();
    std::string out;
    out.reserve(256 + tl.lanes.size() * 96 + tl.intervals.size() * 160 + samples * 140);

    out += "{\"traceEvents\":[\n";
    out += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":";
    appendJsonString(out, text.scheduler().empty() ? std::string("plan") : text.scheduler());
    out += "}}";
    std::size_t laneCount = std::max<std::size_t>(tl.lanes.size(), 1);
    for (std::size_t l = 0; l < laneCount; ++l) {
        out += ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":";
        appendInt(out, static_cast<long long>(l));
        out += ",\"args\":{\"name\":";
        appendJsonString(out, laneName(tl, static_cast<int>(l)));
        out += "}}";
        // Keeps the lanes in level order rather than by name.
        out += ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":";
        appendInt(out, static_cast<long long>(l));
        out += ",\"args\":{\"sort_index\":";
        appendInt(out, static_cast<long long>(l));
        out += "}}";
    }

    for (const Interval& iv : tl.intervals) {
        out += ",\n{\"name\":\"";
        text.eventName(out, iv);
        out += "\",\"cat\":\"";
        out += intervalKindName(iv.kind);
        out += "\",\"ph\":\"X\",\"pid\":1,\"tid\":";
        appendInt(out, iv.lane);
        out += ",\"ts\":";
        appendMicros(out, iv.start);
        out += ",\"dur\":";
        appendMicros(out, iv.end - iv.start);
        out += ",\"args\":{\"action\":";
        appendInt(out, iv.action);
        text.eventArgs(out, iv);
        out += ",\"bytes\":";
        appendInt(out, iv.bytes);
        out += "}}";
    }

    for (std::size_t l = 0; l < tl.memory.size(); ++l) {
        std::string name = "memory L" + std::to_string(l);
        if (l > 0) name += " (" + laneName(tl, static_cast<int>(l)) + ")";
        std::string quoted;
        appendJsonString(quoted, name);
        for (const MemorySample& s : tl.memory[l]) {
            out += ",\n{\"name\":";
            out += quoted;
            out += ",\"ph\":\"C\",\"pid\":1,\"tid\":0,\"ts\":";
            appendMicros(out, s.time);
            out += ",\"args\":{";
            for (int c = 0; c < kMemoryCategories; ++c) {
                if (c) out += ',';
                out += '"';
                out += memoryCategoryName(static_cast<MemoryCategory>(c));
                out += "\":";
                appendInt(out, s.bytes[static_cast<std::size_t>(c)]);
            }
            out += "}}";
        }
    }
    out += "\n],\"displayTimeUnit\":\"ms\"}\n";
    return out;
}

} // namespace

void appendInt(std::string& out, long long v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

// The shortest text that reads back to the same double.
void appendDouble(std::string& out, double v) {
    if (!std::isfinite(v)) v = 0;
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

void appendCsvField(std::string& out, const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) {
        out += s;
        return;
    }
    out += '"';
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
}

std::string timelineToCsv(const Plan& plan, const Timeline& tl) {
    return csvOf(ChainText{plan}, tl);
}

std::string timelineToCsv(const GraphPlan& plan, const Graph& graph, const Timeline& tl) {
    return csvOf(GraphText{plan, graph}, tl);
}

std::string timelineToChromeTrace(const Plan& plan, const Timeline& tl) {
    return traceOf(ChainText{plan}, tl);
}

std::string timelineToChromeTrace(const GraphPlan& plan, const Graph& graph, const Timeline& tl) {
    return traceOf(GraphText{plan, graph}, tl);
}

} // namespace ckpt
