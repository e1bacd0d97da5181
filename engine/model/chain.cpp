#include "model/chain.h"

#include <cmath>

namespace ckpt {
namespace {

bool badTime(double t) {
    return !std::isfinite(t) || t < 0;
}

} // namespace

Result<Chain> Chain::make(std::string name, std::vector<Step> steps) {
    if (steps.empty()) return fail("a chain needs at least one step");
    for (std::size_t k = 0; k < steps.size(); ++k) {
        const Step& s = steps[k];
        std::string where = "step " + std::to_string(k + 1) + ": ";
        if (badTime(s.forward)) return fail(where + "forward time must be a finite number >= 0");
        if (badTime(s.backward)) return fail(where + "backward time must be a finite number >= 0");
        if (s.state_bytes < 0) return fail(where + "state_bytes must be >= 0");
        if (s.tape_bytes < 0) return fail(where + "tape_bytes must be >= 0");
        if (s.forward_tmp_bytes < 0) return fail(where + "forward_tmp_bytes must be >= 0");
        if (s.backward_tmp_bytes < 0) return fail(where + "backward_tmp_bytes must be >= 0");
    }
    Chain c;
    c.m_name = std::move(name);
    c.m_steps = std::move(steps);
    return c;
}

Result<Chain> Chain::uniform(std::string name, int length, const Step& step) {
    if (length < 1) return fail("a chain needs at least one step (length " + std::to_string(length) + ")");
    if (length > 50'000'000) return fail("chain length " + std::to_string(length) + " is too large (at most 50000000)");
    return make(std::move(name), std::vector<Step>(static_cast<std::size_t>(length), step));
}

std::int64_t Chain::stateBytes(int j) const {
    if (j >= length()) return m_steps.back().state_bytes;
    return m_steps[static_cast<std::size_t>(j)].state_bytes;
}

bool Chain::isUniform() const {
    for (const Step& s : m_steps)
        if (!(s == m_steps.front())) return false;
    return true;
}

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
