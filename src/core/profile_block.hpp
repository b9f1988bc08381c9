#pragma once
// The block `cudaenv setup` keeps in a shell profile, between two marker
// comments, so it is added once, updated in place, and removed exactly.
// Pure text functions; the caller reads and writes the file.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudaenv {

inline constexpr std::string_view block_begin = "# >>> cudaenv >>>";
inline constexpr std::string_view block_end = "# <<< cudaenv <<<";

struct BlockEdit {
    std::string text;            // the profile after the edit
    bool changed = false;        // text differs from the input
    bool newline_added = false;  // a line break was added after the old last line
};

// Adds the block holding `lines` at the end of `text`, or replaces the block
// already there. Keeps the file's line ending (CRLF when it uses CRLF).
BlockEdit add_block(std::string_view text, const std::vector<std::string>& lines);

// `text` without the block; `newline_added` also drops the line break that
// add_block put before a block still at the end. nullopt: no block in `text`.
std::optional<std::string> remove_block(std::string_view text, bool newline_added);

bool has_block(std::string_view text);

}  // namespace cudaenv
