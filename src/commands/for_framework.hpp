#pragma once
// `--for <framework>==<version> [--os windows|linux]` on local, use and
// install: the pair that framework version needs (core/frameworks).
#include <optional>
#include <string>

#include "core/frameworks.hpp"
#include "store/store.hpp"

namespace CLI {
class App;
}

namespace cudaenv {

struct ForOptions {
    std::string for_text;  // "tensorflow==2.10"; empty: not given
    std::string os;        // "windows", "linux"; empty: this system
};

// Adds --for and --os to `cmd`.
void add_for_options(CLI::App* cmd, ForOptions& opts);

struct ForChoice {
    FrameworkBuild build;
    std::string label;                 // "tensorflow 2.10 (windows)", "torch 2.11.0+cu130 (linux, installed)"
    std::optional<PairChoice> choice;  // nullopt: nothing installed fits
    bool installed = false;            // the build came from the active Python's installed one
    std::string gpu_warning;           // torch: the installed wheel of that version leaves a GPU here out
};

// A request without a build (`torch==2.11.0`) takes the build installed in
// the active Python when its release matches (this system only, no --os).
ForChoice choose_for_framework(Store& store, const ForOptions& opts);

// The installed pair's full spec; says why on stderr. Throws with the
// install command as the hint when nothing installed fits.
std::string spec_for_framework(Store& store, const ForOptions& opts);

// "11.2+8.1": what to install for `build`.
std::string install_spec_for(const FrameworkBuild& build);

}  // namespace cudaenv
