#include "trainer/disk_level.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <system_error>
#include <unistd.h>

namespace ckpt::trainer {
namespace fs = std::filesystem;
namespace {

std::size_t total(const std::vector<ByteSpan>& parts) {
    std::size_t n = 0;
    for (const ByteSpan& p : parts)
        n += p.size;
    return n;
}

} // namespace

Result<int> DiskLevel::open(const std::string& file) {
    int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return fail(file + ": cannot create: " + std::strerror(errno));
    return fd;
}

Result<std::unique_ptr<DiskLevel>> DiskLevel::tapesBeside(const DiskLevel& states) {
    const std::string file = (fs::path(states.m_folder) / "tapes.bin").string();
    auto fd = open(file);
    if (!fd) return fd.errorValue();
    return std::unique_ptr<DiskLevel>(new DiskLevel({}, file, *fd, true));
}

Result<std::unique_ptr<DiskLevel>> DiskLevel::create(const std::string& base, int level) {
    static std::atomic<int> counter{0};
    std::error_code ec;
    fs::path root = base.empty() ? fs::temp_directory_path(ec) : fs::path(base);
    if (ec) return fail("no temporary folder for the disk level: " + ec.message());
    fs::path dir = root / ("ckpt-train-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-L" +
                           std::to_string(level));
    fs::create_directories(dir, ec);
    if (ec)
        return fail("cannot create the folder of level " + std::to_string(level) + ", " + dir.string() + ": " +
                    ec.message());
    const std::string file = (dir / "states.bin").string();
    auto fd = open(file);
    if (!fd) {
        fs::remove_all(dir, ec);
        return fd.errorValue();
    }
    return std::unique_ptr<DiskLevel>(new DiskLevel(dir.string(), file, *fd, false));
}

DiskLevel::~DiskLevel() {
    if (m_fd >= 0) ::close(m_fd);
    std::error_code ec;
    if (m_folder.empty())
        fs::remove(m_file, ec); // a file beside another level's: that one removes the folder
    else
        fs::remove_all(m_folder, ec);
}

Result<bool> DiskLevel::write(int state, const std::vector<ByteSpan>& parts) const {
    off_t at = off_t(state) * off_t(total(parts));
    for (const ByteSpan& p : parts) {
        const char* from = static_cast<const char*>(p.data);
        std::size_t left = p.size;
        while (left > 0) {
            ssize_t k = ::pwrite(m_fd, from, left, at);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) return fail(m_file + ": writing " + item(state) + " failed: " + std::strerror(errno));
            from += k;
            at += k;
            left -= std::size_t(k);
        }
    }
    return true;
}

Result<bool> DiskLevel::read(int state, const std::vector<ByteSpan>& parts) const {
    off_t at = off_t(state) * off_t(total(parts));
    for (const ByteSpan& p : parts) {
        char* to = static_cast<char*>(p.data);
        std::size_t left = p.size;
        while (left > 0) {
            ssize_t k = ::pread(m_fd, to, left, at);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0)
                return fail(m_file + ": reading " + item(state) +
                            " failed: " + (k == 0 ? std::string("the file ends before it") : std::strerror(errno)));
            to += k;
            at += k;
            left -= std::size_t(k);
        }
    }
    return true;
}

} // namespace ckpt::trainer
