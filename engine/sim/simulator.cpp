#include "sim/simulator.h"

#include "sim/memory_ledger.h"
#include "util/bounds.h"
#include "util/units.h"

#include <algorithm>
#include <limits>

namespace ckpt {

const char* intervalKindName(IntervalKind k) {
    switch (k) {
    case IntervalKind::Forward:
        return "forward";
    case IntervalKind::Recompute:
        return "recompute";
    case IntervalKind::Backward:
        return "backward";
    case IntervalKind::Write:
        return "write";
    case IntervalKind::Read:
        return "read";
    }
    return "?";
}

const char* memoryCategoryName(MemoryCategory c) {
    switch (c) {
    case MemoryCategory::State:
        return "states";
    case MemoryCategory::Tape:
        return "tapes";
    case MemoryCategory::Gradient:
        return "gradients";
    case MemoryCategory::Temporary:
        return "temporaries";
    }
    return "?";
}

namespace {

// A copy of state x_j on one level.
// (24 bytes, its flags last: a 10^6-step chain has two million of them a level.)
struct Copy {
    double ready = 0;        // when its bytes are all there
    double pinned_until = 0; // a transfer reads it until then; a release waits for it
    bool held = false;
    bool written = false; // was ever written to this level (for messages)
    bool inTape = false;  // rotor's paper model: x_j lives inside the tape of step j (no bytes of its own)
};
static_assert(sizeof(Copy) == 24);

class Replay {
public:
    Replay(const Chain& c, const Hardware& h, const Schedule& s, const SimOptions& o)
        : chain(c), hw(h), schedule(s), opt(o), n(c.length()), levels(h.levelCount()),
          paper(c.memoryModel() == MemoryModel::RotorPaper) {
        copies.assign(static_cast<std::size_t>(levels), std::vector<Copy>(static_cast<std::size_t>(n) + 1));
        tapes.assign(static_cast<std::size_t>(levels), std::vector<Copy>(static_cast<std::size_t>(n) + 1));
        forwardRuns.assign(static_cast<std::size_t>(n) + 1, 0);
        backwardDone.assign(static_cast<std::size_t>(n) + 2, 0);
        channelFree.assign(static_cast<std::size_t>(levels), 0.0);
        tl.lanes.push_back("compute");
        for (int l = 1; l < levels; ++l)
            tl.lanes.push_back(hw.level(l).name.empty() ? "level " + std::to_string(l) : hw.level(l).name);
        tl.totals.channel_busy_s.assign(static_cast<std::size_t>(levels), 0.0);
        if (opt.intervals) tl.intervals.reserve(schedule.size());
        // Without transfers every event comes in time order: the ledger can sweep them as they come.
        const bool transfers =
            std::any_of(schedule.begin(), schedule.end(), [](const Action& a) { return a.isTransfer(); });
        if (!transfers && !opt.tensors)
            ledger.stream(caps(), opt.memory_curve, tl, describer(), 2 * schedule.size() + 1); // a start, an end
        else
            ledger.reserve(schedule.size() * MemoryLedger::kEventsPerAction + 8);
        // x_0 is the input of the chain: it is in level 0 before anything runs.
        copies[0][0].held = true;
        event(0, 0, 0, MemoryCategory::State, chain.stateBytes(0), 0);
    }

