// Writes ckpt(1) to standard output, from the option table ckpt's parser reads (cli/usage.cpp); run at build time.
#include "../options.h"

#include <cstdio>

int main() {
    std::fputs(ckpt::cli::manPage(CKPT_VERSION).c_str(), stdout);
    return 0;
}
