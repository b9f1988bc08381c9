#include "core/detect_cache.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/store.hpp"
#include "platform/platform.hpp"
#include "platform/stamp.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

using nlohmann::json;

// The first line of the file; another one (an older format) is no cache.
std::string header() { return "cudaenv detection cache 1\n"; }

// Ids hold paths (any bytes but NUL): hex keeps each entry on one line.
std::string hex(std::string_view s) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : s) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

std::string unhex(std::string_view s) {
    auto val = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    std::string out;
    for (size_t i = 0; i + 1 < s.size(); i += 2) out += static_cast<char>(val(s[i]) * 16 + val(s[i + 1]));
    return out;
}

json paths(const std::vector<fs::path>& ps) {
    auto a = json::array();
    for (const auto& p : ps) a.push_back(fsx::to_utf8(p));
    return a;
}

std::vector<fs::path> paths_from(const json& a) {
    std::vector<fs::path> out;
    for (const auto& s : a) out.push_back(fsx::from_utf8(s.get<std::string>()));
    return out;
}

json to_json(const Toolkit& t) {
    return {{"root", fsx::to_utf8(t.root)},       {"version", t.version.str()}, {"version_source", t.version_source},
            {"layout", t.layout},                  {"bin_dirs", paths(t.bin_dirs)}, {"lib_dirs", paths(t.lib_dirs)},
            {"windows", t.windows},                {"nvcc", fsx::to_utf8(t.nvcc)}};
}

Toolkit toolkit_from(const json& j) {
    Toolkit t;
    t.root = fsx::from_utf8(j.at("root").get<std::string>());
    t.version = Version::parse(j.at("version").get<std::string>()).value();
    t.version_source = j.at("version_source").get<std::string>();
    t.layout = j.at("layout").get<std::string>();
    t.bin_dirs = paths_from(j.at("bin_dirs"));
    t.lib_dirs = paths_from(j.at("lib_dirs"));
    t.windows = j.at("windows").get<bool>();
    t.nvcc = fsx::from_utf8(j.at("nvcc").get<std::string>());
    return t;
}

json to_json(const Cudnn& c) {
    return {{"root", fsx::to_utf8(c.root)},
            {"variant", c.variant},
            {"version", c.version.str()},
            {"cuda_major", c.cuda_major},
            {"cuda_major_source", c.cuda_major_source},
            {"layout", c.layout},
            {"bin_dirs", paths(c.bin_dirs)},
            {"lib_dirs", paths(c.lib_dirs)},
            {"include_dir", fsx::to_utf8(c.include_dir)},
            {"windows", c.windows}};
}

Cudnn cudnn_from(const json& j) {
    Cudnn c;
    c.root = fsx::from_utf8(j.at("root").get<std::string>());
    c.variant = j.at("variant").get<std::string>();
    c.version = Version::parse(j.at("version").get<std::string>()).value();
    c.cuda_major = j.at("cuda_major").get<int>();
    c.cuda_major_source = j.at("cuda_major_source").get<std::string>();
    c.layout = j.at("layout").get<std::string>();
    c.bin_dirs = paths_from(j.at("bin_dirs"));
    c.lib_dirs = paths_from(j.at("lib_dirs"));
    c.include_dir = fsx::from_utf8(j.at("include_dir").get<std::string>());
    c.windows = j.at("windows").get<bool>();
    return c;
}

// A pip wheel (site-packages/nvidia/<pkg>): its version is in a dist-info
// folder beside, so a pip upgrade shows as a change of site-packages.
void add_site_packages(const fs::path& dir, std::vector<fs::path>& out) {
    if (fsx::to_utf8(dir.parent_path().filename()) == "nvidia") out.push_back(dir.parent_path().parent_path());
}

