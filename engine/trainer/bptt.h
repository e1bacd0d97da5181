#pragma once
// Plain store-all backpropagation through time, without a plan or a store: the reference every plan's gradients are
// compared with (bit for bit), and the gradients the finite-difference tests check.
#include "trainer/network.h"

namespace ckpt::trainer {

// Adds the gradients of the mean loss into `grads` and returns the mean loss over the batch and the steps.
template <typename T> double bpttStoreAll(Network<T>& net, const Batch<T>& batch, Parameters<T>& grads);

// The mean loss alone (forward steps only), in double for finite differences.
template <typename T> double meanLoss(Network<T>& net, const Batch<T>& batch);

// Largest |a - b| over every parameter's gradient (0 means equal bit for bit, up to the sign of zeros).
template <typename T> double maxAbsDiff(const Parameters<T>& a, const Parameters<T>& b);

} // namespace ckpt::trainer
