#pragma once
// A background thread that runs queued jobs in order: one per slower memory level, so a level's transfers queue on
// its channel as the simulator assumes, and overlap the compute thread for real.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace ckpt::trainer {

class IoWorker {
public:
    IoWorker();
    ~IoWorker(); // finishes the queued jobs, then joins
    IoWorker(const IoWorker&) = delete;
    IoWorker& operator=(const IoWorker&) = delete;

    void submit(std::function<void()> job);
    // Blocks until every job submitted so far has finished.
    void drain();

private:
    std::mutex m_mu;
    std::condition_variable m_wake, m_idle;
    std::deque<std::function<void()>> m_jobs;
    bool m_busy = false;
    bool m_stop = false;
    std::thread m_thread;
    void loop();
};

} // namespace ckpt::trainer
