#include "io/presets.h"

#include <set>

namespace ckpt {

namespace {

constexpr const char* kFolder = "resources/hardware";
const std::string kTail = ".ckpt-hardware.json";

bool endsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

bool isPresetName(const std::string& name) {
    return !name.empty() && name.find_first_of("/\\") == std::string::npos && !endsWith(name, ".json");
}

std::string presetPath(const std::string& name, const std::vector<std::filesystem::path>& roots) {
    if (!isPresetName(name)) return {};
    for (const auto& root : roots) {
        const auto file = root / kFolder / (name + kTail);
        std::error_code ec;
        if (std::filesystem::is_regular_file(file, ec)) return file.lexically_normal().string();
    }
    return {};
}

std::vector<std::string> presetNames(const std::vector<std::filesystem::path>& roots) {
    std::set<std::string> names;
    for (const auto& root : roots) {
        std::error_code ec;
        for (const auto& e : std::filesystem::directory_iterator(root / kFolder, ec)) {
            const std::string f = e.path().filename().string();
            if (f.size() > kTail.size() && endsWith(f, kTail)) names.insert(f.substr(0, f.size() - kTail.size()));
        }
    }
    return {names.begin(), names.end()};
}

} // namespace ckpt
