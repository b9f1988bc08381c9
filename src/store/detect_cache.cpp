#include "store/detect_cache.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/cudalibs.hpp"
#include "store/store.hpp"
#include "platform/platform.hpp"
#include "util/cache_file.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/records.hpp"

namespace cudaenv {

namespace {

// The first line of the file; another one (an older format) is no cache.
// Then one record (util/records.hpp) per folder:
//   id, key count, (path, stamp) per key, then the detection result:
//   "null", or "toolkit" / "cudnn" and its fields (encode/decode below).
constexpr std::string_view detection_header = "cudaenv detection cache 3\n";

void put_paths(std::vector<std::string>& out, const std::vector<fs::path>& ps) {
    out.push_back(std::to_string(ps.size()));
    for (const auto& p : ps) out.push_back(fsx::to_utf8(p));
}

std::vector<fs::path> take_paths(records::Fields& f) {
    auto n = f.number();
    if (n < 0 || n > 1000) throw std::out_of_range("record: bad count");
    std::vector<fs::path> out;
    for (long long i = 0; i < n; ++i) out.push_back(fsx::from_utf8(f.next()));
    return out;
}

}  // namespace

Version take_version(records::Fields& f) {
    auto v = Version::parse(f.next());
    if (!v) throw std::out_of_range("record: bad version");
    return *v;
}

// A layout by its name; an unknown name makes the record damaged.
template <class L>
L take_layout(records::Fields& f, std::optional<L> (*parse)(std::string_view)) {
    auto l = parse(f.str());
    if (!l) throw std::out_of_range("record: unknown layout");
    return *l;
}

std::vector<std::string> encode(const Toolkit& t) {
    std::vector<std::string> out = {"toolkit", fsx::to_utf8(t.root), t.version.str(), t.version_source,
                                    std::string(layout::name(t.layout))};
    put_paths(out, t.bin_dirs);
    put_paths(out, t.lib_dirs);
    out.push_back(t.windows ? "1" : "0");
    out.push_back(fsx::to_utf8(t.nvcc));
    return out;
}

Toolkit decode_toolkit(records::Fields& f) {
    Toolkit t;
    t.root = fsx::from_utf8(f.next());
    t.version = take_version(f);
    t.version_source = f.str();
    t.layout = take_layout(f, layout::toolkit_layout);
    t.bin_dirs = take_paths(f);
    t.lib_dirs = take_paths(f);
    t.windows = f.next() == "1";
    t.nvcc = fsx::from_utf8(f.next());
    return t;
}

std::vector<std::string> encode(const Cudnn& c) {
    std::vector<std::string> out = {"cudnn",   fsx::to_utf8(c.root),         c.variant,
                                    c.version.str(), std::to_string(c.cuda_major), c.cuda_major_source,
                                    std::string(layout::name(c.layout))};
    put_paths(out, c.bin_dirs);
    put_paths(out, c.lib_dirs);
    out.push_back(fsx::to_utf8(c.include_dir));
    out.push_back(c.windows ? "1" : "0");
    return out;
}

Cudnn decode_cudnn(records::Fields& f) {
    Cudnn c;
    c.root = fsx::from_utf8(f.next());
    c.variant = f.str();
    c.version = take_version(f);
    c.cuda_major = static_cast<int>(f.number());
    c.cuda_major_source = f.str();
    c.layout = take_layout(f, layout::cudnn_layout);
    c.bin_dirs = take_paths(f);
    c.lib_dirs = take_paths(f);
    c.include_dir = fsx::from_utf8(f.next());
    c.windows = f.next() == "1";
    return c;
}

namespace {

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
            for (const auto& h : cudalibs::cudnn_version_headers()) out.push_back(c->include_dir / h);
        }
        for (auto& s : layout::recognizer(c->layout).outside_dirs()) out.push_back(std::move(s));
        if (c->layout == layout::CudnnLayout::system) {
            for (auto d : {"/usr/include", "/usr/include/x86_64-linux-gnu", "/var/lib/dpkg/info"}) out.push_back(d);
        }
    }
    return out;
}

Stamps make_key(std::vector<fs::path> ps) {
    Stamps key;
    for (const auto& p : ps) {
        auto s = fsx::to_utf8(p);
        if (s.empty() || std::any_of(key.begin(), key.end(), [&](const auto& k) { return k.first == s; })) continue;
        key.emplace_back(s, path_stamp(p));
    }
    return key;
}

