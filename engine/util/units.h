#pragma once
// Human units for bytes and seconds: parsing what users type and printing what they read.
#include "util/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace ckpt {

// "4096", "4096B", "1.5 KiB", "64MiB", "2 GiB", "1e6", "3 KB" (SI) -> bytes.
Result<std::int64_t> parseBytes(std::string_view text);
// "0.5", "3ms", "12 us", "1.5 s" -> seconds.
Result<double> parseSeconds(std::string_view text);

std::string formatBytes(double bytes);  // "1.50 MiB"
std::string formatSeconds(double secs); // "3.20 ms"

} // namespace ckpt
