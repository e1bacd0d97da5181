// ckpt train: a real small RNN trained with any chain plan of the registry, measured beside the simulator's
// prediction for the same plan on the chain the run profiled.
#include "commands.h"
#include "common.h"
#include "io/export.h"
#include "io/json_io.h"
#include "schedulers/registry.h"
#include "sim/simulator.h"
#include "trainer/timeline_json.h"
#include "trainer/trainer.h"
#include "util/files.h"
#include "util/units.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

namespace ckpt::cli {
namespace {

using trainer::Trainer;
using trainer::TrainerConfig;

// Set by a stop signal (kStopSignals): the run stops between actions and removes its scratch files on the way out.
// Only a lock-free atomic store and a sig_atomic_t happen in the handler.
std::atomic<bool> g_stop{false};
volatile std::sig_atomic_t g_signal = 0;
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void onStopSignal(int sig) {
    g_signal = sig;
    g_stop.store(true, std::memory_order_relaxed);
}

// Ctrl-C, kill, the terminal closing and Ctrl-\ (whose default, a core dump, would leave the run's files behind too).
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

const char* signalName(int sig) {
    switch (sig) {
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    case SIGHUP:
        return "SIGHUP";
    case SIGQUIT:
        return "SIGQUIT";
    default:
        return "a signal";
    }
}

// Catches the stop signals while it lives, and puts the previous handlers back. SIGHUP and SIGQUIT stay ignored when
// they were ignored at start: `nohup ckpt train` must outlive its terminal, and a script's background job ignores
// Ctrl-\.
class StopSignals {
public:
    StopSignals() {
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_handler = onStopSignal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        for (std::size_t i = 0; i < std::size(kStopSignals); ++i) {
            const int sig = kStopSignals[i];
            if (sigaction(sig, nullptr, &m_old[i]) != 0) continue;
            const bool ignored = !(m_old[i].sa_flags & SA_SIGINFO) && m_old[i].sa_handler == SIG_IGN;
            if (ignored && (sig == SIGHUP || sig == SIGQUIT)) continue;
            m_caught[i] = sigaction(sig, &sa, nullptr) == 0;
        }
    }
    ~StopSignals() {
        for (std::size_t i = 0; i < std::size(kStopSignals); ++i)
            if (m_caught[i]) sigaction(kStopSignals[i], &m_old[i], nullptr);
    }
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

private:
    struct sigaction m_old[std::size(kStopSignals)] = {};
    bool m_caught[std::size(kStopSignals)] = {};
};

// A finite number >= lo (> lo when `above`).
bool realNumber(const Args& args, const std::string& key, double lo, double& out, bool above = false) {
    if (!args.has(key)) return true;
    const std::string v = args.value(key);
    char* end = nullptr;
    double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || !std::isfinite(x) || x < lo || (above && x == lo)) {
        complain("--" + key + ": expected a number " + (above ? "> " : ">= ") + formatNumber(lo) + ", got '" + v + "'");
        return false;
    }
    out = x;
    return true;
}

// A refusal over the memory limit says how to raise it, when the default limit was the one.
std::string withLimitHint(const std::string& error, const TrainerConfig& c) {
    const bool overLimit = error.find("over the limit") != std::string::npos;
    return "train: " + error + (overLimit && c.memory_limit == 0 ? "; --memory-limit sets another limit" : "");
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// Reads the network and the run settings; false after a message.
bool readConfig(const Args& args, TrainerConfig& c) {
    if (args.has("cell")) {
        auto cell = trainer::parseCell(args.value("cell"));
        if (!cell) {
            complain("--cell: expected lstm, gru or rnn, got '" + args.value("cell") + "'");
            return false;
        }
        c.cell = *cell;
    }
    if (!wholeNumber(args, "hidden", 1, c.hidden) || !wholeNumber(args, "batch", 1, c.batch) ||
        !wholeNumber(args, "input", 1, c.input) || !wholeNumber(args, "length", 1, c.length))
        return false;
    int seed = 1;
    if (!wholeNumber(args, "seed", 0, seed)) return false;
    c.seed = std::uint64_t(seed);
    if (args.has("text")) {
        if (args.has("task") && args.value("task") != "text") {
            complain("--text FILE is the text task's file; it does not go with --task " + args.value("task"));
            return false;
        }
        c.task = "text";
        c.text = args.value("text");
    } else if (args.has("task")) {
        c.task = args.value("task");
    }
    const std::string precision = args.value("precision", "fp32");
    if (precision != "fp32" && precision != "fp64") {
        complain("--precision: expected fp32 or fp64, got '" + precision + "'");
        return false;
    }
    c.precision = precision == "fp32" ? trainer::Precision::Fp32 : trainer::Precision::Fp64;
    if (args.has("optimizer")) {
        auto o = trainer::parseOptimizer(args.value("optimizer"));
        if (!o) {
            complain("--optimizer: expected adam or sgd, got '" + args.value("optimizer") + "'");
            return false;
        }
        c.optimizer.kind = *o;
    }
    if (!realNumber(args, "lr", 0, c.optimizer.learning_rate, true) || !realNumber(args, "clip", 0, c.optimizer.clip))
        return false;
    if (args.has("memory-limit")) {
        auto b = parseBytes(args.value("memory-limit"));
        if (!b || *b <= 0) {
            complain("--memory-limit: expected a size such as 8GiB, got '" + args.value("memory-limit") + "'");
            return false;
        }
        c.memory_limit = *b;
    }
    c.scratch = args.value("scratch");
    return true;
}

bool writeTimelines(const std::string& path, const Run& run, const Chain& chain, const Timeline& measured) {
    Result<bool> ok = true;
    if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0) {
        ok = writeTextFileAtomic(path, timelineToCsv(*run.chainPlan(), measured));
    } else if (path.find(".trace") != std::string::npos) {
        ok = writeTextFileAtomic(path, timelineToChromeTrace(*run.chainPlan(), measured));
    } else {
        nlohmann::json doc = {{"format", "ckpt-timelines"},
                              {"version", 1},
                              {"scheduler", run.scheduler},
                              {"params", run.params},
                              {"chain", {{"name", chain.name()}, {"length", chain.length()}}},
                              {"predicted", trainer::timelineToJson(*run.timeline)},
                              {"measured", trainer::timelineToJson(measured)}};
        ok = writeTextFileAtomic(path, doc.dump() + "\n");
    }
    if (!ok) complain(ok.error());
    return ok.ok();
}

} // namespace

