#include "run/scheduler_lookup.h"

namespace ckpt {

Result<SchedulerChoice> findSchedulerFor(const std::string& name, const Problem& problem) {
    SchedulerChoice choice;
    if (problem.isGraph()) choice.graph = findGraphScheduler(name);
    if (!choice.graph && problem.schedulingChain()) choice.chain = findScheduler(name);
    if (choice.graph || choice.chain) return choice;
    std::string known;
    for (const std::string& n : schedulerNames(problem))
        known += (known.empty() ? "" : ", ") + n;
    if (problem.isGraph() && findScheduler(name))
        return fail("'" + name + "' is a chain scheduler and the graph '" + problem.name() +
                    "' is not a chain, nor split by any articulation point into a chain of segments (graph "
                    "schedulers: " +
                    known + ")");
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
    // On a graph's segments, rotor alone, the optimum among the chain schedulers (the others by name): the lists and
    // comparisons of a network stay the graph schedulers' and one chain DP beside them.
    if (problem.chainIsSegments()) {
        out.push_back("rotor");
        return out;
    }
    if (problem.schedulingChain())
        for (const SchedulerInfo& s : schedulers())
            if (!problem.isGraph() || !findGraphScheduler(s.name)) out.push_back(s.name);
    return out;
}

std::vector<std::string> chainSchedulerNames() {
    std::vector<std::string> out;
    for (const SchedulerInfo& s : schedulers())
        out.push_back(s.name);
    return out;
}

int chainSchedulerLevels(const std::string& name) {
    const SchedulerInfo* s = findScheduler(name);
    return s ? s->min_levels : 1;
}

} // namespace ckpt
