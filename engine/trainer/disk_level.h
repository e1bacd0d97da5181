#pragma once
// A slower memory level made of real files: one folder per level under a scratch folder (the system's temporary
// folder unless told otherwise), created with the level and removed with it. A state is one file of raw bytes,
// written and read with POSIX write/read. The OS page cache may absorb the traffic; the measured bandwidths say how
// fast the level really is on this machine.
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
    ~DiskLevel(); // removes the folder and everything left in it
    DiskLevel(const DiskLevel&) = delete;
    DiskLevel& operator=(const DiskLevel&) = delete;

    const std::string& folder() const { return m_folder; }
    std::string fileOf(int state) const;

    Result<bool> write(int state, const std::vector<ByteSpan>& parts) const;
    Result<bool> read(int state, const std::vector<ByteSpan>& parts) const;
    Result<bool> remove(int state) const;
    // Removes every state file left (between runs).
    void clear() const;

private:
    explicit DiskLevel(std::string folder) : m_folder(std::move(folder)) {}
    std::string m_folder;
};

} // namespace ckpt::trainer
