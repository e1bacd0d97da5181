// Hardware files (hardwareFromJson). Hardware that loads must save and read back equal, and a small fixed chain is
// solved on it by store-all and by schedulers that use the slower levels; every plan they give must simulate to
// finite totals.
#include "fuzz_target.h"
#include "run/runner.h"
#include "schedulers/store_all.h"
#include "sim/simulator.h"

using namespace ckpt;
using namespace ckpt::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto hw = loadInput(data, size, [](const auto& doc) { return hardwareFromJson(doc, kSource); });
    if (!hw) return 0;

    const auto again =
        readBack(hardwareToJson(*hw), "hardware", [](const auto& j) { return hardwareFromJson(j, "saved"); });
    check(again == *hw, "hardware does not read back equal");

    const Chain chain = fixedChain();
    // With half of store-all's peak as the budget, the offloading schedulers must use the slower levels.
    SolveRequest tight;
    tight.budget_bytes = storeAllPeak(chain, *hw) / 2;
    for (const SolveRequest& request : {SolveRequest{}, tight})
        for (const char* name : {"store-all", "revolve", "rotor", "multistage", "async-multistage"}) {
            Run run = runScheduler(name, chain, *hw, request);
            if (run.feasible && run.timeline) checkTimeline(*run.timeline, 0, name);
        }
    // The input state to every slower level and back (what an offloading plan does), then store-all: each transfer's
    // time comes from the level's bandwidth and latency.
    Schedule offload;
    for (int level = 1; level < hw->levelCount(); ++level)
        for (Action a : {Action::write(0, level), Action::free(0, 0), Action::read(0, level), Action::free(0, level)})
            offload.push_back(a);
    for (const Action& a : storeAllPlan(chain).actions)
        offload.push_back(a);
    auto tl = simulate(chain, *hw, offload);
    if (tl) checkTimeline(*tl, chain.totalForward() + chain.totalBackward(), "offloading the input");
    return 0;
}
