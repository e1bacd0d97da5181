#pragma once
// What the schedulers that move states to slower memory levels share: the simulator's overlap rule restated for
// their own cost prediction, and the checks of the machine's levels.
#include "model/chain.h"
#include "model/hardware.h"
#include "plan/plan.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace ckpt {

// The timing rule of sim/simulator.cpp, for a scheduler to predict the makespan of the actions it emits: a compute
// action starts when the previous one ends and (forward) its input is ready in level 0; a write or read is issued at
// the end of the previous compute action and starts when its level's channel is free and its source copy is ready.
// The same max and + in the same order, so the prediction equals the simulated makespan exactly. It also sums the
// plan's synchronous cost (every transfer on the critical path), the model of the multistage papers.
class TransferClock {
public:
    TransferClock(const Chain& chain, const Hardware& hw);
    void apply(const Action& a);
    void apply(const Schedule& actions) {
        for (const Action& a : actions)
            apply(a);
    }
    double makespan() const;
    double synchronous() const { return m_sync; }

private:
    const Chain& m_chain;
    const Hardware& m_hw;
    double m_clock = 0;
    double m_sync = 0;
    std::vector<double> m_channel;                // per level: when its channel is free
    std::vector<std::vector<double>> m_ready;     // [level][state]: when that copy is complete
    std::vector<std::vector<double>> m_tapeReady; // [level][step]: when that copy of the step's tape is complete
};

// The prediction of a plan made of forward, backward, write, read and free actions (of states or tapes).
double overlappedMakespan(const Chain& chain, const Hardware& hw, const Schedule& actions);

// The slower level a scheduler writes to: `level` itself if the machine has it. A machine with one level, or a level
// it lacks, is an error of the request (not an infeasible budget), and the message says what is needed.
Result<int> slowerLevel(const std::string& scheduler, const Hardware& hw, long long level);

std::int64_t largestState(const Chain& chain);
double meanForward(const Chain& chain);
double meanBackward(const Chain& chain);

// How many states of `bytes` fit in `level` at once; a large number (above any chain length) when unbounded.
long long levelSlots(const Hardware& hw, int level, std::int64_t bytes);

// Empty if the states `written` (indices) fit together in `level`; otherwise the message for an infeasible error.
std::string levelOverflow(const std::string& scheduler, const Chain& chain, const Hardware& hw, int level,
                          const std::vector<int>& written);

} // namespace ckpt
