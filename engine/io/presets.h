#pragma once
// Shipped hardware presets, named by their file's stem: "gpu-a100" is resources/hardware/gpu-a100.ckpt-hardware.json
// under a resource root (the source tree, the build tree or an installed share/ckpt). One rule for the command line,
// figure specs, lessons and the explorer.
#include <filesystem>
#include <string>
#include <vector>

namespace ckpt {

// A preset's name rather than a file's path: not empty, no folder separator ('/' or '\') and no ".json" ending.
// (A lesson takes a file beside it first: there "gpu-a100" is a preset only when no such file exists.)
bool isPresetName(const std::string& name);

// The preset's file under the first of `roots` that has it, or "" (also for what is no preset name).
std::string presetPath(const std::string& name, const std::vector<std::filesystem::path>& roots);

// Every preset under `roots`, sorted, each once.
std::vector<std::string> presetNames(const std::vector<std::filesystem::path>& roots);

} // namespace ckpt
