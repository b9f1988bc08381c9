#include "install/offline_mirror.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <ostream>

#include "core/lockfile.hpp"
#include "install/fetch.hpp"
#include "install/layout.hpp"
#include "install/locking.hpp"
#include "install/plan.hpp"
#include "install/progress.hpp"
#include "install/sha256.hpp"
#include "platform/lock.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

namespace {

// An archive the mirror must hold, and a manifest it keeps.
struct Needed {
    std::string product, relative_path, sha256;
    uint64_t size = 0;
    std::string where() const { return product + "/redist/" + relative_path; }
};

struct Contents {
    std::map<std::string, std::string> manifests;  // "<product>/redist/redistrib_<release>.json" -> text
    std::vector<Needed> archives;
    void add(Needed n) {
        for (const auto& a : archives)
            if (a.where() == n.where()) return;
        archives.push_back(std::move(n));
    }
    void add_manifest(Catalog& catalog, const std::string& product, const std::string& release) {
        auto v = Version::parse(release);
        if (!v) throw Error("no " + product + " release to copy the manifest of ('" + release + "')");
        manifests[product + "/redist/redistrib_" + release + ".json"] = catalog.manifest_text(product, *v);
    }
};

void from_specs(Catalog& catalog, const std::vector<Spec>& specs, const std::vector<std::string>& platforms,
                const RunsHere& runs_here, Contents& c) {
    for (const auto& spec : specs) {
        auto lock = lock_from_mirror(catalog, spec, platforms, runs_here);
        c.add_manifest(catalog, "cuda", lock.cuda_release);
        if (!lock.cudnn_release.empty()) c.add_manifest(catalog, "cudnn", lock.cudnn_release);
        for (const auto& a : lock.archives) c.add({a.product, a.relative_path, a.sha256, a.size});
    }
}

void from_lock(Catalog& catalog, const LockFile& lock, const std::vector<std::string>& platforms, Contents& c) {
    if (lock.adopted)
        throw Error("the lock records an adopted pair (" + lock.pair + "), which no mirror has",
                    "lock a spec the mirror has (a spec without an origin)");
    for (const auto& p : platforms)
        if (!lock.has_platform(p))
            throw Error("the lock has no archives for " + p + " (it was locked for " + str::join(lock.platforms, ", ") + ")",
                        "lock it for that platform too: `cudaenv lock --platform " + str::join(lock.platforms, ",") + "," + p + "`");
    c.add_manifest(catalog, "cuda", lock.cuda_release);
    if (!lock.cudnn_release.empty()) c.add_manifest(catalog, "cudnn", lock.cudnn_release);
    for (const auto& a : lock.archives)
        if (std::find(platforms.begin(), platforms.end(), a.platform) != platforms.end())
            c.add({a.product, a.relative_path, a.sha256, a.size});
}

// Copies a file of the source mirror folder, hashing it on the way.
void copy_verified(const fs::path& from, const fs::path& to, const Needed& n) {
    fs::create_directories(to.parent_path());
    auto part = to;
    part += ".part";
    {
        std::ifstream in(from, std::ios::binary);
        std::ofstream out(part, std::ios::binary | std::ios::trunc);
        if (!in || !out) throw Error("cannot copy '" + fsx::to_utf8(from) + "' to '" + fsx::to_utf8(part) + "'");
        Sha256 h;
        std::vector<char> buf(1 << 20);
        while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) {
            h.update(buf.data(), static_cast<size_t>(in.gcount()));
            out.write(buf.data(), in.gcount());
        }
        if (in.bad() || !out.flush()) throw Error("cannot copy '" + fsx::to_utf8(from) + "' (disk full?)");
        if (h.hex_digest() != n.sha256) {
            out.close();
            fs::remove(part);
            throw Error("the source mirror's '" + n.where() + "' does not match its manifest (sha256)",
                        "the source mirror is damaged: `cudaenv mirror verify` on it names every bad archive");
        }
    }
    fs::rename(part, to);
}

std::string why_bad(const fs::path& file, uint64_t size, const std::string& sha256) {
    std::error_code ec;
    auto got = fs::file_size(file, ec);
    if (ec) return "cannot be read";
    if (got != size) return std::to_string(got) + " bytes, the manifest says " + std::to_string(size);
    auto hash = sha256_file(file);
    return hash == sha256 ? std::string() : "sha256 is " + hash + ", the manifest says " + sha256;
}

}  // namespace

