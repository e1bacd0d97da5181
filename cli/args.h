#pragma once
// A small command-line parser: positionals, --flag, --key value and --key=value, with repeatable keys.
#include <map>
#include <string>
#include <vector>

namespace ckpt::cli {

class Args {
public:
    // `flags` take no value; every other --key takes one. Returns false and sets error() on a malformed line.
    bool parse(int argc, char** argv, int first, const std::vector<std::string>& flags,
               const std::vector<std::string>& options);

    const std::vector<std::string>& positional() const { return m_positional; }
    bool has(const std::string& key) const { return m_values.count(key) > 0; }
    std::string value(const std::string& key, const std::string& fallback = {}) const;
    std::vector<std::string> values(const std::string& key) const;
    const std::string& error() const { return m_error; }

private:
    std::vector<std::string> m_positional;
    std::multimap<std::string, std::string> m_values;
    std::string m_error;
};

} // namespace ckpt::cli
