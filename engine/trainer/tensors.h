#pragma once
// The trainer's storage unit: a few dense matrices that travel together (a recurrent state is h, or h and c; a tape is
// what one step's backward needs). Column-major, one column per sample of the batch. Every matrix is an Eigen
// allocation, so its data is aligned the same way on every call: vectorised loops then split a row the same way and
// a recomputed step gives the same bits.
// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics (the `__Y = __Y` of _mm512_undefined_*)
// once Eigen is inlined with -march=native: a false positive (GCC bug 105593, fixed in GCC 13).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace ckpt::trainer {

template <typename T> using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <typename T> using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;

template <typename T> struct Tensors {
    std::vector<Mat<T>> parts;

    std::int64_t bytes() const {
        std::int64_t b = 0;
        for (const Mat<T>& m : parts)
            b += std::int64_t(m.size()) * std::int64_t(sizeof(T));
        return b;
    }
    bool empty() const { return parts.empty(); }
};

} // namespace ckpt::trainer
