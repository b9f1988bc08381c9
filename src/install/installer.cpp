#include "install/installer.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "core/detect.hpp"
#include "install/archive.hpp"
#include "install/layout.hpp"
#include "install/manifest.hpp"
#include "install/mirror.hpp"
#include "install/progress.hpp"
#include "install/sha256.hpp"
#include "install/staging.hpp"
#include "platform/install_dirs.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

namespace {

bool progress_enabled(const InstallOptions& opts) { return !opts.quiet && platform::stderr_is_terminal(); }

struct Source {
    fs::path file;
    std::string component;  // "cuda_cudart", "cudnn"
    ComponentInfo info;
    std::string sha256;  // "" = not checked
    uint64_t size = 0;   // 0 = unknown
    bool downloaded = false;  // in the cache: deleted when it fails, so the next run fetches it afresh
};

ExtractResult extract_one(const Source& s, const fs::path& staging, const std::string& top_files_dir,
                          std::set<std::string>& symlinks, const InstallOptions& opts) {
    auto name = fsx::to_utf8(s.file.filename());
    std::error_code ec;
    auto total = s.size ? s.size : fs::file_size(s.file, ec);
    Progress progress("unpack " + name, ec ? 0 : total, progress_enabled(opts));
    ExtractOptions eo;
    eo.dest = staging;
    eo.expect_sha256 = s.sha256;
    eo.expect_size = s.size;
    eo.top_files_dir = top_files_dir;
    eo.progress = &progress;
    eo.symlinks = &symlinks;
    try {
        auto res = extract_archive(s.file, eo);
        progress.finish();
        return res;
    } catch (const Error&) {
        if (s.downloaded) {
            std::error_code rm;
            fs::remove(s.file, rm);
        }
        throw;
    }
}

// Installs CUDA components into toolkits/<version>, merging with what is there.
void install_toolkit(Store& store, const std::string& version, const std::vector<Source>& sources,
                     const std::string& platform, const InstallOptions& opts, std::ostream& out) {
    auto v = Version::parse(version);
    if (!v) throw Error("invalid CUDA version '" + version + "'");
    auto target = store.managed_toolkit_path(*v);
    auto components = fsx::exists(target) ? read_version_json_components(target) : std::map<std::string, ComponentInfo>{};
    Staging staging{make_staging(store, target)};
    if (fsx::exists(target)) copy_tree_linked(target, staging.dir);
    std::set<std::string> symlinks;
    std::map<std::string, std::string> added;
    for (const auto& s : sources) {
        // Every component ships its own LICENSE at the top: keep them apart.
        extract_one(s, staging.dir, "licenses/" + s.component, symlinks, opts);
        components[s.component] = s.info;
        added[s.component] = s.info.version;
    }
    validate_toolkit(staging.dir, added, platform);
    fsx::write_file_atomic(staging.dir / "version.json", toolkit_version_json(version, components));
    auto detected = detect_toolkit(staging.dir);
    if (!detected)
        throw Error("CUDA " + version + " would have neither nvcc nor the CUDA runtime",
                    "install cuda_cudart (and cuda_nvcc) with the other components");
    commit(store, staging.dir, target);
    staging.dir.clear();
    std::vector<std::string> names;
    for (const auto& [k, ver] : added) names.push_back(k + " " + ver);
    out << "installed CUDA " << version << " (" << str::join(names, ", ") << ") in " << fsx::to_utf8(target) << "\n";
}

// cuDNN 8.3 to 8.9 for Windows load zlibwapi.dll, which NVIDIA's archives do
// not ship (docs/install.md): the one built with cudaenv (zlibwapi/) goes
// beside its DLLs, from cudaenv's private folder (lib/cudaenv).
void add_zlibwapi(const fs::path& staging, const Version& version, const std::string& platform) {
    if (!platform.starts_with("windows") || version.major() != 8 || version.minor() < 3) return;
    const auto bin = staging / "bin";
    if (fsx::exists(bin / "zlibwapi.dll")) return;
    const auto dll = platform::private_lib_dir() / "zlibwapi.dll";
    if (!fsx::is_file(dll)) {
        spdlog::warn("cuDNN {} needs zlibwapi.dll, and {} is missing: put zlibwapi.dll (64-bit) into {}",
                     version.str(), fsx::to_utf8(dll), fsx::to_utf8(bin));
        return;
    }
    std::error_code ec;
    fs::copy_file(dll, bin / "zlibwapi.dll", ec);
    if (ec) throw Error("cannot copy zlibwapi.dll into '" + fsx::to_utf8(bin) + "': " + ec.message());
}

// Installs one cuDNN archive into cudnn/<version>_cuda<N>.
void install_cudnn(Store& store, const Source& s, const Version& version, int cuda_major, const std::string& platform,
                   const InstallOptions& opts, std::ostream& out) {
    auto target = store.managed_cudnn_path(version.prefix(3), cuda_major);
    if (fsx::exists(target)) {
        out << "cuDNN " << version.prefix(3).str() << " for CUDA " << cuda_major << " is already installed in "
            << fsx::to_utf8(target) << "\n";
        return;
    }
    Staging staging{make_staging(store, target)};
    std::set<std::string> symlinks;
    extract_one(s, staging.dir, "", symlinks, opts);
    validate_cudnn(staging.dir, version, platform);
    add_zlibwapi(staging.dir, version, platform);
    commit(store, staging.dir, target);
    staging.dir.clear();
    out << "installed cuDNN " << version.prefix(3).str() << " for CUDA " << cuda_major << " in "
        << fsx::to_utf8(target) << "\n";
}

// A redistrib manifest next to local archives (an offline mirror's layout:
// <mirror>/cuda/redist/redistrib_X.json with archives in <component>/<platform>/).
struct NearbyEntry {
    std::string release_label;
    Component component;
    Artifact artifact;
};
std::optional<NearbyEntry> find_nearby_manifest_entry(const fs::path& archive) {
    auto file_name = fsx::to_utf8(archive.filename());
    auto dir = fsx::absolute_normal(archive).parent_path();
    for (int up = 0; up < 4 && !dir.empty(); ++up, dir = dir.parent_path()) {
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            auto name = fsx::to_utf8(it->path().filename());
            if (!name.starts_with("redistrib_") || !name.ends_with(".json")) continue;
            auto text = fsx::read_file(it->path(), 64u << 20);
            if (!text) continue;
            try {
                auto m = Manifest::parse(*text, fsx::to_utf8(it->path()), name.substr(10, name.size() - 15));
                for (const auto& [key, c] : m.components)
                    for (const auto& a : c.artifacts)
                        if (a.relative_path.substr(a.relative_path.rfind('/') + 1) == file_name)
                            return NearbyEntry{m.release_label, c, a};
            } catch (const Error& e) {
                spdlog::debug("ignoring {}: {}", name, e.what());
            }
        }
        if (dir == dir.root_path()) break;
    }
    return std::nullopt;
}

}  // namespace

