#include "install/http.hpp"

#include <curl/curl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <deque>
#include <fstream>
#include <map>
#include <memory>

#include "install/umask_lock.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

namespace {

const char* kResumeHint = "run the command again: downloads resume where they stopped";

using Clock = std::chrono::steady_clock;

// A number from the environment ("8589934592", or with a binary suffix:
// "8G", "100K"), or `fallback` when the variable is unset.
uint64_t env_number(const char* name, uint64_t fallback, uint64_t lo, uint64_t hi) {
    auto text = platform::get_env(name);
    if (!text || text->empty()) return fallback;
    std::string_view digits(*text);
    int shift = 0;
    if (auto at = std::string_view("KMGT").find(digits.back()); at != std::string_view::npos) {
        shift = 10 * static_cast<int>(at + 1);
        digits.remove_suffix(1);
    }
    uint64_t n = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    bool ok = str::is_digits(digits) && ec == std::errc() && p == digits.data() + digits.size() && n <= (hi >> shift);
    n <<= shift;
    if (!ok || n < lo || n > hi)
        throw UsageError(std::string(name) + " must be a number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                             ", got '" + str::visible(text->substr(0, 40)) + "'",
                         "docs/install.md, \"Limits\", says what it bounds");
    return n;
}

long response_code(CURL* h) {
    long code = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

// What a failed request says: a file the mirror does not have is not worth
// asking for again; anything else is libcurl's text after `lead` ("cannot
// download <url>: ").
Error request_error(CURL* h, CURLcode rc, const char* errbuf, const std::string& url, const std::string& lead,
                    const std::string& hint) {
    long code = response_code(h);
    if (rc == CURLE_HTTP_RETURNED_ERROR && (code == 404 || code == 410))
        return Error(url + " is missing on the mirror (HTTP " + std::to_string(code) + ")",
                     "the mirror lacks this file, so asking again will not help: check the mirror's URL, or fetch from "
                     "another mirror (--mirror; `cudaenv mirror create` copies exactly what a pair needs)");
    return Error(lead + (errbuf[0] ? errbuf : curl_easy_strerror(rc)), hint);
}

void curl_global() {
    static bool done = [] {
        curl_global_init(CURL_GLOBAL_DEFAULT);
        return true;
    }();
    (void)done;
}

struct Easy {
    CURL* h;
    Easy() : h((curl_global(), curl_easy_init())) {
        if (!h) throw Error("libcurl: cannot start a transfer");
    }
    ~Easy() { curl_easy_cleanup(h); }
    Easy(const Easy&) = delete;
    Easy& operator=(const Easy&) = delete;
};

void common_options(CURL* h, const std::string& url, char* errbuf) {
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(h, CURLOPT_MAXREDIRS, 10L);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 30L);
    // A stalled connection (under 1 KiB/s for a minute) is an error, not a hang.
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1024L);
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, 60L);
    curl_easy_setopt(h, CURLOPT_USERAGENT, "cudaenv");
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
}

struct Body {
    std::string text;
    size_t max = 0;
    bool too_big = false;
};

size_t to_string_cb(char* p, size_t size, size_t n, void* user) {
    auto* b = static_cast<Body*>(user);
    if (b->text.size() + size * n > b->max) {  // no manifest or listing is this big
        b->too_big = true;
        return 0;
    }
    b->text.append(p, size * n);
    return size * n;
}

fs::path part_of(const fs::path& file) {
    auto p = file;
    p += ".part";
    return p;
}

// One running download: its file, and what the transfer found.
struct Transfer {
    size_t item = 0;
    const Download* d = nullptr;
    const DownloadCallbacks* cb = nullptr;
    CURLM* multi = nullptr;
    Easy easy;
    std::ofstream f;
    fs::path part;
    uint64_t offset = 0;  // bytes already in the file when the transfer began
    uint64_t written = 0;
    bool checked = false, write_failed = false, too_big = false, too_slow = false;
    HttpLimits limits;
    Clock::time_point began = Clock::now();
    char errbuf[CURL_ERROR_SIZE] = {};

    ~Transfer() {
        if (multi) curl_multi_remove_handle(multi, easy.h);
    }
};

size_t to_file_cb(char* p, size_t size, size_t n, void* user) {
    auto* t = static_cast<Transfer*>(user);
    if (!t->checked) {
        t->checked = true;
        long code = 0;
        curl_easy_getinfo(t->easy.h, CURLINFO_RESPONSE_CODE, &code);
        if (t->offset > 0 && code == 200) {  // no range support: the body is the whole file
            spdlog::info("{} ignores ranges: downloading {} from the start", t->d->url, fsx::to_utf8(t->part.filename()));
            t->f.close();
            std::lock_guard lk(umask_lock());  // not while an extraction has the umask at 0
            t->f.open(t->part, std::ios::binary | std::ios::trunc);
            if (!t->f) return 0;
            t->offset = 0;
        }
    }
    size_t bytes = size * n;
    if (t->offset + t->written + bytes > t->d->size) {
        t->too_big = true;
        return 0;
    }
    if (!t->f.write(p, static_cast<std::streamsize>(bytes))) {
        t->write_failed = true;
        return 0;
    }
    t->written += bytes;
    if (t->cb->progress) t->cb->progress(t->item, t->offset + t->written);
    return bytes;
}

