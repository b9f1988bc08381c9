#pragma once
// Errors travel as exceptions up to app.cpp, which picks the exit status
// (1 failure, 2 bad usage, or the exit code given) and prints them with
// print_error() (util/report.hpp), the one function that writes
// "cudaenv: error: ...". A message may quote text from outside as it is:
// print_error() makes it safe for a terminal.
#include <stdexcept>
#include <string>

namespace cudaenv {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message, std::string hint = {}, int exit_code = 1)
        : std::runtime_error(message), hint_(std::move(hint)), exit_code_(exit_code) {}
    const std::string& hint() const { return hint_; }
    int exit_code() const { return exit_code_; }

private:
    std::string hint_;
    int exit_code_;
};

// Bad usage: unknown shell, malformed spec on the command line, ... (exit 2).
class UsageError : public Error {
public:
    explicit UsageError(const std::string& message, std::string hint = {})
        : Error(message, std::move(hint), 2) {}
};

}  // namespace cudaenv
