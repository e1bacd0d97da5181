#pragma once
// Runs a chain plan for real, action by action, on a network and a batch: forwards in each keep mode, backwards, and
// the transfers. Level 0 is RAM with a counted store; every slower level of the hardware is a folder of files with
// its own background I/O thread, so an asynchronous plan overlaps its transfers with compute for real. A forward
// whose input is still being read waits for it (the wait shows as a gap before it on the compute lane).
//
// The executor trusts nothing: a plan that asks for a state the store does not hold (or runs a backward without its
// tape, or out of order) is an error naming the action, never a silent recompute. It does not check capacities:
// plans come from the simulator, which does.
//
// What is counted, and when, follows the simulator (sim/simulator.cpp) event for event: x_0 from the start; a
// forward allocates its output (and its tape) when it starts and releases its input at its end unless it keeps
// it; x_n, and x_j once backward j+1 is done, go at once; backward i allocates the gradient of x_{i-1} (and, for
// i = n, of x_n) when it starts and releases the gradient of x_i and its tape at its end; a write counts on its
// level from its start, and a level-0 copy it reads from is released only when it ends; a read counts in level 0
// from its start. The measured Timeline has the simulator's type.
//
// A budget on level 0 is kept whatever the speed of the transfers: the plan fits it as the simulator times it, but a
// write that lags keeps its level-0 copy longer than predicted. An action that would then take level 0 over the
// budget waits until the writes in flight have released enough (a gap before it on the compute lane, summed in
// Execution::budget_wait_s). A read reserves its bytes when it is issued, so the I/O threads never wait for memory.
// Tapes move between levels as states do (WriteTape, ReadTape, FreeTape), in files of their own; a backward whose
// tape is still being read waits for it.
#include "model/hardware.h"
#include "plan/plan.h"
#include "sim/timeline.h"
#include "trainer/buffer_pool.h"
#include "trainer/counted_store.h"
#include "trainer/disk_level.h"
#include "trainer/io_worker.h"
#include "trainer/network.h"
#include "util/result.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>

namespace ckpt::trainer {

struct Execution {
    double loss = 0;          // mean over the batch and the steps
    Timeline timeline;        // measured: wall-clock seconds from the start of the run
    double read_wait_s = 0;   // compute time spent waiting for reads
    double budget_wait_s = 0; // compute time spent waiting for writes to release level 0 (the budget)
    int budget_waits = 0;     // actions that waited so
};

// What `run` answers when the cancel flag was seen (Error::index is then the action it stopped before).
inline constexpr const char* kCancelled = "cancelled";

template <typename T> class Executor {
public:
    // One folder (under `scratch`, or the system's temporary folder) and one I/O thread per slower level of hw.
    static Result<std::unique_ptr<Executor>> make(const Hardware& hw, const std::string& scratch = {});
    ~Executor();

    // Adds the gradients of the batch's mean loss into `grads`.
    Result<Execution> run(Network<T>& net, const Batch<T>& batch, const Schedule& plan, Parameters<T>& grads);

    int levels() const { return int(m_laneNames.size()); }
    // Level 0's budget in bytes for the next runs (0: none).
    void setBudget(std::int64_t bytes) { m_budget = bytes; }
    // Read between actions and while waiting; once it is true, run stops and fails with kCancelled. It may be set
    // from a signal handler (a lock-free atomic).
    void setCancelFlag(const std::atomic<bool>* flag) { m_cancel = flag; }
    // Tests: the slowest writer that still lets a run end. A write starts only while the compute thread waits (for
    // level 0 to have room, for a read, or for the end of the run).
    void setLaggingWriter(bool on) { m_lagWrites = on; }

private:
    struct Slot {
        BufferPool<T>* pool = nullptr; // where the buffer goes back when the last user lets go
        Tensors<T> data;
        std::int64_t bytes = 0;
        bool ready = true;
        int pins = 0; // transfers reading or filling it; a release waits for them
        bool releasePending = false;
        bool tape = false; // a step's tape (counted as tapes, pooled as one), not a state
        ~Slot() {
            if (pool) pool->give(tape ? BufferPool<T>::Tape : BufferPool<T>::State, std::move(data));
        }
        MemoryCategory category() const { return tape ? MemoryCategory::Tape : MemoryCategory::State; }
    };
    using SlotPtr = std::shared_ptr<Slot>;

    Executor() = default;

    std::vector<std::string> m_laneNames;
    std::vector<std::unique_ptr<DiskLevel>> m_disks;     // [level], null for level 0
    std::vector<std::unique_ptr<DiskLevel>> m_tapeDisks; // [level], null for level 0: the tapes' files
    std::vector<std::unique_ptr<IoWorker>> m_workers;    // [level], null for level 0; destroyed before the disks
    CountedStore m_store;
    BufferPool<T> m_pool; // before everything that holds buffers, so it outlives them
    Shape m_poolShape{};

    // One run's state. Compute-thread only, except what m_mu guards.
    std::mutex m_mu;
    std::condition_variable m_cv;
    std::vector<SlotPtr> m_level0;                        // [state]
    std::vector<std::vector<char>> m_onLevel;             // [level][state], as issued
    std::vector<std::vector<std::int64_t>> m_onBytes;     // [level][state]
    std::vector<SlotPtr> m_tapes;                         // [step]: its tape in level 0
    std::vector<std::vector<char>> m_tapeOn;              // [level][step], as issued
    std::vector<std::vector<std::int64_t>> m_tapeOnBytes; // [level][step]
    std::vector<char> m_backwardDone;
    std::vector<int> m_forwardRuns;
    std::vector<std::optional<Interval>> m_intervals; // [action], guarded
    std::string m_ioError;                            // guarded
    Tensors<T> m_grad;                                // gradient of x_i after backward i
    std::vector<double> m_loss;
    double m_readWait = 0, m_budgetWait = 0;
    int m_budgetWaits = 0;
    int m_n = 0;
    std::int64_t m_budget = 0;
    const std::atomic<bool>* m_cancel = nullptr;
    bool m_lagWrites = false;
    bool m_computeWaits = false;  // guarded: the compute thread is blocked (lets a lagging writer go)
    std::int64_t m_reserved = 0;  // guarded: level-0 bytes of reads issued but not started
    std::int64_t m_releasing = 0; // guarded: level-0 bytes released, held until their transfer ends

    std::string step(Network<T>& net, const Batch<T>& batch, Parameters<T>& grads, const Action& a, int k);
    std::string forward(Network<T>& net, const Batch<T>& batch, int i, Keep keep, int k);
    std::string backward(Network<T>& net, const Batch<T>& batch, Parameters<T>& grads, int i, int k);
    std::string write(int j, int level, int k);
    std::string read(const Cell<T>& cell, int j, int level, int k);
    std::string freeState(int j, int level);
    std::string writeTape(int i, int level, int k);
    std::string readTape(const Cell<T>& cell, int i, int level, int k);
    std::string freeTape(int i, int level);
    void release0(int j);
    void releaseSlot(SlotPtr s);
    void releaseOnDisk(int j, int level);
    void releaseTapeOnDisk(int i, int level);
    bool waitReady(const Slot& s); // false: cancelled
    void unpin(Slot& s);
    void record(int k, const Interval& iv);
    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    template <typename Pred> bool computeWait(std::unique_lock<std::mutex>& lock, Pred ready);
    std::string admit(std::int64_t need, const std::string& what);
    void ioFailed(const std::string& why);
    void drain();
    Tensors<T> takeState(const Cell<T>& cell, bool zero);
    Timeline finishTimeline(const Schedule& plan);
};

} // namespace ckpt::trainer
