#include "trainer/optimizer.h"

#include <cmath>

namespace ckpt::trainer {

std::optional<OptimizerKind> parseOptimizer(const std::string& name) {
    if (name == "sgd") return OptimizerKind::Sgd;
    if (name == "adam") return OptimizerKind::Adam;
    return std::nullopt;
}

const char* optimizerName(OptimizerKind k) {
    return k == OptimizerKind::Sgd ? "sgd" : "adam";
}

template <typename T> double Optimizer<T>::learningRate() const {
    if (m_s.learning_rate > 0) return m_s.learning_rate;
    return m_s.kind == OptimizerKind::Adam ? 0.01 : 0.1;
}

template <typename T> double Optimizer<T>::step(Parameters<T>& params, const Parameters<T>& grads) {
    double sq = 0;
    for (const Mat<T>& g : grads.tensors)
        sq += g.template cast<double>().squaredNorm();
    const double norm = std::sqrt(sq);
    const double scale = (m_s.clip > 0 && norm > m_s.clip) ? m_s.clip / norm : 1.0;
    const double lr = learningRate();
    if (m_s.kind == OptimizerKind::Sgd) {
        for (std::size_t k = 0; k < params.tensors.size(); ++k)
            params.tensors[k] -= T(lr * scale) * grads.tensors[k];
        return norm;
    }
    if (m_m.tensors.empty()) {
        m_m = grads;
        m_m.setZero();
        m_v = m_m;
    }
    ++m_t;
    const double c1 = 1 - std::pow(m_s.beta1, double(m_t)), c2 = 1 - std::pow(m_s.beta2, double(m_t));
    for (std::size_t k = 0; k < params.tensors.size(); ++k) {
        const Mat<T> gk = grads.tensors[k] * T(scale);
        const auto g = gk.array();
        m_m.tensors[k] = (T(m_s.beta1) * m_m.tensors[k].array() + T(1 - m_s.beta1) * g).matrix();
        m_v.tensors[k] = (T(m_s.beta2) * m_v.tensors[k].array() + T(1 - m_s.beta2) * g.square()).matrix();
        params.tensors[k].array() -=
            T(lr) * (m_m.tensors[k].array() / T(c1)) / ((m_v.tensors[k].array() / T(c2)).sqrt() + T(m_s.epsilon));
    }
    return norm;
}

template class Optimizer<float>;
template class Optimizer<double>;

} // namespace ckpt::trainer