// The minimum average rate: once the deadline has passed, a download that
// averaged less since it began stops (its .part stays, to resume).
int progress_cb(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    auto* t = static_cast<Transfer*>(user);
    if (t->limits.min_rate == 0) return 0;
    auto secs = std::chrono::duration<double>(Clock::now() - t->began).count();
    if (secs < static_cast<double>(t->limits.deadline_s)) return 0;
    if (static_cast<double>(t->written) / secs >= static_cast<double>(t->limits.min_rate)) return 0;
    t->too_slow = true;
    return 1;
}

void make_parent(const fs::path& file) {
    std::error_code ec;
    std::lock_guard lk(umask_lock());  // not while an extraction has the umask at 0
    fs::create_directories(file.parent_path(), ec);
    if (ec) throw Error("cannot create '" + fsx::to_utf8(file.parent_path()) + "': " + ec.message());
}

void rename_complete(const fs::path& part, const fs::path& file) {
    std::error_code ec;
    fs::rename(part, file, ec);
    if (ec) throw Error("cannot rename '" + fsx::to_utf8(part) + "': " + ec.message());
}

// Opens the .part file and adds the transfer; nullptr when the .part was complete already.
std::unique_ptr<Transfer> start(CURLM* multi, size_t item, const Download& d, const DownloadCallbacks& cb) {
    auto t = std::make_unique<Transfer>();
    t->item = item;
    t->d = &d;
    t->cb = &cb;
    t->part = part_of(d.file);
    make_parent(d.file);
    std::error_code ec;
    uint64_t have = fsx::is_file(t->part) ? fs::file_size(t->part, ec) : 0;
    if (ec || have > d.size) {
        fs::remove(t->part, ec);
        have = 0;
    }
    if (have == d.size && have > 0) {  // killed after the last byte, before the rename
        rename_complete(t->part, d.file);
        return nullptr;
    }
    {
        std::lock_guard lk(umask_lock());  // not while an extraction has the umask at 0
        t->f.open(t->part, std::ios::binary | std::ios::app);
    }
    if (!t->f) throw Error("cannot write '" + fsx::to_utf8(t->part) + "'", "set CUDAENV_ROOT to a folder you can write");
    t->offset = have;
    t->limits = http_limits();
    if (cb.progress) cb.progress(item, have);
    common_options(t->easy.h, d.url, t->errbuf);
    curl_easy_setopt(t->easy.h, CURLOPT_WRITEFUNCTION, to_file_cb);
    curl_easy_setopt(t->easy.h, CURLOPT_WRITEDATA, t.get());
    curl_easy_setopt(t->easy.h, CURLOPT_PRIVATE, t.get());
    curl_easy_setopt(t->easy.h, CURLOPT_XFERINFOFUNCTION, progress_cb);
    curl_easy_setopt(t->easy.h, CURLOPT_XFERINFODATA, t.get());
    curl_easy_setopt(t->easy.h, CURLOPT_NOPROGRESS, 0L);
    if (have) {
        spdlog::info("resuming {} at byte {}", fsx::to_utf8(d.file.filename()), have);
        // A plain range, not CURLOPT_RESUME_FROM: with that, libcurl fails a
        // server that answers 200 ("doesn't seem to support byte ranges")
        // instead of handing over the body, which to_file_cb takes from byte 0.
        curl_easy_setopt(t->easy.h, CURLOPT_RANGE, (std::to_string(have) + "-").c_str());
    }
    if (curl_multi_add_handle(multi, t->easy.h) != CURLM_OK) throw Error("libcurl: cannot start a transfer");
    t->multi = multi;
    return t;
}

// What became of a finished transfer.
enum class Outcome { complete, again };

// Checks a finished transfer and moves its file into place; `again` when the
// server would not resume it: the .part is gone and it starts from byte 0.
Outcome finish(Transfer& t, CURLcode rc) {
    bool flushed = static_cast<bool>(t.f.flush());
    t.f.close();
    const auto& url = t.d->url;
    std::error_code ec;
    if (t.write_failed || !flushed)
        throw Error("cannot write '" + fsx::to_utf8(t.part) + "' (disk full?)", std::string("free some space; ") + kResumeHint);
    if (t.too_big) {
        fs::remove(t.part, ec);
        throw Error(url + " is larger than the manifest says (" + std::to_string(t.d->size) + " bytes)",
                    "the mirror serves a different file than its manifest lists");
    }
    if (t.too_slow) {
        auto secs = std::chrono::duration<double>(Clock::now() - t.began).count();
        throw Error("download of " + url + " averaged " + str::human_bytes(static_cast<double>(t.written) / secs) +
                        "/s over " + std::to_string(static_cast<long>(secs)) + " s, under the minimum of " +
                        str::human_bytes(static_cast<double>(t.limits.min_rate)) + "/s",
                    std::string("a slow or stalled mirror; CUDAENV_MIN_RATE sets the minimum (bytes a second, 0: none); ") +
                        kResumeHint);
    }
    // A range the server would not serve: 416 (the .part is not a prefix of
    // its file) or libcurl's range error. Whatever is in the .part is not
    // worth keeping.
    long code = response_code(t.easy.h);
    if (t.offset > 0 && (rc == CURLE_RANGE_ERROR || (rc == CURLE_HTTP_RETURNED_ERROR && code == 416))) {
        spdlog::info("{} would not resume {} at byte {}: starting from byte 0", url, fsx::to_utf8(t.part.filename()),
                     t.offset);
        fs::remove(t.part, ec);
        return Outcome::again;
    }
    if (rc != CURLE_OK) throw request_error(t.easy.h, rc, t.errbuf, url, "download of " + url + " failed: ", kResumeHint);
    auto got = fs::file_size(t.part, ec);
    if (got != t.d->size)
        throw Error("download of '" + fsx::to_utf8(t.d->file.filename()) + "' stopped at " + std::to_string(got) + " of " +
                        std::to_string(t.d->size) + " bytes",
                    kResumeHint);
    rename_complete(t.part, t.d->file);
    return Outcome::complete;
}