    Result<Timeline> run() {
        long long bad = -1;
        std::string why;
        std::size_t firstBackward = 0;
        while (firstBackward < schedule.size() && schedule[firstBackward].kind != ActionKind::Backward)
            ++firstBackward;
        std::int64_t heldAfterForward = 0; // what level 0 holds once the actions before the first backward are done
        for (std::size_t k = 0; k < schedule.size(); ++k) {
            if (k == firstBackward) heldAfterForward = heldInLevel0;
            cur = static_cast<std::int32_t>(k);
            std::string err = step(schedule[k]);
            if (!err.empty()) {
                bad = static_cast<long long>(k);
                why = "action " + std::to_string(k) + " (" + toString(schedule[k]) + "): " + err;
                break;
            }
            if (opt.observe && cur >= opt.observe_from && cur <= opt.observe_to) opt.observe(cur, holdings());
        }
        if (bad < 0 && !backwardDone[1]) {
            int missing = n;
            while (missing > 1 && backwardDone[static_cast<std::size_t>(missing)])
                --missing;
            bad = static_cast<long long>(schedule.size());
            why = "the plan ends (after " + std::to_string(schedule.size()) + " actions) before backward step " +
                  std::to_string(missing) + ": every step from " + std::to_string(n) + " down to 1 must be reversed";
        }
        // Memory is judged over the actions that were valid; an earlier overflow wins over a later logic error.
        std::string capErr;
        long long capAt = sweepMemory(bad < 0 ? std::numeric_limits<long long>::max() : bad, capErr);
        if (capAt >= 0 && (bad < 0 || capAt <= bad)) return Error{capErr, capAt, true}; // valid, but does not fit
        if (bad >= 0) return fail(why, bad);
        if (opt.tensors) *opt.tensors = ledger.lifetimes(0, std::numeric_limits<long long>::max());
        Totals& t = tl.totals;
        t.steps = n;
        t.recomputed_steps = t.forward_steps - n;
        t.makespan_s = std::max(clock, lastEnd);
        tl.totals.held_after_forward_bytes = firstBackward < schedule.size() ? heldAfterForward : heldInLevel0;
        return std::move(tl);
    }

private:
    const Chain& chain;
    const Hardware& hw;
    const Schedule& schedule;
    const SimOptions& opt;
    int n;
    int levels;
    bool paper;                            // rotor's paper model (model/chain.h)
    std::vector<std::vector<Copy>> copies; // [level][state]
    std::vector<std::vector<Copy>> tapes;  // [level][step]
    std::vector<int> forwardRuns;
    std::vector<char> backwardDone; // [i] for step i; [n+1] is true in spirit (no gradient needed for x_n)
    std::vector<double> channelFree;
    MemoryLedger ledger;
    std::int64_t heldInLevel0 = 0; // the sum of level 0's events so far
    double lastEnd = 0;            // of any interval
    std::int32_t cur = 0;
    double clock = 0; // end of the last compute action
    Timeline tl;

    // Counts an interval into the totals (in the order finishTotals would) and keeps it if asked.
    void record(const Interval& iv) {
        lastEnd = std::max(lastEnd, iv.end);
        if (iv.lane == 0)
            tl.totals.compute_s += iv.end - iv.start;
        else
            tl.totals.channel_busy_s[static_cast<std::size_t>(iv.lane)] += iv.end - iv.start;
        if (opt.intervals) tl.intervals.push_back(iv);
    }

    void event(double t, int level, int action, MemoryCategory cat, std::int64_t delta, int object) {
        ledger.add(t, level, action, cat, delta, object);
        // A sum past 2^63 stops at its last value: the ledger refuses the plan for it.
        if (level == 0) checkedAdd(heldInLevel0, delta, heldInLevel0);
    }

    Holdings holdings() const {
        Holdings h;
        h.states.resize(static_cast<std::size_t>(levels));
        for (int l = 0; l < levels; ++l)
            for (int j = 0; j <= n; ++j)
                if (copies[static_cast<std::size_t>(l)][static_cast<std::size_t>(j)].held)
                    h.states[static_cast<std::size_t>(l)].push_back(j);
        h.slowTapes.resize(static_cast<std::size_t>(levels));
        for (int l = 0; l < levels; ++l)
            for (int i = 1; i <= n; ++i)
                if (tapes[static_cast<std::size_t>(l)][static_cast<std::size_t>(i)].held)
                    (l == 0 ? h.tapes : h.slowTapes[static_cast<std::size_t>(l)]).push_back(i);
        // Backward i leaves the gradient of x_{i-1}; the lowest step reversed says how far the backward has come.
        for (int i = 1; i <= n && h.gradient < 0; ++i)
            if (backwardDone[static_cast<std::size_t>(i)]) h.gradient = i - 1;
        return h;
    }

    bool dead(int j) const { return j >= n || backwardDone[static_cast<std::size_t>(j) + 1]; }

