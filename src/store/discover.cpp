#include "store/discover.hpp"

#include <algorithm>

#include "core/pathlist.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

std::optional<fs::path> env_folder(const char* name) {
    auto v = platform::get_env(name);
    if (!v || v->empty()) return std::nullopt;
    return fsx::from_utf8(*v);
}

std::vector<fs::path> glob_dirs(const fs::path& pattern) {
    std::vector<fs::path> current = {pattern.root_path()};
    for (const auto& part : pattern.relative_path()) {
        auto text = fsx::to_utf8(part);
        std::vector<fs::path> next;
        auto star = text.find('*');
        for (const auto& base : current) {
            if (star == std::string::npos) {
                if (fsx::is_dir(base / part)) next.push_back(base / part);
                continue;
            }
            auto prefix = text.substr(0, star), suffix = text.substr(star + 1);
            std::error_code ec;
            std::vector<fs::path> matches;
            for (fs::directory_iterator it(base, ec), end; !ec && it != end; it.increment(ec)) {
                auto name = fsx::to_utf8(it->path().filename());
                bool ok = name.size() >= prefix.size() + suffix.size() &&
                          platform::path_key(name).starts_with(platform::path_key(prefix)) &&
                          name.ends_with(suffix);
                if (ok && fsx::is_dir(it->path())) matches.push_back(it->path());
            }
            std::sort(matches.begin(), matches.end());
            next.insert(next.end(), matches.begin(), matches.end());
        }
        current = std::move(next);
    }
    return current;
}

namespace {

const char* const pip_packages[] = {"cudnn", "cuda_runtime", "cu13", "cu12"};

void add_pip_layouts(const fs::path& site_packages, std::vector<fs::path>& out) {
    for (auto pkg : pip_packages) {
        auto p = site_packages / "nvidia" / pkg;
        if (fsx::is_dir(p)) out.push_back(p);
    }
}

std::vector<fs::path> default_candidates() {
    auto places = default_places();
    auto out = std::move(places.folders);
    for (const auto& pattern : places.site_packages)
        for (const auto& sp : glob_dirs(pattern)) add_pip_layouts(sp, out);
    return out;
}

}  // namespace

std::vector<fs::path> discovery_candidates(const std::vector<fs::path>& roots) {
    if (roots.empty()) return default_candidates();
    std::vector<fs::path> out;
    for (const auto& r : roots) {
        out.push_back(r);
        std::error_code ec;
        std::vector<fs::path> children;
        for (fs::directory_iterator it(r, ec), end; !ec && it != end; it.increment(ec))
            if (fsx::is_dir(it->path())) children.push_back(it->path());
        std::sort(children.begin(), children.end());
        out.insert(out.end(), children.begin(), children.end());
        add_pip_layouts(r, out);
        for (auto pattern : {"lib/python3*/site-packages", "lib/python3*/dist-packages", "Lib/site-packages"})
            for (const auto& sp : glob_dirs(r / pattern)) add_pip_layouts(sp, out);
    }
    return out;
}

std::vector<Found> discover(const std::vector<fs::path>& roots, Store& store) {
    std::vector<Found> out;
    std::vector<fs::path> seen;  // canonical folders, so /usr/local/cuda and cuda-12.6 count once
    auto store_root = fsx::to_utf8(store.root());
    for (const auto& cand : discovery_candidates(roots)) {
        std::error_code ec;
        auto canon = fs::canonical(cand, ec);
        if (ec) continue;
        if (std::find(seen.begin(), seen.end(), canon) != seen.end()) continue;
        seen.push_back(canon);
        if (path_entry_under(fsx::to_utf8(canon), store_root, native_path_style())) continue;
        bool system_lib = false;
        for (const auto& s : platform::system_library_dirs()) system_lib = system_lib || fsx::absolute_normal(s) == canon;
        for (auto& f : inspect_folder(cand, store)) {
            // The system library folder is only a place for cuDNN packages.
            if (system_lib && f.kind == Found::Kind::toolkit) continue;
            bool dup = false;
            for (const auto& o : out)
                dup = dup || (o.kind == f.kind && o.path == f.path && o.variant == f.variant);
            if (!dup) out.push_back(std::move(f));
        }
    }
    return out;
}

}  // namespace cudaenv
