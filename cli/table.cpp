#include "table.h"

#include <algorithm>
#include <cctype>

namespace ckpt::cli {
namespace {

// Display width: counts UTF-8 code points, not bytes ("µs", "×").
std::size_t width(const std::string& s) {
    std::size_t w = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80) ++w;
    return w;
}

bool numeric(const std::string& s) {
    return !s.empty() && (std::isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '.');
}

} // namespace

std::string Table::fitted(std::size_t column, const std::string& cell) const {
    auto it = m_widest.find(column);
    if (it == m_widest.end() || width(cell) <= it->second) return cell;
    // Cut after widest - 1 code points, then the ellipsis.
    std::size_t kept = 0, at = 0;
    for (; at < cell.size(); ++at)
        if ((static_cast<unsigned char>(cell[at]) & 0xC0) != 0x80 && kept++ == it->second - 1) break;
    std::string out = cell.substr(0, at);
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out + "\u2026";
}

bool Table::cutAny() const {
    for (const auto& r : m_rows)
        for (std::size_t c = 0; c < r.size(); ++c)
            if (fitted(c, r[c]) != r[c]) return true;
    return false;
}

std::string Table::render() const {
    std::vector<std::size_t> w(m_header.size(), 0);
    for (std::size_t c = 0; c < m_header.size(); ++c)
        w[c] = width(m_header[c]);
    for (const auto& r : m_rows)
        for (std::size_t c = 0; c < r.size() && c < w.size(); ++c)
            w[c] = std::max(w[c], width(fitted(c, r[c])));
    auto line = [&](const std::vector<std::string>& r, bool header) {
        std::string out;
        for (std::size_t c = 0; c < w.size(); ++c) {
            std::string cell = c < r.size() ? (header ? r[c] : fitted(c, r[c])) : "";
            std::string pad(w[c] - width(cell), ' ');
            out += (c ? "  " : "") + (!header && numeric(cell) ? pad + cell : cell + pad);
        }
        while (!out.empty() && out.back() == ' ')
            out.pop_back();
        return out + "\n";
    };
    std::string out = line(m_header, true);
    std::string rule;
    for (std::size_t c = 0; c < w.size(); ++c)
        rule += (c ? "  " : "") + std::string(w[c], '-');
    out += rule + "\n";
    for (const auto& r : m_rows)
        out += line(r, false);
    return out;
}

} // namespace ckpt::cli
