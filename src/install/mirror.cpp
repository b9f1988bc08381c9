#include "install/mirror.hpp"

#include <regex>
#include <set>

#include "install/http.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

namespace {

bool is_url(const std::string& s) { return s.starts_with("http://") || s.starts_with("https://"); }

}  // namespace

std::string choose_mirror(const std::string& flag, const std::optional<std::string>& env,
                          const std::optional<std::string>& config, const std::string& fallback) {
    if (!flag.empty()) return flag;
    if (env && !env->empty()) return *env;
    if (config && !config->empty()) return *config;
    return fallback;
}

std::vector<Version> releases_from_listing(const std::string& html) {
    static const std::regex re(R"(redistrib_([0-9]+(?:\.[0-9]+){0,3})\.json)");
    std::set<Version, std::greater<>> found;
    for (std::sregex_iterator it(html.begin(), html.end(), re), end; it != end; ++it)
        if (auto v = Version::parse((*it)[1].str())) found.insert(*v);
    return {found.begin(), found.end()};
}

Mirror::Mirror(const std::string& location) : location_(location) {
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

}  // namespace cudaenv::install