    void release(int level, int j, double t) {
        Copy& c = copies[static_cast<std::size_t>(level)][static_cast<std::size_t>(j)];
        if (!c.held) return;
        if (c.inTape) return; // it goes with its tape
        c.held = false;
        if (opt.on_state) opt.on_state(cur, level, j, false);
        event(std::max(t, c.pinned_until), level, cur, MemoryCategory::State, -chain.stateBytes(j), j);
    }

    void releaseTape(int level, int i, double t) {
        Copy& c = tapes[static_cast<std::size_t>(level)][static_cast<std::size_t>(i)];
        if (!c.held) return;
        c.held = false;
        if (Copy& x = copies[static_cast<std::size_t>(level)][static_cast<std::size_t>(i)]; x.inTape) {
            x.held = x.inTape = false; // the output that lived inside it
            if (opt.on_state) opt.on_state(cur, level, i, false);
        }
        event(std::max(t, c.pinned_until), level, cur, MemoryCategory::Tape, -chain.step(i).tape_bytes, i);
    }

    std::string checkStep(int i) const {
        if (i < 1 || i > n)
            return "there is no step " + std::to_string(i) + " (steps are 1.." + std::to_string(n) + ")";
        return {};
    }

    std::string checkState(int j) const {
        if (j < 0 || j > n)
            return "there is no state x" + std::to_string(j) + " (states are x0..x" + std::to_string(n) + ")";
        return {};
    }
    std::string checkLevel(int l, bool slowOnly) const {
        if (l < 0 || l >= levels)
            return "there is no memory level " + std::to_string(l) + " (the machine has " + std::to_string(levels) +
                   ")";
        if (slowOnly && l == 0)
            return "transfers go between level 0 and a slower level; level 0 cannot be the other end";
        return {};
    }

    std::string step(const Action& a) {
        if (backwardDone[1]) return "the backward pass has already reached step 1; nothing may follow it";
        if (paper && a.kind != ActionKind::Forward && a.kind != ActionKind::Backward && a.kind != ActionKind::Free &&
            a.kind != ActionKind::FreeTape)
            return "the chain counts memory as the rotor paper does, a model of one level: it has no transfers";
        switch (a.kind) {
        case ActionKind::Forward:
            return forward(a.index, a.keep);
        case ActionKind::Backward:
            return backward(a.index);
        case ActionKind::Write:
            return write(a.index, a.level);
        case ActionKind::Read:
            return read(a.index, a.level);
        case ActionKind::Free:
            return freeState(a.index, a.level);
        case ActionKind::WriteTape:
            return writeTape(a.index, a.level);
        case ActionKind::ReadTape:
            return readTape(a.index, a.level);
        case ActionKind::FreeTape:
            return freeTape(a.index, a.level);
        }
        return "unknown action";
    }

    std::string forward(int i, Keep keep) {
        if (i < 1 || i > n)
            return "there is no step " + std::to_string(i) + " (steps are 1.." + std::to_string(n) + ")";
        if (backwardDone[static_cast<std::size_t>(i)])
            return "step " + std::to_string(i) + " was already reversed; its forward cannot run again";
        Copy& in = copies[0][static_cast<std::size_t>(i - 1)];
        if (!in.held) {
            for (int l = 1; l < levels; ++l)
                if (copies[static_cast<std::size_t>(l)][static_cast<std::size_t>(i - 1)].held)
                    return "its input x" + std::to_string(i - 1) + " is on level " + std::to_string(l) +
                           ", not in level 0: read it first";
            return "its input x" + std::to_string(i - 1) + " is not held in level 0";
        }
        Copy& out = copies[0][static_cast<std::size_t>(i)];
        if (out.held) return "x" + std::to_string(i) + " is already held in level 0";
        if (keep == Keep::Tape && tapes[0][static_cast<std::size_t>(i)].held)
            return "the tape of step " + std::to_string(i) + " is already held in level 0";
        const Step& s = chain.step(i);
        double start = std::max(clock, in.ready);
        double end = start + s.forward;
        clock = end;
        IntervalKind kind =
            forwardRuns[static_cast<std::size_t>(i)]++ ? IntervalKind::Recompute : IntervalKind::Forward;
        std::int64_t outBytes = chain.stateBytes(i);
        record(Interval{start, end, cur, i,
                        (paper && keep == Keep::Tape ? 0 : outBytes) + (keep == Keep::Tape ? s.tape_bytes : 0), 0,
                        kind});
        ++tl.totals.forward_steps;
        event(start, 0, cur, MemoryCategory::Temporary, s.forward_tmp_bytes, i);
        // The paper's taped forward writes its output into its tape: no bytes of its own.
        const bool outInTape = paper && keep == Keep::Tape;
        if (!out.held && !outInTape) event(start, 0, cur, MemoryCategory::State, outBytes, i);
        if (!out.held && opt.on_state) opt.on_state(cur, 0, i, true);
        out.held = true;
        out.ready = end;
        out.pinned_until = 0;
        out.inTape = outInTape;
        if (keep == Keep::Tape) {
            tapes[0][static_cast<std::size_t>(i)] = Copy{end, 0, true, false};
            event(start, 0, cur, MemoryCategory::Tape, s.tape_bytes, i);
        }
        event(end, 0, cur, MemoryCategory::Temporary, -s.forward_tmp_bytes, i);
        // The paper's taped forward keeps its input for the backward of its step, which releases it.
        if (keep != Keep::State && !outInTape) release(0, i - 1, end);
        if (dead(i)) release(0, i, end);
        return {};
    }

