// `export cdi`: the pairs as devices of one CDI spec (the Container Device
// Interface: what Podman, containerd, CRI-O and Docker read to hand a device
// to a container; docs/containers.md). Each device of kind cudaenv.dev/pair
// bind-mounts the pair's folders read-only at the same paths and sets the
// pair's variables, each written out in full (a CDI `env` entry replaces the
// image's value), as planned in a fresh container's environment. Mounts and
// variables are all a pair needs, so the spec has no hooks.
#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "export/format_parts.hpp"
#include "export/formats.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/toml_file.hpp"
#include "util/user_file.hpp"

namespace cudaenv::exporting {

namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

constexpr const char* cdi_kind = "cudaenv.dev/pair";
// The name CDI's own tools give a spec file: <vendor>-<class>.
constexpr const char* file_name = "cudaenv.dev-pair.yaml";
// 0.5.0 is the first CDI version whose device names may start with a digit;
// the CDI library in Podman 4.x, containerd 1.7 and CRI-O reads it.
constexpr const char* cdi_version = "0.5.0";
constexpr const char* alias = "current";
constexpr size_t max_spec_bytes = 16u << 20;

// Folders a container keeps its own of: a read-only mount at or above one of
// them would hide the image's own programs and C library.
bool holds_os_folder(const std::string& folder) {
    std::vector<std::string> os = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr", "/usr/bin",
                                   "/usr/sbin", "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libexec", "/usr/share",
                                   "/usr/include", "/usr/local", "/usr/local/bin", "/usr/local/sbin", "/usr/local/lib",
                                   "/etc", "/var", "/tmp", "/run", "/home", "/root", "/opt", "/srv", "/mnt", "/boot"};
    for (const auto& d : platform::system_library_dirs()) os.push_back(fsx::to_utf8(d));
    for (const auto& d : os)
        if (d == folder || path_entry_under(d, folder, PathStyle::posix)) return true;
    for (const char* kernel : {"/proc", "/sys", "/dev"})
        if (path_entry_under(folder, kernel, PathStyle::posix)) return true;
    return false;
}

// Paths compared as Linux writes them (records and plans hold them absolute).
std::string normal(const std::string& path) { return path_entry_key(path, PathStyle::posix); }

[[noreturn]] void refuse(const PairVars& p, const std::string& why, const std::string& hint) {
    throw Error("cannot export " + p.spec + " as a CDI device: " + why + "; nothing was written", hint);
}

// The folders a device mounts: the pair's toolkit and cuDNN folders, and any
// folder a variable names outside them, the outermost of each nested set.
std::vector<std::string> mounts_of(const PairVars& p) {
    std::vector<std::string> folders = {normal(fsx::to_utf8(p.pair.toolkit.path))};
    if (p.pair.cudnn) folders.push_back(normal(fsx::to_utf8(p.pair.cudnn->path)));
    auto inside = [&](const std::string& path) {
        for (const auto& f : folders)
            if (path_entry_under(path, f, PathStyle::posix)) return true;
        return false;
    };
    for (const auto* e : p.intent()) {
        if (e->op == EnvOp::prepend)
            for (const auto& dir : e->prepended)
                if (!inside(dir)) folders.push_back(normal(dir));
        // A folder (CUDA_PATH) or a file in one (CUDACXX).
        if (e->op != EnvOp::set || !e->value || !e->value->starts_with('/')) continue;
        const auto v = fsx::from_utf8(*e->value);
        if (inside(*e->value) || inside(fsx::to_utf8(v.parent_path()))) continue;
        std::error_code ec;
        folders.push_back(normal(fsx::to_utf8(fs::is_directory(v, ec) ? v : v.parent_path())));
    }
    std::sort(folders.begin(), folders.end());
    std::vector<std::string> out;
    for (const auto& f : folders) {
        if (!out.empty() && path_entry_under(f, out.back(), PathStyle::posix)) continue;
        if (holds_os_folder(f))
            refuse(p, "its folder '" + str::visible(f) + "' is the operating system's, which a container keeps its own of",
                   "install the pair into the store (`cudaenv install " + p.spec + "`) or adopt a copy in a folder of its own");
        out.push_back(f);
    }
    return out;
}

