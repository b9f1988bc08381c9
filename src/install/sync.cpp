#include "install/sync.hpp"

#include <algorithm>
#include <iostream>
#include <optional>

#include "core/pairs.hpp"
#include "core/resolve.hpp"
#include "install/execute.hpp"
#include "install/locking.hpp"
#include "install/staging.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

namespace {

using Mode = SyncOptions::Mode;
using Project = SyncProject;

Error platform_missing(const LockFile& lock, const std::string& name, const std::string& host) {
    std::vector<std::string> all = lock.platforms;
    all.push_back(host);
    std::sort(all.begin(), all.end());
    return Error(name + " has no archives for " + host + " (it was locked for " + str::join(lock.platforms, ", ") + ")",
                 "on a machine with the mirror, run `cudaenv lock --platform " + str::join(all, ",") + "`");
}

// The mirror to fetch from: the configured one (--mirror, CUDAENV_MIRROR,
// config.toml), else the lock's own, announced once (a cloned lock chose it).
struct Source {
    const SyncOptions& opts;
    const Project& project;
    bool announced = false;

    std::string for_lock(const std::optional<LockFile>& lock) {
        if (!opts.mirror.empty()) return opts.mirror;
        if (!lock || lock->mirror.empty()) return kDefaultMirror;
        auto location = lock->mirror_location(project.lock_path);
        if (!announced) announce_lock_mirror(location, fsx::to_utf8(project.lock_path));
        announced = true;
        return location;
    }
};

// Locks the project's spec again (plain `sync` with no lock, or one out of date).
LockFile relock(Store& store, const Project& project, const std::optional<LockFile>& old, const SyncOptions& opts,
                const fs::path& cwd, Source& source, std::ostream& out) {
    const auto& spec = project.version_file->spec;
    LockFile lock;
    if (names_adopted(spec)) {
        lock = lock_adopted(store, spec);
    } else {
        Catalog catalog(source.for_lock(old));
        lock = lock_from_mirror(catalog, spec, kept_platforms(old), opts.runs_here);
        // As written: a folder relative to the lock's stays so.
        lock.mirror = !opts.mirror.empty()           ? lock_mirror_text(opts.mirror, cwd, project.lock_path)
                      : old && !old->mirror.empty() ? old->mirror
                                                    : lock.mirror;
    }
    if (!opts.dry_run) {
        write_lock(lock, project.lock_path);
        out << "locked " << lock.pair << " in " << fsx::to_utf8(project.lock_path) << "\n";
    }
    return lock;
}

// Makes the project's version file select the locked pair.
void use_pair(Store& store, const Project& project, const LockFile& lock, Mode mode, bool store_only,
              std::ostream& out) {
    auto exact = *Spec::parse(lock.adopted ? lock.spec : lock.pair);
    auto target = picked_pair(exact, store);
    if (!target) throw Error("the locked pair " + lock.pair + " is not in the store after the sync");
    if (store_only) return;  // --store-only: the project is left as it is
    auto dir = project.lock_path.parent_path();
    auto write = [&](const Spec& spec, const std::string& why) {
        fsx::write_file_atomic(dir / ".cudaenv", spec.str() + "\n");
        out << "wrote " << fsx::to_utf8(dir / ".cudaenv") << " (" << spec.str() << "): " << why << "\n";
    };
    if (mode == Mode::frozen) {  // .cudaenv is not read, only made when there is none
        if (fsx::exists(dir / ".cudaenv") || fsx::exists(dir / ".tool-versions")) return;
        auto spec = *Spec::parse(lock.spec);
        auto picked = picked_pair(spec, store);
        return write(picked && picked->same_as(*target) ? spec : exact, "the project had no version file");
    }
    const auto& vf = *project.version_file;
    auto picked = picked_pair(vf.spec, store);
    if (picked && picked->same_as(*target)) return;
    if (vf.path.filename() != ".cudaenv") {
        std::cerr << "cudaenv: warning: " << fsx::to_utf8(vf.path) << " says '" << vf.spec.str()
                  << "', which does not pick the locked pair; write `cuda " << exact.str() << "` there\n";
        return;
    }
    write(exact, "'" + vf.spec.str() + "' picks " + (picked ? picked->spec() : std::string("nothing")) + " here");
}

}  // namespace

bool sync_project(Store& store, const fs::path& cwd, const SyncOptions& opts, std::ostream& out) {
    auto project = find_sync_project(cwd, opts.mode);
    const auto name = fsx::to_utf8(project.lock_path);
    const auto host = host_platform();
    std::optional<LockFile> lock;
    if (opts.mode != Mode::plain || fsx::exists(project.lock_path)) lock = LockFile::load(project.lock_path);
    if (opts.mode == Mode::locked && !lock_matches(*lock, project.version_file->spec))
        throw Error(name + " is out of date: it was locked for '" + lock->spec + "', " +
                        fsx::to_utf8(project.version_file->path) + " says '" + project.version_file->spec.str() + "'",
                    "run `cudaenv lock` (or `cudaenv sync` without --locked, which locks and syncs)");
    if (opts.mode != Mode::plain && !lock->has_platform(host)) throw platform_missing(*lock, name, host);
    Source source{opts, project};
    if (!lock || (opts.mode == Mode::plain && (!lock_matches(*lock, project.version_file->spec) || !lock->has_platform(host))))
        lock = relock(store, project, lock, opts, cwd, source, out);

    bool installed = false;
    if (lock->adopted) {
        verify_adopted(store, *lock, name);
    } else {
        auto plan = plan_lock(store, *lock, host, name);
        // The lock's pair and what it says it needs, against this machine, before any download.
        if (!plan.nothing_to_fetch() && opts.lock_runs_here)
            if (auto why = opts.lock_runs_here(*lock); !why.empty())
                throw Error(name + " locks " + lock->pair + ", which cannot run here: " + why,
                            "`cudaenv sync --force` installs it anyway (for another machine: --gpu, --driver)");
        if (opts.dry_run) {
            plan.mirror = opts.mirror.empty() ? lock->mirror_location(project.lock_path) : opts.mirror;
            print_plan(plan, out);
            return false;
        }
        Catalog catalog(plan.nothing_to_fetch() ? std::string() : source.for_lock(lock));
        std::optional<StoreLock> held;
        if (!plan.nothing_to_fetch()) {
            held.emplace(store, opts.quiet);
            plan = plan_lock(store, *lock, host, name);  // again under the lock: another run may have installed it
            plan.mirror = catalog.location();
            installed = !plan.nothing_to_fetch();
        }
        execute_plan(store, plan, catalog, {opts.quiet, opts.connections}, out);
    }
    use_pair(store, project, *lock, opts.mode, opts.store_only, out);
    out << (installed ? "synced " : "in sync: ") << lock->pair << " (" << name << ")\n";
    return installed;
}

}  // namespace cudaenv::install
