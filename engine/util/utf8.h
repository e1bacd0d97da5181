#pragma once
// Text from outside (arguments, file names) may be any bytes; JSON output must be UTF-8.
#include <string>
#include <string_view>

namespace ckpt {

// True when `s` is well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF).
bool isValidUtf8(std::string_view s);
// `s` with every byte that is not part of a well-formed sequence replaced by U+FFFD.
std::string validUtf8(std::string_view s);

} // namespace ckpt
