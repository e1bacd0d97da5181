#include "util/data_dirs.h"

#include <cstdlib>
#include <system_error>

namespace ckpt {
namespace {

// True when `path` is `folder` or inside it (both made absolute and normal, symbolic links resolved where they exist).
bool inside(const std::filesystem::path& path, const std::filesystem::path& folder) {
    std::error_code ec;
    const auto p = std::filesystem::weakly_canonical(path, ec);
    if (ec) return false;
    const auto f = std::filesystem::weakly_canonical(folder, ec);
    if (ec || f.empty()) return false;
    auto pi = p.begin();
    for (const auto& part : f) {
        if (part.empty()) break; // a trailing separator of `folder`
        if (pi == p.end() || *pi != part) return false;
        ++pi;
    }
    return true;
}

bool isDirectory(const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_directory(p, ec);
}

} // namespace

std::vector<std::filesystem::path> dataRootsFor(const std::filesystem::path& executable, const std::string& env) {
    std::vector<std::filesystem::path> roots;
    auto add = [&roots](const std::filesystem::path& p) {
        if (!p.empty() && isDirectory(p)) roots.push_back(p.lexically_normal());
    };
    add(env);
    if (!executable.empty()) {
#if defined(CKPT_SOURCE_DIR) && defined(CKPT_BINARY_DIR)
        if (inside(executable, CKPT_BINARY_DIR)) add(CKPT_SOURCE_DIR);
#endif
        add(executable.parent_path() / ".." / "share" / "ckpt");
    }
    return roots;
}

std::vector<std::filesystem::path> dataRoots() {
    std::error_code ec;
    std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) exe.clear();
    const char* env = std::getenv("CKPT_DATA_DIR");
    return dataRootsFor(exe, env ? env : "");
}

} // namespace ckpt