void install_archives(Store& store, const std::vector<fs::path>& archives, const InstallOptions& opts,
                      std::ostream& out) {
    if (!opts.sha256.empty() && archives.size() != 1)
        throw UsageError("--sha256 checks one archive; give one archive per install");
    if (!opts.sha256.empty() && !is_sha256_hex(opts.sha256))
        throw UsageError("--sha256 needs 64 hex digits, got '" + opts.sha256 + "'");
    const auto host = host_platform();

    std::vector<std::pair<Source, ArchiveName>> cudnns;
    std::map<std::string, std::vector<Source>> toolkits;  // version -> components
    std::vector<std::pair<Source, ArchiveName>> unversioned;
    for (const auto& path : archives) {
        auto file_name = fsx::to_utf8(path.filename());
        // Not only regular files: a named pipe streams an archive too.
        if (!fsx::exists(path) || fsx::is_dir(path)) throw Error("'" + fsx::to_utf8(path) + "' is not a file");
        auto name = parse_archive_name(file_name);
        if (!name)
            throw UsageError("'" + file_name + "' is not an NVIDIA archive name",
                             "expected cudnn-<os>-x86_64-<version>_cuda<N>-archive.tar.xz|.zip or "
                             "<component>-<os>-x86_64-<version>-archive.tar.xz|.zip (e.g. cuda_cudart-linux-x86_64-11.8.89-archive.tar.xz)");
        if (name->platform != host)
            throw Error("'" + file_name + "' is built for " + name->platform + "; this machine needs " + host +
                            " archives",
                        "download the " + host + " archive (" + (host.starts_with("windows") ? ".zip" : ".tar.xz") + ")");
        Source s{path, name->component, {name->component, name->version.str()}, str::to_lower_ascii(opts.sha256), 0,
                 false};
        auto nearby = find_nearby_manifest_entry(path);
        if (nearby) {
            s.info = {nearby->component.name, nearby->component.version};
            if (s.sha256.empty()) s.sha256 = nearby->artifact.sha256;
            s.size = nearby->artifact.size;
            spdlog::info("{}: checked against the manifest of release {}", file_name, nearby->release_label);
        }
        if (name->is_cudnn()) {
            cudnns.emplace_back(s, *name);
        } else if (nearby && !nearby->release_label.empty()) {
            toolkits[nearby->release_label].push_back(s);
        } else {
            unversioned.emplace_back(s, *name);
        }
    }
    // Without a manifest, the toolkit version is the major.minor that the
    // cuda_* components (runtime, compiler) carry; library versions differ.
    if (!unversioned.empty()) {
        std::set<std::string> seen;
        for (const auto& [s, n] : unversioned)
            if (n.component.starts_with("cuda_")) seen.insert(n.version.prefix(2).str());
        if (seen.size() != 1)
            throw UsageError(seen.empty() ? "cannot tell which CUDA version these components belong to"
                                          : "these components belong to different CUDA versions (" +
                                                str::join({seen.begin(), seen.end()}, ", ") + ")",
                             "install the components of one CUDA version together, including cuda_cudart or "
                             "cuda_nvcc, or put NVIDIA's redistrib_<version>.json next to them");
        for (const auto& entry : unversioned) toolkits[*seen.begin()].push_back(entry.first);
    }

    StoreLock lock(store, opts.quiet);
    for (const auto& [version, sources] : toolkits) install_toolkit(store, version, sources, host, opts, out);
    for (const auto& [s, n] : cudnns) install_cudnn(store, s, n.version, n.cuda_major, host, opts, out);
}

