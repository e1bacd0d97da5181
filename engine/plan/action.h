#pragma once
// The action vocabulary of a chain schedule.
//
// Forward(i, keep): runs step i from x_{i-1} (which must be in level 0) and produces x_i.
//   keep = None:  x_{i-1} is released after the step (the output replaces the input).
//   keep = State: x_{i-1} stays held (a checkpoint).
//   keep = Tape:  the tape of step i is recorded; x_{i-1} is released (the tape holds what backward needs).
// Backward(i): consumes the tape of step i and the gradient of x_i, produces the gradient of x_{i-1}.
// Write(j, L) / Read(j, L): asynchronous copies of x_j between level 0 and level L, on L's channel.
// Free(j, L): releases x_j from level L.
// WriteTape(i, L) / ReadTape(i, L) / FreeTape(i, L): the same for the tape of step i (offloading activations): a
//   backward waits until its tape is back in level 0; both copies count while both exist.
// States that can never be used again (x_j once Backward(j+1) is done, and x_n) are released by the simulator.
#include <cstdint>
#include <string>

namespace ckpt {

enum class ActionKind : std::uint8_t { Forward, Backward, Write, Read, Free, WriteTape, ReadTape, FreeTape };
enum class Keep : std::uint8_t { None, State, Tape };

struct Action {
    ActionKind kind = ActionKind::Forward;
    Keep keep = Keep::None; // Forward only
    std::int16_t level = 0; // Write, Read, Free
    std::int32_t index = 0; // step i for Forward/Backward, state j for Write/Read/Free

    static Action forward(int step, Keep keep) { return {ActionKind::Forward, keep, 0, step}; }
    static Action backward(int step) { return {ActionKind::Backward, Keep::None, 0, step}; }
    static Action write(int state, int level) { return {ActionKind::Write, Keep::None, std::int16_t(level), state}; }
    static Action read(int state, int level) { return {ActionKind::Read, Keep::None, std::int16_t(level), state}; }
    static Action free(int state, int level) { return {ActionKind::Free, Keep::None, std::int16_t(level), state}; }
    static Action writeTape(int step, int level) {
        return {ActionKind::WriteTape, Keep::None, std::int16_t(level), step};
    }
    static Action readTape(int step, int level) {
        return {ActionKind::ReadTape, Keep::None, std::int16_t(level), step};
    }
    static Action freeTape(int step, int level) {
        return {ActionKind::FreeTape, Keep::None, std::int16_t(level), step};
    }

    bool isTransfer() const { return kind == ActionKind::Write || kind == ActionKind::Read || isTapeTransfer(); }
    bool isTapeTransfer() const { return kind == ActionKind::WriteTape || kind == ActionKind::ReadTape; }

    bool operator==(const Action&) const = default;
};

// "forward 12 (keep state)", "backward 7", "write x40 to level 1": for messages and tooltips.
std::string toString(const Action& a);
const char* keepName(Keep k); // "none", "state", "tape"

} // namespace ckpt