struct Multi {
    CURLM* m = (curl_global(), curl_multi_init());
    ~Multi() { curl_multi_cleanup(m); }
};

}  // namespace

HttpLimits http_limits() {
    HttpLimits l;
    l.deadline_s = static_cast<long>(env_number("CUDAENV_HTTP_TIMEOUT", 120, 1, 86400));
    l.min_rate = env_number("CUDAENV_MIN_RATE", 10240, 0, uint64_t{1} << 40);
    l.max_archive = env_number("CUDAENV_MAX_ARCHIVE_SIZE", l.max_archive, 1, uint64_t{1} << 60);
    return l;
}

std::string http_get(const std::string& url, size_t max_bytes) {
    const auto limits = http_limits();
    Easy e;
    char errbuf[CURL_ERROR_SIZE] = {};
    Body body{{}, max_bytes};
    common_options(e.h, url, errbuf);
    curl_easy_setopt(e.h, CURLOPT_WRITEFUNCTION, to_string_cb);
    curl_easy_setopt(e.h, CURLOPT_WRITEDATA, &body);
    // A page trickled faster than the low-speed limit would never end otherwise.
    curl_easy_setopt(e.h, CURLOPT_TIMEOUT, limits.deadline_s);
    auto rc = curl_easy_perform(e.h);
    if (body.too_big)
        throw Error(url + " is larger than " + str::human_bytes(static_cast<double>(max_bytes)) +
                        ", more than any manifest or listing",
                    "this is no NVIDIA redist mirror: check the mirror's URL");
    if (rc == CURLE_OPERATION_TIMEDOUT)
        throw Error("cannot download " + url + ": not complete after " + std::to_string(limits.deadline_s) + " s",
                    "a slow or stalled mirror; CUDAENV_HTTP_TIMEOUT sets the deadline in seconds");
    if (rc != CURLE_OK)
        throw request_error(e.h, rc, errbuf, url, "cannot download " + url + ": ",
                            "check the network or use an offline mirror folder (--mirror <folder>, see docs/install.md)");
    return std::move(body.text);
}

void download_all(const std::vector<Download>& items, int connections, const DownloadCallbacks& cb,
                  const std::atomic<bool>& stop) {
    std::deque<size_t> pending;
    for (size_t i = 0; i < items.size(); ++i) {
        std::error_code ec;
        if (fsx::is_file(items[i].file) && fs::file_size(items[i].file, ec) == items[i].size) {
            cb.complete(i);  // downloaded by an earlier run; its hash is checked where it is used
        } else {
            pending.push_back(i);
        }
    }
    Multi multi;
    if (!multi.m) throw Error("libcurl: cannot start downloads");
    std::map<CURL*, std::unique_ptr<Transfer>> active;
    while (!stop) {
        while (static_cast<int>(active.size()) < std::max(1, connections) && !pending.empty()) {
            auto i = pending.front();
            pending.pop_front();
            auto t = start(multi.m, i, items[i], cb);
            if (!t) cb.complete(i);
            else active.emplace(t->easy.h, std::move(t));
        }
        if (active.empty()) break;
        int running = 0;
        if (curl_multi_perform(multi.m, &running) != CURLM_OK) throw Error("libcurl: downloads failed");
        int left = 0;
        while (CURLMsg* msg = curl_multi_info_read(multi.m, &left)) {
            if (msg->msg != CURLMSG_DONE) continue;
            auto it = active.find(msg->easy_handle);
            if (it == active.end()) continue;
            auto t = std::move(it->second);
            active.erase(it);
            // Throws: `active` stops the others, keeping their .part files.
            // `again` comes once per item: its .part is gone, so it restarts at byte 0.
            if (finish(*t, msg->data.result) == Outcome::again) pending.push_front(t->item);
            else cb.complete(t->item);
        }
        curl_multi_poll(multi.m, nullptr, 0, 100, nullptr);
    }
}

}  // namespace cudaenv::install
