#include "trainer/network.h"

#include <cmath>
#include <random>

namespace ckpt::trainer {

template <typename T>
Network<T>::Network(const Shape& shape, LossKind loss, std::uint64_t seed) : m_cell(shape), m_loss(loss) {
    std::mt19937_64 rng(seed);
    m_cell.initParameters(m_params, rng);
    m_wy = m_params.tensors.size();
    const double r = 1.0 / std::sqrt(double(shape.hidden));
    std::uniform_real_distribution<double> u(-r, r);
    Mat<T> wy(shape.output, shape.hidden);
    for (Eigen::Index j = 0; j < wy.cols(); ++j)
        for (Eigen::Index i = 0; i < wy.rows(); ++i)
            wy(i, j) = T(u(rng));
    m_params.tensors.push_back(wy);
    m_params.names.push_back("Wy");
    m_params.tensors.push_back(Mat<T>::Zero(shape.output, 1));
    m_params.names.push_back("by");
}

template <typename T> Parameters<T> Network<T>::zeroGradients() const {
    Parameters<T> g = m_params;
    g.setZero();
    return g;
}

template <typename T>
void Network<T>::forward(const Batch<T>& batch, int t, const Tensors<T>& in, Tensors<T>& out, Tensors<T>* tape) {
    m_cell.forward(m_params, batch.inputs[std::size_t(t - 1)], in, out, tape, m_ws);
}

template <typename T>
double Network<T>::backward(const Batch<T>& batch, int t, const Tensors<T>& tape, const Tensors<T>& dNext,
                            Tensors<T>& dIn, Parameters<T>& grads) {
    const Mat<T>& h = tape.parts.back();
    const Mat<T>& wy = m_params.tensors[m_wy];
    m_y.noalias() = wy * h;
    m_y.colwise() += m_params.tensors[m_wy + 1].col(0);
    m_dy.resize(m_y.rows(), m_y.cols());
    const T scale = T(1) / (T(batch.size()) * T(batch.length()));
    double loss = 0;
    if (m_loss == LossKind::CrossEntropy) {
        // -log softmax(y)[target]; d/dy = softmax(y) - onehot(target)
        const std::vector<int>& cls = batch.classes[std::size_t(t - 1)];
        for (Eigen::Index b = 0; b < m_y.cols(); ++b) {
            T top = m_y.col(b).maxCoeff();
            T sum = 0;
            for (Eigen::Index o = 0; o < m_y.rows(); ++o) {
                m_dy(o, b) = std::exp(m_y(o, b) - top);
                sum += m_dy(o, b);
            }
            const int k = cls[std::size_t(b)];
            loss += double(std::log(sum) - (m_y(k, b) - top));
            for (Eigen::Index o = 0; o < m_y.rows(); ++o)
                m_dy(o, b) = m_dy(o, b) / sum * scale;
            m_dy(k, b) -= scale;
        }
    } else {
        // (y - target)^2 summed over the outputs; d/dy = 2 (y - target)
        const Mat<T>& target = batch.values[std::size_t(t - 1)];
        for (Eigen::Index b = 0; b < m_y.cols(); ++b)
            for (Eigen::Index o = 0; o < m_y.rows(); ++o) {
                T e = m_y(o, b) - target(o, b);
                loss += double(e) * double(e);
                m_dy(o, b) = T(2) * e * scale;
            }
    }
    grads.tensors[m_wy].noalias() += m_dy * h.transpose();
    grads.tensors[m_wy + 1].col(0) += m_dy.rowwise().sum();
    m_dh = dNext.parts[0];
    m_dh.noalias() += wy.transpose() * m_dy;
    m_cell.backward(m_params, grads, batch.inputs[std::size_t(t - 1)], tape, m_dh, dNext, dIn, m_ws);
    return loss;
}

template class Network<float>;
template class Network<double>;

} // namespace ckpt::trainer
