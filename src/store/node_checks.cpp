#include "store/node_checks.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "store/excl_lock.hpp"
#include "platform/node.hpp"
#include "platform/nvidia_driver.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

std::string NodeKey::id() const {
    // FNV-1a, 64 bits: stable across runs and platforms (std::hash is not).
    std::uint64_t h = 1469598103934665603ull;
    for (const auto* part : {&host, &gpu, &driver}) {
        for (unsigned char c : *part) h = (h ^ c) * 1099511628211ull;
        h = (h ^ 0xff) * 1099511628211ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return std::string(buf, 12);
}

nlohmann::json NodeKey::to_json() const {
    return {{"host", host},
            {"gpu", gpu},
            {"compute_capability", compute_capability},
            {"driver", driver},
            {"id", id()}};
}

NodeKey NodeKey::from_json(const nlohmann::json& j) {
    NodeKey k;
    if (!j.is_object()) return k;
    k.host = j.value("host", "");
    k.gpu = j.value("gpu", "");
    k.driver = j.value("driver", "");
    k.compute_capability = j.value("compute_capability", "");
    return k;
}

NodeKey this_node() {
    NodeKey k;
    k.host = platform::host_name();
    k.driver = "none";
    k.gpu = "none";
    auto models = platform::kernel_gpu_models();
    if (!models) {
        // The OS lists no GPUs without a driver call (Windows): the driver and
        // GPU come from the check itself (compute capability); the host still
        // tells nodes apart.
        k.driver = "unknown";
        k.gpu = "unknown";
        return k;
    }
    if (auto v = platform::kernel_driver_version()) k.driver = *v;
    if (!models->empty()) k.gpu = str::join({models->begin(), models->end()}, " + ");
    return k;
}

nlohmann::json NodeCheck::to_json() const {
    return {{"spec", spec},       {"toolkit", toolkit}, {"cudnn", cudnn},         {"status", status},
            {"summary", summary}, {"advice", advice},   {"checked_at", checked_at}, {"seconds", seconds}};
}

NodeCheck NodeCheck::from_json(const nlohmann::json& j) {
    NodeCheck c;
    if (!j.is_object()) return c;
    auto s = [&](const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string(); };
    c.spec = s("spec");
    c.toolkit = s("toolkit");
    c.cudnn = s("cudnn");
    c.status = s("status");
    c.summary = s("summary");
    c.advice = s("advice");
    c.checked_at = s("checked_at");
    if (j.contains("seconds") && j["seconds"].is_number()) c.seconds = j["seconds"].get<double>();
    return c;
}

fs::path node_checks_file(const Store& store, const NodeKey& key) {
    std::string host;
    for (char c : key.host) host += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_') ? c : '_';
    if (host.empty() || host[0] == '.') host = "_" + host;
    return store.node_checks_dir() / fsx::from_utf8(host + "-" + key.id() + ".json");
}

namespace {

std::vector<NodeCheck> read_checks(const fs::path& file) {
    std::vector<NodeCheck> out;
    auto text = fsx::read_file(file);
    if (!text) return out;
    auto j = parse_json(*text);
    if (j.is_discarded() || !j.is_object() || !j.contains("pairs") || !j["pairs"].is_array()) return out;
    for (const auto& e : j["pairs"]) out.push_back(NodeCheck::from_json(e));
    return out;
}

}  // namespace

void save_node_checks(Store& store, const NodeKey& key, const std::vector<NodeCheck>& results) {
    auto file = node_checks_file(store, key);
    ensure_writable_dir(file.parent_path());
    auto lock_file = file;
    lock_file += ".lock";
    ExclusiveLock lock(lock_file, std::chrono::seconds(120), true);
    auto kept = read_checks(file);
    for (const auto& r : results) {
        std::erase_if(kept, [&](const NodeCheck& c) { return c.toolkit == r.toolkit && c.cudnn == r.cudnn; });
        kept.push_back(r);
    }
    auto pairs = nlohmann::json::array();
    for (const auto& c : kept) pairs.push_back(c.to_json());
    fsx::write_file_atomic(file, nlohmann::json{{"node", key.to_json()}, {"pairs", pairs}}.dump(2) + "\n");
}

std::map<std::pair<std::string, std::string>, std::string> node_last_checks(Store& store) {
    std::map<std::pair<std::string, std::string>, std::string> out;
    auto node = this_node();
    for (Store* s : {&store, store.shared()}) {  // the user's own first: emplace keeps it
        if (!s) continue;
        for (const auto& c : read_checks(node_checks_file(*s, node)))
            if (!c.status.empty())
                out.emplace(std::pair{c.toolkit, c.cudnn}, c.summary.empty() ? c.status : c.status + ": " + c.summary);
    }
    return out;
}

}  // namespace cudaenv
