#include "core/lockfile.hpp"

#include <algorithm>
#include <set>
#include <sstream>
#include <tuple>
#include <toml++/toml.h>

#include "core/spec.hpp"
#include "util/toml_file.hpp"
#include "core/version.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

const char* kRelock = "run `cudaenv lock` to write it again (cudaenv.lock is written by cudaenv, not by hand)";

[[noreturn]] void bad(const std::filesystem::path& file, const toml::node* node, const std::string& what) {
    std::string where = fsx::to_utf8(file);
    if (node) where += ":" + std::to_string(node->source().begin.line) + ":" + std::to_string(node->source().begin.column);
    throw Error(where + ": " + what, kRelock);
}

// git, hg and diff3 leave these at the start of a line in a file both sides changed.
std::optional<size_t> conflict_marker_line(const std::string& text) {
    size_t line = 1;
    for (size_t at = 0; at < text.size(); ++line) {
        auto end = text.find('\n', at);
        std::string_view l(text.data() + at, (end == std::string::npos ? text.size() : end) - at);
        for (std::string_view m : {"<<<<<<<", "=======", ">>>>>>>", "|||||||"})
            if (l.starts_with(m) && (l.size() == 7 || l[7] == ' ' || l[7] == '\r')) return line;
        if (end == std::string::npos) break;
        at = end + 1;
    }
    return std::nullopt;
}

struct Reader {
    const std::filesystem::path& file;
    const toml::table& t;

    const toml::node* node(const char* key) const { return t.get(key); }
    std::string str(const char* key, bool required = true) const {
        auto* n = t.get(key);
        if (!n) {
            if (required) bad(file, &t, std::string("'") + key + "' is missing");
            return {};
        }
        if (!n->is_string()) bad(file, n, std::string("'") + key + "' must be a string");
        return n->as_string()->get();
    }
    std::string version(const char* key, bool required = true) const {
        auto s = str(key, required);
        if (!s.empty() && !Version::parse(s)) bad(file, t.get(key), std::string("'") + key + "' is not a version: " + s);
        return s;
    }
    std::string sha256(const char* key) const {
        auto s = str::to_lower_ascii(str(key));
        if (!str::is_sha256_hex(s)) bad(file, t.get(key), std::string("'") + key + "' is not 64 hex digits");
        return s;
    }
    uint64_t size(const char* key, int64_t min = 0) const {
        auto* n = t.get(key);
        if (!n || !n->is_integer() || n->as_integer()->get() < min)
            bad(file, n ? n : &t, std::string("'") + key + "' must be a number of bytes" + (min > 0 ? " (at least 1)" : ""));
        return static_cast<uint64_t>(n->as_integer()->get());
    }
    // A word that ends up in file names and URLs: platform, product, component.
    std::string word(const char* key) const {
        auto s = str(key);
        bool ok = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        });
        if (!ok) bad(file, t.get(key), std::string("'") + key + "' is not a name: " + s);
        return s;
    }
    std::string path(const char* key) const {
        auto s = str(key);
        if (!fsx::is_safe_relative(s)) bad(file, t.get(key), std::string("'") + key + "' is not a safe relative path: " + s);
        return s;
    }
    const toml::array* tables(const char* key) const {
        auto* n = t.get(key);
        if (n && !n->is_array_of_tables()) bad(file, n, std::string("'") + key + "' must be an array of tables");
        return n ? n->as_array() : nullptr;
    }
    Reader sub(const char* key) const {
        auto* n = t.get(key);
        if (!n || !n->is_table()) bad(file, n ? n : &t, std::string("[") + key + "] is missing or not a table");
        return {file, *n->as_table()};
    }
};

void check_spec(const Reader& r, const char* key, const std::string& text) {
    if (!Spec::parse(text)) bad(r.file, r.node(key), std::string("'") + key + "' is not a spec: " + text);
}

