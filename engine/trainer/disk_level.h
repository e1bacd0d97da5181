#pragma once
// A slower memory level made of a real file on disk: one folder per level under a scratch folder (the system's
// temporary folder unless told otherwise), created with the level and removed with it. The level is one file of
// state slots, state j at offset j x (its size), written and read with POSIX pwrite/pread; a free leaves the bytes
// for the next write of that slot, as a swap area does (no file system metadata on the hot path). The OS page cache
// may absorb the traffic; the profile's measured bandwidths say how fast the level really is on this machine.
#include "util/result.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace ckpt::trainer {

struct ByteSpan {
    void* data;
    std::size_t size;
};

class DiskLevel {
public:
    // base empty: std::filesystem::temp_directory_path().
    static Result<std::unique_ptr<DiskLevel>> create(const std::string& base, int level);
    // A second file in the folder of `states` (which must outlive it), for the steps' tapes: tapes.bin.
    static Result<std::unique_ptr<DiskLevel>> tapesBeside(const DiskLevel& states);
    ~DiskLevel(); // closes and removes the file, and the folder if it made it
    DiskLevel(const DiskLevel&) = delete;
    DiskLevel& operator=(const DiskLevel&) = delete;

    const std::string& folder() const { return m_folder; }
    const std::string& file() const { return m_file; }

    // State j's bytes (the parts one after the other) at offset j x their total size. Safe to call from any thread.
    Result<bool> write(int state, const std::vector<ByteSpan>& parts) const;
    Result<bool> read(int state, const std::vector<ByteSpan>& parts) const;

private:
    DiskLevel(std::string folder, std::string file, int fd, bool tapes)
        : m_folder(std::move(folder)), m_file(std::move(file)), m_fd(fd), m_tapes(tapes) {}
    static Result<int> open(const std::string& file);
    std::string item(int k) const { return (m_tapes ? "the tape of step " : "x") + std::to_string(k); }
    std::string m_folder, m_file;
    int m_fd = -1;
    bool m_tapes = false;
};

} // namespace ckpt::trainer
