#include "install/locking.hpp"

#include <algorithm>
#include <functional>
#include <iostream>
#include <set>

#include "core/cudalibs.hpp"
#include "core/pairs.hpp"
#include "gpu/table.hpp"
#include "install/sha256.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

namespace {

const char* const kPlatforms[] = {"linux-x86_64", "linux-sbsa", "linux-aarch64", "linux-ppc64le", "windows-x86_64"};

void add_requirements(LockFile& lock, const Version& cuda) {
    std::optional<Version> cudnn;
    if (!lock.cudnn_version.empty()) cudnn = Version::parse(lock.cudnn_version);
    auto r = gpu::pair_needs(cuda, cudnn);
    lock.needs = {r.min_driver_linux, r.min_driver_windows, r.cc_lo.empty() ? "" : r.cc_lo.str(),
                  r.cc_hi.empty() ? "" : r.cc_hi.str()};
}

// A folder's libraries that `wanted` names, as "<prefix>/<path below root>".
void hash_libraries(LockFile& lock, const std::string& prefix, const fs::path& root, const std::vector<fs::path>& dirs,
                    const std::function<bool(const std::string&)>& wanted) {
    std::set<std::string> seen;
    for (const auto& dir : dirs) {
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            auto name = fsx::to_utf8(it->path().filename());
            if (!wanted(name) || !fsx::is_file(it->path())) continue;
            auto rel = str::replace_all(fsx::to_utf8(it->path().lexically_relative(root)), "\\", "/");
            if (!fsx::is_safe_relative(rel) || !seen.insert(rel).second) continue;
            std::error_code size_ec;
            lock.files.push_back({prefix + "/" + rel, fs::file_size(it->path(), size_ec), sha256_file(it->path())});
        }
    }
}

bool is_toolkit_lib(const std::string& name, bool windows) {
    if (windows ? cudalibs::windows_dll_digits(name, cudalibs::windows_cudart).has_value()
                : cudalibs::is_linux_lib(name, cudalibs::linux_cudart))
        return true;
    for (const auto& lib : cudalibs::toolkit_libraries())
        if (cudalibs::is_toolkit_library(name, lib, windows)) return true;
    return false;
}

bool is_cudnn_lib(const std::string& name) {
    return cudalibs::family_of(name) == cudalibs::Family::cudnn && cudalibs::is_library_file(name);
}

std::string cannot_reproduce(const LockFile& lock, const std::string& lock_name) {
    return lock_name + " records an adopted pair (" + lock.pair + ", folders of the machine that locked it), which "
           "cannot be reproduced by download";
}

}  // namespace

std::vector<std::string> parse_platforms(const std::string& text) {
    std::set<std::string> out;
    if (str::trim(text).empty()) return {host_platform()};
    for (const auto& part : str::split(text, ',')) {
        std::string p(str::trim(part));
        if (p.empty())
            throw UsageError("--platform '" + str::visible(text.substr(0, 200)) + "' has an empty platform name",
                             "give platforms separated by single commas: linux-x86_64,windows-x86_64");
        if (std::find(std::begin(kPlatforms), std::end(kPlatforms), p) == std::end(kPlatforms))
            throw UsageError("unknown platform '" + p + "'",
                             "NVIDIA's platforms: linux-x86_64, linux-sbsa, linux-aarch64, linux-ppc64le, windows-x86_64");
        out.insert(p);
    }
    return {out.begin(), out.end()};
}

std::vector<std::string> kept_platforms(const std::optional<LockFile>& old) {
    std::set<std::string> out{host_platform()};
    if (old && !old->adopted) out.insert(old->platforms.begin(), old->platforms.end());
    return {out.begin(), out.end()};
}

std::optional<LockFile> existing_lock(const fs::path& file) {
    if (!fsx::exists(file)) return std::nullopt;
    try {
        return LockFile::load(file);
    } catch (const Error& e) {
        std::cerr << "cudaenv: warning: the lock there now does not read (" << e.what() << "): writing it anew\n";
        return std::nullopt;
    }
}