void read_header(LockFile& lock, const Reader& r) {
    auto* f = r.node("format");
    if (!f || !f->is_integer()) bad(r.file, f, "no format version: this is not a cudaenv.lock");
    auto format = f->as_integer()->get();
    if (format > kLockFormat)
        throw Error(fsx::to_utf8(r.file) + " was written by a newer cudaenv (lock format " + std::to_string(format) +
                        "; this cudaenv reads format " + std::to_string(kLockFormat) + ")",
                    "update cudaenv, or run `cudaenv lock` to write the lock again in this version's format");
    if (format < 1) bad(r.file, f, "format " + std::to_string(format) + " is not one cudaenv wrote");
    lock.format = static_cast<int>(format);
    lock.spec = r.str("spec");
    check_spec(r, "spec", lock.spec);
    lock.pair = r.str("pair");
    check_spec(r, "pair", lock.pair);
    lock.mirror = r.str("mirror", false);
    if (auto* a = r.node("adopted")) {
        if (!a->is_boolean()) bad(r.file, a, "'adopted' must be true or false");
        lock.adopted = a->as_boolean()->get();
    }
    auto* ps = r.node("platforms");
    if (!ps || !ps->is_array()) bad(r.file, ps, "'platforms' must be a list of platform names");
    for (const auto& p : *ps->as_array()) {
        auto s = p.value<std::string>();
        if (!s || s->empty()) bad(r.file, &p, "'platforms' must hold platform names");
        lock.platforms.push_back(*s);
    }
}

void read_pair(LockFile& lock, const Reader& r) {
    auto cuda = r.sub("cuda");
    lock.cuda_release = cuda.version("release");
    if (auto* cs = cuda.node("components")) {
        if (!cs->is_table()) bad(r.file, cs, "[cuda.components] must be a table");
        for (auto&& [key, value] : *cs->as_table()) {
            if (!value.is_table()) bad(r.file, &value, "component '" + std::string(key.str()) + "' must be a table");
            Reader c{r.file, *value.as_table()};
            lock.components[std::string(key.str())] = {c.str("name", false), c.str("version")};
        }
    }
    if (r.node("cudnn")) {
        auto c = r.sub("cudnn");
        lock.cudnn_version = c.version("version");
        lock.cudnn_release = c.version("release");
        lock.cudnn_name = c.str("name", false);
        if (!str::parse_int(c.str("cuda_variant"), lock.cudnn_cuda_major))
            bad(r.file, c.node("cuda_variant"), "'cuda_variant' must be a CUDA major (\"12\")");
    }
    if (r.node("requires")) {
        auto q = r.sub("requires");
        lock.needs = {q.str("driver_linux", false), q.str("driver_windows", false),
                      q.str("compute_capability_min", false), q.str("compute_capability_max", false)};
    }
}

// The header and the tables must tell one story: `pair` is what sync
// reports, pins and writes into .cudaenv, [cuda] and [cudnn] what it installs.
// (An adopted pair's cuDNN is named by its whole version, as detection found it.)
void check_pair(const LockFile& lock, const Reader& r) {
    auto expected = lock.pair_of_tables();
    if (lock.pair != expected && !(lock.adopted && lock.pair == lock.cuda_release + "+" + lock.cudnn_version))
        bad(r.file, r.node("pair"), "'pair' is " + lock.pair + ", but [cuda] and [cudnn] say " + expected);
    if (!lock.adopted && !lock.cudnn_version.empty()) {
        auto major = Version::parse(lock.cuda_release)->major();
        if (lock.cudnn_cuda_major != major)
            bad(r.file, r.sub("cudnn").node("cuda_variant"),
                "'cuda_variant' is " + std::to_string(lock.cudnn_cuda_major) + ", but CUDA " + lock.cuda_release +
                    " needs the cuDNN build for CUDA " + std::to_string(major));
    }
}