namespace {

std::string versions_text(const std::vector<Version>& vs) {
    std::vector<std::string> out;
    for (const auto& v : vs) out.push_back(v.str());
    return out.empty() ? "none" : str::join(out, ", ");
}

Manifest load_manifest(const Mirror& mirror, const std::string& product, const Version& v) {
    return Manifest::parse(mirror.manifest_text(product, v.str()),
                           mirror.location() + "/" + product + "/redist/redistrib_" + v.str() + ".json", v.str(),
                           product);
}

// A product's releases (newest first), less those that cannot run on this machine (opts.runs_here).
std::vector<Version> releases_here(const Mirror& mirror, const InstallOptions& opts, const std::string& product,
                                   const Version& wanted) {
    auto rs = mirror.releases(product);
    if (opts.runs_here) opts.runs_here(product, rs, wanted);
    return rs;
}

// cuDNN's releases, asked before anything is fetched, so that a cuDNN that
// cannot run here refuses the whole install before any download; nullopt
// when there is nothing to decide (no GPU known, or that cuDNN is installed).
template <class MirrorOf>
std::optional<std::vector<Version>> cudnn_releases_first(Store& store, const Spec& spec, const InstallOptions& opts,
                                                         MirrorOf mirror) {
    if (spec.cudnn_kind != Spec::Cudnn::version || !opts.runs_here) return std::nullopt;
    const auto cudnns = store.cudnns();
    if (std::any_of(cudnns.begin(), cudnns.end(), [&](const CudnnRecord& c) {
            return c.version.matches(spec.cudnn) && c.cuda_major == spec.cuda.major();
        }))
        return std::nullopt;
    return releases_here(mirror(), opts, "cudnn", spec.cudnn);
}

}  // namespace

