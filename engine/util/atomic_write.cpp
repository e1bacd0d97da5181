// writeTextFileAtomic (declared in files.h): a save that leaves either the old file or the new one, never half of
// one, and never writes anywhere but the file the user named.
#include "util/files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#define CKPT_POSIX_SAVE 1
#endif

namespace ckpt {

namespace {

std::string because(const std::string& path, const std::string& what, int err) {
    return path + ": " + what + " (" + std::strerror(err) + ")";
}

#ifdef CKPT_POSIX_SAVE

std::string folderOf(const std::string& p) {
    auto slash = p.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : p.substr(0, slash);
}

std::string nameOf(const std::string& p) {
    auto slash = p.find_last_of('/');
    return slash == std::string::npos ? p : p.substr(slash + 1);
}

// The file a save must replace: the destination itself, or, when it is a symbolic link, what the chain of links
// ends at (which may not exist yet). Replacing the link with a regular file would cut it from the file it shares.
Result<std::string> finalTarget(const std::string& path) {
    std::string p = path;
    for (int hops = 0; hops < 40; ++hops) {
        struct stat st;
        if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
        std::string to(std::size_t(st.st_size > 0 ? st.st_size : 4096) + 1, '\0');
        ssize_t n = ::readlink(p.c_str(), to.data(), to.size());
        if (n < 0) return fail(because(path, "cannot read the link " + p, errno));
        to.resize(std::size_t(n));
        p = (to.empty() || to[0] == '/') ? to : folderOf(p) + "/" + to;
    }
    return fail(because(path, "cannot follow its links", ELOOP));
}

bool writeAll(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += std::size_t(n);
    }
    return true;
}

// A device or a pipe (/dev/null, /dev/stdout, a FIFO a reader waits on) is written in place: renaming a file over it
// would replace the device node itself. O_NONBLOCK makes a FIFO with no reader fail at once instead of blocking.
Result<bool> writeInPlace(const std::string& path, const std::string& target, const std::string& text) {
    int fd = ::open(target.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return fail(because(path, errno == ENXIO ? "no process reads this pipe" : "cannot write", errno));
    int flags = ::fcntl(fd, F_GETFL);
    bool ok = flags >= 0 && ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 && writeAll(fd, text);
    int err = errno;
    if (::close(fd) != 0 && ok) ok = false, err = errno;
    if (!ok) return fail(because(path, "cannot write", err));
    return true;
}

// A new name in `folder` that nobody has: O_CREAT | O_EXCL fails on anything already there, a symbolic link
// included, so the temporary can never be an attacker's link. Not mkstemp: it creates the file 0600, and giving a
// new file the umask's mode would then need umask() to be read, which changes it for every thread for a moment.
int createTemporary(const std::string& folder, const std::string& name, mode_t mode, std::string& tmp) {
    static thread_local std::mt19937_64 random(std::random_device{}() ^ std::uint64_t(::getpid()));
    // A name at NAME_MAX (255) leaves no room for the suffix: shorten it, the temporary only needs to be unique.
    const std::string stem = "." + name.substr(0, 200) + ".";
    for (int attempt = 0; attempt < 100; ++attempt) {
        char suffix[17];
        std::snprintf(suffix, sizeof suffix, "%016llx", static_cast<unsigned long long>(random()));
        tmp = folder + "/" + stem + std::string(suffix, 8) + ".tmp";
        int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

// Syncs the folder so the rename itself survives a power cut. Some file systems cannot sync a folder (EINVAL).
int syncFolder(const std::string& folder) {
    int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno;
    int err = ::fsync(fd) == 0 ? 0 : errno;
    ::close(fd);
    return err == EINVAL || err == ENOTSUP || err == EROFS ? 0 : err;
}

#endif

} // namespace

Result<bool> writeTextFileAtomic(const std::string& path, const std::string& text) {
    try {
#ifdef CKPT_POSIX_SAVE
        auto resolved = finalTarget(path);
        if (!resolved) return resolved.errorValue();
        const std::string target = *resolved;
        struct stat old;
        const bool exists = ::stat(target.c_str(), &old) == 0;
        if (exists && S_ISDIR(old.st_mode)) return fail(because(path, "cannot write", EISDIR));
        if (exists && (S_ISCHR(old.st_mode) || S_ISFIFO(old.st_mode))) return writeInPlace(path, target, text);
        if (exists && !S_ISREG(old.st_mode)) return fail(path + ": cannot write (not a regular file)");
        // The rename needs only the folder's permission, so a read-only file would be replaced. Refuse what cp
        // refuses; and since root may write anything, a file whose owner may not write it is refused for everyone.
        if (exists && !(old.st_mode & S_IWUSR))
            return fail(path + ": cannot write (Permission denied: the file is read-only)");
        if (exists && ::faccessat(AT_FDCWD, target.c_str(), W_OK, AT_EACCESS) != 0)
            return fail(because(path, "cannot write", errno));

        const std::string folder = folderOf(target);
        std::string tmp;
        // A new file gets what fopen would give it (0666 less the umask, the folder's default ACL); an existing one
        // keeps its mode and, where allowed, its owner, set once the temporary is still private (0600).
        int fd = createTemporary(folder, nameOf(target), exists ? 0600 : 0666, tmp);
        if (fd < 0) return fail(because(path, "cannot write", errno));
        bool ok = true;
        int err = 0;
        auto check = [&](bool step) {
            if (ok && !step) ok = false, err = errno;
        };
        if (exists) {
            if (old.st_uid != ::geteuid() || old.st_gid != ::getegid())
                (void)!::fchown(fd, old.st_uid, old.st_gid); // best effort: only root may give a file away
            check(::fchmod(fd, old.st_mode & 07777 & ~mode_t(S_ISUID | S_ISGID)) == 0);
        }
        check(writeAll(fd, text));
        // The bytes must be on disk before the rename makes them the file, or a power cut could leave it empty.
        check(::fsync(fd) == 0);
        check(::close(fd) == 0);
        check(ok && ::rename(tmp.c_str(), target.c_str()) == 0);
        if (!ok) {
            ::unlink(tmp.c_str());
            return fail(because(path, "cannot write", err));
        }
        if (int e = syncFolder(folder)) return fail(because(path, "saved, but cannot sync its folder " + folder, e));
        return true;
#else
        const std::string tmp = path + ".tmp";
        std::FILE* f = std::fopen(tmp.c_str(), "wb");
        if (!f) return fail(because(path, "cannot write", errno));
        bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
        int err = errno;
        if (std::fclose(f) != 0 && ok) ok = false, err = errno;
        if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
            if (ok) err = errno;
            std::remove(tmp.c_str());
            return fail(because(path, "cannot write", err));
        }
        return true;
#endif
    } catch (const std::exception& e) {
        return fail(path + ": cannot write (" + e.what() + ")");
    }
}

} // namespace ckpt
