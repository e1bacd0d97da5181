#pragma once
// A recurrent cell with a linear read-out y_t = Wy h_t + by and a loss on every step (the hard case for BPTT: the
// gradient enters the chain at every step, not only at its end). The loss is the mean over the batch and the steps.
//
// The read-out and the loss run in the backward step: forward steps are then the cell alone whatever the keep mode,
// and each step's loss is computed exactly once per plan (a plan reverses every step once).
#include "trainer/batch.h"
#include "trainer/cell.h"

#include <cstdint>

namespace ckpt::trainer {

template <typename T> class Network {
public:
    Network(const Shape& shape, LossKind loss, std::uint64_t seed);

    const Cell<T>& cell() const { return m_cell; }
    const Shape& shape() const { return m_cell.shape(); }
    LossKind loss() const { return m_loss; }
    Parameters<T>& parameters() { return m_params; }
    const Parameters<T>& parameters() const { return m_params; }
    Parameters<T> zeroGradients() const;

    // Step t (1-based) of `batch`: x_{t-1} -> x_t; see Cell::forward.
    void forward(const Batch<T>& batch, int t, const Tensors<T>& in, Tensors<T>& out, Tensors<T>* tape);
    // Backward of step t: the read-out and its loss from the tape's h_t, then the cell. dNext is the gradient of x_t
    // (zero for the last step), dIn receives the gradient of x_{t-1}. Adds into `grads`; returns the step's loss
    // summed over the batch (divide by batch x length for the mean).
    double backward(const Batch<T>& batch, int t, const Tensors<T>& tape, const Tensors<T>& dNext, Tensors<T>& dIn,
                    Parameters<T>& grads);

private:
    Cell<T> m_cell;
    LossKind m_loss;
    Parameters<T> m_params;
    Workspace<T> m_ws;
    Mat<T> m_y, m_dy, m_dh;
    std::size_t m_wy = 0; // index of Wy (by follows)
};

} // namespace ckpt::trainer
