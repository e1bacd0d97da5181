#include "trainer/executor.h"

#include "util/units.h"

#include <algorithm>
#include <chrono>
#include <new>

namespace ckpt::trainer {
namespace {

template <typename T> std::vector<ByteSpan> spansOf(Tensors<T>& t) {
    std::vector<ByteSpan> s;
    for (Mat<T>& m : t.parts)
        s.push_back(ByteSpan{m.data(), std::size_t(m.size()) * sizeof(T)});
    return s;
}

std::string x(int j) {
    return "x" + std::to_string(j);
}

} // namespace

template <typename T>
Result<std::unique_ptr<Executor<T>>> Executor<T>::make(const Hardware& hw, const std::string& scratch) {
    std::unique_ptr<Executor> e(new Executor());
    const int L = hw.levelCount();
    e->m_disks.resize(std::size_t(L));
    e->m_tapeDisks.resize(std::size_t(L));
    e->m_workers.resize(std::size_t(L));
    e->m_laneNames.push_back("compute");
    for (int l = 1; l < L; ++l) {
        auto d = DiskLevel::create(scratch, l);
        if (!d) return d.errorValue();
        e->m_disks[std::size_t(l)] = std::move(*d);
        auto t = DiskLevel::tapesBeside(*e->m_disks[std::size_t(l)]);
        if (!t) return t.errorValue();
        e->m_tapeDisks[std::size_t(l)] = std::move(*t);
        e->m_workers[std::size_t(l)] = std::make_unique<IoWorker>();
        e->m_laneNames.push_back(hw.level(l).name.empty() ? "level " + std::to_string(l) : hw.level(l).name);
    }
    e->m_store.reset(L);
    return e;
}

template <typename T> Executor<T>::~Executor() {
    drain();
}

template <typename T> Tensors<T> Executor<T>::takeState(const Cell<T>& cell, bool zero) {
    Tensors<T> t = m_pool.take(BufferPool<T>::State, [&] { return cell.allocState(); });
    if (zero)
        for (Mat<T>& m : t.parts)
            m.setZero();
    return t;
}

template <typename T> void Executor<T>::drain() {
    {
        std::lock_guard lock(m_mu);
        m_computeWaits = true;
    }
    m_cv.notify_all();
    for (auto& w : m_workers)
        if (w) w->drain();
    std::lock_guard lock(m_mu);
    m_computeWaits = false;
}

template <typename T>
template <typename Pred>
bool Executor<T>::computeWait(std::unique_lock<std::mutex>& lock, Pred ready) {
    if (ready()) return true;
    m_computeWaits = true;
    m_cv.notify_all();
    // A signal handler may set the cancel flag but cannot notify: look at it now and then.
    while (!ready() && !cancelled())
        m_cv.wait_for(lock, std::chrono::milliseconds(20));
    m_computeWaits = false;
    return ready();
}

template <typename T> std::string Executor<T>::admit(std::int64_t need, const std::string& what) {
    if (m_budget <= 0) return {};
    std::unique_lock lock(m_mu);
    // Only the compute thread adds to held + reserved (a read's start turns its reservation into held bytes), so room
    // seen here is still there when the caller counts its bytes.
    auto fits = [&] { return m_store.held(0) + m_reserved + need <= m_budget || !m_ioError.empty(); };
    if (fits()) return {};
    const std::int64_t held = m_store.held(0);
    if (held + m_reserved - m_releasing + need > m_budget)
        return what + " would take level 0 to " + formatBytes(double(held + m_reserved + need)) +
               " (reads under way included), over the budget of " + formatBytes(double(m_budget)) +
               ", even once every write under way has ended";
    const double w0 = m_store.now();
    const bool ok = computeWait(lock, fits);
    m_budgetWait += m_store.now() - w0;
    ++m_budgetWaits;
    if (!ok) return kCancelled;
    return m_ioError;
}

template <typename T>
Result<Execution> Executor<T>::run(Network<T>& net, const Batch<T>& batch, const Schedule& plan, Parameters<T>& grads) {
    const int n = batch.length();
    const int L = levels();
    const auto N = std::size_t(n) + 1;
    m_n = n;
    m_store.reset(L);
    m_level0.assign(N, nullptr);
    m_onLevel.assign(std::size_t(L), std::vector<char>(N, 0));
    m_onBytes.assign(std::size_t(L), std::vector<std::int64_t>(N, 0));
    m_tapes.assign(N, nullptr);
    m_tapeOn.assign(std::size_t(L), std::vector<char>(N, 0));
    m_tapeOnBytes.assign(std::size_t(L), std::vector<std::int64_t>(N, 0));
    m_backwardDone.assign(N + 1, 0);
    m_forwardRuns.assign(N, 0);
    m_intervals.assign(plan.size(), std::nullopt);
    m_ioError.clear();
    m_grad = {};
    m_loss.assign(N, 0.0);
    m_readWait = 0;
    m_budgetWait = 0;
    m_budgetWaits = 0;
    m_reserved = 0;
    m_releasing = 0;
    const Shape& shape = net.shape();
    if (shape.cell != m_poolShape.cell || shape.hidden != m_poolShape.hidden || shape.batch != m_poolShape.batch) {
        m_pool.clear();
        m_poolShape = shape;
    }
    // x_0, the input of the chain, is in level 0 before anything runs.
    auto x0 = std::make_shared<Slot>();
    x0->pool = &m_pool;
    x0->data = takeState(net.cell(), true);
    x0->bytes = x0->data.bytes();
    m_store.add(0, MemoryCategory::State, x0->bytes);
    m_level0[0] = x0;

    std::string why;
    long long bad = -1;
    for (std::size_t k = 0; k < plan.size() && bad < 0; ++k) {
        std::string err;
        try {
            err = cancelled() ? kCancelled : step(net, batch, grads, plan[k], int(k));
        } catch (const std::bad_alloc&) {
            err = "out of memory (level 0 holds " + formatBytes(double(m_store.held(0))) + ")";
        }
        if (err.empty()) {
            std::lock_guard lock(m_mu);
            err = m_ioError;
        }
        if (!err.empty()) {
            bad = (long long)k;
            why = err == kCancelled ? err : "action " + std::to_string(k) + " (" + toString(plan[k]) + "): " + err;
        }
    }
    drain();
    if (bad < 0 && !m_ioError.empty()) {
        bad = (long long)plan.size();
        why = m_ioError;
    }
    if (bad < 0 && !m_backwardDone[1]) {
        int missing = n;
        while (missing > 1 && m_backwardDone[std::size_t(missing)])
            --missing;
        bad = (long long)plan.size();
        why = "the plan ends (after " + std::to_string(plan.size()) + " actions) before backward step " +
              std::to_string(missing) + ": every step from " + std::to_string(n) + " down to 1 must be reversed";
    }
    Execution ex;
    if (bad >= 0) {
        m_level0.clear();
        m_tapes.clear();
        m_grad = {};
        return fail(why, bad);
    }
    double sum = 0;
    for (int t = 1; t <= n; ++t)
        sum += m_loss[std::size_t(t)];
    ex.loss = sum / (double(batch.size()) * n);
    ex.timeline = finishTimeline(plan);
    ex.read_wait_s = m_readWait;
    ex.budget_wait_s = m_budgetWait;
    ex.budget_waits = m_budgetWaits;
    // The gradient of x_0 is the last thing held, as in the simulator's curve; it goes with the run.
    m_pool.give(BufferPool<T>::State, std::move(m_grad));
    m_grad = {};
    m_level0.clear();
    return ex;
}

template <typename T>
std::string Executor<T>::step(Network<T>& net, const Batch<T>& batch, Parameters<T>& grads, const Action& a, int k) {
    if (m_backwardDone[1]) return "the backward pass has already reached step 1; nothing may follow it";
    const int n = m_n;
    auto checkState = [&](int j) -> std::string {
        if (j < 0 || j > n) return "there is no state " + x(j) + " (states are x0..x" + std::to_string(n) + ")";
        return {};
    };
    auto checkStep = [&](int i) -> std::string {
        if (i < 1 || i > n)
            return "there is no step " + std::to_string(i) + " (steps are 1.." + std::to_string(n) + ")";
        return {};
    };
    auto checkLevel = [&](int l, bool slowOnly) -> std::string {
        if (l < 0 || l >= levels())
            return "there is no memory level " + std::to_string(l) + " (the machine has " + std::to_string(levels()) +
                   ")";
        if (slowOnly && l == 0)
            return "transfers go between level 0 and a slower level; level 0 cannot be the other end";
        return {};
    };
    switch (a.kind) {
    case ActionKind::Forward:
        if (a.index < 1 || a.index > n)
            return "there is no step " + std::to_string(a.index) + " (steps are 1.." + std::to_string(n) + ")";
        return forward(net, batch, a.index, a.keep, k);
    case ActionKind::Backward:
        if (a.index < 1 || a.index > n)
            return "there is no step " + std::to_string(a.index) + " (steps are 1.." + std::to_string(n) + ")";
        return backward(net, batch, grads, a.index, k);
    case ActionKind::Write:
        if (auto e = checkState(a.index); !e.empty()) return e;
        if (auto e = checkLevel(a.level, true); !e.empty()) return e;
        return write(a.index, a.level, k);
    case ActionKind::Read:
        if (auto e = checkState(a.index); !e.empty()) return e;
        if (auto e = checkLevel(a.level, true); !e.empty()) return e;
        return read(net.cell(), a.index, a.level, k);
    case ActionKind::Free:
        if (auto e = checkState(a.index); !e.empty()) return e;
        if (auto e = checkLevel(a.level, false); !e.empty()) return e;
        return freeState(a.index, a.level);
    case ActionKind::WriteTape:
        if (auto e = checkStep(a.index); !e.empty()) return e;
        if (auto e = checkLevel(a.level, true); !e.empty()) return e;
        return writeTape(a.index, a.level, k);
    case ActionKind::ReadTape:
        if (auto e = checkStep(a.index); !e.empty()) return e;
        if (auto e = checkLevel(a.level, true); !e.empty()) return e;
        return readTape(net.cell(), a.index, a.level, k);
    case ActionKind::FreeTape:
        if (auto e = checkStep(a.index); !e.empty()) return e;
        if (auto e = checkLevel(a.level, false); !e.empty()) return e;
        return freeTape(a.index, a.level);
    }
    return "unknown action";
}

template <typename T>
std::string Executor<T>::forward(Network<T>& net, const Batch<T>& batch, int i, Keep keep, int k) {
    const auto si = std::size_t(i);
    if (m_backwardDone[si]) return "step " + std::to_string(i) + " was already reversed; its forward cannot run again";
    SlotPtr in = m_level0[si - 1];
    if (!in) {
        for (int l = 1; l < levels(); ++l)
            if (m_onLevel[std::size_t(l)][si - 1])
                return "its input " + x(i - 1) + " is on level " + std::to_string(l) +
                       ", not in level 0: the store does not hold it in RAM (read it first)";
        return "its input " + x(i - 1) + " is not held by the store (the executor never recomputes it silently)";
    }
    if (m_level0[si]) return x(i) + " is already held in level 0";
    if (keep == Keep::Tape && m_tapes[si])
        return "the tape of step " + std::to_string(i) + " is already held in level 0";
    {
        std::unique_lock lock(m_mu);
        if (!in->ready) {
            const double w0 = m_store.now();
            const bool ok = computeWait(lock, [&] { return in->ready || !m_ioError.empty(); });
            m_readWait += m_store.now() - w0;
            if (!ok) return kCancelled;
        }
        if (!m_ioError.empty()) return m_ioError;
    }
    const Cell<T>& cell = net.cell();
    const std::int64_t need = cell.stateBytes() + (keep == Keep::Tape ? cell.tapeBytes() : 0);
    if (auto e = admit(need, "its output" + std::string(keep == Keep::Tape ? " and tape" : "")); !e.empty()) return e;
    const double start = m_store.now();
    auto out = std::make_shared<Slot>();
    out->pool = &m_pool;
    out->data = takeState(cell, false);
    out->bytes = out->data.bytes();
    m_store.add(0, MemoryCategory::State, out->bytes);
    std::int64_t tapeBytes = 0;
    if (keep == Keep::Tape) {
        auto tape = std::make_shared<Slot>();
        tape->pool = &m_pool;
        tape->tape = true;
        tape->data = m_pool.take(BufferPool<T>::Tape, [&] { return cell.allocTape(); });
        tape->bytes = tapeBytes = tape->data.bytes();
        m_store.add(0, MemoryCategory::Tape, tapeBytes);
        m_tapes[si] = std::move(tape);
    }
    net.forward(batch, i, in->data, out->data, keep == Keep::Tape ? &m_tapes[si]->data : nullptr);
    const double end = m_store.now();
    m_level0[si] = out;
    IntervalKind kind = m_forwardRuns[si]++ ? IntervalKind::Recompute : IntervalKind::Forward;
    record(k, Interval{start, end, k, i, out->bytes + tapeBytes, 0, kind});
    if (keep != Keep::State) release0(i - 1);
    if (i >= m_n || m_backwardDone[si + 1]) release0(i); // x_i can never be used again
    return {};
}

template <typename T>
std::string Executor<T>::backward(Network<T>& net, const Batch<T>& batch, Parameters<T>& grads, int i, int k) {
    const auto si = std::size_t(i);
    if (m_backwardDone[si]) return "backward step " + std::to_string(i) + " is done twice";
    if (i < m_n && !m_backwardDone[si + 1])
        return "the gradient of " + x(i) + " does not exist yet: backward step " + std::to_string(i + 1) +
               " must come first";
    if (!m_tapes[si]) {
        for (int l = 1; l < levels(); ++l)
            if (m_tapeOn[std::size_t(l)][si])
                return "the tape of step " + std::to_string(i) + " is on level " + std::to_string(l) +
                       ", not in level 0: read it first";
        return "the tape of step " + std::to_string(i) + " is not held: run forward " + std::to_string(i) +
               " with keep tape first";
    }
    const SlotPtr tape = m_tapes[si];
    if (!waitReady(*tape)) return kCancelled;
    {
        std::lock_guard lock(m_mu);
        if (!m_ioError.empty()) return m_ioError;
    }
    const Cell<T>& cell = net.cell();
    if (auto e = admit(cell.stateBytes() * (i == m_n ? 2 : 1), "its gradients"); !e.empty()) return e;
    const double start = m_store.now();
    if (i == m_n) {
        m_grad = takeState(cell, true); // the gradient of x_n: the loss enters through each step's read-out
        m_store.add(0, MemoryCategory::Gradient, m_grad.bytes());
    }
    Tensors<T> dIn = takeState(cell, false);
    m_store.add(0, MemoryCategory::Gradient, dIn.bytes());
    m_loss[si] = net.backward(batch, i, tape->data, m_grad, dIn, grads);
    const double end = m_store.now();
    m_store.add(0, MemoryCategory::Gradient, -m_grad.bytes());
    m_pool.give(BufferPool<T>::State, std::move(m_grad));
    m_grad = std::move(dIn);
    m_tapes[si] = nullptr;
    releaseSlot(tape);
    m_backwardDone[si] = 1;
    for (int l = 1; l < levels(); ++l)
        if (m_tapeOn[std::size_t(l)][si]) releaseTapeOnDisk(i, l);
    record(k, Interval{start, end, k, i, m_grad.bytes(), 0, IntervalKind::Backward});
    // x_{i-1} can never be used again, on any level.
    release0(i - 1);
    for (int l = 1; l < levels(); ++l)
        if (m_onLevel[std::size_t(l)][si - 1]) releaseOnDisk(i - 1, l);
    return {};
}

template <typename T> std::string Executor<T>::write(int j, int l, int k) {
    const auto sj = std::size_t(j), sl = std::size_t(l);
    SlotPtr s = m_level0[sj];
    if (!s) return x(j) + " is not held in level 0, so it cannot be written";
    if (m_onLevel[sl][sj]) return x(j) + " is already held on level " + std::to_string(l);
    m_onLevel[sl][sj] = 1;
    m_onBytes[sl][sj] = s->bytes;
    {
        std::lock_guard lock(m_mu);
        ++s->pins;
    }
    m_workers[sl]->submit([this, s, j, l, k] {
        {
            std::unique_lock lock(m_mu);
            m_cv.wait(lock, [&] { return s->ready && (!m_lagWrites || m_computeWaits); });
        }
        const double start = m_store.add(l, MemoryCategory::State, s->bytes);
        auto ok = m_disks[std::size_t(l)]->write(j, spansOf(s->data));
        const double end = m_store.now();
        unpin(*s);
        record(k, Interval{start, end, k, j, s->bytes, std::int16_t(l), IntervalKind::Write});
        if (!ok) ioFailed(ok.error());
    });
    return {};
}

template <typename T> std::string Executor<T>::read(const Cell<T>& cell, int j, int l, int k) {
    const auto sj = std::size_t(j), sl = std::size_t(l);
    if (!m_onLevel[sl][sj]) return x(j) + " is not held on level " + std::to_string(l);
    if (m_level0[sj]) return x(j) + " is already held in level 0";
    auto s = std::make_shared<Slot>();
    s->pool = &m_pool;
    s->bytes = m_onBytes[sl][sj];
    s->ready = false;
    s->pins = 1; // the read fills it
    if (auto e = admit(s->bytes, "the read of " + x(j)); !e.empty()) return e;
    {
        std::lock_guard lock(m_mu);
        m_reserved += s->bytes;
    }
    m_level0[sj] = s;
    m_workers[sl]->submit([this, s, j, l, k, cell] {
        double start = 0;
        {
            std::lock_guard lock(m_mu);
            m_reserved -= s->bytes;
            start = m_store.add(0, MemoryCategory::State, s->bytes);
        }
        Result<bool> ok = true;
        try {
            s->data = takeState(cell, false);
            ok = m_disks[std::size_t(l)]->read(j, spansOf(s->data));
        } catch (const std::bad_alloc&) {
            ok = fail("out of memory reading " + x(j) + " back from level " + std::to_string(l));
        }
        const double end = m_store.now();
        {
            std::lock_guard lock(m_mu);
            s->ready = true;
        }
        unpin(*s);
        m_cv.notify_all();
        record(k, Interval{start, end, k, j, s->bytes, std::int16_t(l), IntervalKind::Read});
        if (!ok) ioFailed(ok.error());
    });
    return {};
}

template <typename T> std::string Executor<T>::freeState(int j, int l) {
    const auto sj = std::size_t(j), sl = std::size_t(l);
    if (l == 0) {
        if (!m_level0[sj]) return x(j) + " is not held on level 0";
        release0(j);
        return {};
    }
    if (!m_onLevel[sl][sj]) return x(j) + " is not held on level " + std::to_string(l);
    releaseOnDisk(j, l);
    return {};
}

template <typename T> bool Executor<T>::waitReady(const Slot& s) {
    std::unique_lock lock(m_mu);
    if (s.ready) return true;
    const double w0 = m_store.now();
    const bool ok = computeWait(lock, [&] { return s.ready || !m_ioError.empty(); });
    m_readWait += m_store.now() - w0;
    return ok;
}

template <typename T> std::string Executor<T>::writeTape(int i, int l, int k) {
    const auto si = std::size_t(i), sl = std::size_t(l);
    SlotPtr s = m_tapes[si];
    if (!s) return "the tape of step " + std::to_string(i) + " is not held in level 0, so it cannot be written";
    if (m_tapeOn[sl][si])
        return "the tape of step " + std::to_string(i) + " is already held on level " + std::to_string(l);
    m_tapeOn[sl][si] = 1;
    m_tapeOnBytes[sl][si] = s->bytes;
    {
        std::lock_guard lock(m_mu);
        ++s->pins;
    }
    m_workers[sl]->submit([this, s, i, l, k] {
        {
            std::unique_lock lock(m_mu);
            m_cv.wait(lock, [&] { return s->ready && (!m_lagWrites || m_computeWaits); });
        }
        const double start = m_store.add(l, MemoryCategory::Tape, s->bytes);
        auto ok = m_tapeDisks[std::size_t(l)]->write(i, spansOf(s->data));
        const double end = m_store.now();
        unpin(*s);
        Interval iv{start, end, k, i, s->bytes, std::int16_t(l), IntervalKind::Write};
        iv.tape = true;
        record(k, iv);
        if (!ok) ioFailed(ok.error());
    });
    return {};
}

template <typename T> std::string Executor<T>::readTape(const Cell<T>& cell, int i, int l, int k) {
    const auto si = std::size_t(i), sl = std::size_t(l);
    if (!m_tapeOn[sl][si])
        return "the tape of step " + std::to_string(i) + " is not held on level " + std::to_string(l);
    if (m_tapes[si]) return "the tape of step " + std::to_string(i) + " is already held in level 0";
    auto s = std::make_shared<Slot>();
    s->pool = &m_pool;
    s->tape = true;
    s->bytes = m_tapeOnBytes[sl][si];
    s->ready = false;
    s->pins = 1; // the read fills it
    if (auto e = admit(s->bytes, "the read of the tape of step " + std::to_string(i)); !e.empty()) return e;
    {
        std::lock_guard lock(m_mu);
        m_reserved += s->bytes;
    }
    m_tapes[si] = s;
    m_workers[sl]->submit([this, s, i, l, k, cell] {
        double start = 0;
        {
            std::lock_guard lock(m_mu);
            m_reserved -= s->bytes;
            start = m_store.add(0, MemoryCategory::Tape, s->bytes);
        }
        Result<bool> ok = true;
        try {
            s->data = m_pool.take(BufferPool<T>::Tape, [&] { return cell.allocTape(); });
            ok = m_tapeDisks[std::size_t(l)]->read(i, spansOf(s->data));
        } catch (const std::bad_alloc&) {
            ok = fail("out of memory reading the tape of step " + std::to_string(i) + " back from level " +
                      std::to_string(l));
        }
        const double end = m_store.now();
        {
            std::lock_guard lock(m_mu);
            s->ready = true;
        }
        unpin(*s);
        m_cv.notify_all();
        Interval iv{start, end, k, i, s->bytes, std::int16_t(l), IntervalKind::Read};
        iv.tape = true;
        record(k, iv);
        if (!ok) ioFailed(ok.error());
    });
    return {};
}

template <typename T> std::string Executor<T>::freeTape(int i, int l) {
    const auto si = std::size_t(i), sl = std::size_t(l);
    if (l == 0) {
        if (!m_tapes[si]) return "the tape of step " + std::to_string(i) + " is not held on level 0";
        SlotPtr s = std::move(m_tapes[si]);
        m_tapes[si] = nullptr;
        releaseSlot(std::move(s));
        return {};
    }
    if (!m_tapeOn[sl][si])
        return "the tape of step " + std::to_string(i) + " is not held on level " + std::to_string(l);
    releaseTapeOnDisk(i, l);
    return {};
}

template <typename T> void Executor<T>::releaseTapeOnDisk(int i, int l) {
    const auto si = std::size_t(i), sl = std::size_t(l);
    m_tapeOn[sl][si] = 0;
    const std::int64_t bytes = m_tapeOnBytes[sl][si];
    m_workers[sl]->submit([this, l, bytes] { m_store.add(l, MemoryCategory::Tape, -bytes); });
}

template <typename T> void Executor<T>::release0(int j) {
    SlotPtr s = std::move(m_level0[std::size_t(j)]);
    m_level0[std::size_t(j)] = nullptr;
    releaseSlot(std::move(s));
}

template <typename T> void Executor<T>::releaseSlot(SlotPtr s) {
    if (!s) return;
    std::lock_guard lock(m_mu);
    if (s->pins == 0) {
        m_store.add(0, s->category(), -s->bytes);
    } else {
        s->releasePending = true; // the transfer still using it releases it when done
        m_releasing += s->bytes;
    }
}

template <typename T> void Executor<T>::releaseOnDisk(int j, int l) {
    const auto sj = std::size_t(j), sl = std::size_t(l);
    m_onLevel[sl][sj] = 0;
    const std::int64_t bytes = m_onBytes[sl][sj];
    // Queued behind the level's transfers, so a read of this copy finishes first; its slot in the file is then
    // free for the next write of x_j.
    m_workers[sl]->submit([this, l, bytes] { m_store.add(l, MemoryCategory::State, -bytes); });
}

template <typename T> void Executor<T>::unpin(Slot& s) {
    {
        std::lock_guard lock(m_mu);
        if (--s.pins > 0 || !s.releasePending) return;
        s.releasePending = false;
        m_releasing -= s.bytes;
        m_store.add(0, s.category(), -s.bytes);
    }
    m_cv.notify_all(); // a compute thread waiting for room
}

template <typename T> void Executor<T>::record(int k, const Interval& iv) {
    std::lock_guard lock(m_mu);
    m_intervals[std::size_t(k)] = iv;
}

template <typename T> void Executor<T>::ioFailed(const std::string& why) {
    {
        std::lock_guard lock(m_mu);
        if (m_ioError.empty()) m_ioError = why;
    }
    m_cv.notify_all();
}

template <typename T> Timeline Executor<T>::finishTimeline(const Schedule& plan) {
    Timeline tl;
    tl.lanes = m_laneNames;
    Totals& t = tl.totals;
    const int L = levels();
    t.channel_busy_s.assign(std::size_t(L), 0.0);
    for (std::size_t k = 0; k < plan.size(); ++k) {
        if (!m_intervals[k]) continue;
        const Interval& iv = *m_intervals[k];
        tl.intervals.push_back(iv);
        t.makespan_s = std::max(t.makespan_s, iv.end);
        switch (iv.kind) {
        case IntervalKind::Forward:
        case IntervalKind::Recompute:
            ++t.forward_steps;
            break;
        case IntervalKind::Backward:
            ++t.backward_steps;
            break;
        case IntervalKind::Write:
            t.bytes_written += iv.bytes;
            break;
        case IntervalKind::Read:
            t.bytes_read += iv.bytes;
            break;
        }
        if (iv.lane == 0)
            t.compute_s += iv.end - iv.start;
        else
            t.channel_busy_s[std::size_t(iv.lane)] += iv.end - iv.start;
    }
    t.steps = m_n;
    t.recomputed_steps = t.forward_steps - m_n;
    t.peak_bytes = m_store.peaks();
    t.peak_time_s = m_store.peakTimes();
    tl.memory = m_store.curves();
    return tl;
}

template class Executor<float>;
template class Executor<double>;

} // namespace ckpt::trainer
