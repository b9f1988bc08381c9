#include "store/store.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>

#include "store/config_cache.hpp"
#include "store/store_trust.hpp"
#include "store/checks.hpp"
#include "platform/lock.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

// Runs `f` on the shared store; a corrupt shared config.toml is reported once
// and the shared store left out.
template <class F>
void with_shared(Store& shared, F&& f) {
    static bool warned = false;
    try {
        shared.config();
    } catch (const Error& e) {
        if (!warned) {
            store_warning(std::string("leaving out the shared system store: ") + e.what());
            std::cerr << "hint: its admin must fix that file (cudaenv has not changed it); your own pairs are "
                         "unaffected\n";
        }
        warned = true;
        return;
    }
    f();
}

bool same_folder(const fs::path& a, const fs::path& b) {
    return fsx::absolute_normal(a) == fsx::absolute_normal(b);
}

// A shared toolkit or cuDNN that someone else could change is left out (once
// said per run); a missing one is listed, and `use` says it has gone.
template <class Record>
bool trusted(const Record& r, const platform::PathTrust& root) {
    auto problems = judge_path(r.path, platform::path_trust(r.path), root);
    if (problems.empty()) return true;
    static std::vector<fs::path> said;
    if (std::find(said.begin(), said.end(), r.path) != said.end()) return trust_overridden();
    said.push_back(r.path);
    if (usable_despite(problems)) return true;
    store_warning("leaving out " + fsx::to_utf8(r.path) + " of the shared system store: " + problems.front());
    return false;
}

// The shared store's records (marked shared) that the user's store does not
// already list. A shared store whose config.toml cannot be read is left out
// with one warning naming the file, so the user's own pairs stay usable.
void append_shared(Store& shared, std::vector<ToolkitRecord>& out) {
    with_shared(shared, [&] {
        auto mine = out.size();
        auto root = platform::path_trust(shared.root());
        for (auto r : shared.toolkits()) {
            bool dup = false;
            for (size_t i = 0; i < mine && !dup; ++i) dup = same_folder(out[i].path, r.path);
            if (dup || !trusted(r, root)) continue;
            r.shared = true;
            out.push_back(std::move(r));
        }
    });
}

void append_shared(Store& shared, std::vector<CudnnRecord>& out) {
    with_shared(shared, [&] {
        auto mine = out.size();
        auto root = platform::path_trust(shared.root());
        for (auto r : shared.cudnns()) {
            bool dup = false;
            for (size_t i = 0; i < mine && !dup; ++i) dup = same_folder(out[i].path, r.path) && out[i].variant == r.variant;
            if (dup || !trusted(r, root)) continue;
            r.shared = true;
            out.push_back(std::move(r));
        }
    });
}

// The cuDNN the system store's admin pinned for this toolkit version, if any.
std::optional<std::string> shared_pin(Store& user, const std::string& toolkit_version) {
    std::optional<std::string> out;
    if (auto* shared = user.shared())
        with_shared(*shared, [&] {
            auto& pins = shared->config().pins;
            if (auto it = pins.find(toolkit_version); it != pins.end()) out = it->second;
        });
    return out;
}

}  // namespace

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
        config_ = load_config_cached(config_file(), config_cache_file(), &text);
        config_source_ = std::move(text);
        for (const auto& w : config_->warnings) store_warning(w);
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
        // The entry's own type (no stat, but for a link): 2,000 toolkits cost a folder read.
        auto name = fsx::to_utf8(it->path().filename());
        std::error_code type_ec;
        if (auto v = Version::parse(name); v && it->is_directory(type_ec)) out.push_back({it->path(), *v, true});
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
        // "<version>_cuda<major>", read by a plain scan of the folder's name
        // (no std::regex on a name anyone can make: its matcher recurses once
        // a character, and building one cost a tool shim call much of its time).
        auto name = fsx::to_utf8(it->path().filename());
        auto sep = name.rfind("_cuda");
        if (sep == std::string::npos) continue;
        auto v = Version::parse(std::string_view(name).substr(0, sep));
        int cuda_major = 0;
        if (!v || !str::parse_int(std::string_view(name).substr(sep + 5), cuda_major)) continue;  // not one of ours
        if (std::error_code type_ec; !it->is_directory(type_ec)) continue;
        out.push_back({it->path(), "", *v, cuda_major, true});
    }
    for (const auto& c : config().cudnns)
        out.push_back({fsx::from_utf8(c.path), c.variant, c.version, c.cuda_major, false});
    if (shared_) append_shared(*shared_, out);
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.version > b.version; });
    return out;
}

std::optional<std::string> Store::pin(const std::string& toolkit_version) {
    auto& pins = config().pins;
    if (auto it = pins.find(toolkit_version); it != pins.end()) return it->second;
    return shared_pin(*this, toolkit_version);  // the system store admin's pin, if the user has none
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
