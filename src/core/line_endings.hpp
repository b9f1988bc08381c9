#pragma once
// Line endings as values: what a file ends its lines with, and what a shell
// reads (the shell table, shell/shells.hpp; setup's profile block,
// setup/profile_block.hpp; export msbuild's block).
#include <string_view>

namespace cudaenv {

enum class LineEnding { lf, crlf, cr };

// How text ends its lines: CRLF when every line break is CRLF, CR when it
// has CRs and no LF at all (classic Mac), else LF (also for no line break).
LineEnding line_ending_of(std::string_view text);
std::string_view eol_bytes(LineEnding e);
std::string_view line_ending_name(LineEnding e);

// The line endings a shell reads in a file (each shell's are in the shell
// table, src/shell/shells.cpp, tested against the real shells, docs/setup.md):
// LF always; bash and zsh no other (a CR becomes part of the command).
struct LineEndings {
    bool crlf = false;
    bool cr = false;
    bool accepts(LineEnding e) const { return e == LineEnding::lf || (e == LineEnding::crlf ? crlf : cr); }
};

}  // namespace cudaenv
