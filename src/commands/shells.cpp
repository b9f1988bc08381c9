// cudaenv __shells (hidden): the shell table, one line per shell,
// "<name>\t<ext>\t<os>\t<completion file below share/>", os being where its
// users run it (posix, windows or both) and the file empty when none is
// packaged. The build packages the completions from it (cmake/Completions.cmake),
// CTest registers the per-shell tests (cmake/ShellTests.cmake), and the shell
// lint generates every shell's code (tests/lint/lint_shell.py): a new shell is
// a new row, not a new list.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "shell/shells.hpp"

namespace cudaenv {

void register_shells(CLI::App* cmd, Context&) {
    cmd->callback([] {
        for (const auto& s : shells()) {
            const char* os = s.os == ShellOs::both ? "both" : s.os == ShellOs::windows ? "windows" : "posix";
            std::cout << s.name << '\t' << s.ext << '\t' << os << '\t' << s.completion_file << '\n';
        }
    });
}

}  // namespace cudaenv
