#include "install/archive.hpp"

#include <cerrno>
#include <cstring>

#include <archive.h>
#include <archive_entry.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "install/archive_reader.hpp"
#include "install/umask_lock.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

namespace {

// Uncompressed data may be at most this many times the archive (real cuDNN
// and CUDA archives are 2-4x), and always at least the floor.
constexpr uint64_t kMaxRatio = 40;
constexpr uint64_t kMinCap = 32ull << 20;
constexpr uint64_t kMaxEntries = 1'000'000;

struct ReadHandle {
    archive* a = archive_read_new();
    ~ReadHandle() { archive_read_free(a); }
};
struct WriteHandle {
    archive* a = [] {
        std::lock_guard lk(umask_lock());  // it reads the umask by changing it (install/umask_lock.hpp)
        return archive_write_disk_new();
    }();
    ~WriteHandle() { archive_write_free(a); }
};

// archive_write_header creates the entry, with a mode from the umask it
// reads by changing it: one at a time in the process (install/umask_lock.hpp).
int write_header(archive* out, archive_entry* entry) {
    std::lock_guard lk(umask_lock());
    return archive_write_header(out, entry);
}

la_ssize_t read_cb(struct archive* a, void* client, const void** out) {
    auto* r = static_cast<ArchiveReader*>(client);
    auto n = r->next();
    if (n < 0) {
        archive_set_error(a, EIO, "%s", r->failure());
        return -1;
    }
    *out = r->buf.data();
    return static_cast<la_ssize_t>(n);
}

la_ssize_t xz_read_cb(struct archive* a, void* client, const void** out) {
    auto* f = static_cast<XzFeeder*>(client);
    auto n = f->next(out);
    if (n < 0) {
        archive_set_error(a, EIO, "%s", f->error().c_str());
        return -1;
    }
    return static_cast<la_ssize_t>(n);
}

bool is_drive_letter(const std::string& s) {
    return s.size() >= 2 && std::isalpha(static_cast<unsigned char>(s[0])) && s[1] == ':';
}

}  // namespace

uint64_t max_unpacked_size(uint64_t archive_size) { return std::max(kMinCap, archive_size * kMaxRatio); }

std::optional<std::string> clean_member_path(const std::string& name, std::string* why) {
    auto fail = [&](const char* w) -> std::optional<std::string> {
        if (why) *why = w;
        return std::nullopt;
    };
    if (name.empty()) return fail("has an empty name");
    if (name.front() == '/' || name.front() == '\\') return fail("has an absolute path");
    if (is_drive_letter(name)) return fail("has an absolute path (drive letter)");
    std::vector<std::string> parts;
    std::string cur;
    auto flush = [&]() -> bool {
        if (cur == "..") return false;
        if (!cur.empty() && cur != ".") parts.push_back(cur);
        cur.clear();
        return true;
    };
    for (char c : name) {
        if (c == '/' || c == '\\') {
            if (!flush()) return fail("has a '..' component");
        } else if (c == '\0') {
            return fail("has a NUL byte in its name");
        } else {
            cur += c;
        }
    }
    if (!flush()) return fail("has a '..' component");
    if (parts.empty()) return fail("has an empty name");
    return str::join(parts, "/");
}

bool symlink_stays_inside(const std::string& link, const std::string& target) {
    if (target.empty() || target.front() == '/' || target.front() == '\\' || is_drive_letter(target)) return false;
    auto dir = str::split(link, '/');
    dir.pop_back();  // the link's own folder
    bool leading = true;
    for (const auto& part : str::split(str::replace_all(target, "\\", "/"), '/')) {
        if (part.empty() || part == ".") continue;
        if (part == "..") {
            // ".." after a named component could climb out through another symlink.
            if (!leading || dir.empty()) return false;
            dir.pop_back();
        } else {
            leading = false;
            dir.push_back(part);
        }
    }
    return true;
}


namespace {

std::string archive_text(archive* a) { return archive_error_string(a) ? archive_error_string(a) : "read error"; }

// What libarchive reads: the file's bytes (hashed on the way), or for .xz
// the output of the decoder thread.
struct Input {
    ArchiveReader reader;
    std::unique_ptr<XzFeeder> xz;
    ReadHandle in;
    std::string name;   // the archive's file name, for messages
    uint64_t cap = 0;   // bytes it may unpack to

