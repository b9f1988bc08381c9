#include "setup/setup_record.hpp"

#include <sstream>
#include <toml++/toml.h>

#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/toml_file.hpp"

namespace cudaenv {

namespace {

std::vector<std::string> strings(const toml::node_view<const toml::node>& node) {
    std::vector<std::string> out;
    if (auto* arr = node.as_array())
        for (auto& d : *arr)
            if (auto s = d.value<std::string>()) out.push_back(*s);
    return out;
}

toml::array array_of(const std::vector<std::string>& v) {
    toml::array a;
    for (const auto& s : v) a.push_back(s);
    return a;
}

}  // namespace

bool SetupRecord::empty() const {
    return profiles.empty() && !win.path_entry && !win.install_entry && !win.autorun_set && !install && pythons.empty();
}

ProfileRecord* SetupRecord::find(const std::string& path) {
    for (auto& p : profiles)
        if (p.path == path) return &p;
    return nullptr;
}

SetupRecord SetupRecord::parse(const std::string& text, const std::string& origin) {
    SetupRecord r;
    // Bounded before toml++ sees it, as every TOML file of the store is (util/toml_file.hpp).
    const toml::table ct = parse_store_toml(text, fsx::from_utf8(origin));
    if (auto* arr = ct["profile"].as_array())
        for (auto& node : *arr) {
            auto* p = node.as_table();
            if (!p) continue;
            const auto& pt = *p;
            ProfileRecord pr;
            pr.path = pt["path"].value_or(std::string());
            pr.shell = pt["shell"].value_or(std::string());
            pr.created = pt["created"].value_or(false);
            pr.created_dirs = strings(pt["created_dirs"]);
            auto bytes = pt["inserted"].value<std::string>();
            auto offset = pt["offset"].value<int64_t>();
            if (bytes && offset && *offset >= 0) pr.inserted = Insertion{static_cast<size_t>(*offset), *bytes};
            if (!pr.path.empty()) r.profiles.push_back(pr);
        }
    if (auto* w = ct["windows"].as_table()) {
        const auto& wt = *w;
        if (auto s = wt["path_entry"].value<std::string>()) r.win.path_entry = *s;
        if (auto s = wt["install_entry"].value<std::string>()) r.win.install_entry = *s;
        r.win.path_value_created = wt["path_value_created"].value_or(false);
        if (auto s = wt["autorun_set"].value<std::string>()) r.win.autorun_set = *s;
        if (auto s = wt["autorun_before"].value<std::string>()) r.win.autorun_before = *s;
        r.win.autorun_before_expandable = wt["autorun_before_expandable"].value_or(false);
        r.win.autorun_existed = wt["autorun_existed"].value_or(false);
        r.win.autorun_key_created = wt["autorun_key_created"].value_or(false);
    }
    if (auto* arr = ct["python"].as_array())
        for (auto& node : *arr) {
            auto* p = node.as_table();
            if (!p) continue;
            const auto& pt = *p;
            PythonRecord py;
            py.interpreter = pt["interpreter"].value_or(std::string());
            py.site_packages = pt["site_packages"].value_or(std::string());
            py.cache_tag = pt["cache_tag"].value_or(std::string());
            py.pycache_existed = pt["pycache_existed"].value_or(false);
            py.files = strings(pt["files"]);
            py.contents = strings(pt["contents"]);
            if (py.site_packages.empty() || py.files.size() != py.contents.size())
                throw Error(origin + ": a [[python]] entry lacks its folder or the bytes of its files",
                            "`cudaenv setup` keeps what it changed there; fix or remove the file");
            r.pythons.push_back(std::move(py));
        }
    if (auto* i = ct["install"].as_table()) {
        const auto& it = *i;
        InstallRecord ir;
        ir.dir = it["dir"].value_or(std::string());
        ir.dir_created = it["dir_created"].value_or(false);
        ir.created_dirs = strings(it["created_dirs"]);
        ir.files = strings(it["files"]);
        if (!ir.dir.empty()) r.install = ir;
    }
    return r;
}

std::string SetupRecord::serialize() const {
    toml::array arr;
    for (const auto& p : profiles) {
        toml::table pt{{"path", p.path},
                       {"shell", p.shell},
                       {"created", p.created},
                       {"created_dirs", array_of(p.created_dirs)}};
        if (p.inserted) {
            pt.insert("offset", static_cast<int64_t>(p.inserted->offset));
            pt.insert("inserted", p.inserted->bytes);
        }
        arr.push_back(pt);
    }
    toml::table t{{"profile", arr}};
    toml::table w;
    if (win.path_entry) w.insert("path_entry", *win.path_entry);
    if (win.install_entry) w.insert("install_entry", *win.install_entry);
    if (win.path_entry || win.install_entry) w.insert("path_value_created", win.path_value_created);
    if (win.autorun_set) {
        w.insert("autorun_set", *win.autorun_set);
        w.insert("autorun_existed", win.autorun_existed);
        w.insert("autorun_key_created", win.autorun_key_created);
        if (win.autorun_before) {
            w.insert("autorun_before", *win.autorun_before);
            w.insert("autorun_before_expandable", win.autorun_before_expandable);
        }
    }
    if (!w.empty()) t.insert("windows", w);
    if (install)
        t.insert("install", toml::table{{"dir", install->dir},
                                        {"dir_created", install->dir_created},
                                        {"created_dirs", array_of(install->created_dirs)},
                                        {"files", array_of(install->files)}});
    if (!pythons.empty()) {
        toml::array py;
        for (const auto& p : pythons)
            py.push_back(toml::table{{"interpreter", p.interpreter},
                                     {"site_packages", p.site_packages},
                                     {"cache_tag", p.cache_tag},
                                     {"pycache_existed", p.pycache_existed},
                                     {"files", array_of(p.files)},
                                     {"contents", array_of(p.contents)}});
        t.insert("python", py);
    }
    std::ostringstream out;
    // Plain strings with escapes only: a multi-line string would drop the
    // line break that starts an inserted block when read back.
    out << "# What `cudaenv setup` changed, so `cudaenv setup --undo` can put it back exactly.\n"
        << toml::toml_formatter{t, toml::format_flags::none} << "\n";
    return out.str();
}

SetupRecord SetupRecord::load(const std::filesystem::path& file) {
    auto text = read_store_file(file);
    return text ? parse(*text, fsx::to_utf8(file)) : SetupRecord{};
}

void SetupRecord::save(const std::filesystem::path& file) const {
    if (empty()) {
        std::error_code ec;
        std::filesystem::remove(file, ec);
        return;
    }
    fsx::write_file_atomic(file, serialize());
}

}  // namespace cudaenv
