#include "narrate.h"

#include "util/units.h"

#include <algorithm>
#include <set>

namespace ckpt {

namespace {

std::string x(int j) {
    return "x" + std::to_string(j);
}

std::string levelName(const Hardware& hw, int l) {
    const std::string& name = l < hw.levelCount() ? hw.level(l).name : std::string();
    return name.empty() ? "level " + std::to_string(l) : name;
}

// A change of level 0: at `action`, state `state` became held or not.
struct Change {
    std::int32_t action;
    int state;
    bool held;
};

// What the simulator saw of the plan: what is held after each told action, and every change of level 0 (to follow
// the checkpoints between the told actions).
struct Observed {
    std::vector<Holdings> after;
    std::vector<Change> changes;
};

std::optional<Error> observe(const Chain& chain, const Hardware& hw, const Plan& plan, std::int64_t budget_bytes,
                             std::size_t from, std::size_t last, Observed& seen) {
    if (from < plan.actions.size() && from <= last) seen.after.reserve(last - from + 1);
    SimOptions opt;
    opt.budget_bytes = budget_bytes;
    opt.memory_curve = false;
    opt.observe_from = std::int32_t(std::min<std::size_t>(from, INT32_MAX));
    opt.observe_to = std::int32_t(std::min<std::size_t>(last, INT32_MAX));
    opt.observe = [&](std::int32_t, const Holdings& h) { seen.after.push_back(h); };
    opt.on_state = [&](std::int32_t action, int level, int state, bool held) {
        if (level == 0) seen.changes.push_back({action, state, held});
    };
    if (auto sim = simulate(chain, hw, plan.actions, opt); !sim) return sim.errorValue();
    return std::nullopt;
}

// The sentence that tells action a; counts the runs of each step, and adds the checkpoints it makes.
std::string sentence(const Action& a, const Hardware& hw, std::vector<int>& runs, std::set<int>& checkpoints) {
    const int i = a.index;
    std::string s;
    switch (a.kind) {
    case ActionKind::Forward: {
        const int run = ++runs[std::size_t(i)];
        const bool fromCheckpoint = checkpoints.count(i - 1) > 0;
        if (run == 1)
            s = "Forward step " + std::to_string(i) + ": " + x(i - 1) + " → " + x(i);
        else
            s = "Recompute step " + std::to_string(i) + " from " +
                (fromCheckpoint ? "the checkpoint " + x(i - 1) : x(i - 1)) + " (run " + std::to_string(run) +
                " of step " + std::to_string(i) + ")";
        if (a.keep == Keep::State) {
            s += fromCheckpoint ? "; " + x(i - 1) + " stays a checkpoint" : "; keep " + x(i - 1) + " as a checkpoint";
            checkpoints.insert(i - 1);
        } else if (a.keep == Keep::Tape) {
            s += "; record its tape for the backward";
        }
        break;
    }
    case ActionKind::Backward:
        s = "Backward step " + std::to_string(i) + ": the gradient reaches " + x(i - 1) + "; free the tape of step " +
            std::to_string(i);
        break;
    case ActionKind::Write:
        s = "Write " + x(i) + " to " + levelName(hw, a.level);
        break;
    case ActionKind::Read:
        s = "Read " + x(i) + " back from " + levelName(hw, a.level) + " into " + levelName(hw, 0);
        checkpoints.insert(i);
        break;
    case ActionKind::Free:
        s = "Free " + x(i) + " on " + levelName(hw, a.level);
        break;
    case ActionKind::WriteTape:
        s = "Write the tape of step " + std::to_string(i) + " to " + levelName(hw, a.level);
        break;
    case ActionKind::ReadTape:
        s = "Read the tape of step " + std::to_string(i) + " back from " + levelName(hw, a.level) + " for its backward";
        break;
    case ActionKind::FreeTape:
        s = "Free the tape of step " + std::to_string(i) + " on " + levelName(hw, a.level);
        break;
    }
    return s;
}

// A told action: its sentence, what is held after it, its checkpoints, and the bytes held per level.
NarratedAction narrated(const Chain& chain, const Hardware& hw, std::string s, const Holdings& now,
                        const std::set<int>& checkpoints) {
    NarratedAction n;
    n.sentence = std::move(s);
    n.held = now;
    n.checkpoints.assign(checkpoints.begin(), checkpoints.end());
    n.bytes.assign(std::size_t(hw.levelCount()), 0);
    for (int l = 0; l < hw.levelCount(); ++l)
        for (int j : now.states[std::size_t(l)])
            n.bytes[std::size_t(l)] += chain.stateBytes(j);
    for (int t : now.tapes)
        n.bytes[0] += chain.step(t).tape_bytes;
    for (std::size_t l = 1; l < now.slowTapes.size() && l < n.bytes.size(); ++l)
        for (int t : now.slowTapes[l])
            n.bytes[l] += chain.step(t).tape_bytes;
    if (now.gradient >= 0) n.bytes[0] += chain.stateBytes(now.gradient);
    return n;
}

} // namespace

Result<Narration> narrate(const Chain& chain, const Hardware& hw, const Plan& plan, std::int64_t budget_bytes,
                          std::size_t from, long long to) {
    Narration out;
    if (auto it = plan.params.find("slots"); it != plan.params.end()) out.slot_count = std::atoi(it->second.c_str());
    // A plan that moves states between levels counts its slots its own way (multistage's are per level, and states
    // read back take none): "3 of 1 slots in use" would mislead, so no slot count is told.
    for (const Action& a : plan.actions)
        if (a.isTransfer()) out.slot_count = 0;
    const std::size_t count = plan.actions.size();
    const std::size_t last = to < 0 || std::size_t(to) >= count ? count - 1 : std::size_t(to);
    out.first = from;
    Observed seen;
    if (auto e = observe(chain, hw, plan, budget_bytes, from, last, seen)) return *e;
    const std::vector<Change>& changes = seen.changes;

    std::vector<int> runs(std::size_t(chain.length()) + 1, 0);
    std::vector<char> held(std::size_t(chain.length()) + 1, 0), heldBefore = held;
    held[0] = 1; // the chain's input
    std::set<int> checkpoints;
    std::size_t next = 0; // the first change not applied yet
    for (std::size_t k = 0; k < count && k <= last; ++k) {
        const bool told = k >= from;
        // What level 0 held before the action, for the states it changes.
        std::vector<int> changed;
        for (; next < changes.size() && std::size_t(changes[next].action) == k; ++next) {
            const int j = changes[next].state;
            if (std::find(changed.begin(), changed.end(), j) == changed.end())
                changed.push_back(j), heldBefore[std::size_t(j)] = held[std::size_t(j)];
            held[std::size_t(j)] = changes[next].held;
        }
        std::string s = sentence(plan.actions[k], hw, runs, checkpoints);
        // What the action let go in level 0 (the simulator frees what can never be used again), in ascending order;
        // then a checkpoint this action named but level 0 does not hold is no checkpoint.
        std::sort(changed.begin(), changed.end());
        for (int j : changed)
            if (heldBefore[std::size_t(j)] && !held[std::size_t(j)] && checkpoints.erase(j))
                s += "; checkpoint " + x(j) + " freed";
        for (auto it = checkpoints.begin(); it != checkpoints.end();)
            it = held[std::size_t(*it)] ? std::next(it) : checkpoints.erase(it);
        if (!told) continue;
        if (out.slot_count > 0)
            s += "; " + std::to_string(checkpoints.size()) + " of " + std::to_string(out.slot_count) + " slots in use";
        else if (!checkpoints.empty())
            s += "; " + std::to_string(checkpoints.size()) +
                 (checkpoints.size() == 1 ? " checkpoint" : " checkpoints") + " held";
        out.actions.push_back(narrated(chain, hw, std::move(s), seen.after[k - from], checkpoints));
    }
    return out;
}

std::string heldLine(const NarratedAction& a, const Narration& n, const Hardware& hw, std::int64_t budget_bytes) {
    std::string line;
    for (int l = 0; l < hw.levelCount() && l < int(a.held.states.size()); ++l) {
        const auto& states = a.held.states[std::size_t(l)];
        static const std::vector<int> none;
        const auto& slowTapes =
            l > 0 && std::size_t(l) < a.held.slowTapes.size() ? a.held.slowTapes[std::size_t(l)] : none;
        if (l > 0 && states.empty() && slowTapes.empty()) continue;
        if (!line.empty()) line += " | ";
        line += "L" + std::to_string(l) + ":";
        for (int j : states)
            line += " " + x(j);
        if (l == 0) {
            if (n.slot_count > 0)
                line += " [" + std::to_string(a.checkpoints.size()) + "/" + std::to_string(n.slot_count) + " slots]";
            if (!a.held.tapes.empty()) {
                line += " · tapes";
                for (int t : a.held.tapes)
                    line += " " + std::to_string(t);
            }
            if (a.held.gradient >= 0) line += " · grad " + x(a.held.gradient);
        } else if (!slowTapes.empty()) {
            line += " · tapes";
            for (int t : slowTapes)
                line += " " + std::to_string(t);
        }
        line += " · " + formatBytes(double(a.bytes[std::size_t(l)]));
        std::int64_t limit = hw.isUnbounded(l) ? 0 : hw.level(l).capacity_bytes;
        if (l == 0 && budget_bytes > 0) limit = limit ? std::min(limit, budget_bytes) : budget_bytes;
        if (limit > 0) line += " of " + formatBytes(double(limit));
    }
    return line;
}

} // namespace ckpt
