#include "setup/profile_block.hpp"

#include <string>

namespace cudaenv {

std::string render_block(const std::vector<std::string>& lines, std::string_view eol) {
    std::string block = std::string(block_begin) + " added by `cudaenv setup`; `cudaenv setup --undo` removes it";
    block += eol;
    for (const auto& l : lines) {
        block += l;
        block += eol;
    }
    block += block_end;
    block += eol;
    return block;
}

Insertion append_insertion(std::string_view text, const std::string& block, std::string_view eol) {
    Insertion ins{text.size(), {}};
    bool ends_line = text.empty() || text.back() == '\n' || (eol == "\r" && text.back() == '\r');
    if (!ends_line) ins.bytes = eol;
    ins.bytes += block;
    return ins;
}

std::string apply_insertion(std::string_view text, const Insertion& ins) {
    std::string out(text.substr(0, ins.offset));
    out += ins.bytes;
    out += text.substr(ins.offset);
    return out;
}

Location locate(std::string_view text, const Insertion& ins) {
    if (ins.bytes.empty()) return {};
    if (ins.offset <= text.size() && text.substr(ins.offset).starts_with(ins.bytes)) return {Found::here, ins.offset};
    auto first = text.find(ins.bytes);
    if (first == std::string_view::npos) return {};
    if (text.find(ins.bytes, first + 1) != std::string_view::npos) return {Found::ambiguous, first};
    return {Found::here, first};
}

std::string remove_at(std::string_view text, const Insertion& ins, size_t offset) {
    size_t begin = offset, end = offset + ins.bytes.size();
    // What setup put before its block (a line break ending the old last
    // line, a BOM in a file it created) stays when the user has written lines
    // after the block since: it belongs to their text now.
    if (end < text.size()) {
        auto marker = ins.bytes.find(block_begin);
        if (marker != std::string::npos) begin += marker;
    }
    std::string out(text.substr(0, begin));
    out += text.substr(end);
    return out;
}

bool has_begin_marker(std::string_view text) {
    for (size_t pos = text.find(block_begin); pos != std::string_view::npos; pos = text.find(block_begin, pos + 1))
        if (pos == 0 || text[pos - 1] == '\n' || text[pos - 1] == '\r' ||
            (pos == utf8_bom.size() && text.starts_with(utf8_bom)))
            return true;
    return false;
}

}  // namespace cudaenv
