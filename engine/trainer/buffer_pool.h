#pragma once
// Buffers of states and tapes, kept for reuse once released, as a caching allocator does: after the first iteration
// a plan's steps no longer pay for fresh pages, so a step costs the same whether it runs in a short profile or in a
// long plan. The counted store counts what is held, not this reserve (which never exceeds the held peak).
// Thread-safe: reads allocate on the I/O threads.
#include "trainer/tensors.h"

#include <functional>
#include <mutex>
#include <vector>

namespace ckpt::trainer {

template <typename T> class BufferPool {
public:
    enum Kind { State = 0, Tape = 1 };

    // A released buffer of this kind, or a new one from `make`. Its contents are whatever they were.
    Tensors<T> take(Kind kind, const std::function<Tensors<T>()>& make) {
        {
            std::lock_guard lock(m_mu);
            auto& free = m_free[kind];
            if (!free.empty()) {
                Tensors<T> t = std::move(free.back());
                free.pop_back();
                return t;
            }
        }
        return make();
    }
    void give(Kind kind, Tensors<T>&& t) {
        if (t.empty()) return;
        std::lock_guard lock(m_mu);
        m_free[kind].push_back(std::move(t));
    }
    // Forgets every buffer (a network of another shape is coming).
    void clear() {
        std::lock_guard lock(m_mu);
        m_free[0].clear();
        m_free[1].clear();
    }

private:
    std::mutex m_mu;
    std::vector<Tensors<T>> m_free[2];
};

} // namespace ckpt::trainer
