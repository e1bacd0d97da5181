#pragma once
// Plain-text tables for the terminal: columns sized to their widest cell, numbers right-aligned; a column may be given
// a widest width, past which its cells are cut with "…".
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace ckpt::cli {

class Table {
public:
    explicit Table(std::vector<std::string> header) : m_header(std::move(header)) {}
    void add(std::vector<std::string> row) { m_rows.push_back(std::move(row)); }
    void limitWidth(std::size_t column, std::size_t widest) { m_widest[column] = widest; }
    std::string render() const;
    bool cutAny() const; // a cell was cut (render says so only by the "…")

private:
    std::vector<std::string> m_header;
    std::vector<std::vector<std::string>> m_rows;
    std::map<std::size_t, std::size_t> m_widest;
    std::string fitted(std::size_t column, const std::string& cell) const;
};

} // namespace ckpt::cli
