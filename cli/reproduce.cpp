// ckpt reproduce korthikanti2022: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
// Models", reproduced from its own model configurations (Table 3) on a machine: each model's per-layer activation
// memory under every technique of its Table 2 (measured by simulation, checked against the closed forms), and per-layer
// forward, backward and recompute times with their overheads (its Table 4), beside the paper's measured numbers.
#include "commands.h"
#include "common.h"
#include "model/transformer.h"
#include "schedulers/graph_registry.h"
#include "sim/graph_simulator.h"
#include "table.h"
#include "util/units.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace ckpt::cli {

namespace {

// Table 3 of the paper (s = 2048 for all, bf16 activations; p pipeline stages, b the micro-batch).
struct PaperModel {
    const char* name;
    int heads, hidden, layers, t, p, gpus, global_batch, micro_batch;
};
constexpr PaperModel kModels[] = {{"22B", 64, 6144, 48, 8, 1, 8, 4, 4},
                                  {"175B", 96, 12288, 96, 8, 8, 64, 64, 1},
                                  {"530B", 128, 20480, 105, 8, 35, 280, 280, 1},
                                  {"1T", 160, 25600, 128, 8, 64, 512, 512, 1}};
constexpr int kSeq = 2048;

// Table 4 (the 22B model's layer, ms): forward, backward, combined.
struct PaperTiming {
    const char* technique;
    double forward, backward, combined;
    const char* overhead;
};
constexpr PaperTiming kTable4[] = {{"none", 7.7, 11.9, 19.6, "-"},
                                   {"sequence parallelism", 7.2, 11.8, 19.0, "-3%"},
                                   {"full recompute", 7.7, 19.5, 27.2, "39%"},
                                   {"selective recompute", 7.7, 13.2, 20.9, "7%"},
                                   {"selective + sequence", 7.2, 13.1, 20.3, "4%"}};

struct Measured {
    std::int64_t held = 0; // held_after_forward_bytes
    double makespan = 0, forward = 0;
};

Result<Measured> measure(TransformerShape m, int layers, const std::string& scheduler, const Hardware& hw) {
    m.layers = layers;
    auto g = transformerGraph(m, hw);
    if (!g) return g.errorValue();
    auto plan = solveGraph(scheduler, *g, hw, {});
    if (!plan) return plan.errorValue();
    SimOptions opt;
    opt.memory_curve = false;
    auto tl = simulateGraph(*g, plan->actions, opt);
    if (!tl) return fail(scheduler + ": " + tl.error());
    return Measured{tl->totals.held_after_forward_bytes, tl->totals.makespan_s, g->totalForward()};
}

// One more layer's share: the measure at 3 layers less the one at 2.
Result<Measured> perLayer(const TransformerShape& m, const std::string& scheduler, const Hardware& hw) {
    auto three = measure(m, 3, scheduler, hw);
    if (!three) return three;
    auto two = measure(m, 2, scheduler, hw);
    if (!two) return two;
    return Measured{three->held - two->held, three->makespan - two->makespan, three->forward - two->forward};
}

std::string mib(std::int64_t bytes) {
    return formatNumber(double(bytes) / double(1 << 20), 6);
}

std::string ms(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", s * 1e3);
    return buf;
}

std::string percent(double ratio) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", ratio * 100);
    return buf;
}

} // namespace

