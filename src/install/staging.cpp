#include "install/staging.hpp"

#include <spdlog/spdlog.h>

#include <iostream>
#include <random>

#include "platform/lock.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

namespace {

// tmp/ entries: "stage~<area>~<name>~<id>" (being built), "old~<area>~<name>~<id>"
// (an install set aside while its replacement moves in), "del~..." (being deleted).
constexpr char kSep = '~';

std::string random_id() {
    std::random_device rd;
    return std::to_string(rd()) + std::to_string(rd() % 10000);
}

}  // namespace

fs::path tmp_entry(Store& store, const std::string& kind, const fs::path& target) {
    auto area = fsx::to_utf8(target.parent_path().filename());
    auto name = fsx::to_utf8(target.filename());
    return store.tmp_dir() / fsx::from_utf8(kind + kSep + area + kSep + name + kSep + random_id());
}

void remove_tree(const fs::path& p) {
    std::error_code ec;
    fs::remove_all(p, ec);
    if (ec) spdlog::warn("cannot delete '{}': {}", fsx::to_utf8(p), ec.message());
}

// Hard links where the file system allows (instant, no extra space), else copies.
void copy_tree_linked(const fs::path& from, const fs::path& to) {
    fs::create_directories(to);
    for (auto it = fs::recursive_directory_iterator(from); it != fs::recursive_directory_iterator(); ++it) {
        auto dst = to / it->path().lexically_relative(from);  // fs::relative would follow symlinks
        if (it->is_symlink()) {
            fs::copy_symlink(it->path(), dst);
        } else if (it->is_directory()) {
            fs::create_directory(dst);
        } else {
            std::error_code ec;
            fs::create_hard_link(it->path(), dst, ec);
            if (ec) fs::copy_file(it->path(), dst);
        }
    }
}

namespace {
constexpr const char* kPlatformFile = ".cudaenv-platform";
}

void record_platform(const fs::path& dir, const std::string& platform) {
    // Atomic: a toolkit that gains components has its files hard-linked from the installed one.
    fsx::write_file_atomic(dir / kPlatformFile, platform + "\n");
}

std::string recorded_platform(const fs::path& dir) {
    auto text = fsx::read_file(dir / kPlatformFile, 256);
    return text ? std::string(str::trim(*text)) : std::string();
}

// A fresh staging folder for `target`.
fs::path make_staging(Store& store, const fs::path& target) {
    auto dir = tmp_entry(store, "stage", target);
    ensure_writable_dir(dir);
    return dir;
}

void merge_tree(const fs::path& from, const fs::path& to, const std::string& archive) {
    auto refuse = [&](const fs::path& at, const std::string& why) {
        return Error("refusing '" + archive + "': '" + fsx::to_utf8(at.lexically_relative(to)) + "' " + why,
                     "the archives of one toolkit overlap in a way NVIDIA's do not; nothing was installed");
    };
    ensure_writable_dir(to);
    std::vector<fs::path> entries;
    for (const auto& e : fs::directory_iterator(from)) entries.push_back(e.path());
    for (const auto& src : entries) {
        auto dst = to / src.filename();
        auto src_st = fs::symlink_status(src);
        std::error_code ec;
        auto dst_st = fs::symlink_status(dst, ec);
        bool dst_there = !ec && fs::exists(dst_st);
        if (fs::is_directory(src_st)) {
            if (!dst_there) fs::rename(src, dst);
            else if (fs::is_directory(dst_st)) merge_tree(src, dst, archive);
            else throw refuse(dst, fs::is_symlink(dst_st) ? "would be written through a symlink of another archive"
                                                          : "is a file in another archive and a folder in this one");
        } else {
            if (dst_there && fs::is_directory(dst_st)) throw refuse(dst, "would replace a folder of another archive");
            fs::rename(src, dst);  // replaces a file or symlink (never follows it)
        }
    }
    fs::remove(from);
}

namespace {

// The journal: "committed" once everything moved, else one line per move,
// "<target relative to the store>\t<tmp entry it was set aside as, or ->".
constexpr const char* kCommitted = "committed\n";

// Undoes one move of an interrupted transaction; false when it had not happened.
bool roll_back(Store& store, const fs::path& target, const std::string& old_name) {
    auto old = old_name == "-" ? fs::path() : store.tmp_dir() / fsx::from_utf8(old_name);
    if (old.empty()) {
        if (!fsx::exists(target)) return false;
        remove_installed(store, target);  // new in this transaction
        return true;
    }
    if (!fsx::exists(old)) return false;  // never set aside: the target is the original
    if (fsx::exists(target)) remove_installed(store, target);
    fs::rename(old, target);
    return true;
}

void recover_journal(Store& store, const fs::path& journal) {
    auto text = fsx::read_file(journal, 1 << 20).value_or("");
    if (text != kCommitted) {
        auto lines = str::split(text, '\n');
        for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
            auto fields = str::split(*it, '\t');
            if (fields.size() != 2 || !fsx::is_safe_relative(fields[0])) continue;
            if (roll_back(store, store.root() / fsx::from_utf8(fields[0]), fields[1]))
                spdlog::info("rolled back '{}' of an interrupted install", fields[0]);
        }
    }
    std::error_code ec;
    fs::remove(journal, ec);
}

}  // namespace

