#pragma once
// One step of a recurrent cell, forward and backward, from the cells' equations. Vanilla RNN (tanh), GRU (Cho et al.
// 2014, the reset gate applied after the hidden matmul as cuDNN and PyTorch do) and LSTM (Hochreiter & Schmidhuber,
// with a forget gate). A step maps the state x_{t-1} (h, or h and c) and the input x_t to x_t.
//
// The forward is one function whatever the keep mode: it always computes into the same workspace and then copies
// into the tape when asked. A recomputed step therefore does exactly the floating-point operations of the first run
// and gives the same bits, which is what lets every plan's gradients equal store-all's bit for bit.
#include "trainer/tensors.h"

#include <optional>
#include <random>
#include <string>

namespace ckpt::trainer {

enum class CellKind { Rnn, Gru, Lstm };
const char* cellName(CellKind k); // "rnn", "gru", "lstm"
std::optional<CellKind> parseCell(const std::string& name);

struct Shape {
    CellKind cell = CellKind::Lstm;
    int input = 1;
    int hidden = 1;
    int batch = 1;
    int output = 1; // width of the linear read-out
};

// The trainable tensors, in a fixed order: Wx (G x I), Wh (G x H), b (G x 1), [GRU: bh (G x 1)], then the read-out
// Wy (O x H), by (O x 1); G = gates x H. Gradients and the optimiser's moments use the same type.
template <typename T> struct Parameters {
    std::vector<Mat<T>> tensors;
    std::vector<std::string> names;
    void setZero() {
        for (Mat<T>& m : tensors)
            m.setZero();
    }
    std::int64_t count() const {
        std::int64_t n = 0;
        for (const Mat<T>& m : tensors)
            n += m.size();
        return n;
    }
};

// Scratch of a step (pre-activations, gate gradients). It lives outside the counted store: the chain declares no
// temporaries (forward_tmp_bytes = backward_tmp_bytes = 0), and the scratch is allocated once per network.
template <typename T> struct Workspace { Mat<T> pre, pre2, act, tc, dG, dU, dc, dh; };

template <typename T> class Cell {
public:
    explicit Cell(const Shape& shape) : m_shape(shape) {}

    const Shape& shape() const { return m_shape; }
    int gates() const; // 1, 3 or 4
    int stateParts() const { return m_shape.cell == CellKind::Lstm ? 2 : 1; }
    // Tape layouts (h_t is always the last part, the read-out's input):
    //   rnn:  h_{t-1}, h_t                                          2 x (H x B)
    //   gru:  h_{t-1}, [z r n] (3H x B), U_n h_{t-1} + b_hn, h_t      6 x (H x B)
    //   lstm: h_{t-1}, c_{t-1}, [i f g o] (4H x B), tanh(c_t), h_t    8 x (H x B)
    int tapeParts() const;
    std::int64_t stateBytes() const;
    std::int64_t tapeBytes() const;

    // Appends the cell's tensors (Wx, Wh, b, [bh]) to `p`, uniform in +-1/sqrt(H); the LSTM forget bias starts at 1.
    void initParameters(Parameters<T>& p, std::mt19937_64& rng) const;

    Tensors<T> allocState() const;
    Tensors<T> zeroState() const;
    Tensors<T> allocTape() const;

    // out (and tape, when not null) must come from allocState / allocTape: the step writes into them and never
    // reallocates, so the store's count is the bytes really held.
    void forward(const Parameters<T>& p, const Mat<T>& x, const Tensors<T>& in, Tensors<T>& out, Tensors<T>* tape,
                 Workspace<T>& ws) const;
    // dh: gradient of the loss w.r.t. h_t, all of it (later steps and this step's read-out); dNext: the gradient of
    // x_t, whose c part the LSTM uses. Writes the gradient of x_{t-1} into dIn (from allocState) and adds the
    // parameters' gradients into g.
    void backward(const Parameters<T>& p, Parameters<T>& g, const Mat<T>& x, const Tensors<T>& tape, const Mat<T>& dh,
                  const Tensors<T>& dNext, Tensors<T>& dIn, Workspace<T>& ws) const;

private:
    Shape m_shape;
};

} // namespace ckpt::trainer