    std::string backward(int i) {
        if (i < 1 || i > n)
            return "there is no step " + std::to_string(i) + " (steps are 1.." + std::to_string(n) + ")";
        if (backwardDone[static_cast<std::size_t>(i)]) return "backward step " + std::to_string(i) + " is done twice";
        if (i < n && !backwardDone[static_cast<std::size_t>(i) + 1])
            return "the gradient of x" + std::to_string(i) + " does not exist yet: backward step " +
                   std::to_string(i + 1) + " must come first";
        const Copy& own = tapes[0][static_cast<std::size_t>(i)];
        if (!own.held) {
            for (int l = 1; l < levels; ++l)
                if (tapes[static_cast<std::size_t>(l)][static_cast<std::size_t>(i)].held)
                    return "the tape of step " + std::to_string(i) + " is on level " + std::to_string(l) +
                           ", not in level 0: read it first";
            return "the tape of step " + std::to_string(i) + " is not held: run forward " + std::to_string(i) +
                   " with keep tape first";
        }
        if (paper && !copies[0][static_cast<std::size_t>(i) - 1].held)
            return "x" + std::to_string(i - 1) + " is not held: in the rotor paper's model backward " +
                   std::to_string(i) + " reads its step's input too";
        const Step& s = chain.step(i);
        double start = std::max(clock, own.ready); // a tape read back may still be arriving
        double end = start + s.backward;
        clock = end;
        record(Interval{start, end, cur, i, chain.stateBytes(i - 1), 0, IntervalKind::Backward});
        ++tl.totals.backward_steps;
        if (i == n) event(start, 0, cur, MemoryCategory::Gradient, chain.stateBytes(n), n); // the loss gradient appears
        event(start, 0, cur, MemoryCategory::Gradient, chain.stateBytes(i - 1), i - 1);
        event(start, 0, cur, MemoryCategory::Temporary, s.backward_tmp_bytes, i);
        event(end, 0, cur, MemoryCategory::Temporary, -s.backward_tmp_bytes, i);
        event(end, 0, cur, MemoryCategory::Gradient, -chain.stateBytes(i), i);
        backwardDone[static_cast<std::size_t>(i)] = 1;
        for (int l = 0; l < levels; ++l) {
            release(l, i - 1, end); // x_{i-1} and the tape of step i can never be used again
            releaseTape(l, i, end);
        }
        return {};
    }

