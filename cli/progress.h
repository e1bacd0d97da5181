#pragma once
// Progress of a long command on stderr, from a thread of its own so that one long step still shows the clock: nothing
// in the first second (a quick command prints nothing more), then "ckpt compare: 3 of 8 runs done, now rotor at
// 512 MiB (5 s)". On a terminal the line is rewritten every second and cleared at the end; otherwise (a log, a pipe)
// a line is printed every 10 seconds. CKPT_PROGRESS=0 turns it off.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace ckpt::cli {

class Progress {
public:
    explicit Progress(std::string command);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // What is done so far (total > 0: "done of total <unit>") and what runs now; either may be empty.
    void set(long long done, long long total, const std::string& unit, const std::string& now);
    // Stops the thread and clears the line it left on a terminal; called by the destructor too.
    void finish();

private:
    void run();
    std::string line(double seconds) const;

    std::string m_command, m_unit, m_now;
    long long m_done = 0, m_total = 0;
    bool m_stop = false, m_tty = false, m_shown = false, m_enabled = true;
    std::chrono::steady_clock::time_point m_start;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::thread m_thread;
};

} // namespace ckpt::cli