// Each variable of the pair's intent with its whole value in a fresh
// container. A variable the pair unsets has no CDI form: CDI only sets.
std::vector<std::string> env_of(const PairVars& p) {
    std::vector<std::string> out;
    for (const auto* e : p.intent()) {
        if (!e->value) continue;
        if (e->op == EnvOp::prepend)
            for (const auto& entry : e->prepended)
                if (entry.find(':') != std::string::npos)
                    refuse(p, "the folder '" + str::visible(entry) + "' of " + e->name +
                                  " has a ':', which separates the entries of " + e->name,
                           "move it to a folder whose name has none, then `cudaenv add` it there");
        out.push_back(e->name + "=" + *e->value);
    }
    return out;
}

ojson device(const std::string& name, const PairVars& p) {
    ojson mounts = ojson::array();
    for (const auto& m : mounts_of(p))
        mounts.push_back({{"hostPath", m}, {"containerPath", m}, {"type", "bind"},
                          {"options", {"ro", "nosuid", "nodev", "bind"}}});
    ojson d;
    d["name"] = name;
    d["containerEdits"] = {{"env", env_of(p)}, {"mounts", mounts}};
    return d;
}

// Whether `dir` can hold the spec: a folder, or nothing yet below a folder.
fs::path spec_file_in(const fs::path& dir) {
    auto t = fsx::inspect_target(dir);
    if (t.kind != fsx::TargetKind::folder && t.kind != fsx::TargetKind::absent)
        throw Error("'" + fsx::to_utf8(dir) + "' is not a folder; `export cdi` writes " + file_name + " into a folder",
                    "name a folder with -o, e.g. -o /etc/cdi");
    return dir / file_name;
}

std::optional<fs::path> env_path(const char* name) {
    auto v = platform::get_env(name);
    if (!v || v->empty()) return std::nullopt;
    return fsx::from_utf8(*v);
}

fs::path config_home() {
    if (auto x = env_path("XDG_CONFIG_HOME")) return *x;
    return platform::home_dir() / ".config";
}

// `cdi_spec_dirs` of the [engine] table in containers.conf, as Podman reads
// it: $CONTAINERS_CONF alone when set, else the system files, then the
// user's, each drop-in folder in name order; the last file that sets it wins.
std::vector<std::string> podman_cdi_dirs() {
    std::vector<fs::path> files;
    if (auto only = env_path("CONTAINERS_CONF")) {
        files.push_back(*only);
    } else {
        auto add_conf = [&](const fs::path& conf) {
            files.push_back(conf);
            std::vector<fs::path> dropins;
            std::error_code ec;
            for (fs::directory_iterator it(fs::path(conf) += ".d", ec), end; !ec && it != end; it.increment(ec))
                if (it->path().extension() == ".conf") dropins.push_back(it->path());
            std::sort(dropins.begin(), dropins.end());
            files.insert(files.end(), dropins.begin(), dropins.end());
        };
        add_conf("/usr/share/containers/containers.conf");
        add_conf("/etc/containers/containers.conf");
        add_conf(config_home() / "containers" / "containers.conf");
    }
    std::vector<std::string> dirs;
    for (const auto& f : files) {
        toml::table doc;
        try {
            auto text = read_store_file(f);
            if (!text) continue;
            doc = parse_store_toml(*text, f);
        } catch (const Error&) {
            continue;  // Podman refuses it too: it names no folder for us
        }
        const auto* list = doc["engine"]["cdi_spec_dirs"].as_array();
        if (!list) continue;
        dirs.clear();
        for (const auto& d : *list)
            if (auto s = d.value<std::string>()) dirs.push_back(*s);
    }
    return dirs;
}

// Where the spec goes without -o, and what reads it there.
std::pair<fs::path, std::string> default_dir(const Options& o) {
    if (o.system_store)
        return {"/etc/cdi", "Podman, containerd, CRI-O and Docker read it"};
    // The first folder named there that this user can write, or create in
    // an existing folder.
    for (const auto& d : podman_cdi_dirs()) {
        fs::path dir = fsx::from_utf8(d);
        if (!dir.is_absolute()) continue;
        const auto& in = fsx::is_dir(dir) ? dir : dir.parent_path();
        if (fsx::is_dir(in) && fsx::user_file_os::can_create_in(in))
            return {dir, "containers.conf names it in cdi_spec_dirs (Podman 5.5 and later read it)"};
    }
    return {config_home() / "cdi",
            "rootless Docker reads it; Podman reads it once containers.conf's cdi_spec_dirs names it (Podman 5.5 "
            "and later), or with `podman --cdi-spec-dir`"};
}

}  // namespace

