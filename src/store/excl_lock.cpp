#include "store/excl_lock.hpp"

#include <condition_variable>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "platform/node.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

std::chrono::seconds lock_stale_age() {
    int secs = 600;
    if (auto v = platform::get_env("CUDAENV_LOCK_STALE_SECONDS"); v && str::parse_int(*v, secs) && secs > 0)
        return std::chrono::seconds(secs);
    return std::chrono::seconds(600);
}

std::optional<LockOwner> read_lock_owner(const fs::path& file) {
    auto text = fsx::read_file(file, 4096);
    if (!text) return std::nullopt;
    LockOwner o;
    bool magic = false;
    std::istringstream in(*text);
    std::string line;
    while (std::getline(in, line)) {
        if (line == "cudaenv-lock 1") magic = true;
        auto eq = line.find('=');
        if (eq == std::string::npos) continue;
        auto key = line.substr(0, eq), value = line.substr(eq + 1);
        if (key == "host") o.host = value;
        if (key == "token") o.token = value;
        if (key == "pid") o.pid = std::atol(value.c_str());
        if (key == "since") o.since = std::atoll(value.c_str());
    }
    // The last line is written last: without it the writer is still at work
    // (or died in between, which the age test catches).
    if (!magic || o.host.empty() || o.pid <= 0 || o.token.empty() || text->find("end\n") == std::string::npos)
        return std::nullopt;
    return o;
}

namespace {

std::string random_token() {
    std::random_device rd;
    std::ostringstream o;
    o << std::hex << rd() << rd() << rd();
    return o.str();
}

// Seconds since the file was last written (0 when it cannot be read).
double age_of(const fs::path& file) {
    std::error_code ec;
    auto t = fs::last_write_time(file, ec);
    if (ec) return 0;
    auto d = fs::file_time_type::clock::now() - t;
    return std::chrono::duration<double>(d).count();
}

bool is_stale(const fs::path& file, const std::optional<LockOwner>& owner) {
    auto age = age_of(file);
    auto limit = static_cast<double>(lock_stale_age().count());
    if (!owner) return age > std::min(30.0, limit);  // a writer that died between create and write
    if (owner->host == platform::host_name() && !platform::process_alive(owner->pid)) return true;
    return age > limit;
}

std::string describe(const std::optional<LockOwner>& o) {
    if (!o) return "another cudaenv";
    return "cudaenv (pid " + std::to_string(o->pid) + " on " + o->host + ")";
}

// Takes a stale lock file out of the way; true when the file is gone (by us
// or by another waiter), so creating can be tried again.
bool remove_stale(const fs::path& file, const std::string& stale_token) {
    auto aside = file;
    aside += ".stale." + platform::host_name() + "." + std::to_string(platform::current_pid()) + "." + random_token();
    std::error_code ec;
    fs::rename(file, aside, ec);
    if (ec) return !fsx::exists(file);  // another waiter took it first
    auto taken = read_lock_owner(aside);
    std::string taken_token = taken ? taken->token : std::string();
    if (taken_token != stale_token) {
        // Between our look and our rename a live holder replaced it: put it back.
        fs::create_hard_link(aside, file, ec);
        if (ec) std::cerr << "cudaenv: warning: a lock file changed hands while being recovered: " << fsx::to_utf8(file) << "\n";
        fs::remove(aside, ec);
        return false;
    }
    fs::remove(aside, ec);
    return true;
}

}  // namespace

struct ExclusiveLock::Heartbeat {
    std::mutex m;
    std::condition_variable cv;
    bool stop = false;
    std::thread thread;
};

ExclusiveLock::ExclusiveLock(fs::path file, std::optional<std::chrono::seconds> wait, bool quiet)
    : file_(std::move(file)), token_(random_token()) {
    std::ostringstream content;
    content << "cudaenv-lock 1\nhost=" << platform::host_name() << "\npid=" << platform::current_pid()
            << "\ntoken=" << token_ << "\nsince=" << static_cast<long long>(std::time(nullptr)) << "\nend\n";
    const auto start = std::chrono::steady_clock::now();
    auto pause = std::chrono::milliseconds(50);
    bool told = false;
    while (!platform::create_exclusive(file_, content.str())) {
        auto owner = read_lock_owner(file_);
        if (is_stale(file_, owner)) {
            if (!quiet)
                std::cerr << "cudaenv: recovering the lock '" << fsx::to_utf8(file_) << "' left by " << describe(owner)
                          << ", which is gone\n";
            remove_stale(file_, owner ? owner->token : std::string());
            continue;
        }
        if (!told && !quiet) {
            std::cerr << "cudaenv: waiting for " << describe(owner) << ", which holds '" << fsx::to_utf8(file_)
                      << "'...\n";
            told = true;
        }
        if (wait && std::chrono::steady_clock::now() - start > *wait)
            throw Error("'" + fsx::to_utf8(file_) + "' is still held by " + describe(owner),
                        "try again later; if that process is gone, its lock is recovered after " +
                            std::to_string(lock_stale_age().count()) + " s");
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(1000));
    }

    heartbeat_ = std::make_unique<Heartbeat>();
    auto interval = std::max(std::chrono::seconds(1), lock_stale_age() / 4);
    heartbeat_->thread = std::thread([hb = heartbeat_.get(), f = file_, interval] {
        std::unique_lock lk(hb->m);
        while (!hb->cv.wait_for(lk, interval, [hb] { return hb->stop; })) {
            std::error_code ec;
            fs::last_write_time(f, fs::file_time_type::clock::now(), ec);
        }
    });
}

ExclusiveLock::~ExclusiveLock() {
    if (heartbeat_) {
        {
            std::lock_guard lk(heartbeat_->m);
            heartbeat_->stop = true;
        }
        heartbeat_->cv.notify_all();
        heartbeat_->thread.join();
    }
    // Remove only our own file: a holder judged stale (suspended for longer
    // than the stale age) must not delete its successor's lock.
    if (auto o = read_lock_owner(file_); o && o->token == token_) {
        std::error_code ec;
        fs::remove(file_, ec);
    }
}

}  // namespace cudaenv
