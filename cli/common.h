#pragma once
// What the subcommands share: loading the problem and the machine, and printing a run.
#include "args.h"
#include "model/chain.h"
#include "model/graph.h"
#include "model/hardware.h"
#include "run/runner.h"

#include <optional>
#include <string>

namespace ckpt::cli {

// Prints "ckpt: <message>" to stderr.
void complain(const std::string& message);

std::optional<Chain> loadProblem(const std::string& path);
// True when the file is a ckpt-graph (judged by its "format"); a file that does not parse is left to loadProblem.
bool isGraphFile(const std::string& path);
std::optional<Graph> loadGraphProblem(const std::string& path);
// An empty path means one unbounded level.
std::optional<Hardware> loadMachine(const std::string& path);

// The human summary of one run, several lines.
std::string describeRun(const Run& run, const Hardware& hw);
// The scheduler's parameters (--param k=v, --slots N for its slots or segments) and budget (--budget: a size, or a
// percentage of store-all's peak) as `ckpt solve` reads them; false after a message (an unknown scheduler too).
bool readSolveRequest(const Args& args, const std::string& name, const Chain& chain, const Hardware& hw,
                      SolveRequest& req);

// The same for a graph: a graph scheduler's parameters, or a chain scheduler's when the graph is a chain.
bool readSolveRequest(const Args& args, const std::string& name, const Graph& graph, const Hardware& hw,
                      SolveRequest& req);

// One stderr line per scheduler the machine cannot run ("ckpt: NAME: n/a: reason"); such runs are not failures.
void reportUnavailable(const std::vector<Run>& runs);

// Exit code for a run: Done, Infeasible or BadInput.
int exitCodeOf(const Run& run);

} // namespace ckpt::cli