// An absent path whose folder is in the key says nothing more: creating it
// changes that folder's mtime (or needs the folder created first, which the
// folder's own entry shows). Left out, a lookup stats fewer paths.
void drop_implied(Stamps& key) {
    std::vector<std::string> present;
    for (const auto& [p, st] : key) present.push_back(p);
    std::erase_if(key, [&](const auto& k) {
        if (k.second != "-") return false;
        auto parent = fsx::to_utf8(fsx::from_utf8(k.first).parent_path());
        return parent != k.first && std::find(present.begin(), present.end(), parent) != present.end();
    });
}

}  // namespace


DetectionCache::DetectionCache(fs::path store_root) : file_(Store::detection_cache_file(store_root)) {
    load_cache_index(file_, detection_header, 16u << 20, text_, entries_);
}

DetectionCache::DetectionCache(Store& store) : DetectionCache(store.root()) {}

DetectionCache::~DetectionCache() { save(); }

std::optional<std::vector<std::string_view>> DetectionCache::valid(const std::string& id) const {
    auto it = entries_.find(id);
    if (it == entries_.end()) return std::nullopt;
    auto fields = records::fields_of(it->second);
    if (!fields) return std::nullopt;
    try {
        records::Fields f(*fields, 1);
        Stamps key;
        if (!stamps_hold(f, key)) return std::nullopt;
        if (watch_) watch_->insert(watch_->end(), key.begin(), key.end());
        return std::vector<std::string_view>(fields->begin() + 2 + 2 * key.size(), fields->end());
    } catch (const std::out_of_range&) {
        return std::nullopt;  // a damaged record: detect again
    }
}

void DetectionCache::put(const std::string& id, const Stamps& key, const std::vector<std::string>& data) {
    std::vector<std::string> fields = {id};
    put_stamps(fields, key);
    fields.insert(fields.end(), data.begin(), data.end());
    std::string rec;
    for (const auto& f : fields) records::put(rec, f);
    records::end(rec, 0);
    owned_.push_back(std::move(rec));
    entries_[id] = owned_.back();
    dirty_ = true;
}

template <class T, class Decode>
std::optional<T> DetectionCache::kept(const std::string& id, std::string_view kind, Decode decode, bool& hit) const {
    hit = false;
    auto data = valid(id);
    if (!data || data->empty()) return std::nullopt;
    try {
        records::Fields f(*data);
        auto what = f.next();
        if (what == "null") {
            hit = true;
            return std::nullopt;
        }
        if (what != kind) return std::nullopt;
        auto out = decode(f);
        hit = true;
        return out;
    } catch (const std::out_of_range&) {
        return std::nullopt;  // detect again
    }
}

template <class T, class Detect, class KeyPaths>
std::optional<T> DetectionCache::detect_and_keep(const std::string& id, Detect detect, KeyPaths key_paths) {
    // The key is taken before detection: a change made while it reads shows as stale next time.
    auto before = make_key(key_paths(std::optional<T>()));
    std::optional<T> found = detect();
    ++detections_;
    auto key = make_key(key_paths(found));
    for (auto& k : key)
        for (const auto& b : before)
            if (b.first == k.first) k.second = b.second;
    drop_implied(key);
    if (watch_) watch_->insert(watch_->end(), key.begin(), key.end());
    put(id, key, found ? encode(*found) : std::vector<std::string>{"null"});
    return found;
}

std::optional<Toolkit> DetectionCache::toolkit(const fs::path& dir_in) {
    auto dir = fsx::absolute_normal(dir_in);
    const std::string id = "toolkit\n" + fsx::to_utf8(dir);
    bool hit = false;
    auto found = kept<Toolkit>(id, "toolkit", decode_toolkit, hit);
    if (hit) return found;
    return detect_and_keep<Toolkit>(id, [&] { return detect_toolkit(dir); },
                                    [&](const std::optional<Toolkit>& t) { return toolkit_key_paths(dir, t); });
}

std::optional<Cudnn> DetectionCache::cudnn(const fs::path& dir_in, const std::string& variant) {
    auto dir = fsx::absolute_normal(dir_in);
    const std::string id = "cudnn\n" + fsx::to_utf8(dir) + "\n" + variant;
    bool hit = false;
    auto found = kept<Cudnn>(id, "cudnn", decode_cudnn, hit);
    if (hit) return found;
    return detect_and_keep<Cudnn>(id, [&] { return detect_cudnn(dir, variant); },
                                  [&](const std::optional<Cudnn>& c) { return cudnn_key_paths(dir, variant, c); });
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
    std::string out(detection_header);
    for (const auto& [id, rec] : entries_) out += rec;
    save_cache_file(file_, out);
}

void detect_again(Store& store) {
    DetectionCache cache(store);
    cache.refresh();
    for (const auto& t : store.toolkits()) cache.toolkit(t.path);
    for (const auto& c : store.cudnns()) cache.cudnn(c.path, c.variant);
}

}  // namespace cudaenv
