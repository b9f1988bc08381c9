#include "store/checks.hpp"

#include <sstream>
#include <toml++/toml.h>

#include "util/toml_file.hpp"
#include "util/fs.hpp"

namespace cudaenv {

std::string CheckRecord::status_line() const {
    std::string out = pass ? "pass" : "fail";
    if (!summary.empty()) out += ": " + summary;
    return out;
}

Checks Checks::load(const std::filesystem::path& file) {
    Checks c;
    auto text = read_store_file(file);
    if (!text) return c;
    return parse(*text, file);
}

Checks Checks::parse(const std::string& text, const std::filesystem::path& file) {
    Checks c;
    auto root = parse_store_toml(text, file);
    auto* all = root.get_as<toml::array>("pair");
    if (!all) return c;
    for (const auto& node : *all) {
        auto* e = node.as_table();
        if (!e) continue;
        auto str = [&](const char* k) { return e->get_as<std::string>(k) ? e->get_as<std::string>(k)->get() : ""; };
        CheckRecord r;
        r.spec = str("spec");
        r.toolkit = str("toolkit");
        r.cudnn = str("cudnn");
        auto status = str("status");
        if (status != "pass" && status != "fail") continue;  // not a result
        r.pass = status == "pass";
        r.summary = str("summary");
        r.checked_at = str("checked_at");
        r.advice = str("advice");
        if (auto* s = e->get("seconds")) r.seconds = s->value<double>().value_or(0);
        c.pairs.push_back(std::move(r));
    }
    return c;
}

std::string Checks::to_toml() const {
    toml::array arr;
    for (const auto& r : pairs) {
        toml::table entry;
        entry.insert("spec", r.spec);
        entry.insert("toolkit", r.toolkit);
        if (!r.cudnn.empty()) entry.insert("cudnn", r.cudnn);
        entry.insert("status", r.pass ? "pass" : "fail");
        entry.insert("summary", r.summary);
        entry.insert("checked_at", r.checked_at);
        entry.insert("seconds", r.seconds);
        if (!r.advice.empty()) entry.insert("advice", r.advice);
        arr.push_back(std::move(entry));
    }
    toml::table t;
    t.insert("pair", std::move(arr));
    std::ostringstream out;
    out << "# Last `cudaenv check` result per pair; written by cudaenv.\n" << t << "\n";
    return out.str();
}

void Checks::save(const std::filesystem::path& file) const { fsx::write_file_atomic(file, to_toml()); }

void Checks::record(CheckRecord r) {
    // A pair is its folders: a new result replaces the one of the same folders.
    std::erase_if(pairs, [&](const CheckRecord& o) { return o.toolkit == r.toolkit && o.cudnn == r.cudnn; });
    pairs.push_back(std::move(r));
}

const CheckRecord* Checks::find(const std::string& spec, const std::string& toolkit, const std::string& cudnn) const {
    const CheckRecord* hit = nullptr;
    for (const auto& r : pairs)
        if (r.spec == spec && r.toolkit == toolkit && r.cudnn == cudnn) hit = &r;
    return hit;
}

}  // namespace cudaenv
