#include "trainer/trainer.h"

#include "trainer/bptt.h"
#include "util/units.h"

#include <algorithm>
#include <chrono>
#include <new>
#include <unistd.h>

namespace ckpt::trainer {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

template <typename T> class TrainerImpl final : public Trainer {
public:
    TrainerImpl(TrainerConfig c, Task t)
        : Trainer(std::move(c), std::move(t)),
          m_net(Shape{m_config.cell, m_task.inputWidth(), m_config.hidden, m_config.batch, m_task.outputWidth()},
                m_task.loss(), m_config.seed),
          m_grads(m_net.zeroGradients()), m_opt(m_config.optimizer), m_rng(m_config.seed * 7919 + 1) {}

    std::int64_t stateBytes() const override { return m_net.cell().stateBytes(); }
    std::int64_t tapeBytes() const override { return m_net.cell().tapeBytes(); }
    std::int64_t parameterCount() const override { return m_net.parameters().count(); }

    Result<Profile> profile(int steps, int repeats, bool disk) override {
        try {
            return measure(steps, repeats, disk);
        } catch (const std::bad_alloc&) {
            return fail("out of memory while profiling " + networkName());
        }
    }

    Result<Iteration> iterate(const Plan& plan, const Hardware& hw, bool checkGradients) override {
        try {
            return step(plan, hw, checkGradients);
        } catch (const std::bad_alloc&) {
            m_exec.reset(); // whatever it held goes
            return fail("out of memory while training " + networkName() + " with " + plan.scheduler);
        }
    }

private:
    Network<T> m_net;
    Parameters<T> m_grads;
    Optimizer<T> m_opt;
    std::mt19937_64 m_rng;
    std::unique_ptr<Executor<T>> m_exec;
    Hardware m_execHw = Hardware::unbounded();

    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }

    Result<Profile> measure(int steps, int repeats, bool disk) {
        Profile p;
        p.steps = std::max({2, m_task.minLength(), std::min(steps, m_config.length)});
        p.repeats = std::max(1, repeats);
        p.state_bytes = stateBytes();
        p.tape_bytes = tapeBytes();
        // Untaped forwards from a kept x_0, then store-all: every keep mode and the backward, on the real code path.
        Schedule s;
        s.push_back(Action::forward(1, Keep::State));
        for (int i = 2; i <= p.steps; ++i)
            s.push_back(Action::forward(i, Keep::None));
        for (int i = 1; i <= p.steps; ++i)
            s.push_back(Action::forward(i, Keep::Tape));
        for (int i = p.steps; i >= 1; --i)
            s.push_back(Action::backward(i));
        std::mt19937_64 rng(m_config.seed * 31 + 5); // its own stream: profiling does not change the training batches
        Batch<T> batch = m_task.sample<T>(p.steps, m_config.batch, rng);
        auto exec = Executor<T>::make(Hardware::unbounded(), m_config.scratch);
        if (!exec) return exec.errorValue();
        (*exec)->setCancelFlag(m_cancel);
        Parameters<T> g = m_net.zeroGradients();
        std::vector<double> untaped, taped, back;
        for (int r = 0; r <= p.repeats; ++r) {
            auto run = (*exec)->run(m_net, batch, s, g);
            if (!run) return fail("profiling: " + run.error());
            if (r == 0) continue; // warm-up: caches, first-touch page faults
            for (const Interval& iv : run->timeline.intervals) {
                const double d = iv.end - iv.start;
                if (iv.kind == IntervalKind::Backward)
                    back.push_back(d);
                else if (iv.kind == IntervalKind::Recompute)
                    taped.push_back(d);
                else if (iv.kind == IntervalKind::Forward && iv.index > 1)
                    untaped.push_back(d);
            }
        }
        p.forward_untaped_s = median(untaped);
        p.forward_taped_s = median(taped);
        p.forward_s = 0.5 * (p.forward_untaped_s + p.forward_taped_s);
        p.backward_s = median(back);
        if (disk) {
            auto d = DiskLevel::create(m_config.scratch, 1);
            if (!d) return d.errorValue();
            Tensors<T> state = m_net.cell().zeroState(), back2 = m_net.cell().allocState();
            std::vector<ByteSpan> out, in;
            for (Mat<T>& m : state.parts)
                out.push_back(ByteSpan{m.data(), std::size_t(m.size()) * sizeof(T)});
            for (Mat<T>& m : back2.parts)
                in.push_back(ByteSpan{m.data(), std::size_t(m.size()) * sizeof(T)});
            std::vector<double> w, rd;
            // As many slots as fit in 64 MiB (at least 8, at most the chain's states): a run's writes spread over
            // the whole file, not over a few pages that stay in cache.
            const int files =
                int(std::clamp<std::int64_t>((std::int64_t(64) << 20) / std::max<std::int64_t>(1, stateBytes()), 8,
                                             std::int64_t(m_config.length) + 1));
            for (int r = 0; r <= p.repeats; ++r)
                for (int j = 0; j < files; ++j) {
                    if (cancelled()) return fail(kCancelled);
                    auto t0 = Clock::now();
                    auto ok = (*d)->write(j, out);
                    const double tw = secondsSince(t0);
                    if (!ok) return fail("profiling the disk level: " + ok.error());
                    t0 = Clock::now();
                    ok = (*d)->read(j, in);
                    const double tr = secondsSince(t0);
                    if (!ok) return fail("profiling the disk level: " + ok.error());
                    if (r > 0) {
                        w.push_back(tw);
                        rd.push_back(tr);
                    }
                }
            p.write_bytes_per_s = double(stateBytes()) / std::max(1e-9, median(w));
            p.read_bytes_per_s = double(stateBytes()) / std::max(1e-9, median(rd));
        }
        return p;
    }

