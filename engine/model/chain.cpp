#include "model/chain.h"

#include "util/bounds.h"

#include <cmath>

namespace ckpt {

namespace {

Error overTheBound(std::size_t step) {
    return fail("step " + std::to_string(step) + ": the chain's states, tapes and temporaries add up to more than " +
                kMaxTotalBytesText + " (" + std::to_string(kMaxTotalBytes) +
                " B) by this step, the most this program represents exactly");
}

} // namespace

Result<Chain> Chain::make(std::string name, std::vector<Step> steps) {
    if (steps.empty()) return fail("a chain needs at least one step");
    std::int64_t total = 0; // every byte of the chain: the bound that keeps the simulator's sums exact
    for (std::size_t k = 0; k < steps.size(); ++k) {
        const Step& s = steps[k];
        auto where = [&] { return "step " + std::to_string(k + 1) + ": "; };
        if (auto e = whyBadSeconds(s.forward); !e.empty()) return fail(where() + "forward time" + e);
        if (auto e = whyBadSeconds(s.backward); !e.empty()) return fail(where() + "backward time" + e);
        if (s.state_bytes < 0) return fail(where() + "state_bytes must be >= 0");
        if (s.tape_bytes < 0) return fail(where() + "tape_bytes must be >= 0");
        if (s.forward_tmp_bytes < 0) return fail(where() + "forward_tmp_bytes must be >= 0");
        if (s.backward_tmp_bytes < 0) return fail(where() + "backward_tmp_bytes must be >= 0");
        // x_n is sized as the last step's input, so the last state counts twice.
        const std::int64_t last = k + 1 == steps.size() ? s.state_bytes : 0;
        bool fits = true;
        for (std::int64_t b : {s.state_bytes, s.tape_bytes, s.forward_tmp_bytes, s.backward_tmp_bytes, last})
            fits = fits && checkedAdd(total, b, total) && total <= kMaxTotalBytes;
        if (!fits) return overTheBound(k + 1);
    }
    return Chain(std::move(name), std::move(steps));
}

Result<Chain> Chain::uniform(std::string name, int length, const Step& step) {
    if (length < 1) return fail("a chain needs at least one step (length " + std::to_string(length) + ")");
    if (length > 50'000'000) return fail("chain length " + std::to_string(length) + " is too large (at most 50000000)");
    // Refused before the steps are allocated (5e7 of them take 2.4 GB): the first step past the bound is known.
    if (auto one = make(name, {step}); !one) return one.errorValue();
    const std::int64_t per =
        saturatingSum({step.state_bytes, step.tape_bytes, step.forward_tmp_bytes, step.backward_tmp_bytes});
    if (per > 0 && kMaxTotalBytes / per < length) return overTheBound(std::size_t(kMaxTotalBytes / per) + 1);
    return make(std::move(name), std::vector<Step>(static_cast<std::size_t>(length), step));
}

const char* memoryModelName(MemoryModel m) {
    return m == MemoryModel::RotorPaper ? "rotor-paper" : "standard";
}

Result<Chain> Chain::withModel(MemoryModel model, std::int64_t finalStateBytes) const {
    if (finalStateBytes < -1) return fail("final_state_bytes must be >= 0");
    std::int64_t total = 0;
    for (const Step& s : m_steps)
        for (std::int64_t b : {s.state_bytes, s.tape_bytes, s.forward_tmp_bytes, s.backward_tmp_bytes})
            if (!checkedAdd(total, b, total)) return overTheBound(m_steps.size());
    const std::int64_t last = finalStateBytes >= 0 ? finalStateBytes : m_steps.back().state_bytes;
    if (!checkedAdd(total, last, total) || total > kMaxTotalBytes)
        return fail("final_state_bytes: the chain's bytes add up to more than " + std::string(kMaxTotalBytesText) +
                    " (" + std::to_string(kMaxTotalBytes) + " B) with it");
    Chain c = *this;
    c.m_model = model;
    c.m_final = finalStateBytes;
    return c;
}

std::int64_t Chain::stateBytes(int j) const {
    if (j >= length()) return m_final >= 0 ? m_final : m_steps.back().state_bytes;
    return m_steps[static_cast<std::size_t>(j)].state_bytes;
}

bool Chain::isUniform() const {
    for (const Step& s : m_steps)
        if (!(s == m_steps.front())) return false;
    return true;
}

Chain::Chain(std::string name, std::vector<Step> steps) : m_name(std::move(name)), m_steps(std::move(steps)) {}

double Chain::totalForward() const {
    double t = 0;
    for (const Step& s : m_steps)
        t += s.forward;
    return t;
}

double Chain::totalBackward() const {
    double t = 0;
    for (const Step& s : m_steps)
        t += s.backward;
    return t;
}

} // namespace ckpt
