#include "narrations.h"

#include <optional>

using namespace ckpt;

std::shared_ptr<const Narration> sharedNarration(const std::shared_ptr<const Run>& run, const Chain& chain,
                                                 const Hardware& hw) {
    struct Kept {
        std::weak_ptr<const Run> run;
        std::optional<Chain> chain;
        Hardware hw = Hardware::unbounded();
        std::shared_ptr<const Narration> told;
    };
    static Kept kept; // the GUI thread's views only
    const Plan* plan = run ? run->chainPlan() : nullptr;
    if (!plan || !run->feasible || plan->actions.size() > kMaxNarratedActions) return nullptr;
    if (kept.run.lock() == run && kept.chain && *kept.chain == chain && kept.hw == hw) return kept.told;
    std::shared_ptr<const Narration> told;
    if (auto n = narrate(chain, hw, *plan, run->budget_bytes)) told = std::make_shared<const Narration>(std::move(*n));
    kept = Kept{run, chain, hw, told};
    return told;
}
