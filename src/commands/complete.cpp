// cudaenv __complete <index> -- <word>...: the completion candidates for the
// words typed after `cudaenv`, what the completion script of every shell asks
// on TAB (shell/*/completion.*). <index> is the position of the word being
// completed among them; when it is past the last one, that word is empty (so a
// shell that cannot pass an empty argument, Windows PowerShell 5.1, need not).
// Prints one candidate a line, or a single line `:folders` or `:files` when
// the shell should complete folders or files itself.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/completion.hpp"
#include "commands/context.hpp"
#include "platform/install_dirs.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

void register_complete(CLI::App* cmd, Context& ctx) {
    // Taken as they come (as exec takes its command): the words may hold
    // options of another command. PowerShell may drop the `--`; it is optional.
    cmd->prefix_command();
    cmd->fallthrough(false);
    cmd->callback([&ctx, cmd] {
        auto args = cmd->remaining();
        int index = 0;
        if (args.empty() || !str::parse_int(args.front(), index))
            throw UsageError("__complete wants the index of the word to complete, then the words");
        std::vector<std::string> words(args.begin() + 1, args.end());
        if (!words.empty() && words.front() == "--") words.erase(words.begin());
        if (static_cast<size_t>(index) < words.size()) words.resize(static_cast<size_t>(index) + 1);
        else words.emplace_back();
        // install, lock, sync and mirror are defined in cudaenv-install
        // (src/main_install.cpp): that program answers for their options and
        // subcommands, from the same code, its own table.
        if (const auto* row = completed_command(ctx.commands, words); row && row->define == register_install_forward) {
            std::vector<std::string> argv = {
                fsx::to_utf8(platform::required_sibling_program("cudaenv-install", "the installer")), "__complete",
                std::to_string(words.size() - 1), "--"};
            argv.insert(argv.end(), words.begin(), words.end());
            std::cout.flush();
            ctx.exit_code = platform::exec_command(argv, platform::environment());
            return;
        }
        auto c = complete(ctx.commands, ctx, words);
        if (c.kind == Completion::Kind::folders) std::cout << ":folders\n";
        else if (c.kind == Completion::Kind::files) std::cout << ":files\n";
        else
            for (const auto& w : c.words) std::cout << w << "\n";
    });
}

}  // namespace cudaenv
