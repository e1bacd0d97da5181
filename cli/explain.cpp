// ckpt explain: a chain plan told action by action, with what each memory level holds, for handouts.
#include "commands.h"
#include "common.h"
#include "progress.h"
#include "run/narrate.h"
#include "util/units.h"

#include <cstdio>

namespace ckpt::cli {

int cmdExplain(int argc, char** argv) {
    Args args;
    if (!parseArgs(args, argc, argv, "explain")) return BadInput;
    if (args.positional().size() != 1 || !args.has("scheduler")) {
        complain("explain: expected PROBLEM and --scheduler NAME (see ckpt --help)");
        return BadInput;
    }
    Progress progress("explain");
    progress.set(0, 0, "", "solving with " + args.value("scheduler"));
    auto solved = solveFromArgs(args, args.value("scheduler"));
    if (!solved) return BadInput;
    const Run& run = solved->run;
    const Hardware* hw = &solved->hw;
    const Problem* problem = &solved->problem;
    if (!run.feasible) {
        complain("explain: " + run.message);
        return exitCodeOf(run);
    }
    const Plan* plan = run.chainPlan();
    const Chain* chain = problem->schedulingChain();
    if (!plan || !chain) {
        complain("explain: narrates chain plans; " + args.positional()[0] + " is a graph that is not a chain");
        return BadInput;
    }
    const long long count = (long long)plan->actions.size();
    long long from = 0, to = count - 1;
    for (const char* key : {"from", "to"})
        if (args.has(key)) {
            char* end = nullptr;
            const std::string v = args.value(key);
            const long long k = std::strtoll(v.c_str(), &end, 10);
            if (v.empty() || *end || k < 0 || k >= count) {
                complain(std::string("explain: --") + key + ": expected an action index from 0 to " +
                         std::to_string(count - 1) + ", got '" + v + "'");
                return BadInput;
            }
            (std::string(key) == "from" ? from : to) = k;
        }
    if (from > to) {
        complain("explain: --from " + std::to_string(from) + " comes after --to " + std::to_string(to) +
                 "; expected from <= to");
        return BadInput;
    }
    progress.set(0, 0, "", "telling actions " + std::to_string(from) + " to " + std::to_string(to));
    // Only the actions asked for are told: what each holds is copied for them alone.
    auto told = narrate(*chain, *hw, *plan, run.budget_bytes, std::size_t(from), to);
    if (!told) {
        complain("explain: " + told.error());
        return BadInput;
    }
    const Timeline& tl = *run.timeline;
    progress.finish();
    std::printf("%s: %s", chain->name().c_str(), run.scheduler.c_str());
    for (const auto& [k, v] : run.params)
        std::printf(" %s=%s", k.c_str(), v.c_str());
    std::printf(" · %d steps · budget %s · makespan %s (%.3f× store-all) · peak L0 %s · %lld actions\n",
                chain->length(), run.budget_bytes ? formatBytes(double(run.budget_bytes)).c_str() : "none",
                formatSeconds(tl.totals.makespan_s).c_str(), tl.totals.makespan_s / run.baseline_makespan_s,
                formatBytes(double(tl.totals.peak_bytes[0])).c_str(), count);
    const int width = int(std::to_string(count).size());
    for (long long k = from; k <= to; ++k) {
        const NarratedAction& a = told->actions[std::size_t(k - from)];
        std::printf("%*lld  %s\n%*s  held: %s\n", width, k, a.sentence.c_str(), width, "",
                    heldLine(a, *told, *hw, run.budget_bytes).c_str());
    }
    return Done;
}

} // namespace ckpt::cli
