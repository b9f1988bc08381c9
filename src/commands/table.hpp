#pragma once
// Plain text tables for command output; widths count UTF-8 code points.
#include <string>
#include <vector>

namespace cudaenv {

class Table {
public:
    explicit Table(std::vector<std::string> header) : rows_{std::move(header)} {}
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    std::string str() const;

private:
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace cudaenv
