// The rules of util/user_file.hpp; the OS's part is in user_file_posix.cpp
// and user_file_win32.cpp.
#include "util/user_file.hpp"

#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::fsx {

namespace {

std::string quoted(const fs::path& p) { return "'" + to_utf8(p) + "'"; }

// The path as the user named it, and where its link leads when it is one.
std::string named(const fs::path& p, const Target& t) {
    return t.via_link && t.path != p ? quoted(p) + " (a link to " + quoted(t.path) + ")" : quoted(p);
}

// Refuses what no writer may touch; returns normally for what can be written.
void refuse_unwritable(const fs::path& p, const Target& t) {
    switch (t.kind) {
        case TargetKind::folder:
            throw Error(quoted(p) + " is a folder; a file was expected there", "name a file");
        case TargetKind::dangling_link:
            throw Error(quoted(p) + " is a link to " + quoted(t.path) + ", which does not exist",
                        "create " + quoted(t.path) + " or remove the link, then try again");
        case TargetKind::other:
            throw Error(quoted(p) + " is " + t.detail + ", not a file cudaenv can write", "name a regular file");
        case TargetKind::file:
            if (t.read_only)
                throw Error(named(p, t) + " is read-only: cudaenv leaves it as it is",
                            "make it writable (chmod u+w " + quoted(t.path) + ") and try again");
            return;
        case TargetKind::absent: {
            auto dir = folder_of(t.path);
            if (!is_dir(dir))
                throw Error("the folder " + quoted(dir) + " does not exist; cudaenv creates no folder for " +
                                quoted(p),
                            "create the folder first, or name a file in an existing one");
            if (!user_file_os::can_create_in(dir))
                throw Error("cannot create " + quoted(p) + ": the folder " + quoted(dir) + " is not writable",
                            "name a file in a folder you can write");
            return;
        }
        case TargetKind::device:
        case TargetKind::fifo:
            return;
    }
}

}  // namespace

fs::path folder_of(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : fs::path("."); }

void check_user_file_writable(const fs::path& p) { refuse_unwritable(p, inspect_target(p)); }

void write_user_file(const fs::path& p, std::string_view content) {
    auto t = inspect_target(p);
    refuse_unwritable(p, t);
    switch (t.kind) {
        case TargetKind::device:
        case TargetKind::fifo:
            user_file_os::write_in_place(t.path, content, false);
            return;
        case TargetKind::file:
            // Other names share this file: rewrite it in place, so they all see the new text.
            if (t.links > 1) user_file_os::write_in_place(t.path, content, true);
            else user_file_os::replace(t.path, content, &t);
            return;
        default:
            user_file_os::replace(t.path, content, nullptr);
    }
}

void append_user_file(const fs::path& p, std::string_view content) {
    auto t = inspect_target(p);
    refuse_unwritable(p, t);
    user_file_os::append(t.path, content, t.kind == TargetKind::absent);
}

std::optional<std::string> read_user_file(const fs::path& p, size_t max_bytes, std::string_view what) {
    auto t = inspect_target(p);
    const std::string kept = "; " + std::string(what) + " rewrites its part of the file, which needs all of it read first: nothing was written";
    switch (t.kind) {
        case TargetKind::absent: return std::nullopt;
        case TargetKind::device: return std::string();
        case TargetKind::fifo:
            throw Error(named(p, t) + " is a FIFO" + kept, "name a regular file");
        case TargetKind::file: break;
        default: refuse_unwritable(p, t);
    }
    auto r = read_regular_file(t.path, max_bytes);
    switch (r.status) {
        case ReadStatus::ok: return std::move(r.text);
        case ReadStatus::too_large:
            throw Error(named(p, t) + " is larger than " + std::to_string(max_bytes >> 20) + " MiB" + kept,
                        "name another file");
        case ReadStatus::missing: return std::nullopt;
        default:
            throw Error("cannot read " + named(p, t) + (r.detail.empty() ? "" : ": " + r.detail) + kept,
                        "check its permissions");
    }
}

}  // namespace cudaenv::fsx
