#pragma once
// Line endings as values: what a file ends its lines with, and what a shell
// reads (the shell table, shell/shells.hpp; setup's profile block,
// setup/profile_block.hpp).
namespace cudaenv {

enum class LineEnding { lf, crlf, cr };

// The line endings a shell reads in a file (each shell's are in the shell
// table, src/shell/shells.cpp, tested against the real shells, docs/setup.md):
// LF always; bash and zsh no other (a CR becomes part of the command).
struct LineEndings {
    bool crlf = false;
    bool cr = false;
    bool accepts(LineEnding e) const { return e == LineEnding::lf || (e == LineEnding::crlf ? crlf : cr); }
};

}  // namespace cudaenv