void install_spec(Store& store, const Spec& spec, const InstallOptions& opts, std::ostream& out) {
    if (spec.system) throw UsageError("`system` is not installable", "give a version: cudaenv install 12.6+9.8.0");
    const auto host = host_platform();
    std::optional<Mirror> mirror_holder;
    auto mirror = [&]() -> const Mirror& {
        if (!mirror_holder) mirror_holder.emplace(opts.mirror, opts.quiet);
        return *mirror_holder;
    };
    StoreLock lock(store, opts.quiet);
    auto cudnn_releases = cudnn_releases_first(store, spec, opts, mirror);

    // The toolkit: an installed one that matches, else the newest release the mirror has.
    std::optional<ToolkitRecord> have;
    for (const auto& t : store.toolkits())
        if (t.version.matches(spec.cuda)) {
            have = t;
            break;
        }
    Version tk_version;
    if (have && (!have->managed || opts.components.empty())) {
        tk_version = have->version;
        out << "CUDA " << tk_version.str() << " is already installed in " << fsx::to_utf8(have->path) << "\n";
    } else {
        Version release;
        if (have) {
            release = have->version;
        } else {
            auto releases = releases_here(mirror(), opts, "cuda", spec.cuda);
            for (const auto& r : releases)
                if (r.matches(spec.cuda)) {
                    release = r;
                    break;
                }
            if (release.empty())
                throw Error("the mirror has no CUDA release matching " + spec.cuda.str() + " (it has " +
                                versions_text(releases) + ")",
                            "mirror: " + mirror().location() + "; run `cudaenv install --list`");
        }
        auto m = load_manifest(mirror(), "cuda", release);
        auto wanted = opts.components.empty() ? default_cuda_components(m, host) : opts.components;
        auto installed = have ? read_version_json_components(have->path) : std::map<std::string, ComponentInfo>{};
        std::vector<Source> sources;
        for (const auto& key : wanted) {
            if (installed.count(key)) continue;
            auto it = m.components.find(key);
            const Artifact* a = it == m.components.end() ? nullptr : it->second.find(host);
            if (!a) {
                std::vector<std::string> valid;
                for (const auto& [k, c] : m.components)
                    if (c.find(host)) valid.push_back(k);
                throw UsageError("CUDA " + m.release_label + " has no component '" + key + "' for " + host,
                                 "components: " + str::join(valid, ", "));
            }
            auto file = mirror().fetch("cuda", a->relative_path, a->size, store.cache_dir());
            sources.push_back({file, key, {it->second.name, it->second.version}, a->sha256, a->size,
                               mirror().is_remote()});
        }
        tk_version = *Version::parse(m.release_label.empty() ? release.str() : m.release_label);
        if (sources.empty()) {
            out << "CUDA " << tk_version.str() << " already has these components\n";
        } else {
            install_toolkit(store, tk_version.str(), sources, host, opts, out);
            for (const auto& s : sources)  // installed: the cached download is no longer needed
                if (mirror().is_remote()) {
                    std::error_code ec;
                    fs::remove(s.file, ec);
                }
        }
    }

    if (spec.cudnn_kind != Spec::Cudnn::version) return;
    const int major = tk_version.major();
    std::optional<CudnnRecord> have_cudnn;
    for (const auto& c : store.cudnns())
        if (c.version.matches(spec.cudnn) && c.cuda_major == major) {
            have_cudnn = c;
            break;
        }
    Version cudnn_version;
    if (have_cudnn) {
        cudnn_version = have_cudnn->version;
        out << "cuDNN " << cudnn_version.str() << " for CUDA " << major << " is already installed in "
            << fsx::to_utf8(have_cudnn->path) << "\n";
    } else {
        auto releases = cudnn_releases ? *cudnn_releases : releases_here(mirror(), opts, "cudnn", spec.cudnn);
        std::vector<Version> tried;
        for (const auto& r : releases) {
            if (!r.matches(spec.cudnn)) continue;
            auto m = load_manifest(mirror(), "cudnn", r);
            auto it = m.components.find("cudnn");
            const Artifact* a = it == m.components.end() ? nullptr : it->second.find(host, major);
            if (!a) {
                tried.push_back(r);
                continue;
            }
            auto v = Version::parse(it->second.version);
            if (!v) v = r;
            auto file = mirror().fetch("cudnn", a->relative_path, a->size, store.cache_dir());
            Source s{file, "cudnn", {it->second.name, it->second.version}, a->sha256, a->size, mirror().is_remote()};
            install_cudnn(store, s, *v, major, host, opts, out);
            if (mirror().is_remote()) {
                std::error_code ec;
                fs::remove(file, ec);
            }
            cudnn_version = v->prefix(3);
            break;
        }
        if (cudnn_version.empty())
            throw Error(tried.empty() ? "the mirror has no cuDNN release matching " + spec.cudnn.str() + " (it has " +
                                            versions_text(releases) + ")"
                                      : "no cuDNN " + spec.cudnn.str() + " is built for CUDA " + std::to_string(major) +
                                            " on " + host + " (releases checked: " + versions_text(tried) + ")",
                        "mirror: " + mirror().location() + "; run `cudaenv install --list`");
    }
    auto config_lock = store.lock();  // re-reads config.toml: keeps what others wrote meanwhile
    store.config().pins[tk_version.str()] = cudnn_version.str();
    store.save_config();
    out << "paired CUDA " << tk_version.str() << " with cuDNN " << cudnn_version.str() << "\n";
}

