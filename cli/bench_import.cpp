// ckpt bench --onnx MODEL.onnx: how long `ckpt import` takes (read, parse, shape inference, the graph), median of runs,
// and the most memory the process held (its peak resident set: the import of a 553 MB VGG-16 reads its weights'
// dimensions, never their data).
#include "commands.h"
#include "common.h"
#include "io/onnx_import.h"

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
    OnnxImportOptions options;
    options.batch = std::atoll(args.value("batch", "32").c_str());
    if (options.batch < 1) return complain("bench: --batch must be >= 1"), BadInput;
    std::vector<double> ms;
    int nodes = 0;
    for (int k = 0; k < repeat; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        auto m = importOnnxFile(model, options);
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
                            {"batch", options.batch},
                            {"nodes", nodes},
                            {"import_ms", median},
                            {"peak_resident_mib", peakMiB},
                            {"repeat", repeat}})
                      .c_str());
    else
        std::printf("import of %s, batch %lld: %d nodes in %.2f ms (median of %d; read, parse, shape inference, "
                    "graph); peak resident memory %.1f MiB\n",
                    model.c_str(), (long long)options.batch, nodes, median, repeat, peakMiB);
    return Done;
}

} // namespace ckpt::cli
