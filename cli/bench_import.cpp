// ckpt bench --onnx MODEL.onnx [--batch N] [--seq N]: how long `ckpt import` takes (read, parse, shape inference, the
// graph; an open sequence length at --seq, as `ckpt bench --graphs` imports it), median of runs, and the most memory
// the process held (its peak resident set: the import of a 553 MB VGG-16 reads its weights' dimensions, never their
// data).
#include "commands.h"
#include "common.h"
#include "onnx_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sys/resource.h>

namespace ckpt::cli {

int benchImport(const Args& args) {
    const std::string model = args.value("onnx");
    int repeat = 5;
    if (!wholeNumber(args, "repeat", 1, repeat, 1000)) return BadInput;
    int batch = 32, seq = 512;
    if (!wholeNumber(args, "batch", 1, batch) || !wholeNumber(args, "seq", 1, seq)) return BadInput;
    std::vector<double> ms;
    int nodes = 0;
    for (int k = 0; k < repeat; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        auto m = importForBench(model, batch, seq);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        if (!m) return complain("bench: " + m.error()), BadInput;
        nodes = m->graph.size();
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const double peakMiB = double(usage.ru_maxrss) / 1024; // Linux: KiB
    if (args.has("json"))
        std::puts(jsonText({{"onnx", model},
                            {"batch", batch},
                            {"seq", seq},
                            {"nodes", nodes},
                            {"import_ms", median},
                            {"peak_resident_mib", peakMiB},
                            {"repeat", repeat}})
                      .c_str());
    else
        std::printf(
            "import of %s, batch %d (open sequence lengths %d): %d nodes in %.2f ms (median of %d; read, parse, "
            "shape inference, graph); peak resident memory %.1f MiB\n",
            model.c_str(), batch, seq, nodes, median, repeat, peakMiB);
    return Done;
}

} // namespace ckpt::cli
