// Writes and reads ckpt-project files with the engine's own functions, for check_schemas.py: no subcommand of ckpt
// reads or writes a project (the explorer's File > Save and Open do, through saveProject and loadProject).
//   schema_project_file write PROBLEM HARDWARE OUT  a project of PROBLEM (a chain or graph file) on HARDWARE, with
//                                                   settings the explorer could have, saved as File > Save saves it
//   schema_project_file read FILE                   loads FILE as File > Open does; exit 0, or 2 with the message
#include "io/json_io.h"
#include "io/project_io.h"

#include <cstdio>
#include <string>

using namespace ckpt;

namespace {

int bad(const std::string& message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    return 2;
}

int write(const std::string& problemPath, const std::string& hardwarePath, const std::string& out) {
    auto problem = loadChainOrGraph(problemPath);
    if (!problem) return bad(problem.error());
    auto hw = loadHardware(hardwarePath);
    if (!hw) return bad(hw.error());
    ProjectSettings settings;
    settings.scheduler = "revolve";
    settings.schedulers = {"revolve", "rotor", "store-all"};
    settings.params["revolve"]["slots"] = "3";
    settings.budget_bytes = 64 << 20;
    settings.budgets = "none,5%,20%,64MiB";
    // As the explorer holds a graph: a placeholder chain beside it (document.cpp), not written.
    Project project{*Chain::make("chain", {Step{1e-3, 2e-3, 1 << 20, 3 << 20, 0, 0}}), *hw, settings};
    if (const Graph* g = problem->graph())
        project.graph = *g;
    else
        project.chain = *problem->chain();
    auto saved = saveProject(out, project);
    if (!saved) return bad(saved.error());
    return 0;
}

int read(const std::string& path) {
    auto project = loadProject(path);
    if (!project) return bad(project.error());
    const std::string what = project->graph ? "graph " + project->graph->name() : "chain " + project->chain.name();
    std::printf("%s: %s, %zu levels, scheduler %s\n", path.c_str(), what.c_str(), project->hardware.levels().size(),
                project->settings.scheduler.c_str());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "write" && argc == 5) return write(argv[2], argv[3], argv[4]);
    if (cmd == "read" && argc == 3) return read(argv[2]);
    return bad("usage: schema_project_file write PROBLEM HARDWARE OUT | read FILE");
}
