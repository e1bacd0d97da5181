#pragma once
// Reading and writing files: whole-file reads with clear messages, and atomic saves (write a temporary, rename).
#include "util/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace ckpt {

// The largest file readTextFile reads: 256 MiB. A JSON document takes several times its size in memory once parsed,
// and the largest realistic input, a chain of a million different steps, takes 120 to 180 MB.
constexpr std::uint64_t kMaxReadBytes = std::uint64_t(256) << 20;

// A regular file's whole text. Anything else (a folder, a FIFO, a device such as /dev/zero) is refused at once, never
// waited on, and so is a file over kMaxReadBytes; messages start with the path.
Result<std::string> readTextFile(const std::string& path);
// The same for any file's bytes with another limit; `why` explains the limit in the message ("2 GiB: ...").
Result<std::string> readFileBytes(const std::string& path, std::uint64_t maxBytes, const char* why);
// A regular file's bytes, mapped read-only for a reader that skips most of them (the weights of an ONNX model): the
// system reads a page when it is first looked at, without read-ahead, so bytes never looked at take no memory, and
// release() gives back the pages a reader is done with. The guards and messages of readFileBytes; a file whose size
// the system says is 0 (/proc's) is read whole instead, and so is every file where there is no mmap. The bytes stay
// valid while the MappedFile lives (a released page is read again if looked at); a file cut short by another program
// meanwhile ends the process (SIGBUS), as with any map.
class MappedFile {
public:
    static Result<MappedFile> open(const std::string& path, std::uint64_t maxBytes, const char* why);
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();
    std::string_view bytes() const { return m_map ? std::string_view(m_map, m_size) : std::string_view(m_copy); }
    // Drops the whole pages before byte `upTo` from this process's memory (not from the file's bytes).
    void release(std::size_t upTo);

private:
    MappedFile() = default;
    const char* m_map = nullptr; // the mapping, or null when the bytes are in m_copy
    std::size_t m_size = 0;
    std::size_t m_released = 0; // the pages before it were released
    std::string m_copy;
};
// Writes a new temporary with a unique name in the destination's folder (never through a link someone put there),
// syncs it and renames it over the destination, so a crash leaves the old file or the new one, never half of one.
// A symbolic link is kept and its target replaced; an existing file keeps its mode (and its owner, where allowed); a
// device or a pipe (/dev/null) is written in place; a folder is refused, and so is a file the user may not write or
// whose owner may not (mode 0444: "FILE: cannot write (Permission denied: the file is read-only)", for root too). No
// temporary is left behind on failure.
Result<bool> writeTextFileAtomic(const std::string& path, const std::string& text);

} // namespace ckpt
