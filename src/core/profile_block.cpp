#include "core/profile_block.hpp"

namespace cudaenv {

namespace {

struct Span {
    size_t begin, end;  // [begin, end): from the begin marker's line to after the end marker's line
};

constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";

// Where a marker starts a line, from `from` on. A UTF-8 BOM before the first
// line is no part of it: setup writes one into a PowerShell profile it creates.
size_t find_line(std::string_view text, std::string_view marker, size_t from) {
    for (size_t pos = text.find(marker, from); pos != std::string_view::npos; pos = text.find(marker, pos + 1))
        if (pos == 0 || text[pos - 1] == '\n' || (pos == utf8_bom.size() && text.starts_with(utf8_bom))) return pos;
    return std::string_view::npos;
}

std::optional<Span> find_block(std::string_view text) {
    auto b = find_line(text, block_begin, 0);
    if (b == std::string_view::npos) return std::nullopt;
    auto e = find_line(text, block_end, b);
    if (e == std::string_view::npos) return std::nullopt;
    auto nl = text.find('\n', e);
    return Span{b, nl == std::string_view::npos ? text.size() : nl + 1};
}

}  // namespace

bool has_block(std::string_view text) { return find_block(text).has_value(); }

BlockEdit add_block(std::string_view text, const std::vector<std::string>& lines) {
    const std::string eol = text.find("\r\n") != std::string_view::npos ? "\r\n" : "\n";
    std::string block = std::string(block_begin) + " added by `cudaenv setup`; `cudaenv setup --undo` removes it" + eol;
    for (const auto& l : lines) block += l + eol;
    block += std::string(block_end) + eol;

    BlockEdit out;
    if (auto span = find_block(text)) {
        out.text = std::string(text.substr(0, span->begin)) + block + std::string(text.substr(span->end));
    } else {
        out.text = std::string(text);
        if (!text.empty() && text.back() != '\n') {
            out.text += eol;
            out.newline_added = true;
        }
        out.text += block;
    }
    out.changed = out.text != text;
    return out;
}

std::optional<std::string> remove_block(std::string_view text, bool newline_added) {
    auto span = find_block(text);
    if (!span) return std::nullopt;
    std::string out = std::string(text.substr(0, span->begin)) + std::string(text.substr(span->end));
    if (newline_added && span->end == text.size()) {
        if (out.ends_with("\r\n")) out.resize(out.size() - 2);
        else if (out.ends_with("\n")) out.pop_back();
    }
    return out;
}

}  // namespace cudaenv
