#pragma once
// Visual Studio's C++ toolsets as values (docs/msvc.md): which are installed
// (vswhere's JSON names each Visual Studio or Build Tools, and each
// <installation>\VC\Tools\MSVC\14.xx.yyyyy folder holds one toolset), which
// one a pair's nvcc accepts (the _MSC_VER ranges of host_compilers.toml),
// and what entering one does to a session: the variables vcvarsall.bat sets,
// taken from what it did to a clean environment. Pure; store/msvc runs
// vswhere and vcvarsall and keeps their answers.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/toolset_env.hpp"
#include "core/version.hpp"

namespace cudaenv {

// One installation as `vswhere -format json` describes it.
struct VsInstance {
    std::string path;          // installationPath (UTF-8)
    std::string name;          // displayName: "Visual Studio Build Tools 2019"
    std::string version;       // installationVersion: "16.11.35431.28"
    bool complete = true;      // isComplete: false for a broken or half-done install
};
// The installations of vswhere's JSON (an array of objects); entries without
// an installationPath are left out. nullopt when the text is not such JSON.
std::optional<std::vector<VsInstance>> parse_vswhere(std::string_view json);

// The generator CMake names an installation's Visual Studio by ("Visual
// Studio 17 2022" for 17.x), or "" for a version CMake has none for.
std::string vs_generator(const VsInstance& vs);

// One toolset: a VC\Tools\MSVC\<version> folder with its x64 cl.exe.
struct MsvcToolset {
    std::string instance;      // the installation folder
    std::string product;       // its displayName
    std::string version;       // the folder's name: "14.29.30133"
    int msc_ver = 0;           // 1929: cl.exe 19.29's _MSC_VER
    bool operator==(const MsvcToolset&) const = default;
};

// A toolset folder's name as _MSC_VER: "14.29.30133" -> 1929 (the toolset
// 14.xx ships cl.exe 19.xx, whose _MSC_VER is 19xx); nullopt for any other
// name (14.0 and older have no such folder).
std::optional<int> toolset_msc_ver(std::string_view folder_name);

// Where an installation keeps things (Windows paths, joined as text).
std::string msvc_tools_dir(const std::string& instance);                       // <inst>\VC\Tools\MSVC
std::string vcvarsall_path(const std::string& instance);                       // <inst>\VC\Auxiliary\Build\vcvarsall.bat
std::string toolset_cl(const std::string& instance, const std::string& version);  // ...\<ver>\bin\Hostx64\x64\cl.exe

// The newest toolset whose _MSC_VER the CUDA release `cuda` accepts
// (host_compilers.toml); nullopt when none does or no row says.
std::optional<MsvcToolset> pick_toolset(const std::vector<MsvcToolset>& toolsets, const Version& cuda);
// The one line for a pair no installed toolset fits: the range nvcc needs,
// what is there, and that nvcc's -allow-unsupported-compiler exists (which
// cudaenv never passes).
std::string no_toolset_line(const std::vector<MsvcToolset>& toolsets, const Version& cuda);
// The Visual Studio platform toolset a toolset belongs to, as MSBuild and
// CMake's -T name it: v141 (14.1x), v142 (14.2x), v143 (14.3x, 14.4x), v145 (14.5x).
std::string platform_toolset(int msc_ver);
// "MSVC 14.29.30133 (_MSC_VER 1929, Visual Studio Build Tools 2019)".
std::string toolset_words(const MsvcToolset& t);

// The toolset's changes, from the environment a clean cmd.exe had (`before`)
// and the one it had after vcvarsall.bat (`after`): a variable whose old
// value stands whole between ';' in the new one is a list with entries added
// around it; INCLUDE, LIB, LIBPATH and EXTERNAL_INCLUDE are lists even where
// they were unset (vcvarsall prepends to the user's own). Names compare as
// Windows compares them (case folded); names that are no plain identifier and
// vsdevcmd's own record of the PATH before it (__VSCMD_PREINIT_PATH: cudaenv's
// deactivate restores PATH itself) and cmd.exe's PROMPT are left out.
ToolsetEnv toolset_env_from_capture(const std::vector<std::pair<std::string, std::string>>& before,
                                    const std::vector<std::pair<std::string, std::string>>& after);

// The variables of a clean environment vcvarsall.bat runs in, taken from the
// caller's: the ones Windows itself sets (SystemRoot, ProgramFiles, TEMP,
// ...) and a PATH of the system folders only, so the capture is the
// toolset's alone, whatever the session holds.
std::vector<std::pair<std::string, std::string>> clean_windows_env(
    const std::vector<std::pair<std::string, std::string>>& env);

}  // namespace cudaenv
