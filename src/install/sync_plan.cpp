#include "install/sync_plan.hpp"

#include <ostream>

#include "install/staging.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::install {

SyncProject find_sync_project(const std::filesystem::path& cwd, SyncOptions::Mode mode) {
    SyncProject p;
    if (mode != SyncOptions::Mode::frozen) {
        p.version_file = find_version_file(cwd);
        if (!p.version_file)
            throw Error("no .cudaenv in " + fsx::to_utf8(cwd) + " or above",
                        "write the project's spec into .cudaenv (`cudaenv local <spec>`, or `echo 12.6+9.8 > .cudaenv`): `cudaenv sync` then locks and installs it");
        p.lock_path = lock_path_for(p.version_file->path);
        return p;
    }
    for (auto dir = fsx::absolute_normal(cwd);; dir = dir.parent_path()) {
        if (fsx::is_file(dir / kLockFileName)) {
            p.lock_path = dir / kLockFileName;
            return p;
        }
        if (dir.parent_path() == dir || dir.parent_path().empty()) break;
    }
    throw Error("no cudaenv.lock in " + fsx::to_utf8(cwd) + " or above",
                "write one with `cudaenv lock` beside the project's .cudaenv");
}

bool lock_matches(const LockFile& lock, const Spec& spec) {
    auto s = spec.str();
    return lock.spec == s || lock.pair == s;
}

Plan plan_lock(Store& store, const LockFile& lock, const std::string& platform, const std::string& lock_name) {
    Plan plan;
    plan.platform = platform;
    plan.mirror = lock.mirror;
    plan.recorded_in = lock_name;
    // A folder installed for another platform (a store restored from another
    // runner's cache) is installed again, not kept.
    auto other_platform = [&](const fs::path& dir, const std::string& what) {
        auto had = fsx::exists(dir) ? recorded_platform(dir) : std::string();
        if (had.empty() || had == platform) return false;
        plan.notes.push_back(what + " in " + fsx::to_utf8(dir) + " was installed for " + had + ", not " + platform +
                             ": installing it again");
        return true;
    };
    ToolkitStep step{lock.cuda_release, store.managed_toolkit_path(*Version::parse(lock.cuda_release)), {}};
    step.replace = other_platform(step.target, "CUDA " + lock.cuda_release);
    auto installed = fsx::exists(step.target) && !step.replace ? read_version_json_components(step.target)
                                                               : std::map<std::string, ComponentInfo>{};
    auto cudnn = Version::parse(lock.cudnn_version);
    for (const auto& a : lock.archives_for(platform)) {
        Artifact art{a.platform, a.product == "cudnn" ? lock.cudnn_cuda_major : 0, a.relative_path, a.sha256, a.size};
        if (a.product == "cuda") {
            auto c = lock.components.find(a.component);
            ComponentInfo info{a.component, ""};
            if (c != lock.components.end()) info = {c->second.name.empty() ? a.component : c->second.name, c->second.version};
            auto have = installed.find(a.component);
            if (have == installed.end() || have->second.version != info.version)
                step.archives.push_back({"cuda", a.component, info, art, {}});
        } else if (cudnn) {
            auto target = store.managed_cudnn_path(cudnn->prefix(3), lock.cudnn_cuda_major);
            if (!fsx::exists(target) || other_platform(target, "cuDNN " + cudnn->prefix(3).str()))
                plan.cudnns.push_back({*cudnn, lock.cudnn_cuda_major, target,
                                       {"cudnn", "cudnn", {lock.cudnn_name, lock.cudnn_version}, art, {}}});
        }
    }
    if (!step.archives.empty()) plan.toolkits.push_back(std::move(step));
    if (cudnn) plan.pin = std::pair{lock.cuda_release, cudnn->prefix(3).str()};
    return plan;
}

bool is_pinned(Store& store, const Plan& plan) {
    if (!plan.pin) return true;
    const auto& pins = store.config().pins;
    auto it = pins.find(plan.pin->first);
    return it != pins.end() && it->second == plan.pin->second;
}

std::optional<Pair> picked_pair(const Spec& spec, Store& store) {
    try {
        return select_pair(spec, store);
    } catch (const Error&) {
        return std::nullopt;
    }
}

bool sync_has_nothing_to_do(Store& store, const std::filesystem::path& cwd, SyncOptions::Mode mode, std::ostream& out,
                            bool store_only) {
    try {
        auto project = find_sync_project(cwd, mode);
        if (!fsx::is_file(project.lock_path)) return false;
        auto name = fsx::to_utf8(project.lock_path);
        auto lock = LockFile::load(project.lock_path);
        if (lock.adopted || !lock.has_platform(host_platform())) return false;
        if (project.version_file && !lock_matches(lock, project.version_file->spec)) return false;
        auto plan = plan_lock(store, lock, host_platform(), name);
        if (!plan.nothing_to_fetch() || !is_pinned(store, plan)) return false;
        auto target = picked_pair(*Spec::parse(lock.pair), store);
        if (!target) return false;
        if (store_only) {  // the project is left as it is
        } else if (project.version_file) {  // the project must pick the locked pair
            auto picked = picked_pair(project.version_file->spec, store);
            if (!picked || !picked->same_as(*target)) return false;
        } else if (!fsx::exists(project.lock_path.parent_path() / ".cudaenv") &&
                   !fsx::exists(project.lock_path.parent_path() / ".tool-versions")) {
            return false;  // --frozen writes one
        }
        out << "in sync: " << lock.pair << " (" << name << ")\n";
        return true;
    } catch (const Error&) {
        return false;
    }
}

std::string locked_pair(const std::filesystem::path& cwd, SyncOptions::Mode mode) {
    return LockFile::load(find_sync_project(cwd, mode).lock_path).pair;
}

}  // namespace cudaenv::install
