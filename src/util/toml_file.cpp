#include "util/toml_file.hpp"

#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/toml_limits.hpp"

namespace cudaenv {

std::optional<std::string> read_store_file(const std::filesystem::path& file) {
    auto r = fsx::read_regular_file(file, kMaxStoreFileBytes);
    auto shown = "'" + fsx::to_utf8(file) + "'";
    switch (r.status) {
        case fsx::ReadStatus::ok: return std::move(r.text);
        case fsx::ReadStatus::missing: return std::nullopt;
        case fsx::ReadStatus::not_a_file:
            throw Error(shown + " is not a regular file", "remove it or replace it with a file; cudaenv has not changed it");
        case fsx::ReadStatus::too_large:
            throw Error(shown + " is larger than " + std::to_string(kMaxStoreFileBytes >> 20) +
                            " MiB, so it is not one cudaenv wrote",
                        "move it away; cudaenv starts a new one");
        case fsx::ReadStatus::link_loop:
            throw Error(shown + " is a symbolic link that loops", "remove the link or point it at a file");
        case fsx::ReadStatus::not_a_folder:
            throw Error("a folder on the way to " + shown + " is a file", "set CUDAENV_ROOT to a folder you can write");
        case fsx::ReadStatus::error: break;
    }
    throw Error("cannot read " + shown + ": " + r.detail, "check its permissions");
}

toml::table parse_store_toml(const std::string& text, const std::filesystem::path& file) {
    const char* unchanged = "fix or remove the file; cudaenv has not changed it";
    if (auto issue = check_toml_limits(text, {.max_bytes = kMaxStoreFileBytes}))
        throw Error(fsx::to_utf8(file) + ":" + std::to_string(issue->line) + ":" + std::to_string(issue->column) + ": " +
                        issue->reason,
                    unchanged);
    try {
        return toml::parse(text, fsx::to_utf8(file));
    } catch (const toml::parse_error& e) {
        throw Error(fsx::to_utf8(file) + ":" + std::to_string(e.source().begin.line) + ":" +
                        std::to_string(e.source().begin.column) + ": " + std::string(e.description()),
                    unchanged);
    }
}

}  // namespace cudaenv
