#include "install/execute.hpp"

#include <spdlog/spdlog.h>

#include <memory>
#include <ostream>
#include <set>

#include "core/cudalibs.hpp"
#include "core/detect.hpp"
#include "install/archive.hpp"
#include "install/fetch.hpp"
#include "install/layout.hpp"
#include "install/progress.hpp"
#include "install/staging.hpp"
#include "install/sync_plan.hpp"
#include "platform/install_dirs.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

namespace {

// One archive of the plan: where its bytes are and the folder it is unpacked into.
struct Unit {
    const ArchiveJob* job = nullptr;
    fs::path file;
    std::string url;  // "" unless it is downloaded into the store's cache
    fs::path dest;
    std::string top_files_dir;
    size_t board_item = 0;
};

// cuDNN 8.3 to 8.9 for Windows load zlibwapi.dll, which NVIDIA's archives do
// not ship (docs/install.md): the one built with cudaenv (zlibwapi/) goes
// beside its DLLs, from cudaenv's private folder (lib/cudaenv).
void add_zlibwapi(const fs::path& staging, const Version& version, const std::string& platform) {
    if (!platform.starts_with("windows") || !cudalibs::needs_zlibwapi(version)) return;
    const auto bin = staging / "bin";
    const auto name = fsx::from_utf8(cudalibs::zlibwapi_dll);
    if (fsx::exists(bin / name)) return;
    const auto dll = platform::private_lib_dir() / name;
    if (!fsx::is_file(dll)) {
        spdlog::warn("cuDNN {} needs zlibwapi.dll, and {} is missing: put zlibwapi.dll (64-bit) into {}",
                     version.str(), fsx::to_utf8(dll), fsx::to_utf8(bin));
        return;
    }
    std::error_code ec;
    fs::copy_file(dll, bin / name, ec);
    if (ec) throw Error("cannot copy zlibwapi.dll into '" + fsx::to_utf8(bin) + "': " + ec.message());
}

// Where the archive's bytes are: the file given, the mirror folder's file,
// or (remote mirrors) the store's download cache.
Unit locate(Store& store, Catalog& catalog, const ArchiveJob& job) {
    Unit u;
    u.job = &job;
    if (!job.local.empty()) {
        u.file = job.local;
        return u;
    }
    const auto& mirror = catalog.mirror();
    const auto& rel = job.artifact.relative_path;
    if (mirror.is_remote()) {
        u.url = mirror.url_of(job.product, rel);
        u.file = store.cache_dir() / fsx::from_utf8(rel.substr(rel.rfind('/') + 1));
        return u;
    }
    u.file = mirror.path_of(job.product, rel);
    if (!fsx::is_file(u.file))
        throw Error("the mirror '" + mirror.location() + "' has no '" + job.product + "/redist/" + rel + "'",
                    "an offline mirror needs every archive the pair needs: `cudaenv mirror create` copies them");
    return u;
}

void unpack(const Unit& u, const Plan& plan, ProgressBoard& board, const std::atomic<bool>& stop) {
    ExtractOptions eo;
    eo.dest = u.dest;
    eo.expect_sha256 = u.job->artifact.sha256;
    eo.expect_size = u.job->artifact.size;
    eo.top_files_dir = u.top_files_dir;
    eo.on_read = [&](uint64_t n) { board.unpacking(u.board_item, n); };
    eo.stop = &stop;
    try {
        extract_archive(u.file, eo);
    } catch (const Error& e) {
        if (stop) throw;  // another archive failed first: this one is not at fault
        // A download that fails its check is deleted, so the next run fetches it afresh.
        if (!u.url.empty()) {
            std::error_code ec;
            fs::remove(u.file, ec);
        }
        std::string what = e.what();
        if (!plan.recorded_in.empty() && (what.starts_with("sha256 mismatch") || what.find("manifest says") != std::string::npos))
            throw Error(what + " (as " + plan.recorded_in + " records it)",
                        "the archive is not the one that was locked; nothing was installed. If the mirror changed it "
                        "on purpose, run `cudaenv lock` again");
        throw;
    }
    board.finished(u.board_item);
}

void pin(Store& store, const Plan& plan, std::ostream& out) {
    if (is_pinned(store, plan)) return;
    auto config_lock = store.lock();  // re-reads config.toml: keeps what others wrote meanwhile
    if (!is_pinned(store, plan)) {
        store.config().pins[plan.pin->first] = plan.pin->second;
        store.save_config();
    }
    out << "paired CUDA " << plan.pin->first << " with cuDNN " << plan.pin->second << "\n";
}

// Merges a toolkit's unpacked components into its staging folder and checks the result.
std::string finish_toolkit(const ToolkitStep& t, const fs::path& stage, const std::vector<Unit>& units,
                           const std::string& platform) {
    auto components = fsx::exists(t.target) && !t.replace ? read_version_json_components(t.target)
                                                          : std::map<std::string, ComponentInfo>{};
    std::map<std::string, std::string> added;
    for (const auto& u : units) {
        place_component(u.job->component, u.dest);
        merge_tree(u.dest, stage, fsx::to_utf8(u.file.filename()));
        components[u.job->component] = u.job->info;
        added[u.job->component] = u.job->info.version;
    }
    validate_toolkit(stage, added, platform);
    fsx::write_file_atomic(stage / "version.json", toolkit_version_json(t.release, components));
    record_platform(stage, platform);
    if (!detect_toolkit(stage))
        throw Error("CUDA " + t.release + " would have neither nvcc nor the CUDA runtime",
                    "install cuda_cudart (and cuda_nvcc) with the other components");
    std::vector<std::string> names;
    for (const auto& [k, ver] : added) names.push_back(k + " " + ver);
    return "installed CUDA " + t.release + " (" + str::join(names, ", ") + ") in " + fsx::to_utf8(t.target);
}

}  // namespace

