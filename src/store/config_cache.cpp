#include "store/config_cache.hpp"

#include <stdexcept>

#include "util/cache_file.hpp"
#include "util/toml_file.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/records.hpp"

namespace cudaenv {

namespace {

// The first record: what this is, and the text of the config.toml it copies.
// 3: pins that are not versions are refused (a copy made before may hold one);
// 4: every record checksummed (util/records.hpp); 5: the warnings of a
// setting read below [pins] (Config::warnings); 6: the msvc setting (a copy
// of 5 made from the same text would lack it).
constexpr std::string_view config_copy_kind = "cudaenv config copy 6";

}  // namespace

std::optional<Config> read_config_cache(const std::filesystem::path& cache_file, std::string_view toml) {
    auto text = fsx::read_file(cache_file, kMaxStoreFileBytes);
    if (!text) return std::nullopt;
    records::Reader r(*text);
    std::vector<std::string_view> f;
    if (!r.next(f) || !r.intact() || f.size() != 2 || f[0] != config_copy_kind || f[1] != toml) return std::nullopt;
    Config c;
    try {
        while (r.next(f)) {
            if (!r.intact()) return std::nullopt;  // changed in place: parse config.toml again
            records::Fields in(f);
            auto what = in.next();
            auto version = [&in] {
                auto v = Version::parse(in.next());
                if (!v) throw std::out_of_range("record: bad version");
                return *v;
            };
            if (what == "global") {
                c.global = in.str();
            } else if (what == "mirror") {
                c.mirror = in.str();
            } else if (what == "msvc") {
                c.msvc = in.str();
            } else if (what == "pin") {
                auto k = in.str();
                c.pins[k] = in.str();
            } else if (what == "toolkit") {
                ExternalToolkit t;
                t.path = in.str();
                t.version = version();
                c.toolkits.push_back(std::move(t));
            } else if (what == "cudnn") {
                ExternalCudnn e;
                e.path = in.str();
                e.variant = in.str();
                e.version = version();
                e.cuda_major = static_cast<int>(in.number());
                c.cudnns.push_back(std::move(e));
            } else if (what == "warning") {
                c.warnings.push_back(in.str());
            } else if (what == "end") {
                return c;  // complete: the last record made it to disk
            } else {
                return std::nullopt;
            }
        }
    } catch (const std::out_of_range&) {
    }
    return std::nullopt;  // damaged or cut short: parse config.toml
}

void write_config_cache(const std::filesystem::path& cache_file, std::string_view toml, const Config& c) {
    std::string out;
    records::put_record(out, {config_copy_kind, toml});
    if (c.global) records::put_record(out, {"global", *c.global});
    if (c.mirror) records::put_record(out, {"mirror", *c.mirror});
    if (c.msvc) records::put_record(out, {"msvc", *c.msvc});
    for (const auto& [k, v] : c.pins) records::put_record(out, {"pin", k, v});
    for (const auto& t : c.toolkits) records::put_record(out, {"toolkit", t.path, t.version.str()});
    for (const auto& e : c.cudnns)
        records::put_record(out, {"cudnn", e.path, e.variant, e.version.str(), std::to_string(e.cuda_major)});
    for (const auto& w : c.warnings) records::put_record(out, {"warning", w});
    records::put_record(out, {"end"});
    // Only beside a store that is there; a read-only one (the shared system store, for a user) keeps no copy.
    save_cache_file(cache_file, out);
}

Config load_config_cached(const std::filesystem::path& config_file, const std::filesystem::path& cache_file,
                          std::string* text_out) {
    auto text = read_store_file(config_file);
    if (text_out) *text_out = text.value_or("");
    if (!text) return Config{};
    if (auto c = read_config_cache(cache_file, *text)) return std::move(*c);
    auto c = Config::parse(*text, config_file);
    write_config_cache(cache_file, *text, c);
    return c;
}

}  // namespace cudaenv
