#include "trainer/task.h"

#include "util/files.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ckpt::trainer {
namespace {

int recallLength(int length) {
    return std::clamp((length - 1) / 3, 1, 10);
}

} // namespace

Result<Task> Task::make(const std::string& name, const std::string& textPath, int input) {
    Task t;
    t.m_name = name;
    int own = 0;
    if (name == "copy") {
        t.m_kind = TaskKind::Copy;
        own = 10; // 8 symbols, blank, delimiter
        if (input != 0 && input < 3)
            return fail("task copy: the input needs at least 3 channels (a symbol, the blank, the delimiter), got " +
                        std::to_string(input));
        t.m_input = input ? input : own;
        t.m_output = t.m_input - 1; // the K = input - 2 symbols and the blank
        return t;
    }
    if (name == "adding" || name == "sine") {
        t.m_kind = name == "adding" ? TaskKind::Adding : TaskKind::Sine;
        own = name == "adding" ? 2 : 1;
        if (input != 0 && input < own)
            return fail("task " + name + ": the input needs at least " + std::to_string(own) + " channels, got " +
                        std::to_string(input));
        t.m_input = input ? input : own;
        t.m_output = 1;
        return t;
    }
    if (name == "text") {
        t.m_kind = TaskKind::Text;
        t.m_source = textPath.empty() ? kDefaultText : textPath;
        auto text = readTextFile(t.m_source);
        if (!text) return fail(text.error());
        if (text->size() < 2) return fail(t.m_source + ": the text needs at least 2 characters");
        t.m_text = std::move(*text);
        t.m_classOf.assign(256, -1);
        std::vector<char> seen(256, 0);
        for (unsigned char c : t.m_text)
            seen[c] = 1;
        int v = 0;
        for (int c = 0; c < 256; ++c)
            if (seen[std::size_t(c)]) t.m_classOf[std::size_t(c)] = v++;
        if (input != 0 && input < v)
            return fail("task text: " + t.m_source + " has " + std::to_string(v) +
                        " distinct characters, so the input needs at least " + std::to_string(v) + " channels, got " +
                        std::to_string(input));
        t.m_input = input ? input : v;
        t.m_output = v;
        return t;
    }
    return fail("unknown task '" + name + "' (known: copy, adding, sine, text)");
}

int Task::minLength() const {
    switch (m_kind) {
    case TaskKind::Copy:
        return 3;
    case TaskKind::Adding:
        return 2;
    case TaskKind::Sine:
        return 1;
    case TaskKind::Text:
        return 1;
    }
    return 1;
}

std::string Task::describe(int length) const {
    switch (m_kind) {
    case TaskKind::Copy:
        return "copy-memory, " + std::to_string(m_input - 2) + " symbols, " + std::to_string(recallLength(length)) +
               " to recall after " + std::to_string(length - 2 * recallLength(length)) + " steps";
    case TaskKind::Adding:
        return "adding problem, running sum of 2 marked values";
    case TaskKind::Sine:
        return "noisy sine, predict the next clean value";
    case TaskKind::Text:
        return "next character of " + m_source + " (" + std::to_string(m_text.size()) + " bytes, " +
               std::to_string(m_output) + " distinct)";
    }
    return {};
}

double Task::memorylessLoss(int length) const {
    if (m_kind != TaskKind::Copy) return 0;
    return recallLength(length) * std::log(double(m_input - 2)) / length;
}

template <typename T> Batch<T> Task::sample(int length, int batch, std::mt19937_64& rng) const {
    Batch<T> out;
    const std::size_t L = std::size_t(length);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    out.inputs.assign(L, Mat<T>::Zero(m_input, batch));
    const int own = m_kind == TaskKind::Copy     ? m_input
                    : m_kind == TaskKind::Adding ? 2
                    : m_kind == TaskKind::Sine   ? 1
                                                 : m_input;
    if (m_kind != TaskKind::Text)
        for (Mat<T>& x : out.inputs)
            for (Eigen::Index b = 0; b < batch; ++b)
                for (Eigen::Index c = own; c < m_input; ++c)
                    x(c, b) = T(unit(rng));
    if (loss() == LossKind::CrossEntropy)
        out.classes.assign(L, std::vector<int>(std::size_t(batch), 0));
    else
        out.values.assign(L, Mat<T>::Zero(m_output, batch));
    switch (m_kind) {
    case TaskKind::Copy: {
        const int K = m_input - 2, S = recallLength(length);
        std::uniform_int_distribution<int> symbol(0, K - 1);
        for (int b = 0; b < batch; ++b) {
            std::vector<int> word(static_cast<std::size_t>(S));
            for (int& s : word)
                s = symbol(rng);
            for (int t = 1; t <= length; ++t) {
                Mat<T>& x = out.inputs[std::size_t(t - 1)];
                int target = K; // blank
                if (t <= S)
                    x(word[std::size_t(t - 1)], b) = T(1);
                else if (t == length - S)
                    x(K + 1, b) = T(1); // delimiter: recall now
                else
                    x(K, b) = T(1);
                if (t > length - S) target = word[std::size_t(t - (length - S) - 1)];
                out.classes[std::size_t(t - 1)][std::size_t(b)] = target;
            }
        }
        break;
    }
    case TaskKind::Adding: {
        const int half = std::max(1, length / 2);
        std::uniform_int_distribution<int> first(1, half), second(std::min(half + 1, length), length);
        for (int b = 0; b < batch; ++b) {
            int m1 = first(rng), m2 = second(rng);
            if (m2 == m1) m2 = m1 == length ? 1 : m1 + 1;
            double sum = 0;
            for (int t = 1; t <= length; ++t) {
                Mat<T>& x = out.inputs[std::size_t(t - 1)];
                double v = unit(rng);
                x(0, b) = T(v);
                if (t == m1 || t == m2) {
                    x(1, b) = T(1);
                    sum += v;
                }
                out.values[std::size_t(t - 1)](0, b) = T(sum);
            }
        }
        break;
    }
    case TaskKind::Sine: {
        std::uniform_real_distribution<double> amp(0.5, 1.5), freq(0.05, 0.4), phase(0, 2 * std::numbers::pi);
        std::normal_distribution<double> noise(0.0, 0.1);
        for (int b = 0; b < batch; ++b) {
            double A = amp(rng), w = freq(rng), p = phase(rng);
            for (int t = 1; t <= length; ++t) {
                out.inputs[std::size_t(t - 1)](0, b) = T(A * std::sin(w * t + p) + noise(rng));
                out.values[std::size_t(t - 1)](0, b) = T(A * std::sin(w * (t + 1) + p));
            }
        }
        break;
    }
    case TaskKind::Text: {
        const std::size_t span = std::size_t(length) + 1;
        // A text shorter than a window wraps around.
        std::uniform_int_distribution<std::size_t> start(0, m_text.size() - 1);
        for (int b = 0; b < batch; ++b) {
            std::size_t s = start(rng);
            for (std::size_t k = 0; k + 1 < span; ++k) {
                int c = m_classOf[static_cast<unsigned char>(m_text[(s + k) % m_text.size()])];
                int next = m_classOf[static_cast<unsigned char>(m_text[(s + k + 1) % m_text.size()])];
                out.inputs[k](c, b) = T(1);
                out.classes[k][std::size_t(b)] = next;
            }
        }
        break;
    }
    }
    return out;
}

template Batch<float> Task::sample<float>(int, int, std::mt19937_64&) const;
template Batch<double> Task::sample<double>(int, int, std::mt19937_64&) const;

} // namespace ckpt::trainer