    std::string write(int j, int l) {
        if (auto e = checkState(j); !e.empty()) return e;
        if (auto e = checkLevel(l, true); !e.empty()) return e;
        Copy& src = copies[0][static_cast<std::size_t>(j)];
        if (!src.held) return "x" + std::to_string(j) + " is not held in level 0, so it cannot be written";
        Copy& dst = copies[static_cast<std::size_t>(l)][static_cast<std::size_t>(j)];
        if (dst.held) return "x" + std::to_string(j) + " is already held on level " + std::to_string(l);
        std::int64_t bytes = chain.stateBytes(j);
        double start = std::max({clock, channelFree[static_cast<std::size_t>(l)], src.ready});
        double end = start + hw.writeSeconds(l, bytes);
        channelFree[static_cast<std::size_t>(l)] = end;
        src.pinned_until = std::max(src.pinned_until, end);
        dst = Copy{end, 0, true, true};
        if (opt.on_state) opt.on_state(cur, l, j, true);
        event(start, l, cur, MemoryCategory::State, bytes, j);
        record(Interval{start, end, cur, j, bytes, std::int16_t(l), IntervalKind::Write});
        if (!checkedAdd(tl.totals.bytes_written, bytes, tl.totals.bytes_written))
            return "the bytes written add up to more than 2^63";
        return {};
    }

    std::string read(int j, int l) {
        if (auto e = checkState(j); !e.empty()) return e;
        if (auto e = checkLevel(l, true); !e.empty()) return e;
        Copy& src = copies[static_cast<std::size_t>(l)][static_cast<std::size_t>(j)];
        if (!src.held) {
            if (!src.written) return "x" + std::to_string(j) + " was never written to level " + std::to_string(l);
            return "x" + std::to_string(j) + " is no longer held on level " + std::to_string(l);
        }
        Copy& dst = copies[0][static_cast<std::size_t>(j)];
        if (dst.held) return "x" + std::to_string(j) + " is already held in level 0";
        std::int64_t bytes = chain.stateBytes(j);
        double start = std::max({clock, channelFree[static_cast<std::size_t>(l)], src.ready});
        double end = start + hw.readSeconds(l, bytes);
        channelFree[static_cast<std::size_t>(l)] = end;
        src.pinned_until = std::max(src.pinned_until, end);
        dst = Copy{end, 0, true, dst.written};
        if (opt.on_state) opt.on_state(cur, 0, j, true);
        event(start, 0, cur, MemoryCategory::State, bytes, j);
        record(Interval{start, end, cur, j, bytes, std::int16_t(l), IntervalKind::Read});
        if (!checkedAdd(tl.totals.bytes_read, bytes, tl.totals.bytes_read))
            return "the bytes read add up to more than 2^63";
        return {};
    }

    std::string writeTape(int i, int l) {
        if (auto e = checkStep(i); !e.empty()) return e;
        if (auto e = checkLevel(l, true); !e.empty()) return e;
        Copy& src = tapes[0][static_cast<std::size_t>(i)];
        if (!src.held)
            return "the tape of step " + std::to_string(i) + " is not held in level 0, so it cannot be written";
        Copy& dst = tapes[static_cast<std::size_t>(l)][static_cast<std::size_t>(i)];
        if (dst.held) return "the tape of step " + std::to_string(i) + " is already held on level " + std::to_string(l);
        std::int64_t bytes = chain.step(i).tape_bytes;
        double start = std::max({clock, channelFree[static_cast<std::size_t>(l)], src.ready});
        double end = start + hw.writeSeconds(l, bytes);
        channelFree[static_cast<std::size_t>(l)] = end;
        src.pinned_until = std::max(src.pinned_until, end);
        dst = Copy{end, 0, true, true};
        event(start, l, cur, MemoryCategory::Tape, bytes, i);
        record(Interval{start, end, cur, i, bytes, std::int16_t(l), IntervalKind::Write, true});
        if (!checkedAdd(tl.totals.bytes_written, bytes, tl.totals.bytes_written))
            return "the bytes written add up to more than 2^63";
        return {};
    }

