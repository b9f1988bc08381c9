#pragma once
// nvcc accepts only host compilers up to a version per CUDA release
// (compat.toml [[host_compiler]], docs/host-compilers.md). When the default
// `c++` is newer than the pair's nvcc accepts and a supported g++-N or
// clang++-N is on PATH, `use` points NVCC_CCBIN (nvcc) and CUDAHOSTCXX
// (CMake) at it, never over a value the user set.
//
// Cost: the decision is kept in <store>/cache/host_compiler.json, keyed by
// the CUDA release, PATH, and the resolved `c++` with its mtime and size;
// while that key holds, no compiler is started, so the prompt hook and the
// shims only stat a few paths. A new key starts `c++ --version` once.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
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

// The rows of compat.toml, oldest first; the rule for `cuda` (major.minor), if any.
const std::vector<HostCompilerRule>& host_compiler_rules();
std::optional<HostCompilerRule> host_compiler_rule(const Version& cuda);

// What `<compiler> --version` says: {"gcc", 14} for "g++ (Debian 14.2.0-8) 14.2.0",
// {"clang", 17} for "Debian clang version 17.0.6"; nullopt for anything else.
struct CompilerId {
    std::string family;  // "gcc" or "clang"
    int major = 0;
    bool operator==(const CompilerId&) const = default;
};
std::optional<CompilerId> parse_compiler_version(const std::string& text);

// The newest major `rule` accepts for this family (0: unknown family).
int max_major(const HostCompilerRule& rule, const std::string& family);

struct HostCompilerChoice {
    std::string path;     // g++-13 or clang++-17, absolute
    std::string reason;   // "c++ is GCC 14; CUDA 12.4's nvcc accepts GCC up to 13"
};

// The pure decision. `default_cxx`: what `c++` is; `find`: the absolute path
// of a program name on PATH, or nullopt. Prefers the same family, newest first.
std::optional<HostCompilerChoice> choose_host_compiler(
    const Version& cuda, const std::optional<CompilerId>& default_cxx,
    const std::function<std::optional<std::string>(const std::string&)>& find);

// The same on this machine, with `c++` found on `path` (a PATH list) and its
// version read once per change (see above). nullopt when c++ is fine, absent,
// unknown, or no supported compiler is on PATH.
std::optional<HostCompilerChoice> pick_host_compiler(const std::filesystem::path& store_root, const Version& cuda,
                                                     const std::string& path);

// For doctor/check: "c++ is GCC 14; CUDA 12.4's nvcc accepts GCC up to 13", or nullopt when it fits.
std::optional<std::string> host_compiler_mismatch(const Version& cuda, const CompilerId& cxx);

}  // namespace cudaenv