void execute_plan(Store& store, const Plan& plan, Catalog& catalog, const ExecOptions& opts, std::ostream& out) {
    for (const auto& n : plan.notes) out << n << "\n";
    if (plan.nothing_to_fetch()) return pin(store, plan, out);

    std::vector<std::unique_ptr<Staging>> stagings;  // removed unless moved into place
    auto stage = [&](const fs::path& target) {
        stagings.push_back(std::make_unique<Staging>(make_staging(store, target)));
        return stagings.back()->dir;
    };
    ProgressBoard board(!opts.quiet && platform::stderr_is_terminal());
    std::vector<Unit> units;
    std::set<fs::path> cached;
    auto add = [&](const ArchiveJob& job, const fs::path& target, std::string top_files_dir) {
        auto u = locate(store, catalog, job);  // a mirror folder lacking an archive fails here, before any work
        // Downloads are kept under their file name: two of one name would write one file.
        if (!u.url.empty() && !cached.insert(u.file).second)
            throw Error("the plan names '" + fsx::to_utf8(u.file.filename()) + "' twice (" + job.component + ")",
                        "the manifest or lock lists one archive for two components; nothing was downloaded");
        u.dest = stage(target);
        u.top_files_dir = std::move(top_files_dir);
        u.board_item = board.add(job.component + " " + job.info.version, job.artifact.size, !u.url.empty());
        units.push_back(std::move(u));
    };
    for (const auto& t : plan.toolkits)
        for (const auto& j : t.archives) add(j, t.target, "licenses/" + j.component);  // each ships its own LICENSE
    for (const auto& c : plan.cudnns) add(c.archive, c.target, "");

    std::vector<FetchJob> jobs;
    std::vector<size_t> items;
    for (const auto& u : units) {
        jobs.push_back({u.job->component, u.url, u.file, u.job->artifact.size});
        items.push_back(u.board_item);
    }
    fetch_all(jobs, [&](size_t i, const std::atomic<bool>& stop) { unpack(units[i], plan, board, stop); },
              {opts.connections, 0}, board, items);
    board.clear();

    Transaction txn(store);
    std::vector<std::string> done;
    size_t next = 0;
    for (const auto& t : plan.toolkits) {
        auto dir = stage(t.target);
        // Adding components: hard links, then swap.
        if (fsx::exists(t.target) && !t.replace) copy_tree_linked(t.target, dir);
        std::vector<Unit> mine(units.begin() + static_cast<std::ptrdiff_t>(next),
                               units.begin() + static_cast<std::ptrdiff_t>(next + t.archives.size()));
        next += t.archives.size();
        done.push_back(finish_toolkit(t, dir, mine, plan.platform));
        txn.add(dir, t.target);
    }
    for (const auto& c : plan.cudnns) {
        const auto& dir = units[next++].dest;
        validate_cudnn(dir, c.version, plan.platform);
        add_zlibwapi(dir, c.version, plan.platform);
        record_platform(dir, plan.platform);
        txn.add(dir, c.target);
        done.push_back("installed cuDNN " + c.version.prefix(3).str() + " for CUDA " + std::to_string(c.cuda_major) +
                       " in " + fsx::to_utf8(c.target));
    }
    txn.commit();
    for (const auto& u : units)  // installed: the downloads are no longer needed
        if (!u.url.empty()) {
            std::error_code ec;
            fs::remove(u.file, ec);
        }
    for (const auto& d : done) out << d << "\n";
    pin(store, plan, out);
}

}  // namespace cudaenv::install