std::optional<std::string> cdi_device_name(std::string_view spec) {
    // A spec is digits, dots, '+', '@' and origins of [a-z0-9._-] (docs/specs.md);
    // CDI names allow [A-Za-z0-9_.:-], starting and ending with a letter or digit.
    std::string name;
    for (char c : spec) {
        if (c == '+') name += '_';
        else if (c == '@') name += ':';
        else name += c;
    }
    auto alnum = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    if (name.empty() || !alnum(name.front()) || !alnum(name.back())) return std::nullopt;
    for (char c : name)
        if (!alnum(c) && c != '_' && c != '.' && c != ':' && c != '-') return std::nullopt;
    return name;
}

std::string render_cdi_device(const PairVars& p, const Options&) {
    auto name = cdi_device_name(p.list_spec);
    if (!name)
        refuse(p, "its spec '" + p.list_spec + "' gives no valid CDI device name (it must end with a letter or digit)",
               "rename the folder whose name ends the spec's origin");
    return device(*name, p).dump(2);
}

std::string render_cdi(const std::vector<PairVars>& pairs, const Options& o) {
    ojson devices = ojson::array();
    std::vector<std::string> names;
    for (const auto& p : pairs) {
        devices.push_back(ojson::parse(render_cdi_device(p, o)));
        const std::string name = devices.back()["name"];
        // CDI refuses a spec that names a device twice.
        if (std::find(names.begin(), names.end(), name) != names.end())
            refuse(p, "another pair of this export has the device name " + name, "export the pairs one at a time");
        names.push_back(name);
    }
    std::string current;
    for (const auto& p : pairs)
        if (o.active_pair && p.pair.id() == *o.active_pair) {
            auto d = ojson::parse(render_cdi_device(p, o));
            current = d["name"];
            d["name"] = alias;
            devices.push_back(d);
        }
    ojson spec;
    spec["cdiVersion"] = cdi_version;
    spec["kind"] = cdi_kind;
    spec["devices"] = devices;
    // JSON is YAML: the comment lines carry the mark and how to use it.
    std::string text = "# " + std::string(marker) + " cdi`; re-running it rewrites this file.\n";
    text += "# One device per cudaenv pair, named by its spec with '+' written '_' and '@' written ':':\n";
    for (const auto& n : names) text += "#   --device " + std::string(cdi_kind) + "=" + n + "\n";
    if (!current.empty())
        text += "#   --device " + std::string(cdi_kind) + "=" + alias + " is " + current +
                ", the pair `cudaenv current` named when this was written\n";
    return text + spec.dump(2) + "\n";
}

std::string write_cdi(const std::vector<PairVars>& pairs, const Options& o) {
    if (o.style == PathStyle::windows)
        throw Error("`export cdi` hands Linux folders to Linux containers; this is a Windows cudaenv",
                    "run the Linux cudaenv where the containers run (in WSL: the cudaenv installed there)");
    auto [dir, readers] = o.out ? std::pair<fs::path, std::string>{*o.out, ""} : default_dir(o);
    const auto file = spec_file_in(dir);
    const auto text = render_cdi(pairs, o);
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        fs::create_directories(dir, ec);
        if (ec)
            throw Error("cannot create the folder '" + fsx::to_utf8(dir) + "': " + ec.message() + "; nothing was written",
                        o.system_store ? "run it as root (sudo)" : "name a folder you can write with -o");
    }
    fsx::UserFileLock held(file);
    auto old = fsx::read_user_file(file, max_spec_bytes, "cdi");
    if (old && old->substr(0, 512).find(marker) == std::string::npos)
        throw Error("'" + fsx::to_utf8(file) + "' exists and was not written by cudaenv; it was left as it was",
                    "move it away or export into another folder with -o");
    fsx::write_user_file(file, text);
    std::string names;
    for (const auto& p : pairs) names += (names.empty() ? "" : ", ") + *cdi_device_name(p.list_spec);
    say_wrote(std::string("CDI device") + (pairs.size() > 1 ? "s " : " ") + cdi_kind + "=" + names, file);
    if (!readers.empty()) std::fprintf(stderr, "cudaenv: %s\n", readers.c_str());
    return {};
}

}  // namespace cudaenv::exporting
