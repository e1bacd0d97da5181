#pragma once
// What the subcommands share: loading the problem and the machine, and printing a run.
#include "args.h"
#include "io/presets.h"
#include "model/chain.h"
#include "model/graph.h"
#include "model/hardware.h"
#include "run/runner.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ckpt::cli {

// Prints "ckpt: <message>" to stderr.
void complain(const std::string& message);
// The arguments after `ckpt COMMAND` by the options table (options.h); false after a message naming COMMAND's help.
bool parseArgs(Args& args, int argc, char** argv, const std::string& command);
// --key as a whole number from lo to hi (absent: out untouched, true); otherwise complains, naming the key.
bool wholeNumber(const Args& args, const std::string& key, int lo, int& out, int hi = 1'000'000'000);

std::optional<Chain> loadProblem(const std::string& path);
std::optional<Graph> loadGraphProblem(const std::string& path);
// A chain or a graph file, read and parsed once: a graph when its "format" is ckpt-graph, else a chain (whose reader
// words what is wrong with anything else). Nullopt after a message.
// `context` ("lesson.json: scenes[2].problem") comes before the message, when given.
std::optional<Problem> loadChainOrGraph(const std::string& path, const std::string& context = {});
// An empty path means one unbounded level. A name that is no file, with no folder and no .json ending, is a shipped
// preset ("gpu-a100": resources/hardware/gpu-a100.ckpt-hardware.json), as figure specs name them.
std::optional<Hardware> loadMachine(const std::string& path, const std::string& context = {});

// The shipped hardware presets (io/presets.h: isPresetName): where the one named is (beside the build tree, the
// installed share folder or the sources; empty when there is none), and all their names.
std::string presetPath(const std::string& name);
std::vector<std::string> presetNames();

// JSON for stdout. A name or message may carry bytes that are not UTF-8 (a file name may be any bytes): they print as
// U+FFFD instead of aborting the dump.
std::string jsonText(const nlohmann::json& doc);

// The run's makespan over store-all's (1 when store-all takes no time: a chain of zero-time steps).
double overheadOf(const Run& run);

// The human summary of one run, several lines.
std::string describeRun(const Run& run, const Hardware& hw);
// The scheduler's parameters (--param k=v, --slots N for its slots or segments) and budget (--budget: a size, or a
// percentage of store-all's peak) as `ckpt solve` reads them; false after a message (an unknown scheduler too, or a
// chain scheduler on a graph that is not a chain).
bool readSolveRequest(const Args& args, const std::string& name, const Problem& problem, const Hardware& hw,
                      SolveRequest& req);

// PROBLEM (the first positional argument) on --hardware, solved by `name` with the options readSolveRequest reads:
// what `ckpt solve` and `ckpt explain` start from. Nullopt after a message when an input is bad.
struct Solved {
    Problem problem;
    Hardware hw;
    Run run;
};
std::optional<Solved> solveFromArgs(const Args& args, const std::string& name);

// One stderr line per scheduler the machine cannot run ("ckpt: NAME: n/a: reason"); such runs are not failures.
void reportUnavailable(const std::vector<Run>& runs);

// Exit code for a run: Done, Infeasible or BadInput.
int exitCodeOf(const Run& run);

} // namespace ckpt::cli
