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

// A fresh staging folder for `target`.
fs::path make_staging(Store& store, const fs::path& target) {
    auto dir = tmp_entry(store, "stage", target);
    ensure_writable_dir(dir);
    return dir;
}

// Renames `staging` to `target`, setting an existing target aside first and
// deleting it afterwards.
void commit(Store& store, const fs::path& staging, const fs::path& target) {
    ensure_writable_dir(target.parent_path());
    std::error_code ec;
    fs::path old;
    if (fsx::exists(target)) {
        old = tmp_entry(store, "old", target);
        fs::rename(target, old, ec);
        if (ec) throw Error("cannot replace '" + fsx::to_utf8(target) + "': " + ec.message(), "is it in use?");
    }
    fs::rename(staging, target, ec);
    if (ec) {
        std::error_code ignored;
        if (!old.empty()) fs::rename(old, target, ignored);
        throw Error("cannot move the install into '" + fsx::to_utf8(target) + "': " + ec.message());
    }
    if (!old.empty()) remove_tree(old);
}

Staging::~Staging() {
    if (!dir.empty() && fsx::exists(dir)) remove_tree(dir);
}

StoreLock::StoreLock(Store& store, bool quiet) {
    ensure_writable_dir(store.tmp_dir());
    auto file = store.tmp_dir() / "install.lock";
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
    for (fs::directory_iterator it(store.tmp_dir(), ec), end; !ec && it != end; it.increment(ec)) {
        auto name = fsx::to_utf8(it->path().filename());
        if (name == "install.lock") continue;
        auto parts = str::split(name, kSep);
        if (parts.size() == 4 && parts[0] == "old" && (parts[1] == "toolkits" || parts[1] == "cudnn")) {
            auto target = store.root() / fsx::from_utf8(parts[1]) / fsx::from_utf8(parts[2]);
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