    Input(const fs::path& path, const ExtractOptions& opt) : name(fsx::to_utf8(path.filename())) {
        reader.in.open(path, std::ios::binary);
        if (!reader.in) throw Error("cannot read '" + fsx::to_utf8(path) + "'");
        std::error_code ec;
        uint64_t file_size = fs::file_size(path, ec);
        if (ec) file_size = 0;
        if (opt.expect_size && file_size != opt.expect_size)
            throw Error("'" + name + "' is " + std::to_string(file_size) + " bytes, the manifest says " +
                            std::to_string(opt.expect_size),
                        file_size < opt.expect_size ? "the download is incomplete; run the install again to resume it"
                                                    : "the file is not the one the manifest lists");
        reader.limit = opt.expect_size;
        reader.on_read = opt.on_read;
        reader.stop = opt.stop;
        cap = max_unpacked_size(opt.expect_size ? opt.expect_size : file_size);
        archive_read_support_format_tar(in.a);
        archive_read_support_format_gnutar(in.a);
        archive_read_support_format_zip(in.a);
        archive_read_support_filter_xz(in.a);
        archive_read_support_filter_gzip(in.a);
        archive_read_support_filter_bzip2(in.a);
        archive_read_support_filter_zstd(in.a);
        // .tar.xz: decoded on a second thread (archive_reader.hpp); the rest through libarchive's filters.
        if (name.ends_with(".xz")) xz = std::make_unique<XzFeeder>(reader);
        int opened = xz ? archive_read_open(in.a, xz.get(), nullptr, xz_read_cb, nullptr)
                        : archive_read_open(in.a, &reader, nullptr, read_cb, nullptr);
        if (opened != ARCHIVE_OK) throw Error("'" + name + "' is not a readable archive: " + archive_text(in.a));
    }

    // The error for a failed read: the reader's own reason when it has one.
    Error read_failure(const std::string& libarchive_msg, bool nothing_read) const {
        if (reader.over_limit)
            return Error("'" + name + "' is larger than the manifest says", "the file is not the one the manifest lists");
        if (reader.stopped) return Error("unpacking '" + name + "' was stopped");
        if (nothing_read) return Error("'" + name + "' is not a readable archive: " + libarchive_msg, "expected a .tar.xz or .zip");
        return Error("'" + name + "' is damaged or truncated: " + libarchive_msg, "download it again");
    }
};

// The checks every entry passes before anything is written: a clean
// relative path inside the single top folder (stripped), no device file,
// FIFO or socket, no write through a symlink or twice to one path,
// symlinks and hard links that stay inside, a bounded size.
class EntryGuard {
public:
    EntryGuard(const Input& input, const ExtractOptions& opt, const fs::path& dest)
        : input_(input), opt_(opt), dest_(dest) {}

    Error hostile(const std::string& entry, const std::string& why) const {
        return Error("refusing '" + input_.name + "': entry '" + entry + "' " + why,
                     "this is not an intact NVIDIA archive; nothing was installed");
    }

    // The entry's path below the top folder ("" for the top folder itself,
    // which is skipped); hard links are pointed at their target in `dest`.
    std::string admit(archive_entry* entry, ExtractResult& res) {
        const char* raw = archive_entry_pathname_utf8(entry);
        if (!raw) raw = archive_entry_pathname(entry);
        std::string name = raw ? raw : "";
        std::string why;
        auto clean = clean_member_path(name, &why);
        if (!clean) throw hostile(name, why);
        if (++res.entries > kMaxEntries) throw hostile(name, "is one too many (more than a million entries)");
        const char* hardlink = archive_entry_hardlink_utf8(entry);
        if (!hardlink) hardlink = archive_entry_hardlink(entry);
        auto type = archive_entry_filetype(entry);
        if (!hardlink && type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK)
            throw hostile(name, "is a device file, FIFO or socket");
        auto rel = strip_top(name, *clean, type == AE_IFDIR && !hardlink, res);
        if (rel.empty()) return rel;
        if (!opt_.top_files_dir.empty() && rel.find('/') == std::string::npos && type != AE_IFDIR)
            rel = opt_.top_files_dir + "/" + rel;
        char kind = hardlink ? 'f' : type == AE_IFDIR ? 'd' : type == AE_IFLNK ? 'l' : 'f';
        check_place(name, rel, kind);
        if (hardlink) point_hardlink(entry, name, hardlink, rel);
        else if (type == AE_IFLNK) check_symlink(entry, name, rel);
        if (archive_entry_size_is_set(entry) && archive_entry_size(entry) > 0) {
            auto size = static_cast<uint64_t>(archive_entry_size(entry));
            if (res.bytes_written + size > input_.cap)
                throw hostile(name, "is absurdly large (" + str::human_bytes(static_cast<double>(size)) +
                                        "): the archive would unpack to more than " +
                                        str::human_bytes(static_cast<double>(input_.cap)));
        }
        return rel;
    }

private:
    std::string strip_top(const std::string& name, const std::string& clean, bool is_dir, ExtractResult& res) const {
        auto slash = clean.find('/');
        std::string top = clean.substr(0, slash);
        if (res.top.empty()) res.top = top;
        if (top != res.top) throw hostile(name, "lies outside the archive's top folder '" + res.top + "'");
        if (slash != std::string::npos) return clean.substr(slash + 1);
        if (is_dir) return {};
        throw hostile(name, "lies outside the archive's top folder");
    }

