// The overview `ckpt --help` prints, and what `ckpt SUB --help` takes from it and from the options table.
#include "options.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace ckpt::cli {
namespace {

const char* kUsage = R"(ckpt - compare checkpointing schedules for backpropagation

usage:
  ckpt list [--json]
  ckpt solve PROBLEM [--hardware HW] --scheduler NAME [--slots N | --budget BYTES] [--param k=v]...
             [--out PLAN] [--format json|csv|trace] [--json]
  ckpt simulate PROBLEM PLAN [--hardware HW] [--budget BYTES] [--json]
  ckpt compare PROBLEM [--hardware HW] [--schedulers a,b,...] [--budgets LIST] [--param NAME.k=v]...
             [--csv FILE] [--json]
  ckpt render PROBLEM [--hardware HW] --scheduler NAME [--slots N | --budget BYTES] [--param k=v]...
             --chart gantt|memory|sweep|tradeoff --out FILE.(pdf|svg|png) [--size WxH | --preset NAME]
             [--font-size PT] [--dpi N] [--data FILE.csv] [--log none|memory|time|both]
             [--at ACTION] [--frames DIR [--every N]] [--schedulers a,b,...] [--budgets LIST]
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
             [--out NET.ckpt-graph.json] [--as-chain] [--strict] [--allow-unsized]
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
ckpt simulate --budget checks the plan against BYTES instead of the plan file's own budget.
--schedulers and --budgets choose the runs of a tradeoff chart (default: every scheduler, 5% to 100%).
--allow-unsized imports an output whose size cannot be computed as 0 bytes (otherwise it is refused).
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

// What each subcommand accepts: Args::parse reads these lists, `ckpt SUB --help` prints them.
const std::vector<CommandOptions> kCommands = {
    {"list", {"json"}, {}},
    {"solve", {"json"}, {"hardware", "scheduler", "slots", "budget", "param", "out", "format"}},
    {"simulate", {"json"}, {"hardware", "budget"}},
    {"compare", {"json"}, {"hardware", "schedulers", "budgets", "param", "csv"}},
    {"render",
     {},
     {"hardware", "scheduler", "slots", "budget", "param", "chart", "out", "size", "budgets", "schedulers", "font-size",
      "preset", "dpi", "data", "log", "at", "frames", "every"}},
    {"explain", {}, {"hardware", "scheduler", "slots", "budget", "param", "from", "to"}},
    {"layout", {"json"}, {"hardware", "scheduler", "slots", "budget", "param"}},
    {"pipeline",
     {"json", "no-recompute"},
     {"stages", "micro-batches", "device-memory", "link-bandwidth", "link-latency", "cuts", "out"}},
    {"lesson", {"check"}, {}},
    {"figure", {}, {"out", "data", "dpi"}},
    {"generate",
     {"sequence-parallel", "flash-attention"},
     {"kind", "nodes", "seed", "width", "out", "layers", "hidden", "heads", "seq", "batch", "dtype", "tensor-parallel",
      "hardware", "vocab"}},
    {"reproduce", {"json"}, {"hardware"}},
    {"import", {"as-chain", "strict", "allow-unsized"}, {"batch", "input", "dtype", "hardware", "out"}},
    {"bench",
     {"json", "graphs", "rotor-reference"},
     {"steps", "slots", "repeat", "rotor-steps", "graph", "budgets", "schedulers", "param", "reduction", "overheads",
      "reduction-max-nodes", "onnx", "batch", "onnx-dir", "seq"}},
    {"train", {"json", "check-gradients"}, {"cell",       "hidden",    "batch",     "input",       "length", "task",
                                            "text",       "scheduler", "slots",     "budget",      "param",  "hardware",
                                            "iterations", "precision", "optimizer", "lr",          "clip",   "seed",
                                            "scratch",    "profile",   "timeline",  "memory-limit"}},
};

} // namespace

const char* usageText() {
    return kUsage;
}

const CommandOptions* findCommand(const std::string& name) {
    auto it = std::find_if(kCommands.begin(), kCommands.end(), [&](const CommandOptions& c) { return c.name == name; });
    return it == kCommands.end() ? nullptr : &*it;
}

const CommandOptions& optionsOf(const std::string& name) {
    static const CommandOptions none;
    const CommandOptions* c = findCommand(name);
    return c ? *c : none; // a name missing from the table takes no options (the parser refuses each)
}