    std::string readTape(int i, int l) {
        if (auto e = checkStep(i); !e.empty()) return e;
        if (auto e = checkLevel(l, true); !e.empty()) return e;
        Copy& src = tapes[static_cast<std::size_t>(l)][static_cast<std::size_t>(i)];
        if (!src.held)
            return "the tape of step " + std::to_string(i) +
                   (src.written ? " is no longer held" : " was never written") +
                   (src.written ? " on level " : " to level ") + std::to_string(l);
        Copy& dst = tapes[0][static_cast<std::size_t>(i)];
        if (dst.held) return "the tape of step " + std::to_string(i) + " is already held in level 0";
        std::int64_t bytes = chain.step(i).tape_bytes;
        double start = std::max({clock, channelFree[static_cast<std::size_t>(l)], src.ready});
        double end = start + hw.readSeconds(l, bytes);
        channelFree[static_cast<std::size_t>(l)] = end;
        src.pinned_until = std::max(src.pinned_until, end);
        dst = Copy{end, 0, true, dst.written};
        event(start, 0, cur, MemoryCategory::Tape, bytes, i);
        record(Interval{start, end, cur, i, bytes, std::int16_t(l), IntervalKind::Read, true});
        if (!checkedAdd(tl.totals.bytes_read, bytes, tl.totals.bytes_read))
            return "the bytes read add up to more than 2^63";
        return {};
    }

    std::string freeTape(int i, int l) {
        if (auto e = checkStep(i); !e.empty()) return e;
        if (auto e = checkLevel(l, false); !e.empty()) return e;
        if (!tapes[static_cast<std::size_t>(l)][static_cast<std::size_t>(i)].held)
            return "the tape of step " + std::to_string(i) + " is not held on level " + std::to_string(l);
        releaseTape(l, i, clock);
        return {};
    }

    std::string freeState(int j, int l) {
        if (auto e = checkState(j); !e.empty()) return e;
        if (auto e = checkLevel(l, false); !e.empty()) return e;
        if (!copies[static_cast<std::size_t>(l)][static_cast<std::size_t>(j)].held)
            return "x" + std::to_string(j) + " is not held on level " + std::to_string(l);
        release(l, j, clock);
        return {};
    }

    // Per level: the most it may hold (level 0: its capacity or the budget, whichever is less).
    std::vector<std::int64_t> caps() const {
        std::vector<std::int64_t> cap(static_cast<std::size_t>(levels));
        for (int l = 0; l < levels; ++l)
            cap[static_cast<std::size_t>(l)] = hw.level(l).capacity_bytes;
        if (budgetBinds()) cap[0] = opt.budget_bytes;
        return cap;
    }
    bool budgetBinds() const { return opt.budget_bytes > 0 && opt.budget_bytes < hw.level(0).capacity_bytes; }
    MemoryLedger::Describe describer() const {
        return [this](std::int32_t action, int l, std::int64_t total, std::int64_t limitBytes) {
            const char* what = (l == 0 && budgetBinds()) ? "the budget" : "its capacity";
            return "action " + std::to_string(action) + " (" + toString(schedule[static_cast<std::size_t>(action)]) +
                   "): level " + std::to_string(l) + " (" + hw.level(l).name + ") would hold " +
                   (total < 0
                        ? "more than 2^63 bytes, more than any level holds"
                        : formatBytes(double(total)) + ", over " + what + " of " + formatBytes(double(limitBytes)));
        };
    }

    // The memory curves and peaks; the first action (in time) that overflows a level, or -1. Only events of actions
    // before `limit` count.
    long long sweepMemory(long long limit, std::string& err) {
        return ledger.sweep(limit, caps(), opt.memory_curve, tl, describer(), err);
    }
};

} // namespace

double simulationBytes(std::size_t actions, bool curves) {
    return double(actions) * double(sizeof(Interval) + MemoryLedger::kEventsPerAction * MemoryLedger::kEventBytes +
                                    (curves ? 2 * sizeof(MemorySample) : 0));
}

Result<Timeline> simulate(const Chain& chain, const Hardware& hw, const Schedule& schedule, const SimOptions& opt) {
    if (schedule.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        return overLimit("the plan has too many actions");
    if (const double need = simulationBytes(schedule.size(), opt.memory_curve); need > kMaxSimulationBytes)
        return overLimit("simulating the plan's " + std::to_string(schedule.size()) + " actions would take about " +
                         formatBytes(need) + ", over the limit of " + formatBytes(kMaxSimulationBytes));
    Replay r(chain, hw, schedule, opt);
    return r.run();
}

} // namespace ckpt
