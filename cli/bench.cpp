// ckpt bench: how fast the engine plans and simulates long chains (numbers for the closing notes and
// docs/performance.md).
#include "commands.h"
#include "common.h"
#include "run/runner.h"
#include "schedulers/revolve.h"
#include "schedulers/rotor.h"
#include "sim/simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

namespace ckpt::cli {

int cmdBench(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "bench")) return BadInput;
    if (args.has("graphs")) return benchGraphs(args);
    if (args.has("onnx")) return benchImport(args);
    int n = 100000, s = 100, repeat = 5, rotorSteps = 1000;
    if (!wholeNumber(args, "steps", 1, n) || !wholeNumber(args, "slots", 1, s) ||
        !wholeNumber(args, "repeat", 1, repeat, 1000) || !wholeNumber(args, "rotor-steps", 0, rotorSteps))
        return BadInput;
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
    // Rotor on a seeded heterogeneous chain: the DP is O(n^3 M) there (no position invariance to exploit).
    double rotorMs = -1, referenceMs = -1;
    std::size_t rotorActions = 0;
    int rotorThreads = 0;
    bool referenceEqual = false;
    double rotorOverhead = 0, rotorBound = -1; // the optimum's time less store-all's; the pruning's bound, if any
    if (rotorSteps > 0) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> cost(0.5e-3, 3e-3);
        std::uniform_int_distribution<int> mib(1, 16);
        std::vector<Step> steps;
        for (int i = 0; i < rotorSteps; ++i) {
            double f = cost(rng);
            steps.push_back(Step{f, 2 * f, std::int64_t(mib(rng)) << 20, std::int64_t(mib(rng)) << 21, 0, 0});
        }
        Chain het = *Chain::make("bench-heterogeneous", steps);
        std::int64_t budget = storeAllPeak(het, hw) / 10;
        auto t0 = clock::now();
        auto r = rotorSolve(het, budget, 500);
        rotorMs = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
        if (!r) {
            complain("bench: rotor: " + r.error());
            return BadInput;
        }
        auto tl = simulate(het, hw, r->plan.actions, SimOptions{budget, false});
        if (!tl) {
            complain("bench: rotor's plan does not validate: " + tl.error());
            return BadInput;
        }
        rotorActions = r->plan.actions.size();
        rotorThreads = r->threads;
        double base = 0;
        for (int i = 1; i <= het.length(); ++i)
            base += het.step(i).forward + het.step(i).backward;
        rotorOverhead = r->dp_cost - base;
        if (r->bound) rotorBound = *r->bound;
        if (args.has("rotor-reference")) {
            const int M = int(budget / r->unit);
            t0 = clock::now();
            const float reference = rotor_detail::plainOptimum(het, r->unit, M);
            referenceMs = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
            referenceEqual = double(reference) == r->dp_cost;
        }
    }
    const unsigned cores = std::thread::hardware_concurrency();
    if (args.has("json")) {
        std::printf("{\"scheduler\":\"revolve\",\"steps\":%d,\"slots\":%d,\"actions\":%zu,\"forward_steps\":%lld,"
                    "\"plan_ms\":%.3f,\"simulate_ms\":%.3f,\"actions_per_s\":%.0f,\"rotor_steps\":%d,\"rotor_ms\":%.1f,"
                    "\"rotor_threads\":%d,\"cores\":%u",
                    n, s, actions, forwardSteps, plan, sim, perSec, rotorSteps, rotorMs, rotorThreads, cores);
        if (rotorBound >= 0)
            std::printf(",\"rotor_overhead_s\":%.6f,\"rotor_bound_s\":%.6f", rotorOverhead, rotorBound);
        if (referenceMs >= 0)
            std::printf(",\"rotor_reference_ms\":%.1f,\"rotor_reference_equal\":%s", referenceMs,
                        referenceEqual ? "true" : "false");
        std::printf("}\n");
    } else {
        std::printf("revolve, n = %d steps, %d slots (median of %d runs)\n", n, s, repeat);
        std::printf("  actions produced   %zu (%lld forward steps)\n", actions, forwardSteps);
        std::printf("  time to plan       %.2f ms\n", plan);
        std::printf("  time to simulate   %.2f ms\n", sim);
        std::printf("  total              %.2f ms\n", plan + sim);
        std::printf("  actions per second %.3g\n", perSec);
        if (rotorSteps > 0)
            std::printf(
                "rotor, n = %d heterogeneous steps (seed 7), 500 memory slots, budget 10%% of store-all's peak\n"
                "  time to solve      %.0f ms (%zu actions; table filled on %d thread%s, %u cores)\n",
                rotorSteps, rotorMs, rotorActions, rotorThreads, rotorThreads == 1 ? "" : "s", cores);
        if (rotorBound >= 0)
            std::printf(
                "  pruned by          a plan on a grid of states, %.3f s over store-all's time (the optimum: %.3f "
                "s over)\n",
                rotorBound, rotorOverhead);
        if (referenceMs >= 0)
            std::printf("  reference          %.0f ms (the rotor paper's algorithm: every split point at every slot, "
                        "cell by cell, one thread; same optimum: %s)\n",
                        referenceMs, referenceEqual ? "yes" : "NO");
    }
    if (referenceMs >= 0 && !referenceEqual) {
        complain("bench: rotor's tiled table and the reference give different optima");
        return BadInput;
    }
    return Done;
}

} // namespace ckpt::cli
