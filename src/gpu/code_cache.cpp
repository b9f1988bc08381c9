#include "gpu/code_cache.hpp"

#include <charconv>
#include <stdexcept>

#include "store/stamps.hpp"
#include "store/store.hpp"
#include "util/cache_file.hpp"
#include "util/fs.hpp"
#include "util/records.hpp"

namespace cudaenv::gpu {

namespace {

// The first line; another (an older format, or answers of an older reader:
// 3 reads fatbins the linker aligned further apart, and those in data
// sections; 4 looks into cubins for code; 5 searches a section that only
// starts with a fatbin as data; 6 names architectures from the cubin's own
// header, with "f" and unknown encodings) is no cache. Then records:
//   "file\n<path>", stamp, format, problem, fatbins, compressed, ptx_isa,
//       #sass, (sm, variant, count)..., #ptx, (sm, variant, count)...,
//       #kernel_less, (sm, variant, count)...,
//       then the same counts of the part found in data sections: fatbins, #sass..., #ptx..., #kernel_less...
//   "dirs\n<id>", #dirs, (dir, stamp)..., #files, file...
//   "table\n<key>", runs (0 native, 1 JIT, 2 no, 3 no row), why, source, unconfirmed
constexpr std::string_view code_cache_header = "cudaenv gpu code cache 6\n";

void put_archs(std::vector<std::string>& out, const std::map<Arch, int>& m) {
    out.push_back(std::to_string(m.size()));
    for (const auto& [a, n] : m) {
        // The variant: 0 plain, 1 "a", 2 "f", u an encoding not known (its raw value in place of sm).
        out.push_back(std::to_string(a.unknown ? a.raw : static_cast<uint64_t>(a.sm)));
        out.push_back(a.unknown ? "u" : a.specific ? "1" : a.family ? "2" : "0");
        out.push_back(std::to_string(n));
    }
}

std::map<Arch, int> take_archs(records::Fields& f) {
    auto n = f.number();
    if (n < 0 || n > 1000) throw std::out_of_range("record: bad count");
    std::map<Arch, int> out;
    for (long long i = 0; i < n; ++i) {
        Arch a;
        auto value = f.next();
        auto variant = f.next();
        uint64_t v = 0;
        if (std::from_chars(value.data(), value.data() + value.size(), v).ptr != value.data() + value.size())
            throw std::out_of_range("record: bad architecture");
        if (variant == "u") {
            a = Arch::unknown_value(v);
        } else {
            if (v > 999) throw std::out_of_range("record: bad architecture");
            a.sm = static_cast<int>(v);
            a.specific = variant == "1";
            a.family = variant == "2";
        }
        out[a] = static_cast<int>(f.number());
    }
    return out;
}

std::string record_of(const std::string& id, const std::vector<std::string>& fields) {
    std::string rec;
    records::put(rec, id);
    for (const auto& f : fields) records::put(rec, f);
    records::end(rec, 0);
    return rec;
}

}  // namespace

std::vector<std::string> encode(const FileCode& c) {
    std::vector<std::string> out = {c.format == Format::elf ? "elf" : c.format == Format::pe ? "pe" : "none", c.problem,
                                    std::to_string(c.code.fatbins), std::to_string(c.code.compressed),
                                    std::to_string(c.code.ptx_isa)};
    for (const Code* code : {&c.code, &c.embedded}) {
        if (code == &c.embedded) out.push_back(std::to_string(c.embedded.fatbins));
        put_archs(out, code->sass);
        put_archs(out, code->ptx);
        put_archs(out, code->kernel_less);
    }
    return out;
}

FileCode decode_file_code(const std::vector<std::string_view>& fields, size_t first) {
    records::Fields f(fields, first);
    FileCode c;
    auto format = f.next();
    c.format = format == "elf" ? Format::elf : format == "pe" ? Format::pe : Format::none;
    c.problem = f.str();
    c.code.fatbins = static_cast<int>(f.number());
    c.code.compressed = static_cast<int>(f.number());
    c.code.ptx_isa = static_cast<int>(f.number());
    for (Code* code : {&c.code, &c.embedded}) {
        if (code == &c.embedded) c.embedded.fatbins = static_cast<int>(f.number());
        code->sass = take_archs(f);
        code->ptx = take_archs(f);
        code->kernel_less = take_archs(f);
    }
    return c;
}

CodeCache::CodeCache(const fs::path& store_root) : file_(Store::gpu_code_cache_file(store_root)) {
    load_cache_index(file_, code_cache_header, 64u << 20, text_, entries_);
}

CodeCache::~CodeCache() { save(); }

std::optional<FileCode> CodeCache::kept(const fs::path& path) const {
    auto p = fsx::to_utf8(path);
    auto it = entries_.find("file\n" + p);
    if (it == entries_.end()) return std::nullopt;
    auto fields = records::fields_of(it->second);
    if (!fields || fields->size() < 3 || (*fields)[1] != path_stamp(p)) return std::nullopt;
    try {
        return decode_file_code(*fields, 2);
    } catch (const std::out_of_range&) {
        return std::nullopt;
    }
}

FileCode CodeCache::file(const fs::path& path) {
    if (auto k = kept(path)) return *k;
    auto p = fsx::to_utf8(path);
    auto stamp = path_stamp(p);  // taken first: a file changed while it is read shows as stale next time
    auto code = read_file(path);
    ++reads_;
    if (!keep_new_) return code;
    auto fields = encode(code);
    fields.insert(fields.begin(), stamp);
    put("file\n" + p, record_of("file\n" + p, fields));
    return code;
}

std::optional<std::vector<fs::path>> CodeCache::kept_listing(const std::string& id) const {
    return kept_listing_of(id, nullptr);
}

std::optional<std::vector<fs::path>> CodeCache::kept_listing(const std::string& id,
                                                              const std::vector<fs::path>& dirs) const {
    return kept_listing_of(id, &dirs);
}

std::optional<std::vector<fs::path>> CodeCache::kept_listing_of(const std::string& id,
                                                                 const std::vector<fs::path>* dirs) const {
    auto it = entries_.find("dirs\n" + id);
    if (it == entries_.end()) return std::nullopt;
    auto fields = records::fields_of(it->second);
    if (!fields) return std::nullopt;
    try {
        records::Fields f(*fields, 1);
        Stamps kept;
        if (!stamps_hold(f, kept) || (dirs && kept.size() != dirs->size())) return std::nullopt;
        for (size_t i = 0; dirs && i < dirs->size(); ++i)
            if (kept[i].first != fsx::to_utf8((*dirs)[i])) return std::nullopt;
        auto count = f.number();
        if (count < 0 || count > 100000) return std::nullopt;
        std::vector<fs::path> out;
        for (long long i = 0; i < count; ++i) out.push_back(fsx::from_utf8(f.next()));
        return out;
    } catch (const std::out_of_range&) {
        return std::nullopt;
    }
}

void CodeCache::keep_listing(const std::string& id, const std::vector<fs::path>& dirs,
                             const std::vector<fs::path>& files) {
    Stamps key;
    for (const auto& d : dirs) key.emplace_back(fsx::to_utf8(d), path_stamp(d));
    std::vector<std::string> fields;
    put_stamps(fields, key);
    fields.push_back(std::to_string(files.size()));
    for (const auto& f : files) fields.push_back(fsx::to_utf8(f));
    put("dirs\n" + id, record_of("dirs\n" + id, fields));
}

std::optional<TableVerdict> CodeCache::kept_table(const std::string& key) const {
    auto it = entries_.find("table\n" + key);
    if (it == entries_.end()) return std::nullopt;
    auto fields = records::fields_of(it->second);
    if (!fields) return std::nullopt;
    try {
        records::Fields f(*fields, 1);
        auto runs = f.number();
        if (runs < 0 || runs > static_cast<int>(Runs::no_code)) return std::nullopt;
        TableVerdict v;
        v.runs = static_cast<Runs>(runs);
        v.why = f.str();
        v.source = f.str();
        v.unconfirmed = f.next() == "1";
        return v;
    } catch (const std::out_of_range&) {
        return std::nullopt;
    }
}

void CodeCache::keep_table(const std::string& key, const TableVerdict& v) {
    put("table\n" + key, record_of("table\n" + key, {std::to_string(static_cast<int>(v.runs)), v.why, v.source,
                                                      v.unconfirmed ? "1" : "0"}));
}

void CodeCache::put(const std::string& id, std::string record) {
    owned_.push_back(std::move(record));
    entries_[id] = owned_.back();
    dirty_ = true;
}

void CodeCache::save() {
    if (!dirty_ || file_.empty()) return;
    dirty_ = false;
    std::string out(code_cache_header);
    const auto tables = "@" + tables_hash();
    for (const auto& [id, rec] : entries_) {
        if (id.starts_with("file\n")) {
            auto fields = records::fields_of(rec);
            if (!fields || fields->size() < 2 || (*fields)[1] != path_stamp(id.substr(5))) continue;
        }
        if (id.starts_with("table\n") && !id.ends_with(tables)) continue;  // asked of other tables
        out += rec;
    }
    save_cache_file(file_, out);
}

}  // namespace cudaenv::gpu
