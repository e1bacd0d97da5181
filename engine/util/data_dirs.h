#pragma once
// Where the shipped data are (examples/, resources/hardware/, docs/): one rule for the command line and the explorer.
// An installed program (PREFIX/bin/ckpt) reads PREFIX/share/ckpt, found from where the running executable is, never
// the source tree it was built from; a program run from its build tree reads the source tree. CKPT_DATA_DIR, when
// set, comes first (a relocated or unpacked copy: scripts/check-deb runs the package from a folder of its own).
#include <filesystem>
#include <string>
#include <vector>

namespace ckpt {

// The candidates in that order, those that exist only.
std::vector<std::filesystem::path> dataRoots();

// The same from an executable's path (dataRoots uses /proc/self/exe's), for a test: `env` is CKPT_DATA_DIR's value.
std::vector<std::filesystem::path> dataRootsFor(const std::filesystem::path& executable, const std::string& env);

} // namespace ckpt
