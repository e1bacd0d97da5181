// ckpt: every feature of the engine from the shell.
#include "commands.h"
#include "options.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

namespace {

int dispatch(int argc, char** argv);

} // namespace

// The engine reports errors as values; what still escapes (memory running out past every estimate, a library's
// exception) ends here with a message and exit 2, never an abort.
int main(int argc, char** argv) {
    try {
        return dispatch(argc, argv);
    } catch (const std::bad_alloc&) {
        std::fputs("ckpt: out of memory: the problem or plan is too large for this machine; try a shorter chain, "
                   "more slots or a larger budget\n",
                   stderr);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ckpt: internal error: %s\n", e.what());
    } catch (...) {
        std::fputs("ckpt: internal error (an unknown exception)\n", stderr);
    }
    return ckpt::cli::BadInput;
}

namespace {

int dispatch(int argc, char** argv) {
    using namespace ckpt::cli;
    const bool help =
        argc >= 2 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help"));
    // `ckpt help SUB`, and `ckpt SUB --help` (or -h) wherever it stands among SUB's arguments.
    if (help && argc >= 3 && findCommand(argv[2])) return std::fputs(commandHelp(argv[2]).c_str(), stdout), Done;
    if (argc < 2 || help) {
        std::fputs(usageText(), argc < 2 ? stderr : stdout);
        return argc < 2 ? BadInput : Done;
    }
    std::string cmd = argv[1];
    for (int k = 2; k < argc && findCommand(cmd); ++k)
        if (!std::strcmp(argv[k], "--help") || !std::strcmp(argv[k], "-h"))
            return std::fputs(commandHelp(cmd).c_str(), stdout), Done;
    if (cmd == "--version") {
        std::puts("ckpt " CKPT_VERSION);
        return Done;
    }
    if (cmd == "list") return cmdList(argc, argv);
    if (cmd == "solve") return cmdSolve(argc, argv);
    if (cmd == "simulate") return cmdSimulate(argc, argv);
    if (cmd == "compare") return cmdCompare(argc, argv);
    if (cmd == "bench") return cmdBench(argc, argv);
    if (cmd == "generate") return cmdGenerate(argc, argv);
    if (cmd == "reproduce") return cmdReproduce(argc, argv);
    if (cmd == "import") return cmdImport(argc, argv);
    if (cmd == "train") return cmdTrain(argc, argv);
    if (cmd == "explain") return cmdExplain(argc, argv);
    if (cmd == "layout") return cmdLayout(argc, argv);
    if (cmd == "pipeline") return cmdPipeline(argc, argv);
    if (cmd == "lesson") return cmdLesson(argc, argv);
    if (cmd == "render" || cmd == "figure") {
#ifdef CKPT_HAVE_CHARTS
        return cmd == "render" ? cmdRender(argc, argv) : cmdFigure(argc, argv);
#else
        std::fputs("ckpt: this build has no charts (configured with CKPT_BUILD_GUI=OFF)\n", stderr);
        return BadInput;
#endif
    }
    std::fprintf(stderr, "ckpt: unknown command '%s'\n\n%s", cmd.c_str(), usageText());
    return BadInput;
}

} // namespace
