#include "view/pair_view.hpp"

#include <nlohmann/json.hpp>
#include <optional>

#include "gpu/inspect.hpp"
#include "util/fs.hpp"

namespace cudaenv::view {

namespace {

// The table's columns, each the JSON field it shows: written once, so a
// column cannot show what the JSON does not say.
struct Column {
    const char* header;
    const char* field;            // a JSON pointer into the row's JSON
    const char* note = nullptr;   // another, shown after it in parentheses when it is a string
};
constexpr Column columns[] = {{"", "/active"},          {"SPEC", "/spec"},   {"CUDA", "/cuda/version"},
                              {"CUDNN", "/cudnn/version"}, {"WHERE", "/where"}, {"CHECK", "/check"},
                              {"GPU", "/gpu/runs", "/gpu/driver"}};

// A field as a cell: true is "*", false "", a missing or null field "-".
std::string cell(const nlohmann::json& row, const nlohmann::json::json_pointer& field) {
    if (!row.contains(field)) return "-";
    const auto& v = row.at(field);
    if (v.is_boolean()) return v.get<bool>() ? "*" : "";
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) return v.dump();
    return "-";
}

template <class Record>
nlohmann::json record_json(const Record& r) {
    return {{"version", r.version.str()}, {"path", fsx::to_utf8(r.path)}, {"managed", r.managed}, {"shared", r.shared}};
}

// {"version", "path", "managed", "shared", "cuda_major", "where"}.
nlohmann::json loose_json(const LooseCudnn& c) {
    auto j = record_json(c.record);
    j["cuda_major"] = c.record.cuda_major;
    j["where"] = c.where;
    return j;
}

}  // namespace

nlohmann::json row_json(const PairRow& row, const gpu::Machine* machine) {
    const auto& p = row.pair;
    nlohmann::json j{{"spec", row.spec},
                     {"active", row.active},
                     {"cuda", record_json(p.toolkit)},
                     {"cudnn", nullptr},
                     {"where", row.where},
                     {"check", row.last_check ? nlohmann::json(*row.last_check) : nlohmann::json(nullptr)},
                     {"gpu", nullptr}};
    if (p.cudnn) {
        j["cudnn"] = record_json(*p.cudnn);
        j["cudnn"]["cuda_major"] = p.cudnn->cuda_major;
    }
    if (row.gpu && machine) {
        auto driver = row.gpu->driver_note();
        j["gpu"] = {{"runs", gpu::runs_cell(*row.gpu)},
                    {"driver", driver.empty() ? nlohmann::json(nullptr) : nlohmann::json(driver)},
                    {"summary", row.gpu->line(*machine)}};
    }
    return j;
}

nlohmann::json listing_json(const Listing& listing) {
    auto pairs = nlohmann::json::array();
    for (const auto& r : listing.rows) pairs.push_back(row_json(r, listing.machine));
    auto loose = nlohmann::json::array();
    for (const auto& c : listing.loose) loose.push_back(loose_json(c));
    nlohmann::json out{{"pairs", std::move(pairs)}, {"cudnn_without_toolkit", std::move(loose)}};
    if (listing.machine) out["machine"] = gpu::machine_json(*listing.machine);
    return out;
}

std::vector<std::string> table_header() {
    std::vector<std::string> out;
    for (const auto& c : columns) out.emplace_back(c.header);
    return out;
}

std::vector<std::string> row_cells(const nlohmann::json& row) {
    using Pointer = nlohmann::json::json_pointer;
    static const auto pointers = [] {  // parsed once: `list` may show thousands of rows
        std::vector<std::pair<Pointer, std::optional<Pointer>>> out;
        for (const auto& c : columns) out.emplace_back(Pointer(c.field), c.note ? std::optional(Pointer(c.note)) : std::nullopt);
        return out;
    }();
    std::vector<std::string> cells;
    cells.reserve(pointers.size());
    for (const auto& [field, note] : pointers) {
        cells.push_back(cell(row, field));
        if (note && row.contains(*note) && row.at(*note).is_string())
            cells.back() += " (" + row.at(*note).get<std::string>() + ")";
    }
    return cells;
}

TableText listing_table(const Listing& listing) {
    TableText t{table_header(), {}, {}};
    t.rows.reserve(listing.rows.size() + listing.loose.size());
    for (const auto& r : listing.rows) {
        const auto j = row_json(r, listing.machine);
        t.rows.push_back(row_cells(j));
        // Why a pair is not native (or rests on an unconfirmed row), one line each.
        if (r.gpu && listing.machine && r.gpu->notable())
            t.notes.push_back(cell(j, "/spec"_json_pointer) + ": " + cell(j, "/gpu/summary"_json_pointer));
    }
    for (const auto& c : listing.loose) {
        const auto j = loose_json(c);
        const int major = j.at("cuda_major").get<int>();
        t.rows.push_back({"", "-", "-",
                          j.at("version").get<std::string>() +
                              (major ? " (for CUDA " + std::to_string(major) + ")" : std::string()),
                          j.at("where").get<std::string>(), "no toolkit for it", ""});
    }
    return t;
}

}  // namespace cudaenv::view
