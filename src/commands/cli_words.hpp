#pragma once
// What the words typed after a command reach in its CLI11 definition, read
// without parsing them (completion, commands/completion.cpp): its options,
// its subcommands, and where a partly typed command line stands.
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace cudaenv {

// "--name" and "-n" of every option of `app`.
std::vector<std::string> option_names(const CLI::App& app);
// Its subcommands that are shown (a hidden one has an empty group).
std::vector<std::string> subcommand_names(const CLI::App& app);

// The command's words after its name: which (sub)command they reached, how
// many positional arguments they hold, and whether the last one is an
// option waiting for its value.
struct Walk {
    const CLI::App* app = nullptr;
    size_t positionals = 0;
    const CLI::Option* wants_value = nullptr;
    bool after_separator = false;
};
Walk walk(const CLI::App& cmd, const std::vector<std::string>& typed);

}  // namespace cudaenv
