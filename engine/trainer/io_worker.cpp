#include "trainer/io_worker.h"

namespace ckpt::trainer {

IoWorker::IoWorker() : m_thread([this] { loop(); }) {}

IoWorker::~IoWorker() {
    {
        std::lock_guard lock(m_mu);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void IoWorker::submit(std::function<void()> job) {
    {
        std::lock_guard lock(m_mu);
        m_jobs.push_back(std::move(job));
    }
    m_wake.notify_one();
}

void IoWorker::drain() {
    std::unique_lock lock(m_mu);
    m_idle.wait(lock, [this] { return m_jobs.empty() && !m_busy; });
}

void IoWorker::loop() {
    std::unique_lock lock(m_mu);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stop || !m_jobs.empty(); });
        if (m_jobs.empty()) return; // stopping, and nothing left to do
        std::function<void()> job = std::move(m_jobs.front());
        m_jobs.pop_front();
        m_busy = true;
        lock.unlock();
        job();
        job = nullptr; // what it captured goes now, before drain() can return
        lock.lock();
        m_busy = false;
        if (m_jobs.empty()) m_idle.notify_all();
    }
}

} // namespace ckpt::trainer
