// Plan files (planFromJson). A plan that loads must save and read back equal, and goes through the simulator on a
// small fixed chain and machine (as `ckpt simulate` does): any verdict is fine, but an accepted plan has finite totals.
#include "fuzz_target.h"
#include "run/runner.h"

using namespace ckpt;
using namespace ckpt::fuzz;

namespace {

bool samePlan(const Plan& a, const Plan& b) {
    return a.scheduler == b.scheduler && a.params == b.params && a.actions == b.actions &&
           a.predicted_makespan_s == b.predicted_makespan_s && a.budget_bytes == b.budget_bytes;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto plan = loadInput(data, size, [](const auto& doc) { return planFromJson(doc, kSource); });
    if (!plan) return 0;

    const Chain chain = fixedChain();
    const auto again =
        readBack(planToJson(*plan, chain), "plan", [](const auto& j) { return planFromJson(j, "saved"); });
    check(samePlan(again, *plan), "a plan does not read back equal");

    for (const Hardware& hw : {Hardware::unbounded(), fixedHardware()}) {
        Run run = runPlan(*plan, chain, hw);
        if (run.feasible && run.timeline) checkTimeline(*run.timeline, 0, "the plan");
    }
    return 0;
}