std::string commandHelp(const std::string& name) {
    std::istringstream lines(kUsage);
    std::string line, out = "usage:\n";
    bool in = false;
    while (std::getline(lines, line)) {
        const bool starts = line.rfind("  ckpt " + name + " ", 0) == 0 || line == "  ckpt " + name;
        // A usage line's continuation is indented under its arguments.
        in = starts || (in && line.rfind("             ", 0) == 0);
        if (in) out += line + "\n";
    }
    const CommandOptions& c = optionsOf(name);
    out += "\noptions:";
    for (const std::string& f : c.flags)
        out += " --" + f;
    for (const std::string& o : c.options)
        out += " --" + o + " VALUE";
    out += "\n\nckpt --help says what PROBLEM, HW, PLAN, BYTES and a budget LIST are, and the exit codes.\n";
    return out;
}

namespace {

// Text as roff reads it: a backslash doubled, a hyphen a minus sign (options are typed with it), a line that would
// start with a control character escaped.
std::string roff(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else
            out += c;
    }
    if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
    return out;
}

} // namespace

std::string manPage(const std::string& version) {
    std::istringstream lines(kUsage);
    std::string line, synopsis, notes;
    std::getline(lines, line); // "ckpt - ...": the NAME section's
    bool inUsage = false, afterUsage = false;
    while (std::getline(lines, line)) {
        if (line == "usage:") {
            inUsage = true;
            continue;
        }
        if (inUsage && line.empty()) inUsage = false, afterUsage = true;
        if (inUsage) synopsis += roff(line.substr(std::min<std::size_t>(2, line.size()))) + "\n";
        // A note starts with a capital, an option or a subcommand; a line in lower case goes on with the one before.
        const bool starts = !line.empty() && (std::isupper(static_cast<unsigned char>(line[0])) ||
                                              line.rfind("--", 0) == 0 || line.rfind("ckpt ", 0) == 0);
        if (afterUsage && starts) notes += ".PP\n";
        if (afterUsage && !line.empty()) notes += roff(line) + "\n";
    }
    std::string out = ".\\\" ckpt(1), written at build time from cli/usage.cpp, what ckpt --help prints.\n";
    out += ".TH CKPT 1 \"\" \"ckpt " + version + "\" \"User Commands\"\n";
    out += ".SH NAME\nckpt \\- compare checkpointing schedules for backpropagation\n";
    out += ".SH SYNOPSIS\n.nf\n" + synopsis + ".fi\n";
    out +=
        ".SH DESCRIPTION\n.B ckpt\nruns the checkpointing and offloading schedulers of Checkpoint Explorer on a chain "
        "of steps (an unrolled RNN) or a graph of layers, simulates each schedule on a machine model, and prints, "
        "draws or exports the result: the command line twin of\n.BR ckpt\\-explorer (1).\n"
        ".B ckpt SUBCOMMAND \\-\\-help\nprints a subcommand's usage and options.\n" +
        notes;
    out += ".SH OPTIONS\nEach subcommand takes these options (a flag alone, an option with a value as\n"
           ".B \\-\\-key VALUE\nor\n.BR \\-\\-key=VALUE ).\n";
    for (const CommandOptions& c : kCommands) {
        out += ".TP\n.B ckpt " + c.name + "\n";
        std::string list;
        for (const std::string& f : c.flags)
            list += (list.empty() ? "" : ", ") + roff("--" + f);
        for (const std::string& o : c.options)
            list += (list.empty() ? "" : ", ") + roff("--" + o) + " \\fIVALUE\\fR";
        out += (list.empty() ? "no options" : list) + "\n";
    }
    out += ".SH EXIT STATUS\n0 done, 1 infeasible (the message names the smallest budget that works), 2 bad input.\n";
    out += ".SH ENVIRONMENT\n.TP\n.B CKPT_DATA_DIR\nA folder with the shipped examples/ and resources/hardware/, read "
           "before the installed ones.\n";
    out += ".SH FILES\n.TP\n.I PREFIX/share/ckpt/examples\nChains, graphs, lessons (lessons/), figure specifications "
           "(figures/) and ONNX models (onnx/).\n.TP\n.I PREFIX/share/ckpt/resources/hardware\nThe hardware presets "
           "that \\-\\-hardware NAME names.\n.TP\n.I PREFIX/share/ckpt/docs\nThe user guide (index.md) and the JSON "
           "Schemas of the file formats (schemas/).\n";
    out += ".SH SEE ALSO\n.BR ckpt\\-explorer (1)\n";
    return out;
}

} // namespace ckpt::cli