    Result<Iteration> step(const Plan& plan, const Hardware& hw, bool checkGradients) {
        if (!m_exec || !(m_execHw == hw)) {
            m_exec.reset(); // its folders go before the new ones come
            auto e = Executor<T>::make(hw, m_config.scratch);
            if (!e) return e.errorValue();
            m_exec = std::move(*e);
            m_execHw = hw;
        }
        const std::int64_t capacity = hw.level(0).capacity_bytes;
        std::int64_t budget = capacity == std::numeric_limits<std::int64_t>::max() ? 0 : capacity;
        if (plan.budget_bytes > 0 && (budget == 0 || plan.budget_bytes < budget)) budget = plan.budget_bytes;
        m_exec->setBudget(budget);
        m_exec->setCancelFlag(m_cancel);
        Iteration it;
        const auto t0 = Clock::now();
        Batch<T> batch = m_task.sample<T>(m_config.length, m_config.batch, m_rng);
        m_grads.setZero();
        auto run = m_exec->run(m_net, batch, plan.actions, m_grads);
        if (!run) return run.errorValue();
        it.execution = std::move(*run);
        it.loss = it.execution.loss;
        double checkSeconds = 0;
        if (checkGradients) {
            const auto c0 = Clock::now();
            Parameters<T> ref = m_net.zeroGradients();
            bpttStoreAll(m_net, batch, ref);
            it.max_abs_grad_diff = maxAbsDiff(m_grads, ref);
            checkSeconds = secondsSince(c0);
        }
        it.grad_norm = m_opt.step(m_net.parameters(), m_grads);
        it.seconds = secondsSince(t0) - checkSeconds;
        return it;
    }
};

} // namespace

Result<std::unique_ptr<Trainer>> Trainer::make(const TrainerConfig& c) {
    if (c.hidden < 1 || c.hidden > 65536) return fail("hidden: expected 1..65536, got " + std::to_string(c.hidden));
    if (c.batch < 1 || c.batch > 65536) return fail("batch: expected 1..65536, got " + std::to_string(c.batch));
    if (c.input < 0 || c.input > 1 << 20) return fail("input: expected 1..1048576, got " + std::to_string(c.input));
    if (c.length < 1 || c.length > 10'000'000)
        return fail("length: expected 1..10000000, got " + std::to_string(c.length));
    if (c.optimizer.learning_rate < 0) return fail("learning rate: expected a number > 0");
    if (c.optimizer.clip < 0) return fail("clip: expected a norm >= 0 (0: no clipping)");
    auto task = Task::make(c.task, c.text, c.input);
    if (!task) return task.errorValue();
    if (c.length < task->minLength())
        return fail("length: task " + c.task + " needs sequences of at least " + std::to_string(task->minLength()) +
                    " steps, got " + std::to_string(c.length));
    if (c.memory_limit < 0) return fail("memory limit: expected bytes >= 0 (0: half the physical memory)");
    const MemoryEstimate need = estimate(c, task->inputWidth(), task->outputWidth());
    const std::int64_t limit = c.memory_limit > 0 ? c.memory_limit : defaultMemoryLimit();
    if (need.total() > double(limit))
        return fail("the run would allocate " + need.describe() + ", over the limit of " + describeLimit(c, limit));
    std::unique_ptr<Trainer> t;
    try {
        if (c.precision == Precision::Fp32)
            t = std::make_unique<TrainerImpl<float>>(c, std::move(*task));
        else
            t = std::make_unique<TrainerImpl<double>>(c, std::move(*task));
    } catch (const std::bad_alloc&) {
        return fail("out of memory while making the network (estimated " + need.describe() + ")");
    }
    return t;
}

