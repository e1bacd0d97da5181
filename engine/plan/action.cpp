#include "plan/action.h"

namespace ckpt {

const char* keepName(Keep k) {
    switch (k) {
    case Keep::None:
        return "none";
    case Keep::State:
        return "state";
    case Keep::Tape:
        return "tape";
    }
    return "?";
}

std::string toString(const Action& a) {
    switch (a.kind) {
    case ActionKind::Forward:
        return "forward " + std::to_string(a.index) + " (keep " + keepName(a.keep) + ")";
    case ActionKind::Backward:
        return "backward " + std::to_string(a.index);
    case ActionKind::Write:
        return "write x" + std::to_string(a.index) + " to level " + std::to_string(a.level);
    case ActionKind::Read:
        return "read x" + std::to_string(a.index) + " from level " + std::to_string(a.level);
    case ActionKind::Free:
        return "free x" + std::to_string(a.index) + " on level " + std::to_string(a.level);
    case ActionKind::WriteTape:
        return "write the tape of step " + std::to_string(a.index) + " to level " + std::to_string(a.level);
    case ActionKind::ReadTape:
        return "read the tape of step " + std::to_string(a.index) + " from level " + std::to_string(a.level);
    case ActionKind::FreeTape:
        return "free the tape of step " + std::to_string(a.index) + " on level " + std::to_string(a.level);
    }
    return "?";
}

} // namespace ckpt