LockFile lock_from_mirror(Catalog& catalog, const Spec& spec, const std::vector<std::string>& platforms,
                          const RunsHere& runs_here) {
    if (spec.system) throw UsageError("`system` names no pair to lock", "give a pair: 12.6+9.8");
    auto r = resolve(catalog, spec, platforms, runs_here);
    LockFile lock;
    lock.spec = spec.str();
    lock.mirror = catalog.location();
    lock.platforms = platforms;
    lock.cuda_release = r.cuda->release_label;
    auto cuda = Version::parse(lock.cuda_release);
    if (!cuda) throw Error("the mirror's CUDA manifest has no usable release label ('" + lock.cuda_release + "')");
    for (const auto& key : r.components) {
        const auto& c = r.cuda->components.at(key);
        lock.components[key] = {c.name, c.version};
        for (const auto& p : platforms)
            if (const auto* a = c.find(p)) lock.archives.push_back({p, "cuda", key, a->relative_path, a->size, a->sha256});
    }
    if (r.cudnn) {
        const auto& c = r.cudnn->components.at("cudnn");
        lock.cudnn_version = c.version.empty() ? r.cudnn->release_label : c.version;
        lock.cudnn_name = c.name;
        lock.cudnn_release = r.cudnn->release_label;
        lock.cudnn_cuda_major = cuda->major();
        for (const auto& p : platforms)
            if (const auto* a = c.find(p, cuda->major()))
                lock.archives.push_back({p, "cudnn", "cudnn", a->relative_path, a->size, a->sha256});
    }
    lock.pair = lock.pair_of_tables();
    add_requirements(lock, *cuda);
    return lock;
}

bool names_adopted(const Spec& spec) {
    return (!spec.cuda_origin.empty() && spec.cuda_origin != "store") ||
           (!spec.cudnn_origin.empty() && spec.cudnn_origin != "store");
}

LockFile lock_adopted(Store& store, const Spec& spec) {
    auto pair = select_pair(spec, store);
    const bool windows = host_platform().starts_with("windows");
    LockFile lock;
    lock.adopted = true;
    lock.spec = spec.str();
    lock.pair = pair.spec();
    lock.platforms = {host_platform()};
    lock.cuda_release = pair.toolkit.version.str();
    for (const auto& [key, info] : read_version_json_components(pair.toolkit.path)) lock.components[key] = {info.name, info.version};
    const auto& tk = pair.toolkit.path;
    hash_libraries(lock, "cuda", tk, windows ? cudalibs::toolkit_dll_dirs(tk) : cudalibs::toolkit_lib_dirs(tk),
                   [&](const std::string& n) { return is_toolkit_lib(n, windows); });
    if (pair.cudnn) {
        lock.cudnn_version = pair.cudnn->version.str();
        lock.cudnn_release = pair.cudnn->version.prefix(3).str();
        lock.cudnn_cuda_major = pair.cudnn->cuda_major;
        const auto& root = pair.cudnn->path;
        auto dirs = pair.cudnn->variant.empty() ? cudalibs::cudnn_lib_dirs(root)
                                                : cudalibs::cudnn_installer_dll_dirs(root, pair.cudnn->variant);
        hash_libraries(lock, "cudnn", root, dirs, [](const std::string& n) { return is_cudnn_lib(n); });
    }
    if (lock.files.empty())
        throw Error("found no CUDA or cuDNN library in " + fsx::to_utf8(tk) + " to record",
                    "lock a spec the mirror has instead (without an origin: `cudaenv local 12.6+9.8`)");
    add_requirements(lock, pair.toolkit.version);
    return lock;
}

void verify_adopted(Store& store, const LockFile& lock, const std::string& lock_name) {
    auto hint = "adopt the same folders on this machine (`cudaenv add`), or lock a spec the mirror has "
                "(a spec without an origin) and run `cudaenv sync`";
    std::optional<Pair> pair;
    try {
        pair = select_pair(*Spec::parse(lock.spec), store);
    } catch (const Error&) {
        throw Error(cannot_reproduce(lock, lock_name) + ", and '" + lock.spec + "' matches nothing here", hint);
    }
    if (pair->spec() != lock.pair)
        throw Error(cannot_reproduce(lock, lock_name) + "; '" + lock.spec + "' is " + pair->spec() + " here", hint);
    for (const auto& f : lock.files) {
        auto slash = f.path.find('/');
        bool cudnn = f.path.substr(0, slash) == "cudnn";
        if (cudnn && !pair->cudnn) throw Error(cannot_reproduce(lock, lock_name) + "; this pair has no cuDNN", hint);
        auto p = (cudnn ? pair->cudnn->path : pair->toolkit.path) / fsx::from_utf8(f.path.substr(slash + 1));
        std::error_code ec;
        if (!fsx::is_file(p) || fs::file_size(p, ec) != f.size || sha256_file(p) != f.sha256)
            throw Error(fsx::to_utf8(p) + " differs from what " + lock_name + " recorded for the adopted pair " + lock.pair,
                        "the folders changed since they were locked; if that is intended, run `cudaenv lock` again");
    }
}

void announce_lock_mirror(const std::string& location, const std::string& lock_name) {
    if (is_remote_location(location))
        std::cerr << "cudaenv: downloading from " << location << ", named by " << lock_name << "\n";
}

bool write_lock(const LockFile& lock, const fs::path& file) {
    auto text = lock.to_toml();
    if (fsx::read_file(file, 64u << 20) == text) return false;
    fsx::write_file_atomic(file, text);
    return true;
}

}  // namespace cudaenv::install
