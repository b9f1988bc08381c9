#pragma once
// PATH-style lists under both semantics, as pure functions so the Windows
// rules (';', case-insensitive, trailing slashes, quoted entries) are tested
// on Linux too.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace cudaenv {

enum class PathStyle { posix, windows };
// The lists of that OS (`windows`), and of this one.
constexpr PathStyle path_style_for(bool windows) { return windows ? PathStyle::windows : PathStyle::posix; }

PathStyle native_path_style();
char list_separator(PathStyle style);

// Splits a list; an empty string is an empty list. Windows: a ';' inside
// double quotes belongs to the entry ("C:\a;b";C:\c is two entries), and the
// quotes stay part of the entry text so a join gives back the same bytes.
std::vector<std::string> split_path_list(std::string_view list, PathStyle style);
std::string join_path_list(const std::vector<std::string>& entries, PathStyle style);

// The form two entries are compared in: Windows drops surrounding quotes,
// turns '/' into '\', folds ASCII case and drops trailing separators
// (C:\CUDA\bin\ == c:/cuda/bin); POSIX only drops trailing '/'.
std::string path_entry_key(std::string_view entry, PathStyle style);
bool same_path_entry(std::string_view a, std::string_view b, PathStyle style);
// True when `entry` is `root` or lies below it.
bool path_entry_under(std::string_view entry, std::string_view root, PathStyle style);

// The activation rule: drop every entry for which `owned` is true, put
// `prepend` first (each once), keep every other entry where it was. An empty
// entry is never kept or produced: POSIX reads one as the current folder
// (the loader would search it for every library, the shell for every
// program), and a list cudaenv writes never has one.
struct PathListEdit {
    std::vector<std::string> prepended;  // `prepend`, each once, less empty ones
    std::vector<std::string> removed;    // entries of `current` taken out: owned ones and empty ones
    std::string value;
};
PathListEdit edit_path_list(std::string_view current, const std::vector<std::string>& prepend,
                            const std::function<bool(const std::string&)>& owned, PathStyle style);
std::string rewrite_path_list(std::string_view current, const std::vector<std::string>& prepend,
                              const std::function<bool(const std::string&)>& owned, PathStyle style);

}  // namespace cudaenv
