#include "run/scheduler_lookup.h"

namespace ckpt {

Result<SchedulerChoice> findSchedulerFor(const std::string& name, const Problem& problem) {
    SchedulerChoice choice;
    if (problem.isGraph()) choice.graph = findGraphScheduler(name);
    if (!choice.graph && problem.chain()) choice.chain = findScheduler(name);
    if (choice.graph || choice.chain) return choice;
    std::string known;
    for (const std::string& n : schedulerNames(problem))
        known += (known.empty() ? "" : ", ") + n;
    if (problem.isGraph() && findScheduler(name))
        return fail("'" + name + "' is a chain scheduler and the graph '" + problem.name() +
                    "' is not a chain (graph schedulers: " + known + ")");
    if (!problem.isGraph() && findGraphScheduler(name))
        return fail("'" + name + "' is a graph scheduler and '" + problem.name() +
                    "' is a chain (chain schedulers: " + known + "; a ckpt-graph file takes both)");
    return fail(std::string(problem.isGraph() ? "unknown graph scheduler '" : "unknown scheduler '") + name +
                "' (known: " + known + ")");
}

std::vector<std::string> schedulerNames(const Problem& problem) {
    std::vector<std::string> out;
    if (problem.isGraph())
        for (const GraphSchedulerInfo& s : graphSchedulers())
            out.push_back(s.name);
    if (problem.chain())
        for (const SchedulerInfo& s : schedulers())
            if (!problem.isGraph() || !findGraphScheduler(s.name)) out.push_back(s.name);
    return out;
}

} // namespace ckpt
