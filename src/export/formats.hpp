#pragma once
// `cudaenv export` formats: one table, one writer per format. Writers take
// the pairs' variables (export/vars) and write files only through
// write_file_atomic, after checking that every file they would replace is
// one they wrote before.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "export/vars.hpp"

namespace cudaenv::exporting {

struct Options {
    std::optional<std::filesystem::path> out;  // -o
    std::optional<std::string> default_name;   // --default: module version to mark
    std::filesystem::path cwd;
    PathStyle style = PathStyle::posix;
};

enum class Target { stream_or_file, folder, presets_file };

// What a format's consumer can carry inside a value, and which of a pair's
// values the format writes.
enum class Carries { printable, no_line_breaks };
enum class Writes { pair, whole_environment };

struct Format {
    const char* name;
    const char* summary;
    Target target;
    Carries carries;
    Writes writes;
    // Why a value it cannot carry is refused: what its consumer would do.
    const char* consumer_reads;
    // Returns the text for stdout (empty when everything went to files).
    std::string (*write)(const std::vector<PairVars>& pairs, const Options& opts);
};

const std::vector<Format>& formats();
const Format* find_format(const std::string& name);

// Writes `pairs` in format `f`, after refusing any value its consumer cannot
// carry (a folder name with a line break would become shell code in a
// modulefile, a new line in CMakeCache.txt, a new variable in an env file).
// Returns the text for stdout (empty when everything went to files).
std::string write(const Format& f, const std::vector<PairVars>& pairs, const Options& opts);

// The module version of a pair: "11.8.89-cudnn8.9.7", or "11.8.89" without cuDNN.
std::string module_version(const PairVars& p);

// Quoting, exposed for the unit tests.
std::string lua_quote(const std::string& s);
std::string tcl_quote(const std::string& s);
std::string dotenv_value(const std::string& s);

}  // namespace cudaenv::exporting
