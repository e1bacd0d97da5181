// ckpt bench: how fast the engine plans and simulates long chains (numbers for the closing notes and the README).
#include "commands.h"
#include "common.h"
#include "schedulers/revolve.h"
#include "sim/simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace ckpt::cli {

int cmdBench(int argc, char** argv) {
    Args args;
    if (!args.parse(argc, argv, 2, {"json"}, {"steps", "slots", "repeat"})) {
        complain("bench: " + args.error());
        return BadInput;
    }
    int n = std::atoi(args.value("steps", "100000").c_str());
    int s = std::atoi(args.value("slots", "100").c_str());
    int repeat = std::max(1, std::atoi(args.value("repeat", "5").c_str()));
    if (n < 1 || s < 1) {
        complain("bench: --steps and --slots must be >= 1");
        return BadInput;
    }
    Chain chain = *Chain::uniform("bench", n, Step{1e-3, 2e-3, 1 << 20, 3 << 20, 0, 0});
    Hardware hw = Hardware::unbounded();
    using clock = std::chrono::steady_clock;
    std::vector<double> planMs, simMs;
    std::size_t actions = 0;
    long long forwardSteps = 0;
    for (int k = 0; k < repeat; ++k) {
        auto t0 = clock::now();
        Plan p = revolvePlan(chain, s);
        auto t1 = clock::now();
        auto tl = simulate(chain, hw, p.actions);
        auto t2 = clock::now();
        if (!tl) {
            complain("bench: the plan does not validate: " + tl.error());
            return BadInput;
        }
        actions = p.actions.size();
        forwardSteps = tl->totals.forward_steps;
        planMs.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        simMs.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    }
    std::sort(planMs.begin(), planMs.end());
    std::sort(simMs.begin(), simMs.end());
    double plan = planMs[planMs.size() / 2], sim = simMs[simMs.size() / 2];
    double perSec = double(actions) / ((plan + sim) / 1000.0);
    if (args.has("json")) {
        std::printf("{\"scheduler\":\"revolve\",\"steps\":%d,\"slots\":%d,\"actions\":%zu,\"forward_steps\":%lld,"
                    "\"plan_ms\":%.3f,\"simulate_ms\":%.3f,\"actions_per_s\":%.0f}\n",
                    n, s, actions, forwardSteps, plan, sim, perSec);
    } else {
        std::printf("revolve, n = %d steps, %d slots (median of %d runs)\n", n, s, repeat);
        std::printf("  actions produced   %zu (%lld forward steps)\n", actions, forwardSteps);
        std::printf("  time to plan       %.2f ms\n", plan);
        std::printf("  time to simulate   %.2f ms\n", sim);
        std::printf("  total              %.2f ms\n", plan + sim);
        std::printf("  actions per second %.3g\n", perSec);
    }
    return Done;
}

} // namespace ckpt::cli
