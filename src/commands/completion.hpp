#pragma once
// What TAB offers after the words typed so far, worked out from the command
// table (which command, what its positional arguments are) and each command's
// own CLI11 definition (its options, whether they take a value, its
// subcommands): the completion scripts of every shell are generic and ask
// `cudaenv __complete` (commands/complete.cpp).
#include <span>
#include <string>
#include <vector>

#include "commands/command_table.hpp"

namespace cudaenv {

class Context;

struct Completion {
    enum class Kind { words, folders, files };
    Kind kind = Kind::words;
    std::vector<std::string> words;  // for Kind::words: the candidates that start with the current word
};

// `words`: what follows `cudaenv` on the command line, the last one the word
// being completed ("" after a blank).
Completion complete(std::span<const CommandRow> table, Context& ctx, const std::vector<std::string>& words);
// The row of the command whose words are being completed; nullptr while the
// command's own name is (or only global options are before it).
const CommandRow* completed_command(std::span<const CommandRow> table, const std::vector<std::string>& words);

}  // namespace cudaenv