std::string Trainer::networkName() const {
    const TrainerConfig& c = m_config;
    return std::string(cellName(c.cell)) + " H=" + std::to_string(c.hidden) + " B=" + std::to_string(c.batch) +
           " I=" + std::to_string(m_task.inputWidth()) + (c.precision == Precision::Fp32 ? " fp32" : " fp64") + " (" +
           m_task.name() + "), " + std::to_string(c.length) + " steps";
}

Chain Trainer::chain(double forward_s, double backward_s) const {
    Step s{forward_s, backward_s, stateBytes(), tapeBytes(), 0, 0};
    return *Chain::uniform(networkName(), m_config.length, s);
}

MemoryEstimate Trainer::estimate(const TrainerConfig& c, int input, int output) {
    // In doubles: hidden and batch up to 65536 and a length up to 1e7 overflow 64 bits in some products.
    const double sz = c.precision == Precision::Fp32 ? 4 : 8;
    const double H = c.hidden, B = c.batch, I = input, O = output, T = c.length;
    const double gates = c.cell == CellKind::Lstm ? 4 : c.cell == CellKind::Gru ? 3 : 1;
    const double G = gates * H;
    const double params = G * I + G * H + G * (c.cell == CellKind::Gru ? 2 : 1) + O * H + O;
    const double state = (c.cell == CellKind::Lstm ? 2 : 1) * H * B * sz;
    const double tape = (c.cell == CellKind::Lstm ? 8 : c.cell == CellKind::Gru ? 6 : 2) * H * B * sz;
    const double steps = std::max(2.0, std::min(32.0, T)); // Trainer::profile's at most
    MemoryEstimate e;
    e.parameters = params * sz * (c.optimizer.kind == OptimizerKind::Adam ? 5 : 3);
    e.batch = T * B * (I + O) * sz;
    e.scratch = (4 * G + 5 * H + 2 * O) * B * sz;
    e.profile = steps * (tape + state) + 4 * state + steps * B * (I + O) * sz;
    return e;
}

std::string MemoryEstimate::describe() const {
    auto b = [](double x) { return formatBytes(x); };
    std::string s = "about " + b(total()) + " (parameters, gradients and optimiser moments " + b(parameters) +
                    ", batch " + b(batch) + ", step scratch " + b(scratch) + ", profile " + b(profile);
    if (store > 0) s += ", the plan's store " + b(store);
    if (check > 0) s += ", the store-all check " + b(check);
    return s + ")";
}

std::int64_t Trainer::defaultMemoryLimit() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0) return std::int64_t(4) << 30;
    return std::int64_t(double(pages) * double(page) / 2);
}

std::int64_t Trainer::memoryLimit() const {
    return m_config.memory_limit > 0 ? m_config.memory_limit : defaultMemoryLimit();
}

std::string Trainer::describeLimit(const TrainerConfig& c, std::int64_t limit) {
    return formatBytes(double(limit)) +
           (c.memory_limit > 0 ? std::string(" (as set)") : std::string(" (half of this machine's physical memory)"));
}

Result<MemoryEstimate> Trainer::checkMemory(double storePeak, bool checkGradients) const {
    MemoryEstimate e = estimate(m_config, m_task.inputWidth(), m_task.outputWidth());
    e.store = std::max(0.0, storePeak);
    // The executor keeps its buffers for the next iteration while the check runs store-all beside them.
    if (checkGradients) e.check = double(m_config.length) * double(tapeBytes()) + 4.0 * double(stateBytes());
    if (e.total() > double(memoryLimit()))
        return fail("the run would allocate " + e.describe() + ", over the limit of " +
                    describeLimit(m_config, memoryLimit()));
    return e;
}

Hardware Trainer::measuredHardware(const Profile& p) {
    std::vector<MemoryLevel> levels = {MemoryLevel{"RAM", std::numeric_limits<std::int64_t>::max(), 0, 0, 0}};
    if (p.write_bytes_per_s > 0 && p.read_bytes_per_s > 0)
        levels.push_back(MemoryLevel{"disk (files)", std::numeric_limits<std::int64_t>::max(), p.read_bytes_per_s,
                                     p.write_bytes_per_s, 0});
    return *Hardware::make("this machine (measured)", levels);
}

} // namespace ckpt::trainer
