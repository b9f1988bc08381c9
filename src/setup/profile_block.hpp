#pragma once
// The block `cudaenv setup` puts into a shell profile, between two marker
// comments. Setup records exactly which bytes it inserted and where
// (SetupRecord), and --undo removes exactly those bytes: never a line the
// user wrote, even one with the same markers or inside the block.
// Pure text functions; the caller reads and writes the file.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/line_endings.hpp"
#include "util/strings.hpp"

namespace cudaenv {

inline constexpr std::string_view block_begin = "# >>> cudaenv >>>";
inline constexpr std::string_view block_end = "# <<< cudaenv <<<";
using str::utf8_bom;

// The whole block: begin marker, `lines`, end marker, each ended by `eol`.
std::string render_block(const std::vector<std::string>& lines, std::string_view eol);

// What setup put into one file: `bytes` starting at byte `offset`.
struct Insertion {
    size_t offset = 0;
    std::string bytes;
};

// The insertion that puts `block` at the end of `text`, with a line break
// first when the last line has none.
Insertion append_insertion(std::string_view text, const std::string& block, std::string_view eol);
std::string apply_insertion(std::string_view text, const Insertion& ins);

// Where a recorded insertion is now. At its recorded offset when it is still
// there; else its one occurrence (lines added or removed above it moved it).
// Two or more occurrences away from the offset are ambiguous: only the user
// can tell which one setup wrote.
enum class Found { here, absent, ambiguous };
struct Location {
    Found state = Found::absent;
    size_t offset = 0;
};
Location locate(std::string_view text, const Insertion& ins);

// `text` without the insertion found at `offset`. An insertion that began
// with a line break (added after a last line without one) keeps that break
// when the user has written lines after the block since, so no two lines of
// theirs are joined.
std::string remove_at(std::string_view text, const Insertion& ins, size_t offset);

// Whether a line of `text` starts with the begin marker.
bool has_begin_marker(std::string_view text);

}  // namespace cudaenv
