#include "install/mirror.hpp"

#include <set>

#include "install/http.hpp"
#include "install/layout.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

bool is_remote_location(const std::string& s) { return s.starts_with("http://") || s.starts_with("https://"); }

std::string choose_mirror(const std::string& flag, const std::optional<std::string>& env,
                          const std::optional<std::string>& config, const std::string& fallback) {
    if (!flag.empty()) return flag;
    if (env && !env->empty()) return *env;
    if (config && !config->empty()) return *config;
    return fallback;
}

Mirror::Mirror(const std::string& location) : location_(location) {
    while (location_.size() > 1 && location_.back() == '/') location_.pop_back();
    if (is_remote_location(location_)) {
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
    // NVIDIA's listing pages are tens of KB: 16 MiB is a listing no mirror has.
    if (remote_) return releases_from_listing(http_get(url_of(product, ""), 16u << 20));
    std::set<Version, std::greater<>> found;
    std::error_code ec;
    auto dir = folder_ / product / "redist";
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (auto v = manifest_release(fsx::to_utf8(it->path().filename()))) found.insert(*v);
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

}  // namespace cudaenv::install
