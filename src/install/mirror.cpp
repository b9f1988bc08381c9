#include "install/mirror.hpp"

#include <curl/curl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>

#include "install/progress.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

namespace {

bool is_url(const std::string& s) { return s.starts_with("http://") || s.starts_with("https://"); }

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

struct Download {
    std::ofstream* f = nullptr;
    fs::path path;
    uint64_t offset = 0;  // bytes already in the file when the transfer began
    uint64_t written = 0;
    uint64_t size = 0;
    bool restart = false;  // the server ignored the range: start the file over
    bool checked = false;
    bool write_failed = false;
    bool too_big = false;
    CURL* h = nullptr;
    Progress* progress = nullptr;
};

size_t to_file_cb(char* p, size_t size, size_t n, void* user) {
    auto* d = static_cast<Download*>(user);
    if (!d->checked) {
        d->checked = true;
        long code = 0;
        curl_easy_getinfo(d->h, CURLINFO_RESPONSE_CODE, &code);
        if (d->offset > 0 && code == 200) {
            // No range support: the body is the whole file.
            d->restart = true;
            d->f->close();
            d->f->open(d->path, std::ios::binary | std::ios::trunc);
            if (!*d->f) return 0;
            d->offset = 0;
        }
    }
    size_t bytes = size * n;
    if (d->offset + d->written + bytes > d->size) {
        d->too_big = true;
        return 0;
    }
    if (!d->f->write(p, static_cast<std::streamsize>(bytes))) {
        d->write_failed = true;
        return 0;
    }
    d->written += bytes;
    if (d->progress) d->progress->update(d->offset + d->written);
    return bytes;
}

}  // namespace

std::string choose_mirror(const std::string& flag, const std::optional<std::string>& env,
                          const std::optional<std::string>& config) {
    if (!flag.empty()) return flag;
    if (env && !env->empty()) return *env;
    if (config && !config->empty()) return *config;
    return kDefaultMirror;
}

std::vector<Version> releases_from_listing(const std::string& html) {
    static const std::regex re(R"(redistrib_([0-9]+(?:\.[0-9]+){0,3})\.json)");
    std::set<Version, std::greater<>> found;
    for (std::sregex_iterator it(html.begin(), html.end(), re), end; it != end; ++it)
        if (auto v = Version::parse((*it)[1].str())) found.insert(*v);
    return {found.begin(), found.end()};
}

Mirror::Mirror(const std::string& location, bool quiet) : location_(location), quiet_(quiet) {
    while (location_.size() > 1 && location_.back() == '/') location_.pop_back();
    if (is_url(location_)) {
        remote_ = true;
        return;
    }
    std::string path = location_;
    if (path.starts_with("file://")) path = path.substr(7);
    if (path.find("://") != std::string::npos)
        throw UsageError("unsupported mirror '" + location + "'", "give an http(s) URL or a folder");
    folder_ = fsx::absolute_normal(fsx::from_utf8(path));
    if (!fsx::is_dir(folder_))
        throw Error("mirror folder '" + fsx::to_utf8(folder_) + "' does not exist",
                    "an offline mirror has NVIDIA's layout: <folder>/cuda/redist/redistrib_<ver>.json (docs/install.md)");
}

std::string Mirror::url_of(const std::string& product, const std::string& rel) const {
    return location_ + "/" + product + "/redist/" + rel;
}

fs::path Mirror::path_of(const std::string& product, const std::string& rel) const {
    return folder_ / fsx::from_utf8(product) / "redist" / fsx::from_utf8(rel);
}

std::vector<Version> Mirror::releases(const std::string& product) const {
    if (remote_) return releases_from_listing(http_get(url_of(product, "")));
    std::set<Version, std::greater<>> found;
    std::error_code ec;
    auto dir = folder_ / product / "redist";
    static const std::regex re(R"(redistrib_([0-9]+(?:\.[0-9]+){0,3})\.json)");
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::smatch m;
        auto name = fsx::to_utf8(it->path().filename());
        if (std::regex_match(name, m, re))
            if (auto v = Version::parse(m[1].str())) found.insert(*v);
    }
    return {found.begin(), found.end()};
}

