#pragma once
// A chain of n steps (the rotor model). Step i (1-based) maps state x_{i-1} to x_i. Its state_bytes is the size of
// its input x_{i-1} (what a checkpoint holds to restart the forward pass there); x_n is sized as the last step's
// input. tape_bytes is everything its backward needs, recorded by a taped forward.
#include "util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ckpt {

// How a chain's memory is counted (sim/simulator.cpp). Standard, this program's: a taped forward consumes its input
// and keeps its output x_i beside its tape. RotorPaper, the model of Beaumont et al.'s rotor paper (2019): a taped
// forward keeps its input x_{i-1} until the backward of step i (which reads it), and its tape contains its output
// x_i (no separate copy). The paper's x_n has its own size in either model (finalStateBytes).
enum class MemoryModel : std::uint8_t { Standard, RotorPaper };
const char* memoryModelName(MemoryModel m); // "standard", "rotor-paper"

struct Step {
    double forward = 0;  // seconds
    double backward = 0; // seconds
    std::int64_t state_bytes = 0;
    std::int64_t tape_bytes = 0;
    std::int64_t forward_tmp_bytes = 0;
    std::int64_t backward_tmp_bytes = 0;
    bool operator==(const Step&) const = default;
};

class Chain {
public:
    // Checks every field (times finite, >= 0 and at most kMaxSeconds; sizes >= 0) and that all the bytes add up to at
    // most kMaxTotalBytes (util/bounds.h); the message names the step (1-based) and the field.
    static Result<Chain> make(std::string name, std::vector<Step> steps);
    static Result<Chain> uniform(std::string name, int length, const Step& step);

    const std::string& name() const { return m_name; }
    int length() const { return static_cast<int>(m_steps.size()); }
    const std::vector<Step>& steps() const { return m_steps; }
    // 1-based, as in the papers.
    const Step& step(int i) const { return m_steps[static_cast<std::size_t>(i - 1)]; }
    // Size of state x_j for j in 0..n (x_n: finalStateBytes if set, else the last step's input's).
    std::int64_t stateBytes(int j) const;
    MemoryModel memoryModel() const { return m_model; }
    std::int64_t finalStateBytes() const { return m_final; } // -1: x_n sized as the last step's input
    // The same steps in `model`, with x_n of `finalStateBytes` (-1: the last step's input's size); checked as make.
    Result<Chain> withModel(MemoryModel model, std::int64_t finalStateBytes = -1) const;
    bool isUniform() const;
    double totalForward() const;
    double totalBackward() const;

    bool operator==(const Chain&) const = default;

private:
    friend class Graph; // Graph::toChain builds from a checked graph; its totals may pass the bound for input files
    Chain() = default;
    Chain(std::string name, std::vector<Step> steps);
    std::string m_name;
    std::vector<Step> m_steps;
    MemoryModel m_model = MemoryModel::Standard;
    std::int64_t m_final = -1;
};

} // namespace ckpt
