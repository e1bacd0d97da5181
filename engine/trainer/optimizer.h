#pragma once
// SGD and Adam (Kingma & Ba 2015) on a network's parameters, after clipping the gradients' global L2 norm.
#include "trainer/cell.h"

#include <optional>
#include <string>

namespace ckpt::trainer {

enum class OptimizerKind { Sgd, Adam };
std::optional<OptimizerKind> parseOptimizer(const std::string& name);
const char* optimizerName(OptimizerKind k);

struct OptimizerSettings {
    OptimizerKind kind = OptimizerKind::Adam;
    double learning_rate = 0; // 0: 0.01 for Adam, 0.1 for SGD
    double clip = 1.0;        // largest global gradient norm; 0: no clipping
    double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
};

template <typename T> class Optimizer {
public:
    explicit Optimizer(const OptimizerSettings& s) : m_s(s) {}
    // Updates `params` from `grads`; returns the gradients' global norm before clipping.
    double step(Parameters<T>& params, const Parameters<T>& grads);
    double learningRate() const;

private:
    OptimizerSettings m_s;
    Parameters<T> m_m, m_v;
    long long m_t = 0;
};

} // namespace ckpt::trainer
