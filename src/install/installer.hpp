#pragma once
// `cudaenv install`: archives given on the command line, or a spec fetched
// from a mirror. Each is planned first (plan.hpp), under the store's install
// lock, then carried out all or nothing (execute.hpp); --dry-run prints the
// plan and changes nothing.
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/spec.hpp"
#include "install/plan.hpp"
#include "store/store.hpp"

namespace cudaenv::install {

namespace fs = std::filesystem;

struct InstallOptions {
    bool quiet = false;                   // no progress display
    bool dry_run = false;                 // print the plan only
    int connections = 4;                  // downloads at once
    std::string mirror;                   // folder or URL (already chosen)
    std::vector<std::string> components;  // CUDA components; empty = the default set
    std::string sha256;                   // expected hash of the one local archive
    // Whether releases and pairs run on the machine judged for (gpu/install_choice
    // and gpu/pair_code's judge_pair, decided before any download); unset: every one may be taken.
    RunsHere runs_here;
};

// `cudaenv install <archive>...`
void install_archives(Store& store, const std::vector<fs::path>& archives, const InstallOptions& opts,
                      std::ostream& out);

// `cudaenv install <spec>`: the toolkit (only what is missing), and for
// <cuda>+<cudnn> the cuDNN built for that CUDA major, then pins the pair.
void install_spec(Store& store, const Spec& spec, const InstallOptions& opts, std::ostream& out);

// `cudaenv install --list`
void list_mirror(const InstallOptions& opts, std::ostream& out);

}  // namespace cudaenv::install
