#pragma once
// What the subcommands share: loading the problem and the machine, and printing a run.
#include "args.h"
#include "model/chain.h"
#include "model/hardware.h"
#include "run/runner.h"

#include <optional>
#include <string>

namespace ckpt::cli {

// Prints "ckpt: <message>" to stderr.
void complain(const std::string& message);

std::optional<Chain> loadProblem(const std::string& path);
// An empty path means one unbounded level.
std::optional<Hardware> loadMachine(const std::string& path);

// The human summary of one run, several lines.
std::string describeRun(const Run& run, const Hardware& hw);
// Exit code for a run: Done, Infeasible or BadInput.
int exitCodeOf(const Run& run);

} // namespace ckpt::cli
