#pragma once
// One batch of a sequence task: the inputs and targets of every step. Data, not state: it lives outside the counted
// store (the chain's steps describe the recurrent state and the tapes only).
#include "trainer/tensors.h"

#include <vector>

namespace ckpt::trainer {

// Cross-entropy over the read-out's classes (softmax), or squared error on its values.
enum class LossKind { CrossEntropy, SquaredError };

template <typename T> struct Batch {
    std::vector<Mat<T>> inputs;            // step t (1-based) at [t-1]: input width x batch
    std::vector<std::vector<int>> classes; // CrossEntropy: step t at [t-1], one class per sample
    std::vector<Mat<T>> values;            // SquaredError: step t at [t-1], output width x batch
    int length() const { return int(inputs.size()); }
    int size() const { return inputs.empty() ? 0 : int(inputs.front().cols()); }
};

} // namespace ckpt::trainer