void Transaction::add(const fs::path& staging, const fs::path& target) { moves_.push_back({staging, target, {}}); }

void Transaction::commit() {
    if (moves_.empty()) return;
    std::string journal_text;
    for (auto& m : moves_) {
        ensure_writable_dir(m.target.parent_path());
        if (fsx::exists(m.target)) m.old = tmp_entry(store_, "old", m.target);
        journal_text += fsx::to_utf8(m.target.lexically_relative(store_.root())) + "\t" +
                        (m.old.empty() ? std::string("-") : fsx::to_utf8(m.old.filename())) + "\n";
    }
    auto journal = tmp_entry(store_, "txn", store_.root() / "store");
    fsx::write_file_atomic(journal, journal_text);
    size_t done = 0;
    try {
        for (const auto& m : moves_) {
            std::error_code ec;
            if (!m.old.empty()) {
                fs::rename(m.target, m.old, ec);
                if (ec) throw Error("cannot replace '" + fsx::to_utf8(m.target) + "': " + ec.message(), "is it in use?");
            }
            ++done;
            fs::rename(m.staging, m.target, ec);
            if (ec) throw Error("cannot move the install into '" + fsx::to_utf8(m.target) + "': " + ec.message());
        }
    } catch (...) {
        for (size_t i = done; i-- > 0;) {
            try {
                roll_back(store_, moves_[i].target, moves_[i].old.empty() ? "-" : fsx::to_utf8(moves_[i].old.filename()));
            } catch (const std::exception& e) {
                spdlog::warn("cannot roll back '{}': {} (the next install does)", fsx::to_utf8(moves_[i].target), e.what());
                throw;
            }
        }
        std::error_code ec;
        fs::remove(journal, ec);
        throw;
    }
    fsx::write_file_atomic(journal, kCommitted);  // the commit point
    for (const auto& m : moves_)
        if (!m.old.empty()) remove_tree(m.old);
    std::error_code ec;
    fs::remove(journal, ec);
}

Staging::~Staging() {
    if (!dir.empty() && fsx::exists(dir)) remove_tree(dir);
}

StoreLock::StoreLock(Store& store, bool quiet) {
    ensure_writable_dir(store.tmp_dir());
    const auto file = store.install_lock_file();
    lock_ = std::make_unique<platform::FileLock>(file, false);
    if (!lock_->locked()) {
        if (!quiet) std::cerr << "cudaenv: waiting for another cudaenv install or uninstall to finish...\n";
        lock_.reset();
        lock_ = std::make_unique<platform::FileLock>(file, true);
    }
    clean_store_tmp(store);
}

StoreLock::~StoreLock() = default;

void clean_store_tmp(Store& store) {
    std::error_code ec;
    std::vector<fs::path> journals;
    for (fs::directory_iterator it(store.tmp_dir(), ec), end; !ec && it != end; it.increment(ec))
        if (fsx::to_utf8(it->path().filename()).starts_with("txn~")) journals.push_back(it->path());
    for (const auto& j : journals) recover_journal(store, j);
    ec.clear();
    for (fs::directory_iterator it(store.tmp_dir(), ec), end; !ec && it != end; it.increment(ec)) {
        auto name = fsx::to_utf8(it->path().filename());
        if (it->path().filename() == store.install_lock_file().filename()) continue;
        auto parts = str::split(name, kSep);
        // old~<area>~<name>~<id>: a managed folder set aside (tmp_entry), put back when its place is empty.
        fs::path area;
        for (const auto& dir : {store.toolkits_dir(), store.cudnn_dir()})
            if (parts.size() == 4 && parts[0] == "old" && parts[1] == fsx::to_utf8(dir.filename())) area = dir;
        if (!area.empty()) {
            auto target = area / fsx::from_utf8(parts[2]);
            if (!fsx::exists(target)) {
                std::error_code rec;
                fs::create_directories(target.parent_path(), rec);
                fs::rename(it->path(), target, rec);
                if (rec) {  // never delete the only copy
                    spdlog::warn("cannot restore '{}' from '{}': {}", fsx::to_utf8(target), name, rec.message());
                } else {
                    spdlog::info("restored '{}' set aside by an interrupted install", fsx::to_utf8(target));
                }
                continue;
            }
        }
        spdlog::info("removing '{}' left by an interrupted install", name);
        remove_tree(it->path());
    }
}

void remove_installed(Store& store, const fs::path& target) {
    auto aside = tmp_entry(store, "del", target);
    ensure_writable_dir(store.tmp_dir());
    std::error_code ec;
    fs::rename(target, aside, ec);
    if (ec) throw Error("cannot remove '" + fsx::to_utf8(target) + "': " + ec.message(), "is it in use?");
    remove_tree(aside);
}

}  // namespace cudaenv::install
