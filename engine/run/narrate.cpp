#include "narrate.h"

#include "util/units.h"

#include <algorithm>
#include <set>

namespace ckpt {

namespace {

bool contains(const std::vector<int>& v, int x) {
    return std::binary_search(v.begin(), v.end(), x);
}

std::string x(int j) {
    return "x" + std::to_string(j);
}

std::string levelName(const Hardware& hw, int l) {
    const std::string& name = l < hw.levelCount() ? hw.level(l).name : std::string();
    return name.empty() ? "level " + std::to_string(l) : name;
}

} // namespace

Result<Narration> narrate(const Chain& chain, const Hardware& hw, const Plan& plan, std::int64_t budget_bytes) {
    Narration out;
    if (auto it = plan.params.find("slots"); it != plan.params.end()) out.slot_count = std::atoi(it->second.c_str());
    // A plan that moves states between levels counts its slots its own way (multistage's are per level, and states
    // read back take none): "3 of 1 slots in use" would mislead, so no slot count is told.
    for (const Action& a : plan.actions)
        if (a.isTransfer()) out.slot_count = 0;
    std::vector<Holdings> after;
    after.reserve(plan.actions.size());
    SimOptions opt;
    opt.budget_bytes = budget_bytes;
    opt.memory_curve = false;
    opt.observe = [&](std::int32_t, const Holdings& h) { after.push_back(h); };
    if (auto sim = simulate(chain, hw, plan.actions, opt); !sim) return sim.errorValue();

    std::vector<int> runs(std::size_t(chain.length()) + 1, 0);
    std::set<int> checkpoints;
    Holdings before;
    before.states.assign(std::size_t(hw.levelCount()), {});
    before.states[0] = {0}; // the chain's input
    for (std::size_t k = 0; k < plan.actions.size(); ++k) {
        const Action& a = plan.actions[k];
        const Holdings& now = after[k];
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
                s += fromCheckpoint ? "; " + x(i - 1) + " stays a checkpoint"
                                    : "; keep " + x(i - 1) + " as a checkpoint";
                checkpoints.insert(i - 1);
            } else if (a.keep == Keep::Tape) {
                s += "; record its tape for the backward";
            }
            break;
        }
        case ActionKind::Backward:
            s = "Backward step " + std::to_string(i) + ": the gradient reaches " + x(i - 1) +
                "; free the tape of step " + std::to_string(i);
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
            s = "Read the tape of step " + std::to_string(i) + " back from " + levelName(hw, a.level) +
                " for its backward";
            break;
        case ActionKind::FreeTape:
            s = "Free the tape of step " + std::to_string(i) + " on " + levelName(hw, a.level);
            break;
        }
        // What the action let go in level 0 (the simulator frees what can never be used again).
        std::vector<int> freed;
        for (int j : before.states[0])
            if (!contains(now.states[0], j) && checkpoints.count(j)) freed.push_back(j);
        for (int j : freed) {
            s += "; checkpoint " + x(j) + " freed";
            checkpoints.erase(j);
        }
        for (auto it = checkpoints.begin(); it != checkpoints.end();)
            it = contains(now.states[0], *it) ? std::next(it) : checkpoints.erase(it);
        if (out.slot_count > 0)
            s += "; " + std::to_string(checkpoints.size()) + " of " + std::to_string(out.slot_count) + " slots in use";
        else if (!checkpoints.empty())
            s += "; " + std::to_string(checkpoints.size()) +
                 (checkpoints.size() == 1 ? " checkpoint" : " checkpoints") + " held";

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
        out.actions.push_back(std::move(n));
        before = now;
    }
    return out;
}

std::string heldLine(const NarratedAction& a, const Narration& n, const Hardware& hw, std::int64_t budget_bytes) {
    std::string line;
    for (int l = 0; l < hw.levelCount() && l < int(a.held.states.size()); ++l) {
        const auto& states = a.held.states[std::size_t(l)];
        static const std::vector<int> none;
        const auto& slowTapes = l > 0 && std::size_t(l) < a.held.slowTapes.size() ? a.held.slowTapes[std::size_t(l)] : none;
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