void create_mirror(const fs::path& dir, const MirrorCreateOptions& opts, std::ostream& out) {
    if (opts.specs.empty() == opts.lock_file.empty())
        throw UsageError(opts.specs.empty() ? "what should the mirror hold?" : "give specs or --lock, not both",
                         "cudaenv mirror create DIR 12.6+9.8 [11.8+8.9] [--platform ...], or --lock cudaenv.lock");
    std::optional<LockFile> lock;
    if (!opts.lock_file.empty()) lock = LockFile::load(opts.lock_file);
    auto platforms = opts.platforms.empty() && lock ? lock->platforms : opts.platforms;
    if (platforms.empty()) platforms = parse_platforms("");
    Catalog catalog(!opts.source.empty() ? opts.source
                    : lock            ? lock->mirror_location(opts.lock_file)
                                      : std::string(kDefaultMirror));
    if (opts.source.empty() && lock) announce_lock_mirror(catalog.location(), fsx::to_utf8(opts.lock_file));
    Contents c;
    if (lock && opts.lock_runs_here)
        if (auto why = opts.lock_runs_here(*lock); !why.empty())
            throw Error("the lock's pair " + lock->pair + " cannot run here: " + why,
                        "--force copies it anyway; for another machine give its --gpu and --driver");
    if (lock) from_lock(catalog, *lock, platforms, c);
    else from_specs(catalog, opts.specs, platforms, opts.runs_here, c);

    ensure_writable_dir(dir);
    platform::FileLock held(dir / ".cudaenv-mirror.lock", true);  // one `mirror create` per folder at a time
    const auto& src = catalog.mirror();
    ProgressBoard board(!opts.quiet && platform::stderr_is_terminal());
    std::vector<FetchJob> jobs;
    std::vector<size_t> items;
    size_t present = 0;
    uint64_t bytes = 0;
    for (const auto& n : c.archives) {
        auto dest = dir / fsx::from_utf8(n.where());
        std::error_code ec;
        if (fsx::is_file(dest) && fs::file_size(dest, ec) == n.size) ++present;
        bytes += n.size;
        auto from = src.is_remote() ? dest : src.path_of(n.product, n.relative_path);
        if (!src.is_remote() && !fsx::is_file(from))
            throw Error("the source mirror '" + src.location() + "' has no '" + n.where() + "'",
                        "a mirror can only copy what its source holds");
        jobs.push_back({n.relative_path, src.is_remote() ? src.url_of(n.product, n.relative_path) : "", from, n.size});
        items.push_back(board.add(fsx::to_utf8(dest.filename()), n.size, src.is_remote()));
    }
    fetch_all(jobs, [&](size_t i, const std::atomic<bool>&) {
        const auto& n = c.archives[i];
        auto dest = dir / fsx::from_utf8(n.where());
        if (!src.is_remote()) {
            if (!(fsx::is_file(dest) && why_bad(dest, n.size, n.sha256).empty())) copy_verified(jobs[i].file, dest, n);
        } else if (auto why = why_bad(dest, n.size, n.sha256); !why.empty()) {
            std::error_code ec;
            fs::remove(dest, ec);  // the next run downloads it afresh
            throw Error("'" + n.where() + "' from " + src.location() + ": " + why,
                        "the source mirror serves a file its manifest does not list; run again, or use another mirror");
        }
        board.finished(items[i]);
    }, {opts.connections, 0}, board, items);
    board.clear();
    for (const auto& [rel, text] : c.manifests) fsx::write_file_atomic(dir / fsx::from_utf8(rel), text);
    out << "mirror " << fsx::to_utf8(dir) << ": " << c.archives.size() << " archives ("
        << str::human_bytes(static_cast<double>(bytes)) << ") for " << str::join(platforms, ", ") << ", "
        << c.archives.size() - present << " copied, " << present << " there already; " << c.manifests.size()
        << " manifests\n";
}

void verify_mirror(const fs::path& dir, bool quiet, std::ostream& out) {
    if (!fsx::is_dir(dir)) throw Error("'" + fsx::to_utf8(dir) + "' is not a folder");
    std::vector<Needed> listed;
    size_t absent = 0, manifests = 0;
    for (const char* product : {"cuda", "cudnn"}) {
        std::error_code ec;
        for (fs::directory_iterator it(dir / product / "redist", ec), end; !ec && it != end; it.increment(ec)) {
            auto release = manifest_release(fsx::to_utf8(it->path().filename()));
            if (!release) continue;
            ++manifests;
            auto text = fsx::read_file(it->path(), 64u << 20);
            if (!text) throw Error("cannot read '" + fsx::to_utf8(it->path()) + "'");
            auto mf = Manifest::parse(*text, fsx::to_utf8(it->path()), release->str(), product);
            for (const auto& [key, comp] : mf.components)
                for (const auto& a : comp.artifacts) {
                    Needed n{product, a.relative_path, a.sha256, a.size};
                    if (fsx::exists(dir / fsx::from_utf8(n.where()))) listed.push_back(n);
                    else ++absent;
                }
        }
    }
    if (manifests == 0)
        throw Error("'" + fsx::to_utf8(dir) + "' holds no redistrib_*.json manifest",
                    "a mirror has NVIDIA's layout: <dir>/cuda/redist/redistrib_<release>.json (`cudaenv mirror create`)");
    ProgressBoard board(!quiet && platform::stderr_is_terminal());
    std::vector<FetchJob> jobs;
    std::vector<size_t> items;
    for (const auto& n : listed) {
        jobs.push_back({n.where(), "", dir / fsx::from_utf8(n.where()), n.size});
        items.push_back(board.add(fsx::to_utf8(jobs.back().file.filename()), n.size, false));
    }
    std::vector<std::string> bad(listed.size());
    fetch_all(jobs, [&](size_t i, const std::atomic<bool>&) {
        bad[i] = why_bad(jobs[i].file, listed[i].size, listed[i].sha256);
        board.finished(items[i]);
    }, {1, 0}, board, items);
    board.clear();
    std::string first;
    size_t n_bad = 0;
    for (size_t i = 0; i < listed.size(); ++i) {
        if (bad[i].empty()) continue;
        out << "bad: " << listed[i].where() << ": " << bad[i] << "\n";
        if (first.empty()) first = listed[i].where() + ": " + bad[i];
        ++n_bad;
    }
    out << "checked " << listed.size() << " archives against " << manifests << " manifests: " << listed.size() - n_bad
        << " match, " << n_bad << " do not; " << absent << " listed archives are not in this mirror\n";
    if (n_bad)
        throw Error(std::to_string(n_bad) + " archive(s) in '" + fsx::to_utf8(dir) + "' do not match their manifest (" + first + ")",
                    "delete them and run `cudaenv mirror create` again: it fetches them afresh");
}

}  // namespace cudaenv::install
