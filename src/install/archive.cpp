#include "install/archive.hpp"

#include <cerrno>
#include <cstring>

#include <archive.h>
#include <archive_entry.h>
#include <lzma.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "install/progress.hpp"
#include "install/sha256.hpp"
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

// Feeds libarchive from the file and hashes every byte on the way.
struct Reader {
    std::ifstream in;
    std::vector<char> buf = std::vector<char>(1 << 20);
    Sha256 hash;
    uint64_t read = 0;
    uint64_t limit = 0;  // 0 = none
    std::atomic<bool> over_limit = false;
    std::atomic<bool> io_error = false;
    Progress* progress = nullptr;

    // Bytes read into buf, 0 at the end, -1 on error.
    long long next() {
        if (!in.read(buf.data(), static_cast<std::streamsize>(buf.size())) && in.bad()) {
            io_error = true;
            return -1;
        }
        auto n = static_cast<uint64_t>(in.gcount());
        if (limit && read + n > limit) {
            over_limit = true;
            return -1;
        }
        hash.update(buf.data(), n);
        read += n;
        if (progress) progress->update(read);
        return static_cast<long long>(n);
    }
};

la_ssize_t read_cb(struct archive* a, void* client, const void** out) {
    auto* r = static_cast<Reader*>(client);
    auto n = r->next();
    if (n < 0) {
        archive_set_error(a, EIO, "%s", r->over_limit ? "larger than expected" : "read error");
        return -1;
    }
    *out = r->buf.data();
    return static_cast<la_ssize_t>(n);
}

// Decodes .xz on its own thread with liblzma's multi-threaded decoder, so
// reading, hashing and decoding overlap with libarchive's tar parsing and
// writes (what `tar -xJf` gets from its separate `xz -d` process).
class XzFeeder {
public:
    explicit XzFeeder(Reader& r) : r_(r) { thread_ = std::thread([this] { run(); }); }
    ~XzFeeder() { stop(); }
    XzFeeder(const XzFeeder&) = delete;
    XzFeeder& operator=(const XzFeeder&) = delete;

    // Stops decoding (the reader is then free for the caller) and waits.
    void stop() {
        {
            std::lock_guard lock(m_);
            stop_ = true;
        }
        cv_.notify_all();
        if (thread_.joinable()) thread_.join();
    }

    // The next decoded block: its size, 0 at the end, -1 on error.
    long long next(const void** out) {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return !q_.empty() || done_ || failed_; });
        if (q_.empty()) return failed_ ? -1 : 0;
        current_ = std::move(q_.front());
        q_.pop_front();
        cv_.notify_all();
        *out = current_.data();
        return static_cast<long long>(current_.size());
    }
    std::string error() {
        std::lock_guard lock(m_);
        return error_;
    }

private:
    void fail(std::string why) {
        std::lock_guard lock(m_);
        failed_ = true;
        error_ = std::move(why);
        cv_.notify_all();
    }
    // False when asked to stop.
    bool push(std::vector<char> block) {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return q_.size() < 8 || stop_; });
        if (stop_) return false;
        q_.push_back(std::move(block));
        cv_.notify_all();
        return true;
    }
    void run() {
        lzma_stream s = LZMA_STREAM_INIT;
        lzma_mt mt{};
        mt.flags = LZMA_CONCATENATED;
        mt.threads = std::max<uint32_t>(1, lzma_cputhreads());
        mt.memlimit_threading = 1ull << 30;
        mt.memlimit_stop = UINT64_MAX;
        if (lzma_stream_decoder_mt(&s, &mt) != LZMA_OK) return fail("cannot start the xz decoder");
        lzma_action action = LZMA_RUN;
        std::vector<char> out(1 << 20);
        s.next_out = reinterpret_cast<uint8_t*>(out.data());
        s.avail_out = out.size();
        for (;;) {
            if (s.avail_in == 0 && action == LZMA_RUN) {
                auto n = r_.next();
                if (n < 0) {
                    lzma_end(&s);
                    return fail(r_.over_limit ? "larger than expected" : "read error");
                }
                if (n == 0) action = LZMA_FINISH;
                s.next_in = reinterpret_cast<const uint8_t*>(r_.buf.data());
                s.avail_in = static_cast<size_t>(n);
            }
            auto ret = lzma_code(&s, action);
            if (s.avail_out == 0 || ret == LZMA_STREAM_END) {
                out.resize(out.size() - s.avail_out);
                if (!out.empty() && !push(std::move(out))) break;
                out.assign(1 << 20, 0);
                s.next_out = reinterpret_cast<uint8_t*>(out.data());
                s.avail_out = out.size();
            }
            if (ret == LZMA_STREAM_END) break;
            if (ret != LZMA_OK) {
                lzma_end(&s);
                return fail(ret == LZMA_BUF_ERROR ? "truncated xz data"
                            : ret == LZMA_FORMAT_ERROR ? "not xz data"
                                                       : "damaged xz data");
            }
        }
        lzma_end(&s);
        std::lock_guard lock(m_);
        done_ = true;
        cv_.notify_all();
    }

    Reader& r_;
    std::thread thread_;
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::vector<char>> q_;
    std::vector<char> current_;
    bool done_ = false, failed_ = false, stop_ = false;
    std::string error_;
};

