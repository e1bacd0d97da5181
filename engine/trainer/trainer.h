#pragma once
// A training run as the front ends drive it: a task, a network in fp32 or fp64, an optimiser, and the executor that
// runs any chain plan. It profiles itself (forward and backward time per step, state and tape bytes, the disk
// level's speed) so that the chain it describes, and every plan made from that chain, predicts the measured run.
#include "model/chain.h"
#include "model/hardware.h"
#include "plan/plan.h"
#include "trainer/executor.h"
#include "trainer/optimizer.h"
#include "trainer/task.h"
#include "util/result.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace ckpt::trainer {

enum class Precision { Fp32, Fp64 };

struct TrainerConfig {
    CellKind cell = CellKind::Lstm;
    int hidden = 64;
    int batch = 16;
    int input = 0; // 0: the task's own width
    int length = 100;
    std::string task = "copy";
    std::string text; // the file of task "text" (empty: Task::kDefaultText)
    Precision precision = Precision::Fp32;
    OptimizerSettings optimizer;
    std::uint64_t seed = 1;
    std::string scratch;           // where disk levels put their files (empty: the system's temporary folder)
    std::int64_t memory_limit = 0; // bytes a run may allocate in all (0: Trainer::defaultMemoryLimit())
};

// What a run allocates, estimated before anything is, so that a configuration too large for the machine is refused
// with the numbers instead of dying of std::bad_alloc half-way. Bytes, as doubles: a size may not fit in 64 bits.
struct MemoryEstimate {
    double parameters = 0; // the weights, their gradients, Adam's two moments and one more copy (profile or check)
    double batch = 0;      // one batch's inputs and targets
    double scratch = 0;    // a step's workspace and read-out
    double profile = 0;    // the profile's store-all run of a few steps
    double store = 0;      // the plan's level 0 at its peak (known once planned)
    double check = 0;      // store-all BPTT of --check-gradients (its tapes)
    double total() const { return parameters + batch + scratch + profile + store + check; }
    std::string describe() const; // "about 320 GiB (parameters 320 GiB, ...)"
};

struct Profile {
    int steps = 0;        // steps per repeat
    int repeats = 0;      // measured repeats (after one warm-up)
    double forward_s = 0; // what the chain uses: the mean of the two below
    double forward_untaped_s = 0;
    double forward_taped_s = 0;
    double backward_s = 0;
    std::int64_t state_bytes = 0;
    std::int64_t tape_bytes = 0;
    double write_bytes_per_s = 0; // the disk level, when measured (else 0)
    double read_bytes_per_s = 0;
};

struct Iteration {
    double loss = 0;
    double seconds = 0; // the whole iteration: the batch, the plan, the update (not the gradient check)
    Execution execution;
    double grad_norm = 0;
    double max_abs_grad_diff = -1; // against store-all BPTT on the same weights and batch; -1 when not checked
};

class Trainer {
public:
    // Checks the configuration; messages name the bad field.
    // Refuses a configuration whose estimate (before planning) is over the memory limit.
    static Result<std::unique_ptr<Trainer>> make(const TrainerConfig& config);
    static MemoryEstimate estimate(const TrainerConfig& config, int input, int output);
    // Half the physical memory (sysconf), or 4 GiB when the system does not say.
    static std::int64_t defaultMemoryLimit();
    std::int64_t memoryLimit() const;
    // The whole run with a plan whose level 0 peaks at `storePeak`: an error giving the estimate and the limit when
    // it is over the limit.
    Result<MemoryEstimate> checkMemory(double storePeak, bool checkGradients) const;
    // Read between the actions of every run and profile; once it is true they fail with kCancelled. It may be set
    // from a signal handler (a lock-free atomic).
    void setCancelFlag(const std::atomic<bool>* flag) { m_cancel = flag; }
    virtual ~Trainer() = default;

    const TrainerConfig& config() const { return m_config; }
    const Task& task() const { return m_task; }
    virtual std::int64_t stateBytes() const = 0;
    virtual std::int64_t tapeBytes() const = 0;
    virtual std::int64_t parameterCount() const = 0;
    std::string networkName() const; // "lstm H=256 B=32 I=10 fp32 (copy), 1000 steps": its chain's name

    // This network as a chain: `length` equal steps with its true state and tape bytes, no temporaries (the step's
    // scratch is outside the store), and the given times.
    Chain chain(double forward_s, double backward_s) const;
    Chain chain(const Profile& p) const { return chain(p.forward_s, p.backward_s); }
    // Runs a few steps (`repeats` times after a warm-up) and measures; with `disk`, also the speed of a disk level
    // made of files in the scratch folder.
    virtual Result<Profile> profile(int steps, int repeats, bool disk) = 0;
    // This machine: RAM (unbounded), and a disk level of files at the profile's measured speeds when it has them.
    static Hardware measuredHardware(const Profile& p);

    // One iteration: a fresh batch, the plan run by the executor on `hw`'s levels, optionally the store-all check,
    // then the optimiser's step. Level 0 keeps the plan's budget (or `hw`'s capacity) even when a write lags.
    // Running out of memory is an error ("out of memory ..."), not an exception.
    virtual Result<Iteration> iterate(const Plan& plan, const Hardware& hw, bool checkGradients) = 0;

protected:
    static std::string describeLimit(const TrainerConfig& c, std::int64_t limit);
    Trainer(TrainerConfig c, Task t) : m_config(std::move(c)), m_task(std::move(t)) {}
    TrainerConfig m_config;
    Task m_task;
    const std::atomic<bool>* m_cancel = nullptr;
};

} // namespace ckpt::trainer