void list_mirror(const InstallOptions& opts, std::ostream& out) {
    // Written only once everything was read: an error leaves stdout empty.
    std::ostringstream text;
    Mirror mirror(opts.mirror, opts.quiet);
    text << "mirror: " << mirror.location() << "\n";
    const auto platform = host_platform();
    for (const char* product : {"cuda", "cudnn"}) {
        const bool cudnn = std::string(product) == "cudnn";
        text << (cudnn ? "cuDNN:" : "CUDA toolkits:");
        auto rs = mirror.releases(product);
        if (rs.empty()) text << " none";
        for (const auto& r : rs) {
            text << " " << r.str();
            if (!cudnn) continue;
            // Each cuDNN release comes in one build per CUDA major: say which, for this platform.
            auto m = Manifest::parse(mirror.manifest_text(product, r.str()), "redistrib_" + r.str() + ".json", r.str(),
                                     product);
            std::vector<int> majors;
            if (auto it = m.components.find("cudnn"); it != m.components.end())
                for (const auto& a : it->second.artifacts)
                    if (a.platform == platform && a.cuda_major > 0 &&
                        std::find(majors.begin(), majors.end(), a.cuda_major) == majors.end())
                        majors.push_back(a.cuda_major);
            std::sort(majors.begin(), majors.end());
            std::vector<std::string> names;
            for (int v : majors) names.push_back(std::to_string(v));
            text << (names.empty() ? " (no build for " + platform + ")" : " (CUDA " + str::join(names, ", ") + ")");
        }
        text << "\n";
    }
    out << text.str();
}

}  // namespace cudaenv::install
