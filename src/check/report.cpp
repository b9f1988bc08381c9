#include "check/report.hpp"

#include <algorithm>
#include <ctime>
#include <map>
#include <set>

#include "util/error.hpp"
#include "util/fs.hpp"
#include "platform/platform.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace cudaenv::check {

namespace fs = std::filesystem;

NodeKey node_key(const std::vector<PairResult>& results) {
    auto key = this_node();
    for (const auto& r : results)
        if (const auto* gpu = r.step("gpu"); gpu && gpu->details.contains("compute_capability") &&
                                             gpu->details["compute_capability"].is_string()) {
            key.compute_capability = gpu->details["compute_capability"].get<std::string>();
            break;
        }
    return key;
}

std::string utc_now() {
    char when[32];
    const std::tm tm = platform::utc_time(std::time(nullptr));
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return when;
}

void save_node_results(Store& store, const NodeKey& key, const std::vector<PairResult>& results,
                       const std::string& checked_at) {
    std::vector<NodeCheck> checks;
    for (const auto& r : results)
        checks.push_back({r.spec, r.toolkit_path, r.cudnn_path, r.pass ? "pass" : "fail", r.summary, r.advice,
                          checked_at, r.seconds});
    save_node_checks(store, key, checks);
}

namespace {

struct Cell {
    std::string status, summary, checked_at, toolkit, cudnn, file;
};

// A check --json output; a Slurm output file may carry lines of stderr around it.
nlohmann::json parse_output(const fs::path& file) {
    auto text = fsx::read_file(file);
    if (!text) throw Error("cannot read '" + fsx::to_utf8(file) + "'");
    auto j = parse_json(*text);
    if (j.is_discarded()) {
        auto begin = text->find("\n{");
        begin = text->starts_with("{") ? 0 : (begin == std::string::npos ? begin : begin + 1);
        auto end = text->rfind("\n}");
        if (begin != std::string::npos && end != std::string::npos && end > begin)
            j = parse_json(text->substr(begin, end + 2 - begin));
    }
    if (j.is_discarded() || !j.is_object() || !j.contains("pairs") || !j["pairs"].is_array() || !j.contains("node"))
        throw Error("'" + fsx::to_utf8(file) + "' is not the output of `cudaenv check --json` (with its node key)",
                    "keep only check outputs in the folder (send stderr elsewhere: #SBATCH --error=...)");
    return j;
}

std::string md_escape(std::string s) {
    std::string out;
    for (char c : s) {
        if (c == '|') out += "\\|";
        else if (c == '\n' || c == '\r') out += ' ';
        else out += c;
    }
    return out;
}

}  // namespace

void write_report(const fs::path& dir, bool json, std::ostream& out) {
    if (!fsx::is_dir(dir)) throw Error("'" + fsx::to_utf8(dir) + "' is not a folder", "give the folder the check --json outputs were written to");
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json" && fsx::is_file(it->path())) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    if (files.empty())
        throw Error("no check results (*.json) in '" + fsx::to_utf8(dir) + "'",
                    "write them with `cudaenv check --all --json > DIR/<node>.json` on each node");

    std::map<std::string, NodeKey> nodes;                      // id -> key
    std::map<std::string, std::map<std::string, Cell>> cells;  // id -> spec -> newest result
    std::set<std::string> specs;
    for (const auto& f : files) {
        auto j = parse_output(f);
        auto key = NodeKey::from_json(j["node"]);
        auto id = key.id();
        if (auto it = nodes.find(id); it == nodes.end() || it->second.compute_capability.empty()) nodes[id] = key;
        std::string when = j.contains("checked_at") && j["checked_at"].is_string() ? j["checked_at"].get<std::string>() : "";
        for (const auto& p : j["pairs"]) {
            if (!p.is_object() || !p.contains("spec") || !p["spec"].is_string()) continue;
            Cell c{p.value("status", ""), p.value("summary", ""), when, p.value("toolkit", ""),
                   p.contains("cudnn") && p["cudnn"].is_string() ? p["cudnn"].get<std::string>() : "",
                   fsx::to_utf8(f.filename())};
            auto spec = p["spec"].get<std::string>();
            specs.insert(spec);
            auto& slot = cells[id][spec];
            if (slot.status.empty() || slot.checked_at <= c.checked_at) slot = c;
        }
    }

    if (json) {
        auto jnodes = nlohmann::json::array();
        for (const auto& [id, key] : nodes) {
            auto results = nlohmann::json::object();
            for (const auto& [spec, c] : cells[id])
                results[spec] = {{"status", c.status}, {"summary", c.summary}, {"checked_at", c.checked_at},
                                 {"toolkit", c.toolkit}, {"cudnn", c.cudnn.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.cudnn)},
                                 {"file", c.file}};
            jnodes.push_back({{"node", key.to_json()}, {"results", results}});
        }
        bool all_pass = true;
        for (const auto& [id, row] : cells)
            for (const auto& [spec, c] : row) all_pass = all_pass && c.status == "pass";
        out << nlohmann::json{{"pairs", std::vector<std::string>(specs.begin(), specs.end())},
                              {"nodes", jnodes},
                              {"files", files.size()},
                              {"pass", all_pass}}
                   .dump(2)
            << "\n";
        return;
    }

    out << "# cudaenv check: " << nodes.size() << (nodes.size() == 1 ? " node" : " nodes") << " x " << specs.size()
        << (specs.size() == 1 ? " pair" : " pairs") << "\n\n";
    out << "| host | GPU | CC | driver |";
    for (const auto& s : specs) out << " " << md_escape(s) << " |";
    out << "\n|---|---|---|---|";
    for (size_t i = 0; i < specs.size(); ++i) out << "---|";
    out << "\n";
    std::vector<std::string> failures;
    for (const auto& [id, key] : nodes) {
        out << "| " << md_escape(key.host) << " | " << md_escape(key.gpu) << " | "
            << md_escape(key.compute_capability.empty() ? "-" : key.compute_capability) << " | " << md_escape(key.driver)
            << " |";
        for (const auto& s : specs) {
            auto it = cells[id].find(s);
            if (it == cells[id].end()) {
                out << " - |";
                continue;
            }
            out << " " << (it->second.status == "pass" ? "pass" : "**FAIL**") << " |";
            if (it->second.status != "pass")
                failures.push_back("- " + md_escape(key.host) + " (" + md_escape(key.gpu) + ", driver " +
                                   md_escape(key.driver) + "), " + md_escape(s) + ": " + md_escape(it->second.summary));
        }
        out << "\n";
    }
    if (!failures.empty()) {
        out << "\nFailures:\n\n";
        for (const auto& f : failures) out << f << "\n";
    }
}

}  // namespace cudaenv::check
