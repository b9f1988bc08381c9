#pragma once
// Visual Studio's toolsets on this Windows machine and the environment each
// gives (core/msvc.hpp has the rules; docs/msvc.md). Both answers cost a
// process or two (vswhere.exe; cmd.exe running vcvarsall.bat, ~1 s), so they
// are worked out once and kept in <store>/cache/msvc.txt
// (Store::msvc_cache_file), each with the stamps of what it was worked out
// from: vswhere.exe, Visual Studio's instance folder and each installation's
// VC\Tools\MSVC folder for the list; vcvarsall.bat, the toolset's folder and
// the Windows SDK's Include folder for an environment.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/activation.hpp"
#include "core/msvc.hpp"
#include "store/stamps.hpp"

namespace cudaenv {

class Store;

struct InstalledToolsets {
    std::vector<VsInstance> instances;  // complete installations only
    std::vector<MsvcToolset> toolsets;  // newest first
    std::string vswhere;                // where vswhere.exe was looked for
    bool vswhere_found = false;
};

// The installations vswhere lists (`-all -prerelease -products *`: Build Tools
// included) and the toolsets in their VC\Tools\MSVC folders that have an x64
// cl.exe and whose installation has vcvarsall.bat. Empty off Windows. `env`
// gives ProgramFiles(x86) and ProgramData; `key`, when given, gets the stamps
// the answer holds under.
InstalledToolsets installed_toolsets(Store& store, const EnvReader& env, Stamps* key = nullptr);

// What `vcvarsall.bat x64 -vcvars_ver=<version>` does to a clean environment
// (core/msvc.hpp clean_windows_env), run once per toolset through cmd.exe and
// `cudaenv-probe __environ`, then kept. Throws Error when vcvarsall fails.
ToolsetEnv toolset_environment(Store& store, const MsvcToolset& toolset, Stamps* key = nullptr);

// The capture file `cudaenv-probe __environ` writes: the environment as
// records (util/records), so any byte of a value comes back as it was.
std::string encode_environment(const std::vector<std::pair<std::string, std::string>>& env);
std::vector<std::pair<std::string, std::string>> decode_environment(std::string_view text);

}  // namespace cudaenv
