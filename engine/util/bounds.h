#pragma once
// What the model accepts, chosen so that every sum of bytes and seconds the engine forms stays representable, and
// the checked arithmetic that keeps the few sums no bound covers honest.
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>

namespace ckpt {

// All the bytes of a problem added up (a chain's states, tapes and temporaries; a graph's outputs and workspaces)
// stay at most 256 PiB. A peak is a sum of a few such totals and the chain <-> graph conversions at most multiply one
// by 6, so every total the engine forms stays far below INT64_MAX (8 EiB).
constexpr std::int64_t kMaxTotalBytes = std::int64_t(1) << 58;
constexpr const char* kMaxTotalBytesText = "256 PiB";
// The time of one step, node or transfer latency: at most 1e9 s (about 32 years). Then a plan of 2^31 actions on
// 5e7 steps still has a finite makespan, and no time prints as inf or nan.
constexpr double kMaxSeconds = 1e9;
// Transfer rates are at least 1e-9 B/s, so that moving any state takes a finite time (at most 3e26 s) while models in
// abstract units (a state of 8 "bytes" moved in 40 "seconds") still fit.
constexpr double kMinBytesPerSecond = 1e-9;

// "" when `t` is a valid time in seconds (finite, >= 0, at most kMaxSeconds); else " must be ...", to follow a name.
std::string whyBadSeconds(double t);

// a + b into `out`; false (and `out` unspecified) when the sum does not fit in T.
template <typename T> bool checkedAdd(T a, std::type_identity_t<T> b, T& out) {
#if defined(__GNUC__) || defined(__clang__)
    return !__builtin_add_overflow(a, b, &out);
#else
    if ((b > 0 && a > std::numeric_limits<T>::max() - b) || (b < 0 && a < std::numeric_limits<T>::min() - b))
        return false;
    out = a + b;
    return true;
#endif
}

// The sum of sizes >= 0, or INT64_MAX when it does not fit: a peak that large fits no budget, which is the truth.
inline std::int64_t saturatingSum(std::initializer_list<std::int64_t> sizes) {
    std::int64_t s = 0;
    for (std::int64_t b : sizes)
        if (!checkedAdd(s, b, s)) return std::numeric_limits<std::int64_t>::max();
    return s;
}

} // namespace ckpt