void read_entries(LockFile& lock, const Reader& r) {
    if (auto* arr = r.tables("archive")) {
        if (arr->size() > kMaxLockArchives)
            bad(r.file, r.node("archive"), "more than " + std::to_string(kMaxLockArchives) + " archives");
        std::set<std::string> entries, names;
        for (const auto& n : *arr) {
            Reader a{r.file, *n.as_table()};
            LockedArchive e{a.word("platform"), a.word("product"), a.word("component"), a.path("relative_path"),
                            a.size("size", 1), a.sha256("sha256")};
            if (e.product != "cuda" && e.product != "cudnn")
                bad(r.file, a.node("product"), "'product' must be \"cuda\" or \"cudnn\"");
            if (!lock.has_platform(e.platform))
                bad(r.file, a.node("platform"), "platform '" + e.platform + "' is not in 'platforms'");
            if (e.product == "cuda" && !lock.components.count(e.component))
                bad(r.file, a.node("component"), "component '" + e.component + "' is not in [cuda.components]");
            if (e.product == "cudnn" && (lock.cudnn_version.empty() || e.component != "cudnn"))
                bad(r.file, a.node("component"), lock.cudnn_version.empty() ? "a cuDNN archive, but no [cudnn]"
                                                                             : "a cuDNN archive's component is \"cudnn\"");
            // One download each: the cache keeps an archive under its file name.
            if (!entries.insert(e.platform + "/" + e.product + "/" + e.component).second)
                bad(r.file, &n, "archive " + e.platform + " " + e.product + " " + e.component + " is listed twice");
            if (!names.insert(e.relative_path.substr(e.relative_path.rfind('/') + 1)).second)
                bad(r.file, a.node("relative_path"), "'" + e.relative_path + "': its file name is listed twice");
            lock.archives.push_back(std::move(e));
        }
    }
    if (auto* arr = r.tables("file"))
        for (const auto& n : *arr) {
            Reader f{r.file, *n.as_table()};
            lock.files.push_back({f.path("path"), f.size("size"), f.sha256("sha256")});
        }
}

}  // namespace

bool LockFile::has_platform(const std::string& platform) const {
    return std::find(platforms.begin(), platforms.end(), platform) != platforms.end();
}

std::string LockFile::pair_of_tables() const {
    auto cudnn = Version::parse(cudnn_version);
    if (cudnn_version.empty()) return cuda_release + "+none";
    return cuda_release + "+" + (cudnn ? cudnn->prefix(3).str() : cudnn_version);
}

std::vector<LockedArchive> LockFile::archives_for(const std::string& platform) const {
    std::vector<LockedArchive> out;
    for (const auto& a : archives)
        if (a.platform == platform) out.push_back(a);
    return out;
}

LockFile LockFile::parse(const std::string& text, const std::filesystem::path& file) {
    if (auto line = conflict_marker_line(text))
        throw Error(fsx::to_utf8(file) + ":" + std::to_string(*line) + ": has merge-conflict markers",
                    "do not merge lock files by hand: keep .cudaenv as you want it and run `cudaenv lock` again");
    toml::table root;
    try {
        root = parse_store_toml(text, file);
    } catch (const Error& e) {
        throw Error(e.what(), kRelock);
    }
    LockFile lock;
    Reader r{file, root};
    read_header(lock, r);
    read_pair(lock, r);
    check_pair(lock, r);
    read_entries(lock, r);
    if (!lock.adopted && lock.mirror.empty()) bad(file, nullptr, "'mirror' is missing");
    return lock;
}

LockFile LockFile::load(const std::filesystem::path& file) {
    auto text = read_store_file(file);
    if (!text)
        throw Error("there is no " + fsx::to_utf8(file), "write it with `cudaenv lock` (beside the project's .cudaenv)");
    return parse(*text, file);
}

