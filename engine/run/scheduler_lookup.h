#pragma once
// Which scheduler a name means for a problem. The rule, in one place: on a graph, a graph scheduler first (store-all
// is in both lists), else a chain scheduler if the graph is a chain or splits into segments (it then runs on the
// chain the graph converts to: Problem::chain); on a chain, a chain scheduler.
#include "model/problem.h"
#include "schedulers/graph_registry.h"
#include "schedulers/registry.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace ckpt {

struct SchedulerChoice {
    const GraphSchedulerInfo* graph = nullptr; // runs on problem.graph()
    const SchedulerInfo* chain = nullptr;      // runs on problem.chain()
    const std::string& name() const { return graph ? graph->name : chain->name; }
    const std::vector<ParamSpec>& params() const { return graph ? graph->params : chain->params; }
    Optimality optimality() const { return graph ? graph->optimality : chain->optimality; }
    const std::string& description() const { return graph ? graph->description : chain->description; }
    const std::string& paper() const { return graph ? graph->paper : chain->paper; }
};

// The scheduler `name` means for `problem`, or why there is none (unknown, or a chain scheduler on a graph that is
// not a chain); the message lists the names that would work.
Result<SchedulerChoice> findSchedulerFor(const std::string& name, const Problem& problem);
// Every name that works for `problem`, in registry order: graph schedulers first, then the chain schedulers that no
// graph scheduler shadows (on a graph that is a chain; on a chain, the chain schedulers alone; on another graph split
// into segments, rotor alone, though every chain scheduler runs there by name).
std::vector<std::string> schedulerNames(const Problem& problem);

// Every chain scheduler, in registry order (the trainer runs them on the chain it measures).
std::vector<std::string> chainSchedulerNames();
// The memory levels the chain scheduler `name` needs (2: it writes states to a slower level); 1 when unknown.
int chainSchedulerLevels(const std::string& name);

} // namespace ckpt
