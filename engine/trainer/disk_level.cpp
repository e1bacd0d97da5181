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
    return std::unique_ptr<DiskLevel>(new DiskLevel(dir.string()));
}

DiskLevel::~DiskLevel() {
    std::error_code ec;
    fs::remove_all(m_folder, ec);
}

std::string DiskLevel::fileOf(int state) const {
    return m_folder + "/x" + std::to_string(state) + ".bin";
}

Result<bool> DiskLevel::write(int state, const std::vector<ByteSpan>& parts) const {
    const std::string path = fileOf(state);
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return fail(path + ": cannot create: " + std::strerror(errno));
    for (const ByteSpan& p : parts) {
        const char* at = static_cast<const char*>(p.data);
        std::size_t left = p.size;
        while (left > 0) {
            ssize_t k = ::write(fd, at, left);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                std::string why = std::strerror(errno);
                ::close(fd);
                return fail(path + ": write failed: " + why);
            }
            at += k;
            left -= std::size_t(k);
        }
    }
    if (::close(fd) != 0) return fail(path + ": write failed: " + std::strerror(errno));
    return true;
}

Result<bool> DiskLevel::read(int state, const std::vector<ByteSpan>& parts) const {
    const std::string path = fileOf(state);
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return fail(path + ": cannot open: " + std::strerror(errno));
    for (const ByteSpan& p : parts) {
        char* at = static_cast<char*>(p.data);
        std::size_t left = p.size;
        while (left > 0) {
            ssize_t k = ::read(fd, at, left);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                std::string why = k == 0 ? "the file is shorter than the state" : std::strerror(errno);
                ::close(fd);
                return fail(path + ": read failed: " + why);
            }
            at += k;
            left -= std::size_t(k);
        }
    }
    ::close(fd);
    return true;
}

Result<bool> DiskLevel::remove(int state) const {
    const std::string path = fileOf(state);
    if (::unlink(path.c_str()) != 0) return fail(path + ": cannot remove: " + std::strerror(errno));
    return true;
}

void DiskLevel::clear() const {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(m_folder, ec))
        fs::remove(e.path(), ec);
}

} // namespace ckpt::trainer