int cmdReproduce(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "reproduce")) return BadInput;
    if (args.positional().size() != 1 || args.positional()[0] != "korthikanti2022") {
        complain("reproduce: expected the paper to reproduce: korthikanti2022 (see ckpt --help)");
        return BadInput;
    }
    auto hw = loadMachine(args.value("hardware", "gpu-a100-80gb"), "reproduce: --hardware");
    if (!hw) return BadInput;

    // Table 2's techniques: the shape's parallelism, the scheduler, and the closed form of a layer (bytes).
    struct Technique {
        const char* name;
        bool tensor, sequence;
        const char* scheduler;
        std::int64_t (*closed)(std::int64_t s, std::int64_t b, std::int64_t h, std::int64_t a, std::int64_t t);
        const char* formula;
    };
    const Technique techniques[] = {
        {"no parallelism", false, false, "store-all",
         [](auto s, auto b, auto h, auto a, auto) { return s * b * h * 34 + 5 * a * s * s * b; }, "sbh(34+5as/h)"},
        {"tensor parallel (baseline)", true, false, "store-all",
         [](auto s, auto b, auto h, auto a, auto t) {
             return s * b * h * 10 + 24 * s * b * h / t + 5 * a * s * s * b / t;
         },
         "sbh(10+24/t+5as/(ht))"},
        {"tensor + sequence parallel", true, true, "store-all",
         [](auto s, auto b, auto h, auto a, auto t) { return 34 * s * b * h / t + 5 * a * s * s * b / t; },
         "sbh(34/t+5as/(ht))"},
        {"tensor parallel + selective", true, false, "selective-ac",
         [](auto s, auto b, auto h, auto, auto t) { return s * b * h * 10 + 24 * s * b * h / t; }, "sbh(10+24/t)"},
        {"tensor + sequence + selective", true, true, "selective-ac",
         [](auto s, auto b, auto h, auto, auto t) { return 34 * s * b * h / t; }, "sbh(34/t)"},
        {"full recompute", true, false, "full-ac", [](auto s, auto b, auto h, auto, auto) { return 2 * s * b * h; },
         "sbh(2)"},
    };
    // Table 4's techniques on the same layers, with tensor parallelism as configured.
    struct Timing {
        const char* name;
        bool sequence;
        const char* scheduler;
    };
    const Timing timings[] = {{"none", false, "store-all"},
                              {"sequence parallelism", true, "store-all"},
                              {"full recompute", false, "full-ac"},
                              {"selective recompute", false, "selective-ac"},
                              {"selective + sequence", true, "selective-ac"}};

    nlohmann::json out = nlohmann::json::object();
    out["paper"] = "Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models";
    out["hardware"] = hw->name();
    out["models"] = nlohmann::json::array();
    Table memory({"model", "technique", "closed form", "per layer (MiB)", "simulated (MiB)", "equal"});
    Table time({"model", "technique", "forward ms", "backward ms", "combined ms", "overhead", "paper (22B)"});
    bool allEqual = true;
    for (const PaperModel& pm : kModels) {
        nlohmann::json jm = {{"name", pm.name},
                             {"heads", pm.heads},
                             {"hidden", pm.hidden},
                             {"layers", pm.layers},
                             {"tensor_parallel", pm.t},
                             {"pipeline_parallel", pm.p},
                             {"gpus", pm.gpus},
                             {"global_batch", pm.global_batch},
                             {"micro_batch", pm.micro_batch},
                             {"seq", kSeq}};
        TransformerShape m;
        m.hidden = pm.hidden, m.heads = pm.heads, m.seq = kSeq, m.batch = pm.micro_batch;
        for (const Technique& tq : techniques) {
            m.tensor_parallel = tq.tensor ? pm.t : 1, m.sequence_parallel = tq.sequence;
            auto got = perLayer(m, tq.scheduler, *hw);
            if (!got) {
                complain("reproduce: " + std::string(pm.name) + ", " + tq.name + ": " + got.error());
                return Infeasible; // 1: a result that is not the paper's
            }
            const std::int64_t closed = tq.closed(kSeq, pm.micro_batch, pm.hidden, pm.heads, m.tensor_parallel);
            const bool equal = closed == got->held;
            allEqual = allEqual && equal;
            memory.add({pm.name, tq.name, tq.formula, mib(closed), mib(got->held), equal ? "yes" : "NO"});
            jm["memory"].push_back({{"technique", tq.name},
                                    {"closed_form", tq.formula},
                                    {"closed_form_bytes", closed},
                                    {"simulated_bytes", got->held}});
        }
        double baseline = 0;
        for (const Timing& tm : timings) {
            m.tensor_parallel = pm.t, m.sequence_parallel = tm.sequence;
            auto got = perLayer(m, tm.scheduler, *hw);
            if (!got) {
                complain("reproduce: " + std::string(pm.name) + ", " + tm.name + ": " + got.error());
                return Infeasible; // 1: a result that is not the paper's
            }
            if (baseline == 0) baseline = got->makespan;
            std::string paper;
            if (std::string(pm.name) == "22B")
                for (const PaperTiming& pt : kTable4)
                    if (std::string(pt.technique) == tm.name)
                        paper = formatNumber(pt.forward, 3) + " / " + formatNumber(pt.backward, 3) + " / " +
                                formatNumber(pt.combined, 3) + " ms, " + pt.overhead;
            const double overhead = got->makespan / baseline - 1;
            time.add({pm.name, tm.name, ms(got->forward), ms(got->makespan - got->forward), ms(got->makespan),
                      tm.scheduler == std::string("store-all") && !tm.sequence ? "-" : percent(overhead), paper});
            jm["time"].push_back({{"technique", tm.name},
                                  {"forward_s", got->forward},
                                  {"backward_s", got->makespan - got->forward},
                                  {"combined_s", got->makespan},
                                  {"overhead", overhead}});
        }
        out["models"].push_back(jm);
    }
    out["closed_forms_equal"] = allEqual;
    if (args.has("json")) {
        std::puts(jsonText(out).c_str());
    } else {
        std::printf(
            "Korthikanti et al. 2022, \"Reducing Activation Recomputation in Large Transformer Models\", on %s\n"
            "(Table 3's models at s = %d, bf16, one device's share; a layer's share measured as the simulated "
            "plan at 3 layers less 2 layers).\n\n"
            "Activation memory of one layer (Table 2): what the plan holds when the forward ends\n",
            hw->name().c_str(), kSeq);
        std::fputs(memory.render().c_str(), stdout);
        std::printf("\nTime of one layer (Table 4), from the roofline of the machine (its FLOP/s and bandwidth; "
                    "communication not modelled); backward includes the recomputation\n");
        std::fputs(time.render().c_str(), stdout);
    }
    if (!allEqual) {
        complain("reproduce: a simulated layer differs from the paper's closed form (marked NO above)");
        return Infeasible; // 1: a result that is not the paper's
    }
    return Done;
}

} // namespace ckpt::cli
