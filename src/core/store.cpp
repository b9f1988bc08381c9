#include "core/store.hpp"

#include <algorithm>
#include <regex>
#include <toml++/toml.h>

#include "core/system_store.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

Store::Store(fs::path root) : root_(std::move(root)) {}

Config& Store::config() {
    if (!config_) config_ = Config::load(config_file());
    return *config_;
}

void ensure_writable_dir(const fs::path& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fsx::is_dir(dir))
        throw Error("cannot create '" + fsx::to_utf8(dir) + "': " + (ec ? ec.message() : "not a folder"),
                    "set CUDAENV_ROOT to a folder you can write");
}

void Store::save_config() {
    ensure_writable_dir(root_);
    try {
        config().save(config_file());
    } catch (const Error& e) {
        throw Error(e.what(), "set CUDAENV_ROOT to a folder you can write");
    }
}

std::vector<ToolkitRecord> Store::toolkits() {
    std::vector<ToolkitRecord> out;
    std::error_code ec;
    for (fs::directory_iterator it(toolkits_dir(), ec), end; !ec && it != end; it.increment(ec)) {
        auto name = fsx::to_utf8(it->path().filename());
        if (auto v = Version::parse(name); v && fsx::is_dir(it->path())) out.push_back({it->path(), *v, true});
    }
    for (const auto& t : config().toolkits) out.push_back({fsx::from_utf8(t.path), t.version, false});
    if (shared_) append_shared(*shared_, out);
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.version > b.version; });
    return out;
}

std::vector<CudnnRecord> Store::cudnns() {
    std::vector<CudnnRecord> out;
    std::error_code ec;
    for (fs::directory_iterator it(cudnn_dir(), ec), end; !ec && it != end; it.increment(ec)) {
        // Built on first use: most stores have no managed cuDNN, and building a
        // std::regex is a large part of what a tool shim call costs.
        static const std::regex re(R"(([0-9.]+)_cuda([0-9]+))");
        auto name = fsx::to_utf8(it->path().filename());
        std::smatch m;
        if (!std::regex_match(name, m, re) || !fsx::is_dir(it->path())) continue;
        auto v = Version::parse(m[1].str());
        int cuda_major = 0;
        if (!v || !str::parse_int(m[2].str(), cuda_major)) continue;  // not one of ours (stoi would throw)
        out.push_back({it->path(), "", *v, cuda_major, true});
    }
    for (const auto& c : config().cudnns)
        out.push_back({fsx::from_utf8(c.path), c.variant, c.version, c.cuda_major, false});
    if (shared_) append_shared(*shared_, out);
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.version > b.version; });
    return out;
}

fs::path Store::managed_toolkit_path(const Version& v) const { return toolkits_dir() / v.str(); }

fs::path Store::managed_cudnn_path(const Version& v, int cuda_major) const {
    return cudnn_dir() / (v.str() + "_cuda" + std::to_string(cuda_major));
}

std::optional<std::string> Store::last_check(const std::string& pair_spec, const std::string& toolkit_path,
                                             const std::string& cudnn_path) {
    // checks.toml, written by `cudaenv check`: one [[pair]] per pair, told
    // apart by its folders (two toolkits of one version share a spec):
    //   [[pair]]  spec = "12.6.3+9.8.0"  toolkit = "..."  cudnn = "..."  status = "pass"  summary = "..."
    auto text = fsx::read_file(checks_file());
    if (!text) return std::nullopt;
    toml::table t;
    try {
        t = toml::parse(*text);
    } catch (const toml::parse_error&) {
        return std::string("unreadable");
    }
    const toml::table* entry = nullptr;
    if (auto* all = t.get_as<toml::array>("pair"))
        for (const auto& node : *all) {
            auto* e = node.as_table();
            if (!e) continue;
            auto field = [&](const char* k) { return e->get_as<std::string>(k) ? e->get_as<std::string>(k)->get() : ""; };
            if (field("spec") == pair_spec && field("toolkit") == toolkit_path && field("cudnn") == cudnn_path) entry = e;
        }
    if (!entry) return std::nullopt;
    auto status = entry->get_as<std::string>("status");
    if (!status) return std::nullopt;
    std::string out = status->get();
    if (auto* summary = entry->get_as<std::string>("summary"); summary && !summary->get().empty())
        out += ": " + summary->get();
    return out;
}

}  // namespace cudaenv
