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
// The same for any file's bytes with another limit; `why` explains the limit in the message ("2 GiB: ...").
Result<std::string> readFileBytes(const std::string& path, std::uint64_t maxBytes, const char* why);
// Writes a new temporary with a unique name in the destination's folder (never through a link someone put there),
// syncs it and renames it over the destination, so a crash leaves the old file or the new one, never half of one.
// A symbolic link is kept and its target replaced; an existing file keeps its mode (and its owner, where allowed); a
// device or a pipe (/dev/null) is written in place; a folder is refused. No temporary is left behind on failure.
Result<bool> writeTextFileAtomic(const std::string& path, const std::string& text);

} // namespace ckpt
