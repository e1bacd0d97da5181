#pragma once
// Reading and writing files: whole-file reads with clear messages, and atomic saves (write a temporary, rename).
#include "util/result.h"

#include <string>

namespace ckpt {

Result<std::string> readTextFile(const std::string& path);
// Writes to path + ".tmp" and renames it over path, so a crash never leaves a half-written file.
Result<bool> writeTextFileAtomic(const std::string& path, const std::string& text);

} // namespace ckpt
