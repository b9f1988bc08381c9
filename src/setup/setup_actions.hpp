#pragma once
// The rules of `cudaenv setup` and `setup --undo`, against a SetupHost:
// setup records exactly what it inserts into a profile (bytes and offset) and
// what it changes in the user's registry, in a SetupRecord, and --undo takes
// back exactly that. When a file changed in a way that makes that unsafe,
// they refuse with an Error naming the file and change nothing in it.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "setup/profile_block.hpp"
#include "setup/setup_host.hpp"
#include "setup/setup_record.hpp"

namespace cudaenv {

struct SetupSession {
    SetupHost& host;
    SetupRecord& record;
    std::ostream& out;
    // Persists `record`; called before each change, so an interrupted setup
    // still knows what it may have done.
    std::function<void()> save = [] {};
};

struct ProfileChange {
    std::filesystem::path path;
    std::string shell;               // bash, zsh, fish, pwsh
    LineEndings reads;               // the line endings that shell reads
    std::vector<std::string> lines;  // the block's lines (shell/profile/)
    bool bom_when_created = false;   // Windows PowerShell 5.1 reads a file without a BOM as ANSI
};

// Adds the block to the profile, or updates the block setup wrote there
// before. Refuses (Error, nothing written) a dangling link, something not a
// regular file, a read-only file, line endings the shell cannot read, and a
// block setup wrote that was edited since.
void add_profile_block(SetupSession& s, const ProfileChange& change);

// Removes what `pr` says setup inserted and drops `pr` from the record.
// `expected_lines`: for a record without the inserted bytes (cudaenv 0.1, or
// no record at all), a block byte-equal to these lines is taken as setup's.
// Refuses (Error, nothing written) when that is not exactly in the file.
void remove_profile_block(SetupSession& s, const ProfileRecord& pr, const std::vector<std::string>& expected_lines);

// Windows: `entries` first on the user's PATH (HKCU\Environment\Path), each
// once, in this order; the value keeps its type (REG_EXPAND_SZ / REG_SZ).
// `install_entry` is recorded apart from the shims folder.
void add_user_path(SetupSession& s, const std::string& shims, const std::optional<std::string>& install_entry);
// Takes out the entries setup put there (only those) and removes a Path
// value that setup created and that holds nothing else.
void remove_user_path(SetupSession& s);

// Windows: cmd's AutoRun runs `line` (after the user's own command, joined with &).
void add_autorun(SetupSession& s, const std::string& line);
void remove_autorun(SetupSession& s, const std::string& line);

// Windows `setup --install`: copies `files` from `from_dir` into `dir`
// (creating it), each recorded. Refuses (Error, nothing changed) a `dir` that
// is a file, a file in `dir` that setup did not put there, and another folder
// installed before; a copy that fails takes back what this call did. Again
// into the same folder replaces setup's own copies (an update).
struct InstallChange {
    std::filesystem::path from_dir;
    std::filesystem::path dir;
    std::vector<std::string> files;
};
void install_programs(SetupSession& s, const InstallChange& change);
// Removes the copied files and the folders setup created (when empty).
void remove_programs(SetupSession& s);

// `setup --python`: creates the DLL hook's files (name, bytes) in an
// environment's site-packages, recorded with their bytes. Refuses (Error,
// nothing written) a folder that is not there and a file setup did not
// write; again for the same folder replaces setup's own files (an update)
// unless one was changed since.
struct PythonHookChange {
    std::string interpreter;
    std::filesystem::path site_packages;
    std::string cache_tag;
    std::vector<std::pair<std::string, std::string>> files;
};
void add_python_hook(SetupSession& s, const PythonHookChange& change);
// Removes the files `py` records and the bytecode Python compiled from them
// (__pycache__/<module>.<cache_tag>[.opt-1|.opt-2].pyc; __pycache__ itself
// when it was not there before and is empty now), and drops the record.
// Refuses (Error, nothing removed) when a file was changed since.
void remove_python_hook(SetupSession& s, const PythonRecord& py);

}  // namespace cudaenv
