#include "core/origin.hpp"

#include <algorithm>

#include "core/pairs.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::origin {

namespace {

std::string canon(const fs::path& p) {
    std::error_code ec;
    auto c = fs::weakly_canonical(p, ec);
    auto s = fsx::to_utf8(ec ? p : c);
    return platform::path_key(s);
}

}  // namespace

const char* kind_name(Kind k) {
    switch (k) {
        case Kind::pair: return "pair";
        case Kind::other_pair: return "other-pair";
        case Kind::pip_wheel: return "pip-wheel";
        case Kind::conda: return "conda";
        case Kind::system: return "system";
        case Kind::driver: return "driver";
        case Kind::other: break;
    }
    return "other";
}

bool under(const fs::path& file, const fs::path& dir) {
    auto f = canon(file), d = canon(dir);
    while (d.size() > 1 && (d.back() == '/' || d.back() == '\\')) d.pop_back();
    return f.size() > d.size() && f.starts_with(d) && (f[d.size()] == '/' || f[d.size()] == '\\');
}

PairDirs pair_dirs(const std::string& spec, const DetectedPair& pair) {
    PairDirs d;
    d.spec = spec;
    const auto& tk = pair.toolkit;
    d.toolkit_version = tk.version;
    d.toolkit_dirs = search_dirs(tk);
    d.toolkit_dirs.push_back(tk.root);
    if (pair.cudnn) {
        const auto& c = *pair.cudnn;
        d.cudnn_version = c.version;
        d.cudnn_dirs = search_dirs(c);
        d.cudnn_dirs.push_back(c.root);
    }
    return d;
}

Classifier::Classifier(std::optional<PairDirs> traced, std::vector<PairDirs> others)
    : traced_(std::move(traced)), others_(std::move(others)), system_dirs_(platform::system_shared_dirs()) {}

namespace {

// A folder the whole system shares: only libraries of the folder's own family count.
bool shared_folder(const fs::path& dir, const std::vector<fs::path>& system_dirs) {
    auto d = canon(dir);
    if (d == "/" || d.empty()) return true;
    for (const auto& s : system_dirs)
        if (canon(s) == d) return true;
    return false;
}

bool in_pair(const PairDirs& p, const fs::path& file, Family fam, const std::vector<fs::path>& system_dirs,
             std::optional<Version>& version) {
    for (const auto& d : p.cudnn_dirs)
        if (under(file, d) && (fam == Family::cudnn || !shared_folder(d, system_dirs))) {
            version = fam == Family::cudnn ? p.cudnn_version : std::nullopt;
            return true;
        }
    for (const auto& d : p.toolkit_dirs)
        if (under(file, d) && (fam == Family::toolkit || !shared_folder(d, system_dirs))) {
            if (fam == Family::toolkit && file.filename().string().find("cudart") != std::string::npos)
                version = p.toolkit_version;
            return true;
        }
    return false;
}

}  // namespace

std::string wheel_package(const fs::path& real) {
    std::vector<std::string> parts;
    for (const auto& part : real) parts.push_back(fsx::to_utf8(part));
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
        auto low = str::to_lower_ascii(parts[i]);
        if (low != "site-packages" && low != "dist-packages") continue;
        const auto& pkg = parts[i + 1];
        if (pkg == "nvidia" && i + 2 < parts.size() - 1) return "nvidia-" + parts[i + 2];
        return pkg;
    }
    return {};
}

Origin Classifier::classify(const fs::path& path) const {
    Origin o;
    std::error_code ec;
    auto real = fs::weakly_canonical(path, ec);
    if (ec) real = path;
    auto name = fsx::to_utf8(path.filename());
    auto fam = family_of(name);
    auto folder = fsx::to_utf8(real.parent_path());
    if (fam == Family::driver) {
        o.kind = Kind::driver;
        o.where = "the NVIDIA driver (" + folder + ")";
        return o;
    }
    if (traced_ && in_pair(*traced_, real, fam, system_dirs_, o.version)) {
        o.kind = Kind::pair;
        o.pair_spec = traced_->spec;
        o.where = "the pair " + traced_->spec;
        return o;
    }
    for (const auto& p : others_)
        if (in_pair(p, real, fam, system_dirs_, o.version)) {
            o.kind = Kind::other_pair;
            o.pair_spec = p.spec;
            o.where = "another pair cudaenv knows, " + p.spec + " (" + folder + ")";
            return o;
        }
    o.version.reset();
    if (auto pkg = wheel_package(real); !pkg.empty()) {
        o.kind = Kind::pip_wheel;
        o.package = pkg;
        o.where = (pkg == "torch" ? std::string("torch's wheel (") : "the pip wheel " + pkg + " (") + folder + ")";
        return o;
    }
    // conda: an environment is a folder with conda-meta/ in it.
    for (auto d = real.parent_path(); !d.empty() && d != d.root_path(); d = d.parent_path()) {
        if (fsx::is_dir(d / "conda-meta")) {
            o.kind = Kind::conda;
            o.package = fsx::to_utf8(d);
            o.where = "the conda environment " + fsx::to_utf8(d) + " (" + folder + ")";
            return o;
        }
        if (d.parent_path() == d) break;
    }
    for (const auto& s : platform::system_library_dirs())
        if (canon(real.parent_path()) == canon(s)) {
            o.kind = Kind::system;
            o.where = "the system folder " + folder;
            return o;
        }
    o.kind = Kind::other;
    o.where = "the folder " + folder;
    return o;
}

}  // namespace cudaenv::origin