int cmdTrain(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "train")) return BadInput;
    if (!args.positional().empty()) {
        complain("train: unexpected '" + args.positional().front() + "' (see ckpt --help)");
        return BadInput;
    }
    TrainerConfig config;
    int iterations = 100;
    if (!readConfig(args, config) || !wholeNumber(args, "iterations", 1, iterations)) return BadInput;
    auto made = Trainer::make(config);
    if (!made) {
        complain(withLimitHint(made.error(), config));
        return BadInput;
    }
    Trainer& t = **made;
    StopSignals signals;
    g_stop = false;
    g_signal = 0;
    t.setCancelFlag(&g_stop);
    // After a signal: the trainer goes first, and with it every scratch file, then the message.
    int iterationsDone = 0;
    auto interrupted = [&] {
        made->reset();
        const int sig = int(g_signal);
        std::fprintf(stderr, "ckpt train: stopped by %s after %d iteration%s; the scratch files are removed\n",
                     signalName(sig), iterationsDone, iterationsDone == 1 ? "" : "s");
        return 128 + (sig ? sig : SIGTERM);
    };
    const bool json = args.has("json");
    std::FILE* log = json ? stderr : stdout; // with --json, stdout holds the summary alone

    // A misspelt scheduler is told before the profile, which takes a while.
    const std::string name = args.value("scheduler", "store-all");
    if (!findScheduler(name)) {
        complain("train: unknown scheduler '" + name + "' (ckpt list shows them)");
        return BadInput;
    }

    // The hardware: a file, this machine as measured, or one unbounded level.
    const std::string hwArg = args.value("hardware");
    std::optional<Hardware> fileHw;
    if (!hwArg.empty() && hwArg != "measured") {
        fileHw = loadMachine(hwArg);
        if (!fileHw) return BadInput;
    }
    const bool disk = hwArg == "measured" || (fileHw && fileHw->levelCount() > 1);
    // The network's line before the profile, which takes a minute for a large network (32 steps, 5 times over).
    std::fprintf(log, "%s: %s\n", t.networkName().c_str(), t.task().describe(config.length).c_str());
    std::fflush(log);
    auto profile = t.profile(std::min(config.length, 32), 5, disk);
    if (g_stop) return interrupted();
    if (!profile) {
        complain(profile.error());
        return BadInput;
    }
    const Hardware hw = hwArg == "measured" ? Trainer::measuredHardware(*profile)
                        : fileHw            ? *fileHw
                                            : Hardware::unbounded();
    const Chain chain = t.chain(*profile);
    if (args.has("profile")) {
        auto ok = saveChain(args.value("profile"), chain);
        if (!ok) {
            complain(ok.error());
            return BadInput;
        }
    }
    std::fprintf(log, "profile: forward %s (untaped %s, taped %s), backward %s per step; state %s, tape %s\n",
                 formatSeconds(profile->forward_s).c_str(), formatSeconds(profile->forward_untaped_s).c_str(),
                 formatSeconds(profile->forward_taped_s).c_str(), formatSeconds(profile->backward_s).c_str(),
                 formatBytes(double(profile->state_bytes)).c_str(), formatBytes(double(profile->tape_bytes)).c_str());
    if (disk)
        std::fprintf(log, "disk level (files): write %s/s, read %s/s measured\n",
                     formatBytes(profile->write_bytes_per_s).c_str(), formatBytes(profile->read_bytes_per_s).c_str());

    SolveRequest req;
    if (!readSolveRequest(args, name, chain, hw, req)) return BadInput;
    Run run = runScheduler(name, chain, hw, req);
    if (g_stop) return interrupted();
    if (!run.feasible) {
        complain(run.message);
        return exitCodeOf(run);
    }
    const Totals& predicted = run.timeline->totals;
    if (auto fits = t.checkMemory(double(predicted.peak_bytes[0]), args.has("check-gradients")); !fits) {
        complain(withLimitHint(fits.error(), config));
        return BadInput;
    }
    const std::int64_t storeAll = storeAllPeak(chain, hw);

    std::vector<double> losses, seconds, makespans, waits, budgetWaits;
    std::vector<std::int64_t> peaks(std::size_t(hw.levelCount()), 0);
    double gradDiff = args.has("check-gradients") ? 0.0 : -1.0;
    Timeline last;
    for (int k = 1; k <= iterations; ++k) {
        auto it = t.iterate(*run.chainPlan(), hw, args.has("check-gradients"));
        if (g_stop) return interrupted();
        if (!it) {
            complain("iteration " + std::to_string(k) + ": " + it.error());
            return BadInput;
        }
        losses.push_back(it->loss);
        seconds.push_back(it->seconds);
        makespans.push_back(it->execution.timeline.totals.makespan_s);
        waits.push_back(it->execution.read_wait_s);
        budgetWaits.push_back(it->execution.budget_wait_s);
        iterationsDone = k;
        for (std::size_t l = 0; l < peaks.size(); ++l)
            peaks[l] = std::max(peaks[l], it->execution.timeline.totals.peak_bytes[l]);
        if (it->max_abs_grad_diff >= 0) gradDiff = std::max(gradDiff, it->max_abs_grad_diff);
        std::fprintf(
            log, "iteration %d  loss %.6f  %s (plan %s)%s\n", k, it->loss, formatSeconds(it->seconds).c_str(),
            formatSeconds(it->execution.timeline.totals.makespan_s).c_str(),
            it->max_abs_grad_diff >= 0 ? ("  max |grad - store-all| " + fmt("%g", it->max_abs_grad_diff)).c_str() : "");
        if (k == iterations) last = std::move(it->execution.timeline);
    }
    if (args.has("timeline") && !writeTimelines(args.value("timeline"), run, chain, last)) return BadInput;

    const double measuredMakespan = median(makespans);
    const double error = predicted.makespan_s > 0 ? measuredMakespan / predicted.makespan_s - 1 : 0;
    if (json) {
        nlohmann::json j = {{"scheduler", run.scheduler},
                            {"params", run.params},
                            {"budget_bytes", run.budget_bytes},
                            {"cell", trainer::cellName(config.cell)},
                            {"hidden", config.hidden},
                            {"batch", config.batch},
                            {"input", t.task().inputWidth()},
                            {"length", config.length},
                            {"task", t.task().name()},
                            {"precision", config.precision == trainer::Precision::Fp32 ? "fp32" : "fp64"},
                            {"iterations", iterations},
                            {"losses", losses},
                            {"loss_first", losses.front()},
                            {"loss_last", losses.back()},
                            {"seconds_per_iteration", median(seconds)},
                            {"measured_makespan_s", measuredMakespan},
                            {"predicted_makespan_s", predicted.makespan_s},
                            {"prediction_error", error},
                            {"read_wait_s", median(waits)},
                            {"budget_wait_s", median(budgetWaits)},
                            {"peak_store_bytes", peaks[0]},
                            {"peak_bytes", peaks},
                            {"predicted_peak_store_bytes", predicted.peak_bytes[0]},
                            {"peak_store_bytes_store_all", storeAll},
                            {"forward_steps", last.totals.forward_steps},
                            {"recomputed_steps", last.totals.recomputed_steps},
                            {"bytes_written", last.totals.bytes_written},
                            {"bytes_read", last.totals.bytes_read},
                            {"state_bytes", profile->state_bytes},
                            {"tape_bytes", profile->tape_bytes},
                            {"parameters", t.parameterCount()},
                            {"profile",
                             {{"forward_s", profile->forward_s},
                              {"forward_untaped_s", profile->forward_untaped_s},
                              {"forward_taped_s", profile->forward_taped_s},
                              {"backward_s", profile->backward_s},
                              {"write_bytes_per_s", profile->write_bytes_per_s},
                              {"read_bytes_per_s", profile->read_bytes_per_s}}}};
        if (gradDiff >= 0) j["max_abs_grad_diff"] = gradDiff;
        std::puts(j.dump(2).c_str());
        return Done;
    }
    std::printf("\nscheduler      %s", run.scheduler.c_str());
    for (const auto& [k, v] : run.params)
        std::printf("  %s=%s", k.c_str(), v.c_str());
    std::printf("\nloss           %.6f -> %.6f (%.2fx lower)\n", losses.front(), losses.back(),
                losses.back() > 0 ? losses.front() / losses.back() : 0.0);
    std::printf("per iteration  %s (median), the plan %s measured, %s predicted (%+.1f%%)\n",
                formatSeconds(median(seconds)).c_str(), formatSeconds(measuredMakespan).c_str(),
                formatSeconds(predicted.makespan_s).c_str(), 100 * error);
    std::printf("forward steps  %lld (%lld recomputed)\n", last.totals.forward_steps, last.totals.recomputed_steps);
    std::printf("store peak     %s measured, %s predicted, store-all %s (%.1f%% of it)\n",
                formatBytes(double(peaks[0])).c_str(), formatBytes(double(predicted.peak_bytes[0])).c_str(),
                formatBytes(double(storeAll)).c_str(),
                100.0 * double(peaks[0]) / double(std::max<std::int64_t>(1, storeAll)));
    for (std::size_t l = 1; l < peaks.size(); ++l)
        std::printf("level %zu peak   %s measured, %s predicted; %s written, %s read per iteration\n", l,
                    formatBytes(double(peaks[l])).c_str(), formatBytes(double(predicted.peak_bytes[l])).c_str(),
                    formatBytes(double(last.totals.bytes_written)).c_str(),
                    formatBytes(double(last.totals.bytes_read)).c_str());
    if (median(budgetWaits) > 0)
        std::printf("budget waits   %s per iteration (median): compute waited for writes to free RAM\n",
                    formatSeconds(median(budgetWaits)).c_str());
    if (gradDiff >= 0) std::printf("gradients      max |diff| against store-all BPTT: %g\n", gradDiff);
    return Done;
}

} // namespace ckpt::cli