la_ssize_t xz_read_cb(struct archive* a, void* client, const void** out) {
    auto* f = static_cast<XzFeeder*>(client);
    auto n = f->next(out);
    if (n < 0) {
        archive_set_error(a, EIO, "%s", f->error().c_str());
        return -1;
    }
    return static_cast<la_ssize_t>(n);
}

struct ReadHandle {
    archive* a = archive_read_new();
    ~ReadHandle() { archive_read_free(a); }
};
struct WriteHandle {
    archive* a = archive_write_disk_new();
    ~WriteHandle() { archive_write_free(a); }
};

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

ExtractResult extract_archive(const fs::path& archive_path, const ExtractOptions& opt) {
    const auto archive_name = fsx::to_utf8(archive_path.filename());
    auto hostile = [&](const std::string& entry, const std::string& why) {
        return Error("refusing '" + archive_name + "': entry '" + entry + "' " + why,
                     "this is not an intact NVIDIA archive; nothing was installed");
    };

    Reader reader;
    reader.in.open(archive_path, std::ios::binary);
    if (!reader.in) throw Error("cannot read '" + fsx::to_utf8(archive_path) + "'");
    std::error_code ec;
    uint64_t file_size = fs::file_size(archive_path, ec);
    if (ec) file_size = 0;
    if (opt.expect_size && file_size != opt.expect_size)
        throw Error("'" + archive_name + "' is " + std::to_string(file_size) + " bytes, the manifest says " +
                        std::to_string(opt.expect_size),
                    file_size < opt.expect_size ? "the download is incomplete; run the install again to resume it"
                                                : "the file is not the one the manifest lists");
    reader.limit = opt.expect_size;
    reader.progress = opt.progress;
    const uint64_t cap = max_unpacked_size(opt.expect_size ? opt.expect_size : file_size);

    ReadHandle in;
    archive_read_support_format_tar(in.a);
    archive_read_support_format_gnutar(in.a);
    archive_read_support_format_zip(in.a);
    archive_read_support_filter_xz(in.a);
    archive_read_support_filter_gzip(in.a);
    archive_read_support_filter_bzip2(in.a);
    archive_read_support_filter_zstd(in.a);
    // .tar.xz: decoded on a second thread (see XzFeeder); the rest through libarchive's filters.
    std::unique_ptr<XzFeeder> xz;
    if (archive_name.ends_with(".xz")) xz = std::make_unique<XzFeeder>(reader);
    int opened = xz ? archive_read_open(in.a, xz.get(), nullptr, xz_read_cb, nullptr)
                    : archive_read_open(in.a, &reader, nullptr, read_cb, nullptr);
    if (opened != ARCHIVE_OK)
        throw Error("'" + archive_name + "' is not a readable archive: " + archive_error_string(in.a));

    // Symlink checks are ours (below); libarchive's secure flags are a second net.
    WriteHandle out;
    archive_write_disk_set_options(out.a, ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM |
                                              ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NODOTDOT);

    // The destination without symlinks in it, so the secure-symlink check
    // only ever sees folders we created.
    const fs::path dest = fs::canonical(opt.dest);
    std::set<std::string> local_symlinks;
    std::set<std::string>& symlinks = opt.symlinks ? *opt.symlinks : local_symlinks;
    std::map<std::string, char> seen;  // path -> 'f', 'd', 'l'
    auto key_of = [](const std::string& p) { return platform::is_windows ? str::to_lower_ascii(p) : p; };

    ExtractResult res;
    archive_entry* entry = nullptr;
    int r;
    while ((r = archive_read_next_header(in.a, &entry)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
        const char* raw_name = archive_entry_pathname_utf8(entry);
        if (!raw_name) raw_name = archive_entry_pathname(entry);
        std::string name = raw_name ? raw_name : "";
        std::string why;
        auto clean = clean_member_path(name, &why);
        if (!clean) throw hostile(name, why);
        if (++res.entries > kMaxEntries) throw hostile(name, "is one too many (more than a million entries)");

        const char* hardlink = archive_entry_hardlink_utf8(entry);
        if (!hardlink) hardlink = archive_entry_hardlink(entry);
        auto type = archive_entry_filetype(entry);
        if (!hardlink && type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK)
            throw hostile(name, "is a device file, FIFO or socket");

        // Strip the single top folder.
        auto slash = clean->find('/');
        std::string top = clean->substr(0, slash);
        if (res.top.empty()) res.top = top;
        if (top != res.top)
            throw hostile(name, "lies outside the archive's top folder '" + res.top + "'");
        if (slash == std::string::npos) {
            if (type == AE_IFDIR && !hardlink) continue;  // the top folder itself
            throw hostile(name, "lies outside the archive's top folder");
        }
        std::string rel = clean->substr(slash + 1);
        if (!opt.top_files_dir.empty() && rel.find('/') == std::string::npos && type != AE_IFDIR)
            rel = opt.top_files_dir + "/" + rel;

        // Never write through a symlink, never twice to one path.
        auto parts = str::split(rel, '/');
        std::string prefix;
        for (size_t i = 0; i + 1 < parts.size(); ++i) {
            prefix += (i ? "/" : "") + parts[i];
            if (symlinks.count(key_of(prefix))) throw hostile(name, "would be written through the symlink '" + prefix + "'");
            auto it = seen.find(key_of(prefix));
            if (it != seen.end() && it->second != 'd')
                throw hostile(name, "would be written inside the file '" + prefix + "'");
            seen.emplace(key_of(prefix), 'd');
        }
        char kind = hardlink ? 'f' : type == AE_IFDIR ? 'd' : type == AE_IFLNK ? 'l' : 'f';
        auto [it, inserted] = seen.emplace(key_of(rel), kind);
        if (!inserted && !(kind == 'd' && it->second == 'd')) throw hostile(name, "appears twice in the archive");

        if (hardlink) {
            auto target = clean_member_path(hardlink, &why);
            if (!target) throw hostile(name, "is a hard link whose target " + why);
            auto tslash = target->find('/');
            std::string trel = tslash == std::string::npos ? std::string() : target->substr(tslash + 1);
            if (target->substr(0, tslash) != res.top || trel.empty())
                throw hostile(name, "is a hard link to '" + std::string(hardlink) + "' outside the archive");
            if (!opt.top_files_dir.empty() && trel.find('/') == std::string::npos) trel = opt.top_files_dir + "/" + trel;
            auto t = seen.find(key_of(trel));
            if (t == seen.end() || t->second != 'f' || trel == rel)
                throw hostile(name, "is a hard link to '" + std::string(hardlink) + "', which is not a file extracted before it");
            archive_entry_update_hardlink_utf8(entry, fsx::to_utf8(dest / fsx::from_utf8(trel)).c_str());
        } else if (type == AE_IFLNK) {
            const char* t = archive_entry_symlink_utf8(entry);
            if (!t) t = archive_entry_symlink(entry);
            std::string target = t ? t : "";
            if (!symlink_stays_inside(rel, target))
                throw hostile(name, "is a symlink to '" + target + "', outside the archive");
            symlinks.insert(key_of(rel));
        } else {
            // A later archive may replace a symlink of an earlier one with a file.
            symlinks.erase(key_of(rel));
        }

        if (archive_entry_size_is_set(entry) && archive_entry_size(entry) > 0) {
            auto size = static_cast<uint64_t>(archive_entry_size(entry));
            if (res.bytes_written + size > cap)
                throw hostile(name, "is absurdly large (" + Progress::human_bytes(static_cast<double>(size)) +
                                        "): the archive would unpack to more than " +
                                        Progress::human_bytes(static_cast<double>(cap)));
        }
        auto perm = archive_entry_perm(entry);
        archive_entry_set_perm(entry, type == AE_IFDIR ? 0755 : ((perm & 0755) | 0644));
        archive_entry_update_pathname_utf8(entry, fsx::to_utf8(dest / fsx::from_utf8(rel)).c_str());

        auto write_error = [&](const std::string& what) {
            std::string msg = archive_error_string(out.a) ? archive_error_string(out.a) : "unknown error";
            int err = archive_errno(out.a);
            bool full = err == ENOSPC || msg.find("No space") != std::string::npos;
#ifdef EDQUOT
            full = full || err == EDQUOT;
#endif
            if (err > 0) msg += std::string(" (") + std::strerror(err) + ")";
            return Error("cannot " + what + " '" + rel + "' from '" + archive_name + "': " + msg,
                         full ? "the disk is full: free some space and run the install again (nothing was installed)"
                              : "nothing was installed");
        };
        if (archive_write_header(out.a, entry) < ARCHIVE_WARN) throw write_error("create");
        if (kind == 'f' && !hardlink) {
            const void* buf;
            size_t size;
            la_int64_t offset;
            int d;
            while ((d = archive_read_data_block(in.a, &buf, &size, &offset)) == ARCHIVE_OK) {
                res.bytes_written += size;
                if (res.bytes_written > cap)
                    throw hostile(name, "unpacks to more than " + Progress::human_bytes(static_cast<double>(cap)) +
                                            " (compression ratio too high)");
                // libarchive reports a failed write(2) (ENOSPC, EIO) as ARCHIVE_WARN, not as a failure.
                if (archive_write_data_block(out.a, buf, size, offset) < ARCHIVE_OK) throw write_error("write");
            }
            if (d != ARCHIVE_EOF) {
                if (reader.over_limit)
                    throw Error("'" + archive_name + "' is larger than the manifest says",
                                "the file is not the one the manifest lists");
                throw Error("'" + archive_name + "' is damaged or truncated: " +
                                std::string(archive_error_string(in.a) ? archive_error_string(in.a) : "read error"),
                            "download it again");
            }
        }
        if (archive_write_finish_entry(out.a) < ARCHIVE_WARN) throw write_error("finish");
    }
    if (r != ARCHIVE_EOF) {
        std::string msg = archive_error_string(in.a) ? archive_error_string(in.a) : "read error";
        if (reader.over_limit)
            throw Error("'" + archive_name + "' is larger than the manifest says", "the file is not the one the manifest lists");
        if (res.entries == 0)
            throw Error("'" + archive_name + "' is not a readable archive: " + msg, "expected a .tar.xz or .zip");
        throw Error("'" + archive_name + "' is damaged or truncated: " + msg, "download it again");
    }
    if (archive_write_close(out.a) != ARCHIVE_OK)
        throw Error("cannot finish extracting '" + archive_name + "': " +
                    std::string(archive_error_string(out.a) ? archive_error_string(out.a) : "unknown error"));
    if (res.entries == 0) throw Error("'" + archive_name + "' is empty or not an archive", "expected a .tar.xz or .zip");

    // Hash what libarchive did not need (the zip central directory, padding).
    if (xz) xz->stop();
    long long n;
    while ((n = reader.next()) > 0) {
    }
    if (n < 0) {
        if (reader.over_limit)
            throw Error("'" + archive_name + "' is larger than the manifest says", "the file is not the one the manifest lists");
        throw Error("cannot read '" + fsx::to_utf8(archive_path) + "'");
    }
    res.archive_bytes = reader.read;
    res.sha256 = reader.hash.hex_digest();
    if (!opt.expect_sha256.empty() && res.sha256 != str::to_lower_ascii(opt.expect_sha256))
        throw Error("sha256 mismatch for '" + archive_name + "': expected " + str::to_lower_ascii(opt.expect_sha256) +
                        ", got " + res.sha256,
                    "the file is damaged or not the one expected; nothing was installed");
    spdlog::debug("extracted {}: {} entries, {} bytes, sha256 {}", archive_name, res.entries, res.bytes_written,
                  res.sha256);
    return res;
}

}  // namespace cudaenv::install