    std::string key(const std::string& p) const { return platform::path_key(p); }

    // Never write through a symlink, never twice to one path.
    void check_place(const std::string& name, const std::string& rel, char kind) {
        auto parts = str::split(rel, '/');
        std::string prefix;
        for (size_t i = 0; i + 1 < parts.size(); ++i) {
            prefix += (i ? "/" : "") + parts[i];
            if (symlinks_.count(key(prefix))) throw hostile(name, "would be written through the symlink '" + prefix + "'");
            auto it = seen_.find(key(prefix));
            if (it != seen_.end() && it->second != 'd') throw hostile(name, "would be written inside the file '" + prefix + "'");
            seen_.emplace(key(prefix), 'd');
        }
        auto [it, inserted] = seen_.emplace(key(rel), kind);
        if (!inserted && !(kind == 'd' && it->second == 'd')) throw hostile(name, "appears twice in the archive");
    }

    void point_hardlink(archive_entry* entry, const std::string& name, const char* hardlink, const std::string& rel) {
        std::string why;
        auto target = clean_member_path(hardlink, &why);
        if (!target) throw hostile(name, "is a hard link whose target " + why);
        auto slash = target->find('/');
        std::string trel = slash == std::string::npos ? std::string() : target->substr(slash + 1);
        if (target->substr(0, slash) != top_of(name) || trel.empty())
            throw hostile(name, "is a hard link to '" + std::string(hardlink) + "' outside the archive");
        if (!opt_.top_files_dir.empty() && trel.find('/') == std::string::npos) trel = opt_.top_files_dir + "/" + trel;
        auto t = seen_.find(key(trel));
        if (t == seen_.end() || t->second != 'f' || trel == rel)
            throw hostile(name, "is a hard link to '" + std::string(hardlink) + "', which is not a file extracted before it");
        archive_entry_update_hardlink_utf8(entry, fsx::to_utf8(dest_ / fsx::from_utf8(trel)).c_str());
    }

    void check_symlink(archive_entry* entry, const std::string& name, const std::string& rel) {
        const char* t = archive_entry_symlink_utf8(entry);
        if (!t) t = archive_entry_symlink(entry);
        std::string target = t ? t : "";
        if (!symlink_stays_inside(rel, target)) throw hostile(name, "is a symlink to '" + target + "', outside the archive");
        symlinks_.insert(key(rel));
    }

    std::string top_of(const std::string& name) const {
        std::string why;
        auto clean = clean_member_path(name, &why);
        return clean ? clean->substr(0, clean->find('/')) : std::string();
    }

