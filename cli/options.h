#pragma once
// The subcommands' options in one table: the parser (Args::parse) takes each command's lists from it and
// `ckpt SUB --help` prints them beside the command's usage lines, so the help cannot drift from what is parsed.
#include <string>
#include <vector>

namespace ckpt::cli {

struct CommandOptions {
    std::string name;
    std::vector<std::string> flags;   // --flag, no value
    std::vector<std::string> options; // --key VALUE (also --key=VALUE), some repeatable
};

const char* usageText();                                    // `ckpt --help`
const CommandOptions* findCommand(const std::string& name); // null: no such subcommand
const CommandOptions& optionsOf(const std::string& name);   // a subcommand of the table
std::string commandHelp(const std::string& name);           // `ckpt NAME --help`: its usage lines and options
// ckpt(1) in roff, from the same overview and table: the usage lines as its synopsis, each subcommand's options, the
// overview's notes (written at build time by cli/man/ckpt_man.cpp).
std::string manPage(const std::string& version);

} // namespace ckpt::cli
