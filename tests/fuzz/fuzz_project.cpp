// Project files (loadProject, which reads a path: the input goes through a file of this process). A project that loads
// must save and read back equal; its budget list is parsed as the explorer does, and the parameters it names are
// checked against the registry.
#include "fuzz_target.h"
#include "io/graph_io.h"
#include "io/project_io.h"
#include "run/runner.h"
#include "schedulers/graph_registry.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace ckpt;
using namespace ckpt::fuzz;

namespace {

// The input's file and the saved copy, per process (libFuzzer's jobs run side by side), removed at exit.
struct Scratch {
    std::string input, saved;
    Scratch() {
        const auto dir = std::filesystem::temp_directory_path();
        const std::string stem = "ckpt-fuzz-project-" + std::to_string(::getpid());
        input = (dir / (stem + ".json")).string();
        saved = (dir / (stem + "-saved.json")).string();
    }
    ~Scratch() {
        std::remove(input.c_str());
        std::remove(saved.c_str());
    }
};

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    check(out.good(), "cannot write the scratch file " + path);
}

bool sameProject(const Project& a, const Project& b) {
    if (a.graph.has_value() != b.graph.has_value()) return false;
    if (a.graph && (a.graph->name() != b.graph->name() || a.graph->nodes() != b.graph->nodes() ||
                    a.graph->edges() != b.graph->edges()))
        return false;
    return (a.graph || a.chain == b.chain) && a.hardware == b.hardware && a.settings == b.settings;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const Scratch scratch;
    const std::string& path = scratch.input;
    const std::string& saved = scratch.saved;
    // Keep the documented-limit chains out (see tooLargeByDesign) without parsing for the loader.
    if (auto doc = parseJson(text(data, size), path);
        doc && doc->is_object() && doc->contains("chain") && tooLargeByDesign((*doc)["chain"]))
        return 0;
    writeBytes(path, text(data, size));
    (void)documentKind(path);
    auto project = loadProject(path);
    if (!project) {
        checkError(project.error(), path);
        return 0;
    }

    writeBytes(saved, projectToText(*project));
    auto again = loadProject(saved);
    check(again.ok(), "a saved project does not load: " + (again ? std::string() : again.error()));
    check(sameProject(*again, *project), "a project does not read back equal");

    const ProjectSettings& s = project->settings;
    for (const auto& [name, given] : s.params) {
        if (const SchedulerInfo* info = findScheduler(name)) (void)checkParams(name, info->params, given);
        if (const GraphSchedulerInfo* info = findGraphScheduler(name)) (void)checkParams(name, info->params, given);
    }
    if (project->graph) {
        if (project->graph->size() <= 256)
            (void)parseBudgets(s.budgets, [&] { return graphStoreAllPeak(*project->graph); });
    } else if (project->chain.length() <= 256) {
        (void)parseBudgetList(s.budgets, project->chain, project->hardware);
    }
    return 0;
}
