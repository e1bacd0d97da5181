#include "util/files.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define CKPT_HAVE_POSIX_OPEN 1
#else
#include <filesystem>
#endif

namespace ckpt {

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

std::string because(const std::string& path, const char* what, int err) {
    return path + ": " + what + " (" + std::strerror(err) + ")";
}

} // namespace

namespace {

std::string tooLarge(const std::string& path, std::uint64_t bytes, std::uint64_t limit, const char* why) {
    return path + ": the file is " + std::to_string(bytes) + " bytes; this program reads files of at most " +
           std::to_string(limit) + " bytes (" + why + ")";
}

#ifdef CKPT_HAVE_POSIX_OPEN
struct FdCloser {
    int fd = -1;
    ~FdCloser() {
        if (fd >= 0) ::close(fd);
    }
};

// Opens a regular file of at most maxBytes for reading into `file`, and says what fstat says of it in `st`.
std::optional<Error> openRegular(const std::string& path, std::uint64_t maxBytes, const char* why, FdCloser& file,
                                 struct stat& st) {
    // O_NONBLOCK: opening a FIFO with no writer would wait forever; fstat then says what was opened.
    errno = 0;
    file.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (file.fd < 0) return fail(because(path, "cannot open", errno));
    if (::fstat(file.fd, &st) != 0) return fail(because(path, "cannot read", errno));
    if (S_ISDIR(st.st_mode)) return fail(path + ": cannot read (it is a folder, not a file)");
    if (!S_ISREG(st.st_mode))
        return fail(path + ": cannot read (not a regular file: a pipe, a device or a socket never ends or blocks)");
    if (static_cast<std::uint64_t>(st.st_size) > maxBytes)
        return fail(tooLarge(path, static_cast<std::uint64_t>(st.st_size), maxBytes, why));
    return std::nullopt;
}
#endif

} // namespace

Result<std::string> readTextFile(const std::string& path) {
    return readFileBytes(path, kMaxReadBytes, "256 MiB; a chain of a million different steps takes 120 to 180 MB");
}

Result<std::string> readFileBytes(const std::string& path, std::uint64_t maxBytes, const char* why) {
    try {
#ifdef CKPT_HAVE_POSIX_OPEN
        FdCloser file;
        struct stat st {};
        if (auto e = openRegular(path, maxBytes, why, file, st)) return *e;
        const int fd = file.fd;
        // Read into the string itself; one byte past the size tells a file that grew meanwhile (or /proc's size 0).
        std::string text(static_cast<std::size_t>(st.st_size) + 1, '\0');
        std::size_t got = 0;
        for (;;) {
            if (got == text.size()) {
                if (got > maxBytes) return fail(tooLarge(path, got, maxBytes, why));
                text.resize(std::min<std::size_t>(std::max<std::size_t>(2 * got, 1 << 16), maxBytes + 1));
            }
            const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) return fail(because(path, "cannot read", errno));
            if (n == 0) break;
            got += static_cast<std::size_t>(n);
        }
        text.resize(got);
        return text;
#else
        std::error_code ec;
        const auto status = std::filesystem::status(path, ec);
        if (!ec && std::filesystem::is_directory(status))
            return fail(path + ": cannot read (it is a folder, not a file)");
        if (!ec && !std::filesystem::is_regular_file(status))
            return fail(path + ": cannot read (not a regular file: a pipe, a device or a socket never ends or blocks)");
        errno = 0;
        File f(std::fopen(path.c_str(), "rb"));
        if (!f) return fail(because(path, "cannot open", errno));
        std::string text;
        char buf[1 << 16];
        for (;;) {
            std::size_t n = std::fread(buf, 1, sizeof buf, f.get());
            text.append(buf, n);
            if (text.size() > maxBytes) return fail(tooLarge(path, text.size(), maxBytes, why));
            if (n < sizeof buf) break;
        }
        if (std::ferror(f.get())) return fail(because(path, "cannot read", errno));
        return text;
#endif
    } catch (const std::exception& e) {
        return fail(path + ": cannot read (" + e.what() + ")");
    }
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : m_map(std::exchange(other.m_map, nullptr)), m_size(std::exchange(other.m_size, 0)),
      m_released(std::exchange(other.m_released, 0)), m_copy(std::move(other.m_copy)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
    if (this != &other) {
        std::swap(m_map, other.m_map);
        std::swap(m_size, other.m_size);
        std::swap(m_released, other.m_released);
        std::swap(m_copy, other.m_copy);
    }
    return *this;
}

MappedFile::~MappedFile() {
#ifdef CKPT_HAVE_POSIX_OPEN
    if (m_map) ::munmap(const_cast<char*>(m_map), m_size);
#endif
}

void MappedFile::release(std::size_t upTo) {
#ifdef CKPT_HAVE_POSIX_OPEN
    static const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    upTo = std::min(upTo, m_size) / page * page;
    if (!m_map || upTo <= m_released) return;
    // The pages are the file's (MAP_PRIVATE, never written): dropping them loses nothing, and looking at them again
    // reads them again.
    ::madvise(const_cast<char*>(m_map) + m_released, upTo - m_released, MADV_DONTNEED);
    m_released = upTo;
#else
    (void)upTo;
#endif
}

Result<MappedFile> MappedFile::open(const std::string& path, std::uint64_t maxBytes, const char* why) {
    MappedFile out;
#ifdef CKPT_HAVE_POSIX_OPEN
    FdCloser file;
    struct stat st {};
    if (auto e = openRegular(path, maxBytes, why, file, st)) return *e;
    if (st.st_size > 0) {
        out.m_size = static_cast<std::size_t>(st.st_size);
        void* p = ::mmap(nullptr, out.m_size, PROT_READ, MAP_PRIVATE, file.fd, 0);
        if (p == MAP_FAILED) return fail(because(path, "cannot read", errno));
        out.m_map = static_cast<const char*>(p);
        ::madvise(p, out.m_size, MADV_RANDOM); // a hint: no read-ahead around the pages looked at
        return out;
    }
#endif
    auto bytes = readFileBytes(path, maxBytes, why);
    if (!bytes) return bytes.errorValue();
    out.m_copy = std::move(*bytes);
    return out;
}

} // namespace ckpt
