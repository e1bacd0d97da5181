#include "progress.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace ckpt::cli {

Progress::Progress(std::string command) : m_command(std::move(command)), m_start(std::chrono::steady_clock::now()) {
    const char* env = std::getenv("CKPT_PROGRESS");
    m_enabled = !(env && std::strcmp(env, "0") == 0);
    m_tty = isatty(STDERR_FILENO) == 1;
    if (m_enabled) m_thread = std::thread([this] { run(); });
}

Progress::~Progress() {
    finish();
}

void Progress::set(long long done, long long total, const std::string& unit, const std::string& now) {
    std::lock_guard lock(m_mutex);
    m_done = done, m_total = total, m_unit = unit, m_now = now;
}

void Progress::finish() {
    {
        std::lock_guard lock(m_mutex);
        if (m_stop) return;
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) m_thread.join();
    if (m_tty && m_shown) std::fputs("\r\033[K", stderr), std::fflush(stderr);
}

std::string Progress::line(double seconds) const {
    std::string s = "ckpt " + m_command + ": ";
    if (m_total > 0) s += std::to_string(m_done) + " of " + std::to_string(m_total) + " " + m_unit + " done";
    if (!m_now.empty()) s += (m_total > 0 ? ", now " : "") + m_now;
    char clock[32];
    std::snprintf(clock, sizeof clock, " (%.0f s)", seconds);
    return s + clock;
}

void Progress::run() {
    using namespace std::chrono;
    const auto every = m_tty ? seconds(1) : seconds(10);
    auto next = m_start + seconds(1);
    std::unique_lock lock(m_mutex);
    while (!m_wake.wait_until(lock, next, [this] { return m_stop; })) {
        const double elapsed = duration<double>(steady_clock::now() - m_start).count();
        const std::string text = line(elapsed);
        if (m_tty) {
            std::string shown = text.size() > 150 ? text.substr(0, 149) + "\u2026" : text;
            std::fprintf(stderr, "\r\033[K%s", shown.c_str());
        } else {
            std::fprintf(stderr, "%s\n", text.c_str());
        }
        std::fflush(stderr);
        m_shown = true;
        next += every;
    }
}

} // namespace ckpt::cli
