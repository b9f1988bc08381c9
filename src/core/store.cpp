#include "core/store.hpp"

#include <algorithm>
#include <regex>
#include <stdexcept>

#include "core/config_cache.hpp"
#include "core/system_store.hpp"
#include "core/checks.hpp"
#include "platform/lock.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

Store::Store(fs::path root) : root_(std::move(root)) {}

Store::~Store() = default;

void Store::check_root() const {
    std::error_code ec;
    auto st = fs::status(root_, ec);
    if (ec == std::errc::too_many_symbolic_link_levels)
        throw Error("the store '" + fsx::to_utf8(root_) + "' is a symbolic link that loops",
                    "fix the link, or set CUDAENV_ROOT to a folder");
    if (fs::exists(st) && !fs::is_directory(st))
        throw Error("the store '" + fsx::to_utf8(root_) + "' is a file, not a folder",
                    "set CUDAENV_ROOT to a folder (or move the file away)");
}

Config& Store::config() {
    if (!config_) {
        check_root();
        std::string text;
        config_ = load_config_cached(config_file(), cache_dir() / "config.txt", &text);
        config_source_ = std::move(text);
    }
    return *config_;
}

Store::WriteLock::WriteLock(Store& s) : store_(s) {
    if (store_.lock_depth_++ > 0) return;
    try {
        store_.check_root();
        ensure_writable_dir(store_.root_);
        store_.lock_ = std::make_unique<platform::FileLock>(store_.lock_file(), true);
        // What this process read before may be stale now: read again, in place.
        if (store_.config_) *store_.config_ = Config::load(store_.config_file());
        store_.config_source_.reset();
    } catch (...) {
        store_.lock_.reset();
        --store_.lock_depth_;
        throw;
    }
}

Store::WriteLock::~WriteLock() {
    if (--store_.lock_depth_ == 0) store_.lock_.reset();
}

void ensure_writable_dir(const fs::path& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fsx::is_dir(dir))
        throw Error("cannot create '" + fsx::to_utf8(dir) + "': " + (ec ? ec.message() : "not a folder"),
                    "set CUDAENV_ROOT to a folder you can write");
}

void Store::save_config() {
    if (!locked()) throw std::logic_error("config.toml written without the store lock");
    try {
        config().save(config_file());
    } catch (const Error& e) {
        throw Error(e.what(), "set CUDAENV_ROOT to a folder you can write");
    }
}

std::vector<ToolkitRecord> Store::toolkits() {
    std::vector<ToolkitRecord> out;
    std::error_code ec;
    for (fs::directory_iterator it(toolkits_dir(), ec), end; !ec && it != end; it.increment(ec)) {
        auto name = fsx::to_utf8(it->path().filename());
        if (auto v = Version::parse(name); v && fsx::is_dir(it->path())) out.push_back({it->path(), *v, true});
    }
    for (const auto& t : config().toolkits) out.push_back({fsx::from_utf8(t.path), t.version, false});
    if (shared_) append_shared(*shared_, out);
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.version > b.version; });
    return out;
}

std::vector<CudnnRecord> Store::cudnns() {
    std::vector<CudnnRecord> out;
    std::error_code ec;
    for (fs::directory_iterator it(cudnn_dir(), ec), end; !ec && it != end; it.increment(ec)) {
        // Built on first use: most stores have no managed cuDNN, and building a
        // std::regex is a large part of what a tool shim call costs.
        static const std::regex re(R"(([0-9.]+)_cuda([0-9]+))");
        auto name = fsx::to_utf8(it->path().filename());
        std::smatch m;
        if (!std::regex_match(name, m, re) || !fsx::is_dir(it->path())) continue;
        auto v = Version::parse(m[1].str());
        int cuda_major = 0;
        if (!v || !str::parse_int(m[2].str(), cuda_major)) continue;  // not one of ours (stoi would throw)
        out.push_back({it->path(), "", *v, cuda_major, true});
    }
    for (const auto& c : config().cudnns)
        out.push_back({fsx::from_utf8(c.path), c.variant, c.version, c.cuda_major, false});
    if (shared_) append_shared(*shared_, out);
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.version > b.version; });
    return out;
}

fs::path Store::managed_toolkit_path(const Version& v) const { return toolkits_dir() / v.str(); }

fs::path Store::managed_cudnn_path(const Version& v, int cuda_major) const {
    return cudnn_dir() / (v.str() + "_cuda" + std::to_string(cuda_major));
}

std::optional<std::string> Store::last_check(const std::string& pair_spec, const std::string& toolkit_path,
                                             const std::string& cudnn_path) {
    Checks checks;
    try {
        checks = Checks::load(checks_file());
    } catch (const Error&) {
        return std::string("unreadable");  // only a cache: `cudaenv check` writes it anew
    }
    if (auto* r = checks.find(pair_spec, toolkit_path, cudnn_path)) return r->status_line();
    return std::nullopt;
}

}  // namespace cudaenv
