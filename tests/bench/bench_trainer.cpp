// bench_trainer: the trainer's figures for the closing notes and docs/performance.md. An LSTM (hidden 256, batch 32,
// T = 1000, fp32 by default) trained with store-all, periodic (sqrt T segments), revolve with 5 % of the states as
// slots, bptt-dp within 5 % of store-all's memory, async-multistage with a disk level of files, keeping 5 % of the
// states' bytes in RAM, offload-all (every tape to the disk level and back) within 5 % of store-all's memory, and
// offload-dp (each tape kept, offloaded or recomputed, optimally) within 5 % and 1 %. For each: seconds per
// iteration, the store's peak, and how far the measured plan is from the simulator's prediction on the profiled
// chain. Build it in Release (-DCKPT_NATIVE=ON); a plain program, not a test.
//
//   bench_trainer [--cell lstm] [--hidden 256] [--batch 32] [--length 1000] [--iterations 3] [--task copy]
//                 [--only NAME] [--scratch DIR] [--json]
#include "run/runner.h"
#include "trainer/trainer.h"
#include "util/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace ckpt;
using namespace ckpt::trainer;

namespace {

const char* option(int argc, char** argv, const char* key, const char* fallback) {
    for (int i = 1; i + 1 < argc; ++i)
        if (!std::strcmp(argv[i], key)) return argv[i + 1];
    return fallback;
}

bool flag(int argc, char** argv, const char* key) {
    for (int i = 1; i < argc; ++i)
        if (!std::strcmp(argv[i], key)) return true;
    return false;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.empty() ? 0 : v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

struct Case {
    std::string label;
    std::string scheduler;
    SolveRequest request;
};

struct Row {
    Case c;
    Run run;
    double seconds = 0;  // median per iteration
    double makespan = 0; // median measured plan
    std::int64_t peak = 0;
    long long forward_steps = 0;
    double read_wait = 0;
};

} // namespace

int main(int argc, char** argv) {
    TrainerConfig config;
    config.cell = parseCell(option(argc, argv, "--cell", "lstm")).value_or(CellKind::Lstm);
    config.hidden = std::atoi(option(argc, argv, "--hidden", "256"));
    config.batch = std::atoi(option(argc, argv, "--batch", "32"));
    config.length = std::atoi(option(argc, argv, "--length", "1000"));
    config.task = option(argc, argv, "--task", "copy");
    config.scratch = option(argc, argv, "--scratch", "");
    const int iterations = std::max(1, std::atoi(option(argc, argv, "--iterations", "3")));
    const std::string only = option(argc, argv, "--only", "");
    const bool json = flag(argc, argv, "--json");
    auto made = Trainer::make(config);
    if (!made) {
        std::fprintf(stderr, "bench_trainer: %s\n", made.error().c_str());
        return 2;
    }
    Trainer& t = **made;
    auto profile = t.profile(32, 5, true);
    if (!profile) {
        std::fprintf(stderr, "bench_trainer: %s\n", profile.error().c_str());
        return 2;
    }
    const Chain chain = t.chain(*profile);
    const Hardware hw = Trainer::measuredHardware(*profile);
    const int n = chain.length();
    const std::int64_t full = storeAllPeak(chain, hw);
    const std::int64_t states = std::int64_t(n + 1) * chain.stateBytes(0);

    std::vector<Case> cases;
    cases.push_back({"store-all", "store-all", {}});
    cases.push_back({"periodic (sqrt T)", "periodic", {{{"segments", std::to_string(int(std::sqrt(double(n))))}}, 0}});
    cases.push_back({"revolve (5% of states)", "revolve", {{{"slots", std::to_string(std::max(1, n / 20))}}, 0}});
    cases.push_back({"bptt-dp (5% of store-all)", "bptt-dp", {{}, full / 20}});
    cases.push_back({"async-multistage (disk, 5% of states in RAM)", "async-multistage", {{}, states / 20}});
    cases.push_back({"offload-all (every tape to disk, 5% of store-all)", "offload-all", {{}, full / 20}});
    cases.push_back({"offload-dp (keep/offload/recompute, 5% of store-all)", "offload-dp", {{}, full / 20}});
    cases.push_back({"offload-dp (keep/offload/recompute, 1% of store-all)", "offload-dp", {{}, full / 100}});

    if (!json) {
        std::printf("%s\n", chain.name().c_str());
        std::printf("profile: forward %s (untaped %s, taped %s), backward %s per step; state %s, tape %s; disk "
                    "write %s/s, read %s/s\n\n",
                    formatSeconds(profile->forward_s).c_str(), formatSeconds(profile->forward_untaped_s).c_str(),
                    formatSeconds(profile->forward_taped_s).c_str(), formatSeconds(profile->backward_s).c_str(),
                    formatBytes(double(profile->state_bytes)).c_str(), formatBytes(double(profile->tape_bytes)).c_str(),
                    formatBytes(profile->write_bytes_per_s).c_str(), formatBytes(profile->read_bytes_per_s).c_str());
    }
    std::vector<Row> rows;
    for (const Case& c : cases) {
        if (!only.empty() && c.scheduler != only) continue;
        Row r{c, runScheduler(c.scheduler, chain, hw, c.request)};
        if (!r.run.feasible) std::fprintf(stderr, "bench_trainer: %s: %s\n", c.label.c_str(), r.run.message.c_str());
        rows.push_back(std::move(r));
    }
    // Round robin, so a busy spell of the machine falls on every plan alike; the first round warms up.
    std::vector<std::vector<double>> secs(rows.size()), spans(rows.size()), waits(rows.size());
    for (int k = 0; k <= iterations; ++k)
        for (std::size_t q = 0; q < rows.size(); ++q) {
            Row& r = rows[q];
            if (!r.run.feasible) continue;
            auto it = t.iterate(*r.run.chainPlan(), hw, false);
            if (!it) {
                std::fprintf(stderr, "bench_trainer: %s: %s\n", r.c.label.c_str(), it.error().c_str());
                return 2;
            }
            r.peak = std::max(r.peak, it->execution.timeline.totals.peak_bytes[0]);
            r.forward_steps = it->execution.timeline.totals.forward_steps;
            if (k == 0) continue;
            secs[q].push_back(it->seconds);
            spans[q].push_back(it->execution.timeline.totals.makespan_s);
            waits[q].push_back(it->execution.read_wait_s);
        }
    for (std::size_t q = 0; q < rows.size(); ++q) {
        rows[q].seconds = median(secs[q]);
        rows[q].makespan = median(spans[q]);
        rows[q].read_wait = median(waits[q]);
    }

    double base = 0;
    for (const Row& r : rows)
        if (r.c.scheduler == "store-all" && r.run.feasible) base = r.seconds;
    if (json) {
        nlohmann::json all = nlohmann::json::array();
        for (const Row& r : rows) {
            nlohmann::json j = {{"label", r.c.label}, {"scheduler", r.c.scheduler}, {"feasible", r.run.feasible}};
            if (r.run.feasible) {
                const Totals& p = r.run.timeline->totals;
                j.update({{"params", r.run.params},
                          {"seconds_per_iteration", r.seconds},
                          {"time_vs_store_all", base > 0 ? r.seconds / base : 0},
                          {"peak_store_bytes", r.peak},
                          {"predicted_peak_store_bytes", p.peak_bytes[0]},
                          {"peak_store_bytes_store_all", full},
                          {"store_saved", 1 - double(r.peak) / double(full)},
                          {"states_in_ram", double(r.peak) / double(states)},
                          {"forward_steps", r.forward_steps},
                          {"measured_makespan_s", r.makespan},
                          {"predicted_makespan_s", p.makespan_s},
                          {"prediction_error", r.makespan / p.makespan_s - 1},
                          {"read_wait_s", r.read_wait}});
            } else {
                j["message"] = r.run.message;
            }
            all.push_back(j);
        }
        std::puts(all.dump(2).c_str());
        return 0;
    }
    std::printf("%-46s %-34s %9s %7s %11s %8s %8s %10s %10s %7s\n", "plan", "parameters", "s/iter", "x s-a",
                "store peak", "saved", "fwd", "predicted", "measured", "error");
    for (const Row& r : rows) {
        if (!r.run.feasible) {
            std::printf("%-46s infeasible: %s\n", r.c.label.c_str(), r.run.message.c_str());
            continue;
        }
        std::string params;
        for (const auto& [k, v] : r.run.params)
            params += (params.empty() ? "" : " ") + k + "=" + v;
        const Totals& p = r.run.timeline->totals;
        std::printf("%-46s %-34s %9.3f %6.3fx %11s %7.1f%% %8lld %9.3fs %9.3fs %+6.1f%%\n", r.c.label.c_str(),
                    params.substr(0, 34).c_str(), r.seconds, base > 0 ? r.seconds / base : 0.0,
                    formatBytes(double(r.peak)).c_str(), 100.0 * (1 - double(r.peak) / double(full)), r.forward_steps,
                    p.makespan_s, r.makespan, 100.0 * (r.makespan / p.makespan_s - 1));
    }
    std::printf("\nstore-all's store: %s; all %d states: %s. Times: median of %d rounds after one warm-up round.\n",
                formatBytes(double(full)).c_str(), n + 1, formatBytes(double(states)).c_str(), iterations);
    return 0;
}
