#pragma once
// CKPT_VECTOR_CLONES before a function whose loops the compiler vectorises: on x86-64 (GCC, Linux) the function is
// compiled once per instruction set level (x86-64-v4: AVX-512, v3: AVX2, the baseline: SSE2) with everything it calls
// inlined into it, and the loader picks the one this CPU runs (target_clones), so a portable build runs the CPU's
// widest vectors where it matters. -DCKPT_NO_VECTOR_CLONES turns it off, to measure one level alone. Not under
// ThreadSanitizer: the loader runs the clones' resolvers before its runtime starts, and every program crashed.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) &&                           \
    !defined(CKPT_NO_VECTOR_CLONES) && !defined(__SANITIZE_THREAD__)
#define CKPT_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), flatten))
#else
#define CKPT_VECTOR_CLONES
#endif

namespace ckpt {
// std::min(a, b) by value, as the select `(b < a) ? b : a` that vector min instructions compute exactly, in the loops
// the clones vectorise.
template <typename T> inline T minOf(T a, T b) {
    return b < a ? b : a;
}
} // namespace ckpt
