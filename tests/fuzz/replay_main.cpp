// Replays files through a fuzz target in builds without libFuzzer: `fuzz_chain [--skip LIST] PATH...` feeds every
// file of each folder PATH (or PATH itself when it is a file) to LLVMFuzzerTestOneInput, in name order. LIST names
// the known-failing files to leave out ("chain/format-number.json  # why"; "#" starts a comment), by their folder and
// file name. When a file crashes the run, its name is printed first, so the failing reproducer is known.
#include "fuzz_target.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

// The file being replayed, for the crash handlers (a fixed buffer: a signal handler may not allocate).
char g_current[4096] = "";

void sayCurrent(const char* what) {
    const char* parts[] = {"fuzz replay: ", what, " while replaying ", g_current, "\n"};
    for (const char* p : parts)
        if (::write(STDERR_FILENO, p, std::strlen(p)) < 0) return;
}

extern "C" void onSignal(int sig) {
    sayCurrent(sig == SIGSEGV ? "SIGSEGV" : sig == SIGABRT ? "SIGABRT" : sig == SIGFPE ? "SIGFPE" : "a signal");
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

void onTerminate() {
    std::string what = "an uncaught exception";
    try {
        if (auto e = std::current_exception()) std::rethrow_exception(e);
    } catch (const std::exception& e) {
        what += std::string(" (") + e.what() + ")";
    } catch (...) {
    }
    sayCurrent(what.c_str());
    std::signal(SIGABRT, SIG_DFL);
    std::abort();
}

// "folder/file" of a path: how the skip list names a corpus file.
std::string corpusName(const fs::path& p) {
    return (p.parent_path().filename() / p.filename()).generic_string();
}

std::set<std::string> readSkipList(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "fuzz replay: cannot read the skip list %s\n", path.c_str());
        std::exit(2);
    }
    std::set<std::string> names;
    for (std::string line; std::getline(in, line);) {
        line = line.substr(0, line.find('#'));
        auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos) continue;
        names.insert(line.substr(first, line.find_last_not_of(" \t\r") + 1 - first));
    }
    return names;
}

} // namespace

int main(int argc, char** argv) {
    std::set<std::string> skip;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--skip" && i + 1 < argc) {
            skip = readSkipList(argv[++i]);
        } else if (fs::is_directory(arg)) {
            std::vector<fs::path> in;
            for (const auto& e : fs::directory_iterator(arg))
                if (e.is_regular_file()) in.push_back(e.path());
            std::sort(in.begin(), in.end());
            files.insert(files.end(), in.begin(), in.end());
        } else if (fs::is_regular_file(arg)) {
            files.emplace_back(arg);
        } else {
            std::fprintf(stderr, "usage: %s [--skip LIST] FOLDER_OR_FILE...\n(%s is neither)\n", argv[0], arg.c_str());
            return 2;
        }
    }
    std::set_terminate(onTerminate);
    for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL})
        std::signal(sig, onSignal);

    int replayed = 0, skipped = 0;
    for (const fs::path& p : files) {
        if (skip.count(corpusName(p))) {
            ++skipped;
            continue;
        }
        std::ifstream in(p, std::ios::binary);
        std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::snprintf(g_current, sizeof g_current, "%s", p.c_str());
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
        ++replayed;
    }
    std::printf("replayed %d files", replayed);
    if (skipped) std::printf(" (%d known failing, skipped: see the skip list)", skipped);
    std::printf("\n");
    return replayed > 0 ? 0 : 1;
}
