#pragma once
// `cudaenv export` formats: one table, one file per format family
// (modulefiles.cpp, cmake_presets.cpp, envfiles.cpp, msbuild.cpp, cdi.cpp, dockerfile.cpp). Each format renders
// the pair's intent (export/vars: one EnvDiff per pair) and writes files only
// through util/user_file, after checking that every file it would replace is
// one it wrote before.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "export/options.hpp"
#include "export/vars.hpp"

namespace cudaenv::exporting {


enum class Target {
    stream_or_file,
    folder,
    presets_file,
    cdi_folder,    // a CDI spec file in a folder the container engines read (export cdi)
    project_lock,  // the project's cudaenv.lock, not pairs of the store (export dockerfile)
};

// What a format's consumer can carry inside a value, and which of a pair's
// values the format writes.
enum class Carries { printable, no_line_breaks, utf8 /* JSON escapes every control character */ };
enum class Writes {
    pair,               // the pair's intent: prepends as prepends, the pair's values
    pair_whole_lists,   // the pair's values, search-path lists in full as planned here (CMake presets)
    whole_environment,  // every value as planned in the caller's environment (env files)
    container,          // every value in full as planned in a fresh container (container_environment(): CDI)
};

struct Format {
    const char* name;
    const char* summary;
    Target target;
    Carries carries;
    Writes writes;
    // Why a value it cannot carry is refused: what its consumer would do.
    const char* consumer_reads;
    // Beyond `carries`: why the consumers would read `value` back otherwise
    // (nullopt: they read it exactly). May be null.
    std::optional<std::string> (*misread)(std::string_view value, PathStyle style);
    // The text for one pair: a modulefile, a preset, an env-file block, a CDI
    // device. Null for a format drawn from the project's lock (dockerfile).
    std::string (*render)(const PairVars& pair, const Options& opts);
    // Writes `pairs` where `opts` say; returns the text for stdout (empty
    // when everything went to files).
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

// `existing` (a CMakeUserPresets.json's text, "" for none) with the
// configure, build and test presets of `pairs` merged in (on Windows also
// each pair's Visual Studio preset, from `opts`' installations), every byte
// outside cudaenv's own presets kept; `version` at least. Throws Error for a file
// cudaenv must not rewrite (not JSON, a duplicate key, beyond the limits, a
// preset of the same name it did not write). `file` names it in errors.
std::string merge_presets(const std::string& existing, const std::vector<PairVars>& pairs, long long version,
                          const Options& opts, const std::filesystem::path& file);

// `existing` (a Directory.Build.props's text) with cudaenv's block for `pair`
// (CudaToolkitCustomDir) in place of the one it wrote before, or before the
// closing </Project>; every other byte kept, its line endings too. Throws
// Error for a file cudaenv cannot place it in. `file` names it in errors.
std::string merge_props(const std::string& existing, const PairVars& pair, PathStyle style,
                        const std::filesystem::path& file);
// Why MSBuild would read `value` otherwise in Directory.Build.props, or nullopt.
std::optional<std::string> msbuild_misread(std::string_view value, PathStyle style);

// A modulefile written by `export lmod|tcl` that Lmod or Environment Modules
// has loaded in this environment (_LMFILES_, the loaded files, with
// LOADEDMODULES' name for it): its name, or nullopt. `cudaenv use` over such
// a module would leave `module unload` and `deactivate` undoing each other.
std::optional<std::string> loaded_cudaenv_module(const EnvReader& env);

// The CDI device name of a pair's spec ('+' written '_', '@' written ':'),
// or nullopt when CDI would not take it (a name ends with a letter or digit).
std::optional<std::string> cdi_device_name(std::string_view spec);

// Quoting, exposed for the unit tests.
std::string lua_quote(const std::string& s);
std::string tcl_quote(const std::string& s);
// A dotenv value as written (plain: every consumer reads it as it is), or
// why a consumer would read it otherwise.
std::optional<std::string> dotenv_misread(std::string_view value, PathStyle style);
// Why Lmod or Environment Modules would read a value of a Tcl modulefile
// otherwise (a name that is not UTF-8, a space at an end, ...), or nullopt.
std::optional<std::string> tcl_misread(std::string_view value, PathStyle style);

}  // namespace cudaenv::exporting