std::string LockFile::to_toml() const {
    toml::table root;
    root.insert("format", format);
    root.insert("spec", spec);
    root.insert("pair", pair);
    if (!mirror.empty()) root.insert("mirror", mirror);
    if (adopted) root.insert("adopted", true);
    auto ps = platforms;
    std::sort(ps.begin(), ps.end());
    toml::array plats;
    for (const auto& p : ps) plats.push_back(p);
    root.insert("platforms", std::move(plats));

    toml::table cuda{{"release", cuda_release}};
    toml::table comps;
    for (const auto& [key, c] : components) {
        toml::table t{{"version", c.version}};
        if (!c.name.empty()) t.insert("name", c.name);
        t.is_inline(true);
        comps.insert(key, std::move(t));
    }
    cuda.insert("components", std::move(comps));
    root.insert("cuda", std::move(cuda));
    if (!cudnn_version.empty()) {
        toml::table c{{"version", cudnn_version}, {"release", cudnn_release},
                      {"cuda_variant", std::to_string(cudnn_cuda_major)}};
        if (!cudnn_name.empty()) c.insert("name", cudnn_name);
        root.insert("cudnn", std::move(c));
    }
    toml::table req;
    const std::pair<const char*, const std::string*> reqs[] = {
        {"driver_linux", &needs.driver_linux},
        {"driver_windows", &needs.driver_windows},
        {"compute_capability_min", &needs.compute_capability_min},
        {"compute_capability_max", &needs.compute_capability_max}};
    for (const auto& [k, v] : reqs)
        if (!v->empty()) req.insert(k, *v);
    if (!req.empty()) root.insert("requires", std::move(req));

    auto sorted = archives;
    std::sort(sorted.begin(), sorted.end(), [](const LockedArchive& a, const LockedArchive& b) {
        return std::tie(a.platform, a.product, a.component, a.relative_path) <
               std::tie(b.platform, b.product, b.component, b.relative_path);
    });
    toml::array arr;
    for (const auto& a : sorted)
        arr.push_back(toml::table{{"platform", a.platform}, {"product", a.product}, {"component", a.component},
                                  {"relative_path", a.relative_path}, {"size", static_cast<int64_t>(a.size)},
                                  {"sha256", a.sha256}});
    if (!arr.empty()) root.insert("archive", std::move(arr));
    auto fs_sorted = files;
    std::sort(fs_sorted.begin(), fs_sorted.end(), [](const LockedFile& a, const LockedFile& b) { return a.path < b.path; });
    toml::array farr;
    for (const auto& f : fs_sorted)
        farr.push_back(toml::table{{"path", f.path}, {"size", static_cast<int64_t>(f.size)}, {"sha256", f.sha256}});
    if (!farr.empty()) root.insert("file", std::move(farr));

    std::ostringstream out;
    out << "# cudaenv.lock: the exact CUDA + cuDNN pair of this project, written by `cudaenv lock`.\n"
        << "# `cudaenv sync` installs exactly this. Do not edit it: change .cudaenv and run `cudaenv lock`.\n";
    if (adopted)
        out << "# This pair was adopted from folders on this machine (cudaenv add / discover), not installed\n"
            << "# from a mirror: it cannot be reproduced by download; `cudaenv sync` only checks it.\n";
    auto flags = toml::toml_formatter::default_flags & ~toml::format_flags::indent_sub_tables &
                 ~toml::format_flags::allow_literal_strings;
    out << toml::toml_formatter(root, flags) << "\n";
    return out.str();
}

std::filesystem::path lock_path_for(const std::filesystem::path& version_file) {
    return version_file.parent_path() / kLockFileName;
}

namespace {

// A mirror that is a folder given by a path relative to somewhere.
bool is_relative_folder(const std::string& location) {
    // Rooted (`/m`, `\\m`) counts as absolute on Windows too, though there it names the current drive's root.
    const auto p = fsx::from_utf8(location);
    return !location.empty() && location.find("://") == std::string::npos && !p.has_root_directory() &&
           !p.has_root_name();
}

}  // namespace

std::string LockFile::mirror_location(const std::filesystem::path& lock_file) const {
    if (!is_relative_folder(mirror)) return mirror;
    return fsx::to_utf8(fsx::absolute_normal(fsx::absolute_normal(lock_file).parent_path() / fsx::from_utf8(mirror)));
}

std::string lock_mirror_text(const std::string& location, const std::filesystem::path& cwd,
                             const std::filesystem::path& lock_file) {
    if (!is_relative_folder(location)) return location;
    auto folder = fsx::absolute_normal(cwd / fsx::from_utf8(location));
    auto rel = folder.lexically_relative(fsx::absolute_normal(lock_file).parent_path());
    if (rel.empty()) return fsx::to_utf8(folder);
    auto text = str::replace_all(fsx::to_utf8(rel), "\\", "/");
    while (text.size() > 1 && text.back() == '/') text.pop_back();
    return text;
}

}  // namespace cudaenv
