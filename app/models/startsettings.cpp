#include "startsettings.h"

#include "model/problem.h"
#include "run/budget.h"
#include "run/runner.h"
#include "run/scheduler_lookup.h"

using namespace ckpt;

ProjectSettings graphStartSettings(const Graph& graph, const Hardware& hw) {
    ProjectSettings s;
    // The first fast graph scheduler that trades memory for time (the slider re-solves at once), at the tightest of
    // a few fractions of store-all's peak that it meets, so that the first plan shown has to recompute;
    // store-all (always there) without a budget otherwise.
    s.scheduler = "store-all";
    const Problem problem(graph);
    for (const char* name : {"lower-set-dp", "chen-greedy", "dtr"}) {
        if (!findSchedulerFor(name, problem)) continue;
        s.scheduler = name;
        const std::int64_t peak = storeAllPeak(problem, hw);
        for (double f : {0.5, 0.65, 0.8}) {
            SolveRequest r;
            r.budget_bytes = std::int64_t(double(peak) * f);
            if (runScheduler(name, problem, hw, r).feasible) {
                s.budget_bytes = r.budget_bytes;
                break;
            }
        }
        break;
    }
    return s;
}

ProjectSettings chainStartSettings(const Chain& chain, const ProjectSettings& current, const Hardware& hw) {
    // The window's settings, but a budget for this chain: the one before was bytes of another problem, often below
    // what this chain needs (the LSTM's 5 % is under any plan of the 12-step example). The shown scheduler (revolve
    // when it cannot run chains) at the tightest of a few fractions of store-all's peak that it meets, so the first
    // plan shown recomputes; no budget when none is met. Long chains, and schedulers whose solve is not immediate
    // (the dynamic programmes), skip the trial solves and take 5 %.
    ProjectSettings s = current;
    const Problem problem(chain);
    if (!findSchedulerFor(s.scheduler, problem)) s.scheduler = "revolve";
    const std::int64_t peak = storeAllPeak(problem, hw);
    const bool quick = s.scheduler == "revolve" || s.scheduler == "periodic" || s.scheduler == "store-all";
    s.budget_bytes = chain.length() > 5000 || !quick ? peak / 20 : 0;
    if (s.budget_bytes > 0) return s;
    SolveRequest r;
    if (auto it = s.params.find(s.scheduler); it != s.params.end()) r.params = it->second;
    for (double f : {0.05, 0.1, 0.2, 0.35, 0.5}) {
        r.budget_bytes = std::int64_t(double(peak) * f);
        if (runScheduler(s.scheduler, problem, hw, r).feasible) {
            s.budget_bytes = r.budget_bytes;
            break;
        }
    }
    return s;
}
