#include "args.h"

#include <algorithm>

namespace ckpt::cli {

bool Args::parse(int argc, char** argv, int first, const std::vector<std::string>& flags,
                 const std::vector<std::string>& options) {
    auto known = [](const std::vector<std::string>& list, const std::string& k) {
        return std::find(list.begin(), list.end(), k) != list.end();
    };
    for (int i = first; i < argc; ++i) {
        std::string a = argv[i];
        if (a.rfind("--", 0) != 0 || a == "--") {
            m_positional.push_back(a);
            continue;
        }
        std::string key = a.substr(2), value;
        bool inlineValue = false;
        if (auto eq = key.find('='); eq != std::string::npos) {
            value = key.substr(eq + 1);
            key = key.substr(0, eq);
            inlineValue = true;
        }
        if (known(flags, key)) {
            if (inlineValue) {
                m_error = "--" + key + " takes no value";
                return false;
            }
            m_values.emplace(key, "1");
        } else if (known(options, key)) {
            if (!inlineValue) {
                if (i + 1 >= argc) {
                    m_error = "--" + key + " needs a value";
                    return false;
                }
                value = argv[++i];
            }
            m_values.emplace(key, value);
        } else {
            m_error = "unknown option --" + key;
            return false;
        }
    }
    return true;
}

std::string Args::value(const std::string& key, const std::string& fallback) const {
    auto it = m_values.find(key);
    return it == m_values.end() ? fallback : it->second;
}

std::vector<std::string> Args::values(const std::string& key) const {
    std::vector<std::string> out;
    auto [b, e] = m_values.equal_range(key);
    for (auto it = b; it != e; ++it)
        out.push_back(it->second);
    return out;
}

} // namespace ckpt::cli