    const Input& input_;
    const ExtractOptions& opt_;
    const fs::path& dest_;
    std::set<std::string> symlinks_;
    std::map<std::string, char> seen_;  // path -> 'f', 'd', 'l'
};

Error write_error(archive* out, const std::string& what, const std::string& rel, const std::string& archive_name) {
    std::string msg = archive_error_string(out) ? archive_error_string(out) : "unknown error";
    int err = archive_errno(out);
    bool full = err == ENOSPC || msg.find("No space") != std::string::npos;
#ifdef EDQUOT
    full = full || err == EDQUOT;
#endif
    if (err > 0) msg += std::string(" (") + std::strerror(err) + ")";
    return Error("cannot " + what + " '" + rel + "' from '" + archive_name + "': " + msg,
                 full ? "the disk is full: free some space and run the install again (nothing was installed)"
                      : "nothing was installed");
}

// Writes one admitted entry: its header, and a file's data within the cap.
void write_entry(Input& input, archive* out, archive_entry* entry, const std::string& rel, bool data,
                 const EntryGuard& guard, ExtractResult& res) {
    if (write_header(out, entry) < ARCHIVE_WARN) throw write_error(out, "create", rel, input.name);
    if (data) {
        const void* buf;
        size_t size;
        la_int64_t offset;
        int d;
        while ((d = archive_read_data_block(input.in.a, &buf, &size, &offset)) == ARCHIVE_OK) {
            res.bytes_written += size;
            if (res.bytes_written > input.cap)
                throw guard.hostile(rel, "unpacks to more than " + str::human_bytes(static_cast<double>(input.cap)) +
                                             " (compression ratio too high)");
            // libarchive reports a failed write(2) (ENOSPC, EIO) as ARCHIVE_WARN, not as a failure.
            if (archive_write_data_block(out, buf, size, offset) < ARCHIVE_OK)
                throw write_error(out, "write", rel, input.name);
        }
        if (d != ARCHIVE_EOF) throw input.read_failure(archive_text(input.in.a), false);
    }
    if (archive_write_finish_entry(out) < ARCHIVE_WARN) throw write_error(out, "finish", rel, input.name);
}

// Hashes what libarchive did not need (a zip's central directory, padding)
// and compares the whole file's hash.
void finish_hash(Input& input, const fs::path& path, const ExtractOptions& opt, ExtractResult& res) {
    if (input.xz) input.xz->stop();
    long long n;
    while ((n = input.reader.next()) > 0) {
    }
    if (n < 0) {
        if (input.reader.over_limit || input.reader.stopped) throw input.read_failure("", false);
        throw Error("cannot read '" + fsx::to_utf8(path) + "'");
    }
    res.archive_bytes = input.reader.read;
    res.sha256 = input.reader.hash.hex_digest();
    auto want = str::to_lower_ascii(opt.expect_sha256);
    if (!want.empty() && res.sha256 != want)
        throw Error("sha256 mismatch for '" + input.name + "': expected " + want + ", got " + res.sha256,
                    "the file is damaged or not the one expected; nothing was installed");
}

// A file of the right size that fails to unpack, when its hash is known:
// the hash says whether it is the archive expected at all (a damaged or
// tampered download fails the hash first; only the real one can be hostile).
Error explain(const Error& e, const fs::path& path, const ExtractOptions& opt) {
    std::error_code ec;
    if (opt.expect_sha256.empty() || (opt.stop && *opt.stop) || !fs::is_regular_file(path, ec) ||
        (opt.expect_size && fs::file_size(path, ec) != opt.expect_size))
        return e;
    auto want = str::to_lower_ascii(opt.expect_sha256);
    try {
        auto got = sha256_file(path);
        if (got != want)
            return Error("sha256 mismatch for '" + fsx::to_utf8(path.filename()) + "': expected " + want + ", got " + got,
                         "the file is damaged or not the one expected; nothing was installed");
    } catch (const Error&) {
    }
    return e;
}

ExtractResult extract_unchecked(const fs::path& archive_path, const ExtractOptions& opt) {
    Input input(archive_path, opt);
    // Symlink checks are ours (EntryGuard); libarchive's secure flags are a second net.
    WriteHandle out;
    archive_write_disk_set_options(out.a, ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM |
                                              ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NODOTDOT);
    // The destination without symlinks in it, so the secure-symlink check
    // only ever sees folders we created.
    const fs::path dest = fs::canonical(opt.dest);
    EntryGuard guard(input, opt, dest);
    ExtractResult res;
    archive_entry* entry = nullptr;
    int r;
    while ((r = archive_read_next_header(input.in.a, &entry)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
        auto rel = guard.admit(entry, res);
        if (rel.empty()) continue;  // the top folder itself
        auto type = archive_entry_filetype(entry);
        bool hardlink = archive_entry_hardlink(entry) != nullptr;
        auto perm = archive_entry_perm(entry);
        archive_entry_set_perm(entry, type == AE_IFDIR ? 0755 : ((perm & 0755) | 0644));
        archive_entry_update_pathname_utf8(entry, fsx::to_utf8(dest / fsx::from_utf8(rel)).c_str());
        write_entry(input, out.a, entry, rel, type == AE_IFREG && !hardlink, guard, res);
    }
    if (r != ARCHIVE_EOF) throw input.read_failure(archive_text(input.in.a), res.entries == 0);
    if (archive_write_close(out.a) != ARCHIVE_OK)
        throw Error("cannot finish extracting '" + input.name + "': " +
                    std::string(archive_error_string(out.a) ? archive_error_string(out.a) : "unknown error"));
    if (res.entries == 0) throw Error("'" + input.name + "' is empty or not an archive", "expected a .tar.xz or .zip");
    finish_hash(input, archive_path, opt, res);
    spdlog::debug("extracted {}: {} entries, {} bytes, sha256 {}", input.name, res.entries, res.bytes_written,
                  res.sha256);
    return res;
}

}  // namespace

ExtractResult extract_archive(const fs::path& archive_path, const ExtractOptions& opt) {
    try {
        return extract_unchecked(archive_path, opt);
    } catch (const Error& e) {
        throw explain(e, archive_path, opt);
    }
}

}  // namespace cudaenv::install
