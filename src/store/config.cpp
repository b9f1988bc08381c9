#include "store/config.hpp"

#include <sstream>
#include <toml++/toml.h>

#include "util/toml_file.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

[[noreturn]] void bad(const std::filesystem::path& file, const toml::node& node, const std::string& what,
                      const std::string& hint = "fix or remove the file; cudaenv has not changed it") {
    auto src = node.source();
    throw Error(fsx::to_utf8(file) + ":" + std::to_string(src.begin.line) + ":" + std::to_string(src.begin.column) +
                    ": " + what,
                hint);
}

// A pin is `<CUDA version> = "<cuDNN version>"`.
void check_pin(const std::filesystem::path& file, std::string_view key, const toml::node& value) {
    if (!value.is_string()) bad(file, value, "pin for '" + std::string(key) + "' must be a string");
    if (!Version::parse(key))
        bad(file, value, "'" + std::string(key) + "' in [pins] is not a CUDA version, so it is no pin",
            "a pin is `<CUDA version> = \"<cuDNN version>\"` (cudaenv pair writes them); cudaenv has not changed the file");
    if (!Version::parse(value.as_string()->get()))
        bad(file, value, "the pin for CUDA " + std::string(key) + " is not a cuDNN version: '" + value.as_string()->get() + "'",
            "a pin is `<CUDA version> = \"<cuDNN version>\"` (cudaenv pair writes them); cudaenv has not changed the file");
}

// A setting appended below [pins] (`echo 'mirror = ...' >> config.toml`, as
// the docs once said) lands in that table. It is read as the setting (one
// above [pins] wins) with a warning, never a reason for `use` or the prompt
// hook to fail; Config::to_toml writes it above the tables.
void setting_below_pins(const std::filesystem::path& file, std::string_view key, const toml::node& value,
                        std::optional<std::string>& setting, std::vector<std::string>& warnings) {
    const auto line = fsx::to_utf8(file) + ":" + std::to_string(value.source().begin.line);
    const std::string toml_rule = "TOML puts every line after a [table] header into that table";
    if (!value.is_string()) bad(file, value, "'" + std::string(key) + "' below [pins] must be a string");
    if (setting) {
        warnings.push_back(line + ": `" + std::string(key) + "` below [pins] is ignored: the one above it is used (" +
                           toml_rule + "); remove this line");
        return;
    }
    setting = value.as_string()->get();
    warnings.push_back(line + ": `" + std::string(key) + "` is below [pins] (" + toml_rule +
                       "): read as the setting; move the line above [pins] (cudaenv does when it next writes the file)");
}

bool is_msvc_setting(const std::string& v) { return v == "auto" || v == "off"; }

std::string need_string(const std::filesystem::path& file, const toml::table& t, const char* key) {
    auto* n = t.get(key);
    if (!n || !n->is_string()) bad(file, n ? *n : static_cast<const toml::node&>(t), std::string("'") + key + "' must be a string");
    return n->as_string()->get();
}

Version need_version(const std::filesystem::path& file, const toml::table& t, const char* key) {
    auto s = need_string(file, t, key);
    auto v = Version::parse(s);
    if (!v) bad(file, *t.get(key), std::string("'") + key + "' is not a version: " + s);
    return *v;
}

}  // namespace

Config Config::load(const std::filesystem::path& file) {
    Config c;
    auto text = read_store_file(file);
    if (!text) return c;
    return parse(*text, file);
}

Config Config::parse(const std::string& text, const std::filesystem::path& file) {
    Config c;
    auto root = parse_store_toml(text, file);
    if (auto* g = root.get("global")) {
        if (!g->is_string()) bad(file, *g, "'global' must be a string");
        c.global = g->as_string()->get();
    }
    if (auto* m = root.get("mirror")) {
        if (!m->is_string()) bad(file, *m, "'mirror' must be a string");
        c.mirror = m->as_string()->get();
    }
    if (auto* m = root.get("msvc")) {
        if (!m->is_string() || !is_msvc_setting(m->as_string()->get()))
            bad(file, *m, "'msvc' must be \"auto\" or \"off\"");
        c.msvc = m->as_string()->get();
    }
    if (auto* p = root.get("pins")) {
        if (!p->is_table()) bad(file, *p, "'pins' must be a table");
        for (auto&& [k, v] : *p->as_table()) {
            if (k.str() == "mirror" || k.str() == "global" || k.str() == "msvc") {
                if (k.str() == "msvc" && v.is_string() && !is_msvc_setting(v.as_string()->get()))
                    bad(file, v, "'msvc' must be \"auto\" or \"off\"");
                auto& setting = k.str() == "mirror" ? c.mirror : k.str() == "global" ? c.global : c.msvc;
                setting_below_pins(file, k.str(), v, setting, c.warnings);
                continue;
            }
            check_pin(file, k.str(), v);
            c.pins[std::string(k.str())] = v.as_string()->get();
        }
    }
    if (auto* ts = root.get("toolkit")) {
        if (!ts->is_array_of_tables()) bad(file, *ts, "'toolkit' must be an array of tables ([[toolkit]])");
        for (auto& n : *ts->as_array()) {
            auto& t = *n.as_table();
            c.toolkits.push_back({need_string(file, t, "path"), need_version(file, t, "version")});
        }
    }
    if (auto* cs = root.get("cudnn")) {
        if (!cs->is_array_of_tables()) bad(file, *cs, "'cudnn' must be an array of tables ([[cudnn]])");
        for (auto& n : *cs->as_array()) {
            auto& t = *n.as_table();
            ExternalCudnn e;
            e.path = need_string(file, t, "path");
            e.version = need_version(file, t, "version");
            if (auto* v = t.get("variant")) {
                if (!v->is_string()) bad(file, *v, "'variant' must be a string");
                e.variant = v->as_string()->get();
            }
            if (auto* m = t.get("cuda_major")) {
                if (!m->is_integer()) bad(file, *m, "'cuda_major' must be an integer");
                auto major = m->as_integer()->get();
                if (major < 0 || major > 1000) bad(file, *m, "'cuda_major' is out of range: " + std::to_string(major));
                e.cuda_major = static_cast<int>(major);
            }
            c.cudnns.push_back(std::move(e));
        }
    }
    return c;
}

std::string Config::to_toml() const {
    toml::table root;
    if (global) root.insert("global", *global);
    if (mirror) root.insert("mirror", *mirror);
    if (msvc) root.insert("msvc", *msvc);
    if (!pins.empty()) {
        toml::table p;
        for (const auto& [k, v] : pins) p.insert(k, v);
        root.insert("pins", std::move(p));
    }
    if (!toolkits.empty()) {
        toml::array arr;
        for (const auto& t : toolkits) arr.push_back(toml::table{{"path", t.path}, {"version", t.version.str()}});
        root.insert("toolkit", std::move(arr));
    }
    if (!cudnns.empty()) {
        toml::array arr;
        for (const auto& c : cudnns) {
            toml::table t{{"path", c.path}, {"version", c.version.str()}, {"cuda_major", c.cuda_major}};
            if (!c.variant.empty()) t.insert("variant", c.variant);
            arr.push_back(std::move(t));
        }
        root.insert("cudnn", std::move(arr));
    }
    std::ostringstream out;
    out << "# cudaenv configuration (written by cudaenv; see `cudaenv --help`).\n" << root << "\n";
    return out.str();
}

void Config::save(const std::filesystem::path& file) const { fsx::write_file_atomic(file, to_toml()); }

}  // namespace cudaenv
