#include "io/files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#define CKPT_HAVE_FSYNC 1
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

Result<std::string> readTextFile(const std::string& path) {
    try {
        errno = 0;
        File f(std::fopen(path.c_str(), "rb"));
        if (!f) return fail(because(path, "cannot open", errno));
        std::string text;
        char buf[1 << 16];
        for (;;) {
            std::size_t n = std::fread(buf, 1, sizeof buf, f.get());
            text.append(buf, n);
            if (n < sizeof buf) break;
        }
        // A folder opens on some systems and fails on the first read (EISDIR).
        if (std::ferror(f.get())) return fail(because(path, "cannot read", errno));
        return text;
    } catch (const std::exception& e) {
        return fail(path + ": cannot read (" + e.what() + ")");
    }
}

Result<bool> writeTextFileAtomic(const std::string& path, const std::string& text) {
    try {
        const std::string tmp = path + ".tmp";
        errno = 0;
        File f(std::fopen(tmp.c_str(), "wb"));
        if (!f) return fail(because(path, "cannot write", errno));
        bool ok = std::fwrite(text.data(), 1, text.size(), f.get()) == text.size() && std::fflush(f.get()) == 0;
#ifdef CKPT_HAVE_FSYNC
        // The bytes must be on disk before the rename makes them the file, or a power cut could leave it empty.
        ok = ok && ::fsync(::fileno(f.get())) == 0;
#endif
        int err = errno;
        if (std::fclose(f.release()) != 0 && ok) {
            ok = false;
            err = errno;
        }
        if (!ok) {
            std::remove(tmp.c_str());
            return fail(because(path, "cannot write", err));
        }
        if (std::rename(tmp.c_str(), path.c_str()) != 0) {
            err = errno;
            std::remove(tmp.c_str());
            return fail(because(path, ("cannot rename " + tmp + " over it").c_str(), err));
        }
        return true;
    } catch (const std::exception& e) {
        return fail(path + ": cannot write (" + e.what() + ")");
    }
}

} // namespace ckpt
