#pragma once
// Reading and writing files: whole-file reads with clear messages, and atomic saves (write a temporary, rename).
#include "util/result.h"

#include <cstdint>
#include <string>

namespace ckpt {

// The largest file readTextFile reads: 256 MiB. A JSON document takes several times its size in memory once parsed,
// and the largest realistic input, a chain of a million different steps, takes 120 to 180 MB.
constexpr std::uint64_t kMaxReadBytes = std::uint64_t(256) << 20;

// A regular file's whole text. Anything else (a folder, a FIFO, a device such as /dev/zero) is refused at once, never
// waited on, and so is a file over kMaxReadBytes; messages start with the path.
Result<std::string> readTextFile(const std::string& path);
// Writes to path + ".tmp" and renames it over path, so a crash never leaves a half-written file.
Result<bool> writeTextFileAtomic(const std::string& path, const std::string& text);

} // namespace ckpt
