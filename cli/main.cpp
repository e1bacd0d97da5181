// ckpt: every feature of the engine from the shell.
#include "commands.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

namespace {

const char* kUsage = R"(ckpt - compare checkpointing schedules for backpropagation

usage:
  ckpt list [--json]
  ckpt solve PROBLEM [--hardware HW] --scheduler NAME [--slots N | --budget BYTES] [--param k=v]...
             [--out PLAN] [--format json|csv|trace] [--json]
  ckpt simulate PROBLEM PLAN [--hardware HW] [--json]
  ckpt compare PROBLEM [--hardware HW] [--schedulers a,b,...] [--budgets LIST] [--param NAME.k=v]...
             [--csv FILE] [--json]
  ckpt render PROBLEM [--hardware HW] --scheduler NAME [--slots N | --budget BYTES] [--param k=v]...
             --chart gantt|memory|sweep|tradeoff --out FILE.(pdf|svg|png) [--size WxH | --preset NAME]
             [--font-size PT] [--dpi N] [--data FILE.csv] [--log none|memory|time|both]
             [--at ACTION] [--frames DIR [--every N]]
  ckpt explain PROBLEM [--hardware HW] --scheduler NAME [--slots N | --budget BYTES] [--param k=v]...
             [--from ACTION] [--to ACTION]
  ckpt layout PROBLEM [--hardware HW] --scheduler NAME [--slots N | --budget BYTES] [--param k=v]... [--json]
  ckpt pipeline PROBLEM --stages K --micro-batches M [--device-memory BYTES[,BYTES...]] [--link-bandwidth RATE]
             [--link-latency S] [--cuts a,b,...] [--no-recompute] [--out TRACE.json] [--json]
  ckpt lesson LESSON.json [--check]
  ckpt figure SPEC.json --out FILE.(pdf|svg|png) [--dpi N] [--data DIR]
  ckpt generate [--kind random-dag|join|linear] [--nodes N] [--seed S] [--width W] --out GRAPH.json
  ckpt generate --kind transformer [--layers L] [--hidden H] [--heads A] [--seq S] [--batch B] [--dtype bf16|fp16|fp32]
             [--tensor-parallel T] [--sequence-parallel] [--flash-attention] [--vocab V] [--hardware HW] --out GRAPH.json
  ckpt reproduce korthikanti2022 [--hardware HW] [--json]
  ckpt import MODEL.onnx [--batch N] [--input NAME=1x3x224x224]... [--dtype fp32|fp16|bf16] [--hardware HW]
             [--out NET.ckpt-graph.json] [--as-chain] [--strict]
  ckpt bench [--steps N] [--slots S] [--repeat K] [--rotor-steps N] [--rotor-reference] [--json]
  ckpt bench --graphs [--graph FILE,...] [--budgets LIST] [--schedulers a,b] [--param NAME.k=v]... [--reduction a,b]
             [--overheads 1,1.1,1.33] [--reduction-max-nodes N]
  ckpt bench --graphs --onnx-dir DIR [--batch N] [--seq N] [--budgets LIST] [--schedulers a,b] [--param NAME.k=v]...
  ckpt bench --onnx MODEL.onnx [--batch N] [--seq N] [--repeat K] [--json]
  ckpt train [--cell lstm|gru|rnn] [--hidden H] [--batch B] [--input I] [--length T] [--task copy|adding|sine|text]
             [--text FILE] [--scheduler NAME] [--slots N | --budget BYTES|P%] [--param k=v]... [--hardware HW|measured]
             [--iterations K] [--precision fp32|fp64] [--optimizer adam|sgd] [--lr X] [--clip X] [--seed N]
             [--scratch DIR] [--memory-limit BYTES] [--check-gradients] [--profile OUT.json] [--timeline OUT.json]
             [--json]

PROBLEM is a ckpt-chain or ckpt-graph JSON file, HW a ckpt-hardware file (default: one unbounded level), PLAN a ckpt-plan file.
SPEC is a ckpt-figure file (examples/figures/): panels, each a problem, a machine, schedulers and a chart.
--at marks one action of the plan (sweep: drawn up to it); --frames writes DIR/frame-NNNNN.png per action (or per N).
--log makes the trade-off's memory or time axis logarithmic (a linear time axis clips far outliers to arrows).
--data writes the numbers behind a chart as CSV (ckpt figure: one file per panel and layout.csv, into DIR).
BYTES take units: 4096, 512KiB, 64MiB, 1.5GiB (also KB, MB, GB). A budget LIST is comma-separated sizes or
percentages of store-all's peak: "5%,10%,50%".
ckpt import reads an ONNX model (Debian's libonnx infers its shapes): one node per operator, sized from the shapes,
timed by FLOPs and bytes moved on HW's compute speed and level 0 bandwidth; --as-chain writes its segments as a chain.
ckpt train runs a real RNN (engine/trainer) with the plan; defaults: lstm, H 64, B 16, T 100, task copy, store-all,
100 iterations. HW "measured" is RAM plus a disk level of files at the speeds this machine just showed.
ckpt pipeline cuts a chain into K stages over K devices in a line (GPipe): M micro-batches, each stage re-running
its forward before its backward; the cuts minimise the slowest stage under each device's memory (or --cuts).
Exit codes: 0 done, 1 infeasible (the message names the smallest budget that works), 2 bad input.
)";

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
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? BadInput : Done;
    }
    std::string cmd = argv[1];
    if (cmd == "--version") {
        std::puts("ckpt 0.1.0");
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
    std::fprintf(stderr, "ckpt: unknown command '%s'\n\n%s", cmd.c_str(), kUsage);
    return BadInput;
}

} // namespace
