#include "trainer/bptt.h"

#include <algorithm>
#include <cmath>

namespace ckpt::trainer {

template <typename T> double bpttStoreAll(Network<T>& net, const Batch<T>& batch, Parameters<T>& grads) {
    const int n = batch.length();
    const Cell<T>& cell = net.cell();
    std::vector<Tensors<T>> tapes(std::size_t(n) + 1);
    Tensors<T> state = cell.zeroState(), next = cell.allocState();
    for (int t = 1; t <= n; ++t) {
        tapes[std::size_t(t)] = cell.allocTape();
        net.forward(batch, t, state, next, &tapes[std::size_t(t)]);
        std::swap(state, next);
    }
    std::vector<double> loss(std::size_t(n) + 1, 0.0);
    Tensors<T> d = cell.zeroState(), dPrev = cell.allocState();
    for (int t = n; t >= 1; --t) {
        loss[std::size_t(t)] = net.backward(batch, t, tapes[std::size_t(t)], d, dPrev, grads);
        tapes[std::size_t(t)] = {};
        std::swap(d, dPrev);
    }
    double sum = 0;
    for (int t = 1; t <= n; ++t)
        sum += loss[std::size_t(t)];
    return sum / (double(batch.size()) * n);
}

template <typename T> double meanLoss(Network<T>& net, const Batch<T>& batch) {
    // The loss sits in the backward step; run store-all into throw-away gradients.
    Parameters<T> g = net.zeroGradients();
    return bpttStoreAll(net, batch, g);
}

template <typename T> double maxAbsDiff(const Parameters<T>& a, const Parameters<T>& b) {
    double m = 0;
    for (std::size_t k = 0; k < a.tensors.size() && k < b.tensors.size(); ++k) {
        if (a.tensors[k].rows() != b.tensors[k].rows() || a.tensors[k].cols() != b.tensors[k].cols()) return INFINITY;
        // A plain loop: GCC 12 warns (maybe-uninitialized) inside Eigen's AVX-512 max reduction.
        const T* x = a.tensors[k].data();
        const T* y = b.tensors[k].data();
        for (Eigen::Index i = 0; i < a.tensors[k].size(); ++i)
            m = std::max(m, std::abs(double(x[i]) - double(y[i])));
    }
    return a.tensors.size() == b.tensors.size() ? m : INFINITY;
}

template double bpttStoreAll<float>(Network<float>&, const Batch<float>&, Parameters<float>&);
template double bpttStoreAll<double>(Network<double>&, const Batch<double>&, Parameters<double>&);
template double meanLoss<float>(Network<float>&, const Batch<float>&);
template double meanLoss<double>(Network<double>&, const Batch<double>&);
template double maxAbsDiff<float>(const Parameters<float>&, const Parameters<float>&);
template double maxAbsDiff<double>(const Parameters<double>&, const Parameters<double>&);

} // namespace ckpt::trainer
