#include "io/files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

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

} // namespace ckpt
