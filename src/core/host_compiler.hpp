#pragma once
// nvcc accepts only host compilers up to a version per CUDA release
// (src/data/host_compilers.toml, docs/host-compilers.md). When the default
// `c++` is newer than the pair's nvcc accepts and a supported g++-N or
// clang++-N is on PATH, `use` points NVCC_CCBIN (nvcc) and CUDAHOSTCXX
// (CMake) at it, never over a value the user set.
//
// Cost (store/host_compiler_cache.hpp): the decision is kept in <store>/cache/host_compiler.txt, keyed by
// the CUDA release and each PATH folder's mtime, with the `g++`/`c++` PATH
// gave and its mtime and size (through links); while those hold, no compiler
// is started and PATH is not searched, so the prompt hook and the shims only
// stat PATH's folders and one file. A change starts `c++ --version` once.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/version.hpp"

namespace cudaenv {

struct HostCompilerRule {
    Version cuda;        // applies from this release to the next row's
    int gcc_max = 0;
    int clang_max = 0;
    std::string msvc;    // "_MSC_VER range", e.g. "1910-1949"
    std::string source;
    bool unconfirmed = false;
};

// The rows of host_compilers.toml, oldest first; the rule for `cuda` (major.minor), if any.
const std::vector<HostCompilerRule>& host_compiler_rules();
std::optional<HostCompilerRule> host_compiler_rule(const Version& cuda);

// What `<compiler> --version` says: {"gcc", 14} for "g++ (Debian 14.2.0-8) 14.2.0",
// {"clang", 17} for "Debian clang version 17.0.6"; and what cl.exe's banner
// says: {"msvc", 1938} (its _MSC_VER) for "... Compiler Version 19.38.33130 for x64";
// nullopt for anything else.
struct CompilerId {
    std::string family;  // "gcc", "clang" or "msvc"
    int major = 0;       // msvc: _MSC_VER
    bool operator==(const CompilerId&) const = default;
};
std::optional<CompilerId> parse_compiler_version(const std::string& text);

// The newest major `rule` accepts for this family (0: unknown family);
// for msvc the top of its _MSC_VER range.
int max_major(const HostCompilerRule& rule, const std::string& family);
// A row's MSVC range "1910-1949" (_MSC_VER) as {1910, 1949}; {0, 0} when it has none.
std::pair<int, int> msvc_range(const HostCompilerRule& rule);
// "GCC 14", "Clang 17", "MSVC 19.38 (_MSC_VER 1938)".
std::string compiler_words(const CompilerId& id);

struct HostCompilerChoice {
    std::string path;     // g++-13 or clang++-17, absolute
    std::string reason;   // "c++ is GCC 14; CUDA 12.4's nvcc accepts GCC up to 13"
};

// The pure decision. `default_cxx`: what `c++` is; `find`: the absolute path
// of a program name on PATH, or nullopt. Prefers the same family, newest first.
// `what` names the default compiler in the reason ("c++", "g++").
std::optional<HostCompilerChoice> choose_host_compiler(
    const Version& cuda, const std::optional<CompilerId>& default_cxx,
    const std::function<std::optional<std::string>(const std::string&)>& find, const std::string& what = "c++");

// For doctor/check: "c++ is GCC 14; CUDA 12.4's nvcc accepts GCC up to 13", or nullopt when it
// fits (or no row says). `what` names the compiler in the sentence.
std::optional<std::string> host_compiler_mismatch(const Version& cuda, const CompilerId& cxx,
                                                  const std::string& what = "c++");

// The compiler nvcc runs for host code when nothing names one: `g++` found on
// `path` (nvcc's default on Linux is gcc/g++ from the search path,
// docs/host-compilers.md), else `c++`; on Windows `cl.exe`.
std::optional<std::string> default_host_compiler(const std::string& path, bool windows);

// What doctor and check say about the host compiler of one pair, under the
// environment `env` (the active shell's, or the environment `use` gives the
// pair). Starts the compiler once (`--version`, or cl.exe's banner): not for
// the prompt hook.
struct HostCompilerReport {
    std::string compiler;                 // what runs: an absolute path, or the name as set
    std::string from;                     // "NVCC_CCBIN", "CUDAHOSTCXX" or "PATH"
    bool users_own = false;               // set by the user, not by `cudaenv use`
    bool found = false;                   // the compiler exists
    std::optional<CompilerId> id;         // its version, when it answered
    std::optional<HostCompilerRule> rule; // this release's row
    std::optional<std::string> mismatch;  // "g++ is GCC 14; CUDA 12.4's nvcc accepts GCC up to 13"
    std::optional<HostCompilerChoice> supported;  // a supported compiler on PATH, if any
    std::string fix;                      // one sentence when there is a mismatch
};
HostCompilerReport report_host_compiler(const Version& cuda, const std::string& spec,
                                        const std::function<std::optional<std::string>(const std::string&)>& env,
                                        bool windows);

}  // namespace cudaenv