// Every place whose change could change what detection finds in `dir`:
// the places it looks (found or not) and what it found.
std::vector<fs::path> toolkit_key_paths(const fs::path& dir, const std::optional<Toolkit>& t) {
    std::vector<fs::path> out = {dir,
                                 dir / "bin",
                                 dir / "bin" / "x64",
                                 dir / "lib64",
                                 dir / "lib",
                                 dir / "include",
                                 dir / "targets" / "x86_64-linux" / "lib",
                                 dir / "targets" / "x86_64-linux" / "include",
                                 dir / "version.json",
                                 dir / "include" / "cuda_runtime_api.h"};
    add_site_packages(dir, out);
    if (fsx::to_utf8(dir.filename()) == "nvidia-cuda-toolkit") {
        for (const auto& s : platform::system_library_dirs()) out.push_back(s);
        out.push_back("/usr/include/cuda_runtime_api.h");
    }
    if (t) {
        out.insert(out.end(), t->bin_dirs.begin(), t->bin_dirs.end());
        out.insert(out.end(), t->lib_dirs.begin(), t->lib_dirs.end());
    }
    return out;
}

std::vector<fs::path> cudnn_key_paths(const fs::path& dir, const std::string& variant, const std::optional<Cudnn>& c) {
    std::vector<fs::path> out = {dir,
                                 dir / "bin",
                                 dir / "bin" / "x64",
                                 dir / "lib64",
                                 dir / "lib",
                                 dir / "lib" / "x86_64-linux-gnu",
                                 dir / "include",
                                 dir / "include" / "x86_64-linux-gnu"};
    add_site_packages(dir, out);
    if (!variant.empty()) {
        auto v = fsx::from_utf8(variant);
        out.insert(out.end(), {dir / "bin" / v, dir / "bin" / v / "x64", dir / "include" / v});
    }
    if (c) {
        out.insert(out.end(), c->bin_dirs.begin(), c->bin_dirs.end());
        out.insert(out.end(), c->lib_dirs.begin(), c->lib_dirs.end());
        if (!c->include_dir.empty()) {
            out.push_back(c->include_dir);
            for (auto h : {"cudnn_version.h", "cudnn_version_v9.h", "cudnn_version_v8.h", "cudnn.h"})
                out.push_back(c->include_dir / h);
        }
        if (c->layout == "system") {
            for (const auto& s : platform::system_library_dirs()) out.push_back(s);
            for (auto d : {"/usr/include", "/usr/include/x86_64-linux-gnu", "/var/lib/dpkg/info"}) out.push_back(d);
        }
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> make_key(std::vector<fs::path> ps) {
    std::vector<std::pair<std::string, std::string>> key;
    for (const auto& p : ps) {
        auto s = fsx::to_utf8(p);
        if (s.empty() || std::any_of(key.begin(), key.end(), [&](const auto& k) { return k.first == s; })) continue;
        key.emplace_back(s, path_stamp(p));
    }
    return key;
}

}  // namespace

std::string path_stamp(const fs::path& p) {
    auto st = platform::file_stamp(p);
    if (!st) return "-";
    return st->dir ? std::to_string(st->mtime_ns) : std::to_string(st->mtime_ns) + ":" + std::to_string(st->size);
}

DetectionCache::DetectionCache(fs::path store_root) : file_(std::move(store_root) / "cache" / "detected.txt") {
    auto text = fsx::read_file(file_, 16u << 20);
    if (!text || !text->starts_with(header())) return;  // absent, or another format: an empty cache
    size_t pos = text->find('\n');
    while (pos != std::string::npos && pos + 1 < text->size()) {
        size_t end = text->find('\n', pos + 1);
        auto line = std::string_view(*text).substr(pos + 1, (end == std::string::npos ? text->size() : end) - pos - 1);
        if (auto tab = line.find('\t'); tab != std::string_view::npos)
            entries_[unhex(line.substr(0, tab))] = Entry{std::string(line.substr(tab + 1))};
        pos = end;
    }
}

DetectionCache::DetectionCache(Store& store) : DetectionCache(store.root()) {}

DetectionCache::~DetectionCache() { save(); }

std::optional<std::string> DetectionCache::valid(const std::string& id) const {
    auto it = entries_.find(id);
    if (it == entries_.end()) return std::nullopt;
    auto j = json::parse(it->second.line, nullptr, /*allow_exceptions=*/false);
    try {
        for (const auto& k : j.at("key"))
            if (path_stamp(fsx::from_utf8(k.at(0).get<std::string>())) != k.at(1).get<std::string>()) return std::nullopt;
        return j.at("data").dump();
    } catch (const json::exception&) {
        return std::nullopt;  // a damaged line: detect again
    }
}

void DetectionCache::put(const std::string& id, const std::vector<std::pair<std::string, std::string>>& key,
                         const std::string& data) {
    auto k = json::array();
    for (const auto& [p, st] : key) k.push_back({p, st});
    entries_[id] = Entry{json{{"key", k}, {"data", json::parse(data)}}.dump()};
    dirty_ = true;
}

std::optional<Toolkit> DetectionCache::toolkit(const fs::path& dir_in) {
    auto dir = fsx::absolute_normal(dir_in);
    const std::string id = "toolkit\n" + fsx::to_utf8(dir);
    if (auto data = valid(id)) {
        try {
            auto j = json::parse(*data);
            if (j.is_null()) return std::nullopt;
            return toolkit_from(j);
        } catch (const std::exception&) {
            // fall through: detect again
        }
    }
    // The key is taken before detection: a change made while it reads shows as stale next time.
    auto before = make_key(toolkit_key_paths(dir, std::nullopt));
    auto t = detect_toolkit(dir);
    ++detections_;
    auto key = make_key(toolkit_key_paths(dir, t));
    for (auto& k : key)
        for (const auto& b : before)
            if (b.first == k.first) k.second = b.second;
    put(id, key, t ? to_json(*t).dump() : "null");
    return t;
}

std::optional<Cudnn> DetectionCache::cudnn(const fs::path& dir_in, const std::string& variant) {
    auto dir = fsx::absolute_normal(dir_in);
    const std::string id = "cudnn\n" + fsx::to_utf8(dir) + "\n" + variant;
    if (auto data = valid(id)) {
        try {
            auto j = json::parse(*data);
            if (j.is_null()) return std::nullopt;
            return cudnn_from(j);
        } catch (const std::exception&) {
        }
    }
    auto before = make_key(cudnn_key_paths(dir, variant, std::nullopt));
    auto c = detect_cudnn(dir, variant);
    ++detections_;
    auto key = make_key(cudnn_key_paths(dir, variant, c));
    for (auto& k : key)
        for (const auto& b : before)
            if (b.first == k.first) k.second = b.second;
    put(id, key, c ? to_json(*c).dump() : "null");
    return c;
}

void DetectionCache::refresh() {
    if (!entries_.empty()) dirty_ = true;
    entries_.clear();
}

void DetectionCache::forget(const fs::path& dir_in, const std::string& variant) {
    auto dir = fsx::to_utf8(fsx::absolute_normal(dir_in));
    dirty_ = entries_.erase("toolkit\n" + dir) + entries_.erase("cudnn\n" + dir + "\n" + variant) > 0 || dirty_;
}

void DetectionCache::save() {
    if (!dirty_ || file_.empty()) return;
    dirty_ = false;
    std::string out = header();
    for (const auto& [id, e] : entries_) out += hex(id) + "\t" + e.line + "\n";
    // A cache: a store that cannot be written (a shared read-only one) simply keeps none.
    if (!fsx::is_dir(file_.parent_path().parent_path())) return;
    std::error_code ec;
    fs::create_directories(file_.parent_path(), ec);
    try {
        fsx::write_file_atomic(file_, out);
    } catch (const Error&) {
    }
}

}  // namespace cudaenv
