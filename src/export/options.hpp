#pragma once
// What every export format is given besides the pairs (export/formats.hpp's
// table, the formats' files through export/format_parts.hpp).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/msvc.hpp"
#include "core/pathlist.hpp"

namespace cudaenv::exporting {

struct Options {
    std::optional<std::filesystem::path> out;  // -o
    std::optional<std::string> default_name;   // --default: module version to mark
    std::filesystem::path cwd;
    PathStyle style = PathStyle::posix;
    bool system_store = false;                 // cdi --system: the system store's pairs, into /etc/cdi
    std::optional<std::string> active_pair;    // cdi: the active pair's Pair::id(), for the `current` device
    std::string base;                          // dockerfile --base: the image to build on
    // Windows: the Visual Studio installations and toolsets found
    // (store/msvc), for the presets of Visual Studio's generators.
    std::vector<VsInstance> vs_instances;
    std::vector<MsvcToolset> toolsets;
};

}  // namespace cudaenv::exporting