std::string Mirror::manifest_text(const std::string& product, const std::string& version) const {
    auto rel = "redistrib_" + version + ".json";
    if (remote_) return http_get(url_of(product, rel));
    auto p = path_of(product, rel);
    auto text = fsx::read_file(p, 64u << 20);
    if (!text) throw Error("cannot read '" + fsx::to_utf8(p) + "'");
    return *text;
}

fs::path Mirror::fetch(const std::string& product, const std::string& relative_path, uint64_t size,
                       const fs::path& cache_dir) const {
    if (!remote_) {
        auto p = path_of(product, relative_path);
        if (!fsx::is_file(p))
            throw Error("the mirror lists '" + relative_path + "' but '" + fsx::to_utf8(p) + "' is missing",
                        "copy the archive into the mirror folder at its relative_path");
        return p;
    }
    auto name = relative_path.substr(relative_path.rfind('/') + 1);
    auto final_path = cache_dir / fsx::from_utf8(name);
    std::error_code ec;
    if (fsx::is_file(final_path) && fs::file_size(final_path, ec) == size) return final_path;  // verified on extraction
    fs::create_directories(cache_dir, ec);
    auto part = final_path;
    part += ".part";
    uint64_t have = fsx::is_file(part) ? fs::file_size(part, ec) : 0;
    if (ec || have > size) {
        fs::remove(part, ec);
        have = 0;
    }
    if (have < size) {
        auto url = url_of(product, relative_path);
        Download d;
        d.size = size;
        d.offset = have;
        std::ofstream file(part, std::ios::binary | std::ios::app);
        if (!file) throw Error("cannot write '" + fsx::to_utf8(part) + "'", "set CUDAENV_ROOT to a folder you can write");
        d.f = &file;
        d.path = part;
        Progress progress("download " + name, size, !quiet_ && platform::stderr_is_terminal());
        Easy e;
        d.h = e.h;
        d.progress = &progress;
        char errbuf[CURL_ERROR_SIZE] = {};
        common_options(e.h, url, errbuf);
        curl_easy_setopt(e.h, CURLOPT_WRITEFUNCTION, to_file_cb);
        curl_easy_setopt(e.h, CURLOPT_WRITEDATA, &d);
        if (have) {
            spdlog::info("resuming {} at byte {}", name, have);
            curl_easy_setopt(e.h, CURLOPT_RESUME_FROM_LARGE, static_cast<curl_off_t>(have));
        }
        auto rc = curl_easy_perform(e.h);
        bool flushed = static_cast<bool>(file.flush());
        file.close();
        if (rc == CURLE_OK && flushed) progress.finish();
        if (d.write_failed || !flushed)
            throw Error("cannot write '" + fsx::to_utf8(part) + "' (disk full?)",
                        "free some space and run the install again; the download resumes where it stopped");
        if (d.too_big) {
            fs::remove(part, ec);
            throw Error(url + " is larger than the manifest says (" + std::to_string(size) + " bytes)",
                        "the mirror serves a different file than its manifest lists");
        }
        if (rc != CURLE_OK)
            throw Error("download of " + url + " failed: " + (errbuf[0] ? errbuf : curl_easy_strerror(rc)),
                        "run the install again: it resumes where it stopped");
    }
    if (fs::file_size(part, ec) != size)
        throw Error("download of '" + name + "' stopped at " + std::to_string(fs::file_size(part, ec)) + " of " +
                        std::to_string(size) + " bytes",
                    "run the install again: it resumes where it stopped");
    fs::rename(part, final_path, ec);
    if (ec) throw Error("cannot rename '" + fsx::to_utf8(part) + "': " + ec.message());
    return final_path;
}

}  // namespace cudaenv::install
