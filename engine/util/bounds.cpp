#include "util/bounds.h"

#include <cmath>
#include <cstdio>

namespace ckpt {

std::string whyBadSeconds(double t) {
    if (!std::isfinite(t) || t < 0) return " must be a finite number >= 0";
    if (t > kMaxSeconds) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " must be at most 1e9 s (about 32 years), got %g s", t);
        return buf;
    }
    return {};
}

} // namespace ckpt
