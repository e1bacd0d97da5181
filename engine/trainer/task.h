#pragma once
// The sequence tasks the trainer learns, generated in code, and a character-level language model on a text file.
//   copy     copy-memory: S symbols of an alphabet of K = input - 2, blanks, a delimiter, then the S symbols to
//            recall (S = clamp((T - 1) / 3, 1, 10)). The target is "blank" until the recall. Cross-entropy over K + 1.
//   adding   the adding problem: channel 0 a value in [0, 1], channel 1 marks two positions (one in each half). The
//            target at every step is the sum of the marked values seen so far. Squared error.
//   sine     noisy sine prediction: channel 0 is A sin(w t + p) plus Gaussian noise (sd 0.1), with A, w and p drawn
//            per sequence; the target is the clean value of the next step. Squared error.
//   text     next-character prediction on a text file (default /usr/share/common-licenses/GPL-3): windows of T + 1
//            characters at random places; one-hot inputs over the file's distinct bytes. Cross-entropy.
// Channels beyond a task's own (input wider than it needs) carry uniform noise in [0, 1) for the generated tasks
// (distractors) and zeros for text.
#include "trainer/batch.h"
#include "util/result.h"

#include <random>
#include <string>

namespace ckpt::trainer {

enum class TaskKind { Copy, Adding, Sine, Text };

class Task {
public:
    static constexpr const char* kDefaultText = "/usr/share/common-licenses/GPL-3";

    // name: copy, adding, sine or text; textPath: the file for text (empty: kDefaultText); input: the input width,
    // 0 for the task's own. Errors name what is wrong (unknown task, unreadable file, input too narrow).
    static Result<Task> make(const std::string& name, const std::string& textPath, int input);

    TaskKind kind() const { return m_kind; }
    const std::string& name() const { return m_name; }
    int inputWidth() const { return m_input; }
    int outputWidth() const { return m_output; }
    LossKind loss() const {
        return m_kind == TaskKind::Copy || m_kind == TaskKind::Text ? LossKind::CrossEntropy : LossKind::SquaredError;
    }
    int minLength() const; // the shortest sequence the task can make
    // One line for humans: "copy-memory, 8 symbols, 6 to recall".
    std::string describe(int length) const;
    // The mean loss of the best predictor that ignores the past: what "learning something" must beat. Copy: the
    // recall steps at ln K each; other tasks: none known (returns 0).
    double memorylessLoss(int length) const;

    template <typename T> Batch<T> sample(int length, int batch, std::mt19937_64& rng) const;

private:
    TaskKind m_kind = TaskKind::Copy;
    std::string m_name;
    int m_input = 0;
    int m_output = 0;
    std::string m_text;         // text: the file's bytes
    std::vector<int> m_classOf; // text: byte -> class
    std::string m_source;       // text: the file
};

} // namespace ckpt::trainer
