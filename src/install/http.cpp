#include "install/http.hpp"

#include <curl/curl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <memory>

#include "install/umask_lock.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::install {

namespace {

const char* kResumeHint = "run the command again: downloads resume where they stopped";

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

size_t to_string_cb(char* p, size_t size, size_t n, void* user) {
    auto* s = static_cast<std::string*>(user);
    if (s->size() + size * n > (64u << 20)) return 0;  // no manifest or listing is this big
    s->append(p, size * n);
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
    bool checked = false, write_failed = false, too_big = false;
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
    if (cb.progress) cb.progress(item, have);
    common_options(t->easy.h, d.url, t->errbuf);
    curl_easy_setopt(t->easy.h, CURLOPT_WRITEFUNCTION, to_file_cb);
    curl_easy_setopt(t->easy.h, CURLOPT_WRITEDATA, t.get());
    curl_easy_setopt(t->easy.h, CURLOPT_PRIVATE, t.get());
    if (have) {
        spdlog::info("resuming {} at byte {}", fsx::to_utf8(d.file.filename()), have);
        curl_easy_setopt(t->easy.h, CURLOPT_RESUME_FROM_LARGE, static_cast<curl_off_t>(have));
    }
    if (curl_multi_add_handle(multi, t->easy.h) != CURLM_OK) throw Error("libcurl: cannot start a transfer");
    t->multi = multi;
    return t;
}

// Checks a finished transfer and moves its file into place.
void finish(Transfer& t, CURLcode rc) {
    bool flushed = static_cast<bool>(t.f.flush());
    t.f.close();
    const auto& url = t.d->url;
    if (t.write_failed || !flushed)
        throw Error("cannot write '" + fsx::to_utf8(t.part) + "' (disk full?)", std::string("free some space; ") + kResumeHint);
    if (t.too_big) {
        std::error_code ec;
        fs::remove(t.part, ec);
        throw Error(url + " is larger than the manifest says (" + std::to_string(t.d->size) + " bytes)",
                    "the mirror serves a different file than its manifest lists");
    }
    if (rc != CURLE_OK)
        throw Error("download of " + url + " failed: " + (t.errbuf[0] ? t.errbuf : curl_easy_strerror(rc)), kResumeHint);
    std::error_code ec;
    auto got = fs::file_size(t.part, ec);
    if (got != t.d->size)
        throw Error("download of '" + fsx::to_utf8(t.d->file.filename()) + "' stopped at " + std::to_string(got) + " of " +
                        std::to_string(t.d->size) + " bytes",
                    kResumeHint);
    rename_complete(t.part, t.d->file);
}

struct Multi {
    CURLM* m = (curl_global(), curl_multi_init());
    ~Multi() { curl_multi_cleanup(m); }
};

}  // namespace

std::string http_get(const std::string& url) {
    Easy e;
    char errbuf[CURL_ERROR_SIZE] = {};
    std::string body;
    common_options(e.h, url, errbuf);
    curl_easy_setopt(e.h, CURLOPT_WRITEFUNCTION, to_string_cb);
    curl_easy_setopt(e.h, CURLOPT_WRITEDATA, &body);
    auto rc = curl_easy_perform(e.h);
    if (rc != CURLE_OK)
        throw Error("cannot download " + url + ": " + (errbuf[0] ? errbuf : curl_easy_strerror(rc)),
                    "check the network or use an offline mirror folder (--mirror <folder>, see docs/install.md)");
    return body;
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
            finish(*t, msg->data.result);  // throws: `active` stops the others, keeping their .part files
            cb.complete(t->item);
        }
        curl_multi_poll(multi.m, nullptr, 0, 100, nullptr);
    }
}

}  // namespace cudaenv::install
