#pragma once
// Plain-text tables for the terminal: columns sized to their widest cell, numbers right-aligned.
#include <string>
#include <vector>

namespace ckpt::cli {

class Table {
public:
    explicit Table(std::vector<std::string> header) : m_header(std::move(header)) {}
    void add(std::vector<std::string> row) { m_rows.push_back(std::move(row)); }
    std::string render() const;

private:
    std::vector<std::string> m_header;
    std::vector<std::vector<std::string>> m_rows;
};

} // namespace ckpt::cli
