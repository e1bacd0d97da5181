// ckpt pipeline: a chain cut into stages over devices in a line, micro-batches, GPipe's schedule with
// rematerialisation (sim/pipeline.h): the cuts, each stage's time and memory, the bubble against its closed form.
#include "sim/pipeline.h"
#include "commands.h"
#include "common.h"
#include "io/export.h"
#include "util/files.h"
#include "util/units.h"

#include <cstdio>
#include <sstream>

namespace ckpt::cli {
namespace {

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ',');)
        out.push_back(part);
    return out;
}

} // namespace

int cmdPipeline(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "pipeline")) return BadInput;
    if (args.positional().size() != 1) {
        complain("pipeline: expected one PROBLEM file, a chain or a graph that is a chain (see ckpt --help)");
        return BadInput;
    }
    const std::string path = args.positional()[0];
    auto problem = loadChainOrGraph(path);
    if (!problem) return BadInput;
    const Chain* chain = problem->chain();
    if (!chain) {
        complain("pipeline: " + path + " is a graph that is not a chain; a pipeline cuts a chain into stages");
        return BadInput;
    }
    PipelineSetup s;
    if (!wholeNumber(args, "stages", 1, s.stages, 1024) ||
        !wholeNumber(args, "micro-batches", 1, s.micro_batches, 100000))
        return BadInput;
    s.recompute = !args.has("no-recompute");
    if (args.has("device-memory"))
        for (const std::string& part : split(args.value("device-memory"))) {
            auto b = parseBytes(part);
            if (!b) {
                complain("pipeline: --device-memory: " + b.error());
                return BadInput;
            }
            s.device_bytes.push_back(*b);
        }
    if (args.has("link-bandwidth")) {
        std::string v = args.value("link-bandwidth");
        if (v.size() > 2 && v.substr(v.size() - 2) == "/s") v.resize(v.size() - 2);
        auto b = parseBytes(v);
        if (!b || *b <= 0) {
            complain("pipeline: --link-bandwidth expects bytes per second > 0 (16GB/s, 900MiB/s), got '" +
                     args.value("link-bandwidth") + "'");
            return BadInput;
        }
        s.link_bytes_per_s = double(*b);
    }
    if (args.has("link-latency")) {
        auto t = parseSeconds(args.value("link-latency"));
        if (!t) {
            complain("pipeline: --link-latency: " + t.error());
            return BadInput;
        }
        s.link_latency_s = *t;
    }
    if (args.has("cuts"))
        for (const std::string& part : split(args.value("cuts"))) {
            try {
                std::size_t used = 0;
                const int c = std::stoi(part, &used);
                if (used != part.size()) throw std::invalid_argument(part);
                s.cuts.push_back(c);
            } catch (const std::exception&) {
                complain("pipeline: --cuts expects step numbers separated by commas (the last step of each stage "
                         "but the last), got '" +
                         part + "'");
                return BadInput;
            }
        }
    auto run = runPipeline(*chain, s);
    if (!run) {
        complain("pipeline: " + path + ": " + run.error());
        return run.errorValue().infeasible ? Infeasible : BadInput;
    }
    const Totals& t = run->timeline.totals;
    if (args.has("out")) {
        // The Chrome trace: one thread per device and link, memory counters per device.
        Plan none;
        none.scheduler = "gpipe";
        auto saved = writeTextFileAtomic(args.value("out"), timelineToChromeTrace(none, run->timeline));
        if (!saved) {
            complain("pipeline: " + saved.error());
            return BadInput;
        }
    }
    if (args.has("json")) {
        nlohmann::json stages = nlohmann::json::array();
        for (std::size_t k = 0; k < run->stages.size(); ++k) {
            const PipelineStage& st = run->stages[k];
            stages.push_back({{"device", k},
                              {"first_step", st.first},
                              {"last_step", st.last},
                              {"forward_s", st.forward_s},
                              {"backward_s", st.backward_s},
                              {"peak_bytes", t.peak_bytes[k]},
                              {"bound_bytes", st.bound_bytes},
                              {"capacity_bytes", st.capacity_bytes}});
        }
        nlohmann::json doc = {{"scheduler", "gpipe"},
                              {"stages", s.stages},
                              {"micro_batches", s.micro_batches},
                              {"recompute", s.recompute},
                              {"cuts_chosen", run->cuts_chosen},
                              {"makespan_s", t.makespan_s},
                              {"baseline_makespan_s", chain->totalForward() + chain->totalBackward()},
                              {"bottleneck_s", run->bottleneck_s},
                              {"bubble", run->bubble},
                              {"ideal_bubble", run->ideal_bubble},
                              {"forward_steps", t.forward_steps},
                              {"recomputed_steps", t.recomputed_steps},
                              {"bytes_sent", t.bytes_written},
                              {"gradient_bytes_sent", t.bytes_read},
                              {"devices", std::move(stages)}};
        std::printf("%s\n", jsonText(doc).c_str());
        return Done;
    }
    const double single = chain->totalForward() + chain->totalBackward();
    std::printf("%s: gpipe, %d stages, %d micro-batches, %s\n", chain->name().c_str(), s.stages, s.micro_batches,
                s.recompute ? "rematerialisation" : "tapes kept");
    // One stage re-running its forward per micro-batch is slower than one device: not "0.75x faster".
    const bool faster = t.makespan_s <= single;
    std::printf("makespan       %s (%.3fx one device's store-all, %.2fx %s)\n", formatSeconds(t.makespan_s).c_str(),
                t.makespan_s / single, faster ? single / t.makespan_s : t.makespan_s / single,
                faster ? "faster" : "slower");
    std::printf("bubble         %.1f %% (equal stages and free links: (K-1)/(M+K-1) = %.1f %%)\n", 100 * run->bubble,
                100 * run->ideal_bubble);
    std::printf("bottleneck     %s per micro-batch\n", formatSeconds(run->bottleneck_s).c_str());
    for (std::size_t k = 0; k < run->stages.size(); ++k) {
        const PipelineStage& st = run->stages[k];
        std::printf("device %-3zu    steps %d-%d  forward %s  backward %s  peak %s (bound %s%s)\n", k, st.first,
                    st.last, formatSeconds(st.forward_s).c_str(), formatSeconds(st.backward_s).c_str(),
                    formatBytes(double(t.peak_bytes[k])).c_str(), formatBytes(double(st.bound_bytes)).c_str(),
                    st.capacity_bytes > 0 ? (", capacity " + formatBytes(double(st.capacity_bytes))).c_str() : "");
    }
    return Done;
}

} // namespace ckpt::cli
