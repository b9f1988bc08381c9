#pragma once
// <store>/setup.toml: what `cudaenv setup` changed outside the store, so
// `cudaenv setup --undo` puts back exactly that. The type, its reader and its
// writer live here together.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "setup/profile_block.hpp"

namespace cudaenv {

// One profile file that setup changed.
struct ProfileRecord {
    std::string path;                       // UTF-8, as setup chose it (links are written through)
    std::string shell;                      // bash, zsh, fish, pwsh
    bool created = false;                   // the file did not exist before
    std::vector<std::string> created_dirs;  // folders setup created for it, outermost first
    // The exact bytes setup inserted and where. nullopt: a record written by
    // cudaenv 0.1 (markers only), or a block setup found but did not write.
    std::optional<Insertion> inserted;
};

// What setup changed outside files (Windows registry, HKCU only).
struct WindowsRecord {
    std::optional<std::string> path_entry;       // the shims folder put first in HKCU\Environment\Path
    std::optional<std::string> install_entry;    // the programs' folder of `setup --install`
    bool path_value_created = false;             // there was no user Path before
    std::optional<std::string> autorun_set;      // the AutoRun value setup wrote
    std::optional<std::string> autorun_before;
    bool autorun_before_expandable = false;      // it was REG_EXPAND_SZ
    bool autorun_existed = false;
    bool autorun_key_created = false;            // there was no Command Processor key
};

// The programs `setup --install` copied (Windows).
struct InstallRecord {
    std::string dir;                  // UTF-8
    bool dir_created = false;
    std::vector<std::string> created_dirs;  // folders created for dir, outermost first (dir last)
    std::vector<std::string> files;   // file names setup copied into dir (each absent before)
};

// The DLL hook `setup --python` put into one Python environment (setup/python_hook).
struct PythonRecord {
    std::string interpreter;               // as named, made absolute (UTF-8)
    std::string site_packages;             // the folder the files went into
    std::string cache_tag;                 // sys.implementation.cache_tag: its __pycache__ names
    bool pycache_existed = false;          // site-packages/__pycache__ was there before
    std::vector<std::string> files;        // file names setup created there
    std::vector<std::string> contents;     // their bytes, as written (one per file)
};

struct SetupRecord {
    std::vector<ProfileRecord> profiles;
    WindowsRecord win;
    std::optional<InstallRecord> install;
    std::vector<PythonRecord> pythons;

    bool empty() const;
    ProfileRecord* find(const std::string& path);

    // An absent file is an empty record; a damaged one throws Error naming
    // the line.
    static SetupRecord parse(const std::string& text, const std::string& origin);
    std::string serialize() const;

    static SetupRecord load(const std::filesystem::path& file);
    // Writes atomically; an empty record removes the file.
    void save(const std::filesystem::path& file) const;
};

}  // namespace cudaenv
