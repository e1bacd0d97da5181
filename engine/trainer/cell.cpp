#include "trainer/cell.h"

#include <cmath>

namespace ckpt::trainer {

const char* cellName(CellKind k) {
    switch (k) {
    case CellKind::Rnn:
        return "rnn";
    case CellKind::Gru:
        return "gru";
    case CellKind::Lstm:
        return "lstm";
    }
    return "?";
}

std::optional<CellKind> parseCell(const std::string& name) {
    if (name == "rnn") return CellKind::Rnn;
    if (name == "gru") return CellKind::Gru;
    if (name == "lstm") return CellKind::Lstm;
    return std::nullopt;
}

namespace {
enum : std::size_t { kWx = 0, kWh = 1, kB = 2, kBh = 3 };
} // namespace

template <typename T> int Cell<T>::gates() const {
    switch (m_shape.cell) {
    case CellKind::Rnn:
        return 1;
    case CellKind::Gru:
        return 3;
    case CellKind::Lstm:
        return 4;
    }
    return 1;
}

template <typename T> int Cell<T>::tapeParts() const {
    switch (m_shape.cell) {
    case CellKind::Rnn:
        return 2;
    case CellKind::Gru:
        return 4;
    case CellKind::Lstm:
        return 5;
    }
    return 0;
}

template <typename T> std::int64_t Cell<T>::stateBytes() const {
    return std::int64_t(stateParts()) * m_shape.hidden * m_shape.batch * std::int64_t(sizeof(T));
}

template <typename T> std::int64_t Cell<T>::tapeBytes() const {
    const std::int64_t hb = std::int64_t(m_shape.hidden) * m_shape.batch * std::int64_t(sizeof(T));
    switch (m_shape.cell) {
    case CellKind::Rnn:
        return 2 * hb;
    case CellKind::Gru:
        return 6 * hb;
    case CellKind::Lstm:
        return 8 * hb;
    }
    return 0;
}

template <typename T> void Cell<T>::initParameters(Parameters<T>& p, std::mt19937_64& rng) const {
    const int H = m_shape.hidden, G = gates() * H;
    const double r = 1.0 / std::sqrt(double(H));
    std::uniform_real_distribution<double> u(-r, r);
    auto uniform = [&](int rows, int cols) {
        Mat<T> m(rows, cols);
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            for (Eigen::Index i = 0; i < m.rows(); ++i)
                m(i, j) = T(u(rng));
        return m;
    };
    p.tensors.push_back(uniform(G, m_shape.input));
    p.names.push_back("Wx");
    p.tensors.push_back(uniform(G, H));
    p.names.push_back("Wh");
    Mat<T> b = Mat<T>::Zero(G, 1);
    if (m_shape.cell == CellKind::Lstm) b.middleRows(H, H).setOnes(); // remember by default (Gers et al. 2000)
    p.tensors.push_back(b);
    p.names.push_back("b");
    if (m_shape.cell == CellKind::Gru) {
        p.tensors.push_back(Mat<T>::Zero(G, 1));
        p.names.push_back("bh");
    }
}

template <typename T> Tensors<T> Cell<T>::allocState() const {
    Tensors<T> s;
    for (int k = 0; k < stateParts(); ++k)
        s.parts.emplace_back(m_shape.hidden, m_shape.batch);
    return s;
}

template <typename T> Tensors<T> Cell<T>::zeroState() const {
    Tensors<T> s = allocState();
    for (Mat<T>& m : s.parts)
        m.setZero();
    return s;
}

template <typename T> Tensors<T> Cell<T>::allocTape() const {
    const int H = m_shape.hidden, B = m_shape.batch;
    Tensors<T> t;
    t.parts.emplace_back(H, B);                                     // h_{t-1}
    if (m_shape.cell == CellKind::Lstm) t.parts.emplace_back(H, B); // c_{t-1}
    if (m_shape.cell != CellKind::Rnn) t.parts.emplace_back(gates() * H, B);
    if (m_shape.cell != CellKind::Rnn) t.parts.emplace_back(H, B); // GRU: U_n h + b_hn; LSTM: tanh(c_t)
    t.parts.emplace_back(H, B);                                    // h_t
    return t;
}

template <typename T>
void Cell<T>::forward(const Parameters<T>& p, const Mat<T>& x, const Tensors<T>& in, Tensors<T>& out, Tensors<T>* tape,
                      Workspace<T>& ws) const {
    const Eigen::Index H = m_shape.hidden;
    const std::vector<Mat<T>>& w = p.tensors;
    const Mat<T>& hPrev = in.parts[0];
    Mat<T>& h = out.parts[0];
    switch (m_shape.cell) {
    case CellKind::Rnn: {
        // h_t = tanh(Wx x_t + Wh h_{t-1} + b)
        ws.pre.noalias() = w[kWx] * x;
        ws.pre.noalias() += w[kWh] * hPrev;
        ws.pre.colwise() += w[kB].col(0);
        h = ws.pre.array().tanh().matrix();
        if (tape) {
            tape->parts[0] = hPrev;
            tape->parts[1] = h;
        }
        return;
    }
    case CellKind::Gru: {
        // [a_z a_r a_n] = Wx x_t + b,  [u_z u_r u_n] = Wh h_{t-1} + bh
        // z = s(a_z + u_z), r = s(a_r + u_r), n = tanh(a_n + r * u_n), h_t = n + z * (h_{t-1} - n)
        ws.pre.noalias() = w[kWx] * x;
        ws.pre.colwise() += w[kB].col(0);
        ws.pre2.noalias() = w[kWh] * hPrev;
        ws.pre2.colwise() += w[kBh].col(0);
        ws.act.resize(3 * H, m_shape.batch);
        ws.act.topRows(2 * H) = (ws.pre.topRows(2 * H) + ws.pre2.topRows(2 * H)).array().logistic().matrix();
        ws.act.bottomRows(H) =
            (ws.pre.bottomRows(H).array() + ws.act.middleRows(H, H).array() * ws.pre2.bottomRows(H).array())
                .tanh()
                .matrix();
        const auto z = ws.act.topRows(H).array();
        const auto n = ws.act.bottomRows(H).array();
        h = (n + z * (hPrev.array() - n)).matrix();
        if (tape) {
            tape->parts[0] = hPrev;
            tape->parts[1] = ws.act;
            tape->parts[2] = ws.pre2.bottomRows(H);
            tape->parts[3] = h;
        }
        return;
    }
    case CellKind::Lstm: {
        // [i f g o] = Wx x_t + Wh h_{t-1} + b with sigmoids on i, f, o and tanh on g;
        // c_t = f * c_{t-1} + i * g, h_t = o * tanh(c_t)
        const Mat<T>& cPrev = in.parts[1];
        Mat<T>& c = out.parts[1];
        ws.pre.noalias() = w[kWx] * x;
        ws.pre.noalias() += w[kWh] * hPrev;
        ws.pre.colwise() += w[kB].col(0);
        ws.act = ws.pre.array().logistic().matrix();
        ws.act.middleRows(2 * H, H) = ws.pre.middleRows(2 * H, H).array().tanh().matrix();
        const auto i = ws.act.topRows(H).array();
        const auto f = ws.act.middleRows(H, H).array();
        const auto g = ws.act.middleRows(2 * H, H).array();
        const auto o = ws.act.bottomRows(H).array();
        c = (f * cPrev.array() + i * g).matrix();
        ws.tc = c.array().tanh().matrix();
        h = (o * ws.tc.array()).matrix();
        if (tape) {
            tape->parts[0] = hPrev;
            tape->parts[1] = cPrev;
            tape->parts[2] = ws.act;
            tape->parts[3] = ws.tc;
            tape->parts[4] = h;
        }
        return;
    }
    }
}

template <typename T>
void Cell<T>::backward(const Parameters<T>& p, Parameters<T>& g, const Mat<T>& x, const Tensors<T>& tape,
                       const Mat<T>& dh, const Tensors<T>& dNext, Tensors<T>& dIn, Workspace<T>& ws) const {
    const Eigen::Index H = m_shape.hidden;
    const std::vector<Mat<T>>& w = p.tensors;
    std::vector<Mat<T>>& gw = g.tensors;
    const Mat<T>& hPrev = tape.parts[0];
    const T one(1);
    switch (m_shape.cell) {
    case CellKind::Rnn: {
        const Mat<T>& h = tape.parts[1];
        ws.dG = (dh.array() * (one - h.array().square())).matrix();
        break;
    }
    case CellKind::Gru: {
        const Mat<T>& act = tape.parts[1];
        const auto z = act.topRows(H).array();
        const auto r = act.middleRows(H, H).array();
        const auto n = act.bottomRows(H).array();
        const auto un = tape.parts[2].array();
        ws.dG.resize(3 * H, m_shape.batch);
        // d a_n = dh (1 - z)(1 - n^2); d a_r = d a_n u_n r (1 - r); d a_z = dh (h_{t-1} - n) z (1 - z)
        ws.dG.bottomRows(H) = (dh.array() * (one - z) * (one - n.square())).matrix();
        ws.dG.middleRows(H, H) = (ws.dG.bottomRows(H).array() * un * r * (one - r)).matrix();
        ws.dG.topRows(H) = (dh.array() * (hPrev.array() - n) * z * (one - z)).matrix();
        // The hidden side sees r * u_n: its n rows are d a_n * r.
        ws.dU = ws.dG;
        ws.dU.bottomRows(H) = (ws.dG.bottomRows(H).array() * r).matrix();
        gw[kWx].noalias() += ws.dG * x.transpose();
        gw[kB].col(0) += ws.dG.rowwise().sum();
        gw[kWh].noalias() += ws.dU * hPrev.transpose();
        gw[kBh].col(0) += ws.dU.rowwise().sum();
        dIn.parts[0] = (dh.array() * z).matrix();
        dIn.parts[0].noalias() += w[kWh].transpose() * ws.dU;
        return;
    }
    case CellKind::Lstm: {
        const Mat<T>& cPrev = tape.parts[1];
        const Mat<T>& act = tape.parts[2];
        const auto tc = tape.parts[3].array();
        const auto i = act.topRows(H).array();
        const auto f = act.middleRows(H, H).array();
        const auto gg = act.middleRows(2 * H, H).array();
        const auto o = act.bottomRows(H).array();
        // dc_t = dc (from step t+1) + dh o (1 - tanh(c_t)^2)
        ws.dc = (dNext.parts[1].array() + dh.array() * o * (one - tc.square())).matrix();
        const auto dc = ws.dc.array();
        ws.dG.resize(4 * H, m_shape.batch);
        ws.dG.topRows(H) = (dc * gg * i * (one - i)).matrix();
        ws.dG.middleRows(H, H) = (dc * cPrev.array() * f * (one - f)).matrix();
        ws.dG.middleRows(2 * H, H) = (dc * i * (one - gg.square())).matrix();
        ws.dG.bottomRows(H) = (dh.array() * tc * o * (one - o)).matrix();
        dIn.parts[1] = (dc * f).matrix();
        break;
    }
    }
    // RNN and LSTM: one pre-activation for both matmuls.
    gw[kWx].noalias() += ws.dG * x.transpose();
    gw[kWh].noalias() += ws.dG * hPrev.transpose();
    gw[kB].col(0) += ws.dG.rowwise().sum();
    dIn.parts[0].noalias() = w[kWh].transpose() * ws.dG;
}

template class Cell<float>;
template class Cell<double>;

} // namespace ckpt::trainer
