// `export dockerfile`: the project's cudaenv.lock as a build context for
// Podman, Buildah and Docker (docs/containers.md): a Dockerfile, the lock and
// cudaenv's programs. The build installs the locked pair with `cudaenv sync
// --frozen` from a mirror mounted at build time (nothing else is fetched),
// on any glibc base: the installer runs in a stage of its own on the build
// machine's C library and shared libraries, copied in with it, and only the
// pair's folders reach the image. Nothing in the result depends on when or
// where it was built beyond the lock, the mirror and these programs.
#include <algorithm>
#include <cstdio>
#include <set>

#include "core/activation.hpp"
#include "core/lockfile.hpp"
#include "export/format_parts.hpp"
#include "export/formats.hpp"
#include "platform/install_dirs.hpp"
#include "platform/platform.hpp"
#include "platform/tracer.hpp"
#include "store/store.hpp"
#include "util/elf.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/user_file.hpp"

namespace cudaenv::exporting {

namespace {

namespace fs = std::filesystem;

constexpr const char* platform_name = "linux-x86_64";
constexpr const char* default_base = "debian:bookworm-slim";
constexpr const char* default_context = "cudaenv-image";
// Where the pair lives in the image: the store cudaenv in the image uses.
constexpr const char* image_store = "/opt/cudaenv";
// The sync stage's own folders.
constexpr const char* build_bin = "/opt/cudaenv-build/bin";
constexpr const char* build_runtime = "/opt/cudaenv-build/runtime";
constexpr const char* build_project = "/opt/cudaenv-build/project";
constexpr const char* mirror_mount = "/mnt/cudaenv-mirror";
// The CUDA components whose archives have programs in bin/: with one of
// them the toolkit's bin/ goes on PATH.
constexpr const char* components_with_programs[] = {"cuda_nvcc", "cuda_cuobjdump", "cuda_nvdisasm", "cuda_nvprune",
                                                    "cuda_cuxxfilt", "cuda_gdb", "cuda_sanitizer_api"};

fs::path find_lock(const fs::path& cwd) {
    for (auto dir = cwd;; dir = dir.parent_path()) {
        if (fsx::is_file(dir / kLockFileName)) return dir / kLockFileName;
        if (dir == dir.root_path() || dir.parent_path() == dir) break;
    }
    throw Error("no cudaenv.lock here or in a folder above '" + fsx::to_utf8(cwd) + "'",
                "lock the project's pair first: cudaenv lock --platform linux-x86_64");
}

// An image reference as Docker and Podman read one: name[:tag][@digest],
// with a registry host and port in front.
void check_base(const std::string& base) {
    bool ok = !base.empty() && base.size() <= 512 && base.front() != '-';
    for (char c : base)
        ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("._-:/@").find(c) != std::string_view::npos);
    if (!ok)
        throw UsageError("--base '" + base + "' is not an image reference",
                         "name an image with a glibc, e.g. --base debian:bookworm-slim or --base ubuntu:24.04");
}

// The folders a pair installed from NVIDIA's Linux archives has in the
// image's store, as `cudaenv env` detects them there (core/detect): the
// archives keep libraries in lib/ and programs in bin/ (docs/containers.md;
// tests/containers checks the image's variables against `cudaenv env`).
PairEnv image_pair(const LockFile& lock) {
    const Store store(image_store);
    auto cuda = Version::parse(lock.cuda_release);
    if (!cuda) throw Error("cudaenv.lock names no CUDA release", "lock it again: cudaenv lock");
    const auto root = store.managed_toolkit_path(*cuda);
    PairEnv e;
    e.spec = lock.pair;
    e.cuda_root = fsx::to_utf8(root);
    e.cuda_version = *cuda;
    if (lock.components.count("cuda_nvcc")) e.nvcc = fsx::to_utf8(root / "bin" / "nvcc");
    for (const char* c : components_with_programs)
        if (lock.components.count(c)) {
            e.path_dirs.push_back(fsx::to_utf8(root / "bin"));
            break;
        }
    if (lock.components.count("cuda_cudart")) e.lib_dirs.push_back(fsx::to_utf8(root / "lib"));
    if (!lock.cudnn_version.empty()) {
        auto v = Version::parse(lock.cudnn_version);
        if (!v) throw Error("cudaenv.lock names a cuDNN version that is not one: '" + lock.cudnn_version + "'");
        const auto cudnn = store.managed_cudnn_path(v->prefix(3), lock.cudnn_cuda_major);
        e.cudnn_root = fsx::to_utf8(cudnn);
        e.lib_dirs.push_back(fsx::to_utf8(cudnn / "lib"));
    }
    return e;
}

// One NAME=value of an ENV instruction: only what needs no quoting is ever
// written (store folders and versions); `keep` is the variable's own value
// from the base, which ENV expands.
std::string env_item(const std::string& name, const std::string& value, const std::string& keep = "") {
    for (char c : value)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              std::string_view("._-+/:@").find(c) != std::string_view::npos))
            throw Error("the value of " + name + " '" + value + "' would need quoting in a Dockerfile");
    return name + "=" + value + keep;
}

struct Runtime {
    std::string interpreter;                       // "/lib64/ld-linux-x86-64.so.2"
    std::vector<std::pair<std::string, fs::path>> libraries;  // soname, the file
};

// `program`'s loader and every shared library it loads, directly or through
// another, found the way the loader finds them on this machine (DT_RPATH or
// DT_RUNPATH, then the system's library folders).
Runtime runtime_of(const fs::path& program) {
    Runtime out;
    auto top = elf::dynamic_section(program);
    if (!top || top->interpreter.empty())
        throw Error("cannot read the shared libraries of '" + fsx::to_utf8(program) + "'");
    out.interpreter = top->interpreter;
    std::set<std::string> seen;
    std::vector<std::pair<fs::path, elf::Dynamic>> todo = {{program, *top}};
    while (!todo.empty()) {
        auto [file, dyn] = todo.back();
        todo.pop_back();
        std::vector<fs::path> dirs;
        for (const auto& d : str::split(dyn.runpath.empty() ? dyn.rpath : dyn.runpath, ':'))
            if (!d.empty()) dirs.push_back(fsx::from_utf8(str::replace_all(d, "$ORIGIN", fsx::to_utf8(file.parent_path()))));
        for (const auto& d : platform::system_library_dirs()) dirs.push_back(d);
        for (const auto& name : dyn.needed) {
            if (!seen.insert(name).second) continue;
            std::optional<fs::path> found;
            for (const auto& d : dirs)
                if (fsx::is_file(d / name)) {
                    found = d / name;
                    break;
                }
            if (!found)
                throw Error("cannot find " + name + ", which '" + fsx::to_utf8(program) + "' loads",
                            "run export dockerfile on the machine cudaenv was built or installed on");
            out.libraries.emplace_back(name, *found);
            if (auto sub = elf::dynamic_section(*found)) todo.emplace_back(*found, *sub);
        }
    }
    std::sort(out.libraries.begin(), out.libraries.end());
    return out;
}

void copy_into(const fs::path& from, const fs::path& to) {
    std::error_code ec;
    fs::create_directories(to.parent_path(), ec);
    if (!ec) fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
    if (ec)
        throw Error("cannot copy '" + fsx::to_utf8(from) + "' to '" + fsx::to_utf8(to) + "': " + ec.message());
}

std::string dockerfile_text(const LockFile& lock, const std::string& base, const std::vector<std::string>& bins,
                            bool private_libs) {
    const auto pair = image_pair(lock);
    // The pair's variables as `cudaenv use` plans them on a base whose
    // PATH is OCI's default; the base's own PATH and LD_LIBRARY_PATH follow.
    auto diff = plan_use(pair, lock.pair, container_environment(), [](const std::string&) { return false; },
                         PathStyle::posix);
    std::vector<std::string> env = {env_item("CUDAENV_ROOT", image_store)};
    for (const auto& e : diff.edits) {
        if (e.op == EnvOp::set && e.value) env.push_back(env_item(e.name, *e.value));
        if (e.op != EnvOp::prepend || e.prepended.empty()) continue;
        const auto dirs = str::join(e.prepended, ":");
        env.push_back(e.name == "PATH" ? env_item(e.name, dirs, ":${PATH}")
                                       : env_item(e.name, dirs, "${" + e.name + ":+:$" + e.name + "}"));
    }
    const std::string lib_dir = "/usr/local/bin/" + platform::private_lib_from_bin();
    std::string t;
    t += "# " + std::string(marker) + " dockerfile`; re-running it rewrites this file and cudaenv/.\n";
    t += "# cudaenv pair " + lock.pair + " of cudaenv.lock (beside this file), installed by `cudaenv sync --frozen`\n";
    t += "# from the mirror given as the build context `mirror` (NVIDIA's layout, `cudaenv mirror create`);\n";
    t += "# nothing else is downloaded. Reproducible: fixed timestamps give the same layers.\n";
    t += "#   podman build --build-context mirror=MIRROR --timestamp 0 -t IMAGE .\n";
    t += "#   docker buildx build --build-context mirror=MIRROR --build-arg SOURCE_DATE_EPOCH=0 \\\n";
    t += "#     --output type=image,name=IMAGE,rewrite-timestamp=true .\n";
    t += "ARG BASE=" + base + "\n\n";
    t += "# The installer runs on the build machine's own C library and shared libraries\n";
    t += "# (cudaenv/runtime), in a stage of its own: the base needs none of them.\n";
    t += "FROM scratch AS sync\n";
    t += "COPY cudaenv/runtime/ /\n";
    t += "COPY cudaenv/bin/ " + std::string(build_bin) + "/\n";
    t += "COPY cudaenv.lock " + std::string(build_project) + "/cudaenv.lock\n";
    t += "ENV CUDAENV_ROOT=" + std::string(image_store) + " HOME=/root LD_LIBRARY_PATH=" + build_runtime + "\n";
    t += "WORKDIR " + std::string(build_project) + "\n";
    t += "RUN --mount=type=bind,from=mirror,target=" + std::string(mirror_mount) + " [\"" + build_bin +
         "/cudaenv\", \"sync\", \"--frozen\", \"--quiet\", \"--mirror\", \"" + mirror_mount + "\"]\n\n";
    t += "FROM ${BASE}\n";
    t += "COPY";
    for (const auto& b : bins)
        if (b != "cudaenv-install") t += " cudaenv/bin/" + b;
    t += " /usr/local/bin/\n";
    if (private_libs) t += "COPY cudaenv/lib/ " + fsx::to_utf8(fs::path(lib_dir).lexically_normal()) + "/\n";
    // The pair's folders and config.toml (its pin); not the caches, which
    // hold the build's inode numbers and times.
    t += "COPY --from=sync " + std::string(image_store) + "/toolkits/ " + image_store + "/toolkits/\n";
    if (!lock.cudnn_version.empty())
        t += "COPY --from=sync " + std::string(image_store) + "/cudnn/ " + image_store + "/cudnn/\n";
    t += "COPY --from=sync " + std::string(image_store) + "/config.toml " + image_store + "/config.toml\n";
    // One ENV: every value expands against the base's, before this instruction.
    t += "ENV " + str::join(env, " \\\n    ") + "\n";
    return t;
}

}  // namespace

std::string write_dockerfile(const std::vector<PairVars>&, const Options& o) {
    if (o.style == PathStyle::windows)
        throw Error("`export dockerfile` copies the Linux cudaenv into the image; this is a Windows cudaenv",
                    "run it with the Linux cudaenv (in WSL: the cudaenv installed there)");
    const auto lock_file = find_lock(o.cwd);
    const auto lock = LockFile::load(lock_file);
    if (lock.adopted)
        throw Error("cudaenv.lock holds an adopted pair (folders on this machine), which no mirror can install",
                    "lock a pair from a mirror: cudaenv lock --mirror URL");
    if (!lock.has_platform(platform_name))
        throw Error("cudaenv.lock has no archives for " + std::string(platform_name) + ", the images' platform",
                    "lock it for that platform too: cudaenv lock --platform " + std::string(platform_name));
    const std::string base = o.base.empty() ? default_base : o.base;
    check_base(base);

    const fs::path dir = o.out ? *o.out : o.cwd / default_context;
    const auto file = dir / "Dockerfile";
    auto t = fsx::inspect_target(dir);
    if (t.kind != fsx::TargetKind::folder && t.kind != fsx::TargetKind::absent)
        throw Error("'" + fsx::to_utf8(dir) + "' is not a folder; `export dockerfile` writes a build context folder",
                    "name a folder with -o");
    // The folder is ours to rewrite only when it holds a Dockerfile we wrote,
    // or nothing of that name at all.
    auto old = fsx::read_user_file(file, 1u << 20, "dockerfile");
    if (old && old->substr(0, 512).find(marker) == std::string::npos)
        throw Error("'" + fsx::to_utf8(file) + "' exists and was not written by cudaenv; it was left as it was",
                    "write the build context into another folder with -o");
    const auto bundle = dir / "cudaenv";
    std::error_code ec;
    if (!old && fs::exists(fs::symlink_status(bundle, ec)))
        throw Error("'" + fsx::to_utf8(bundle) + "' exists and was not written by cudaenv; it was left as it was",
                    "write the build context into another folder with -o");

    // Everything is gathered before the first byte is written.
    std::vector<std::string> bins = {"cudaenv", "cudaenv-install", "cudaenv-probe", "cudaenv-shim"};
    std::vector<std::pair<fs::path, fs::path>> copies;
    for (const auto& b : bins)
        copies.emplace_back(b == "cudaenv" ? platform::executable_path() : platform::required_sibling_program(b, b),
                            bundle / "bin" / b);
    const auto runtime = runtime_of(platform::required_sibling_program("cudaenv-install", "the installer"));
    copies.emplace_back(runtime.interpreter, bundle / "runtime" / fs::path(runtime.interpreter).relative_path());
    for (const auto& [name, path] : runtime.libraries)
        copies.emplace_back(path, bundle / "runtime" / fs::path(build_runtime).relative_path() / name);
    // `trace`'s audit library, for the image's private folder.
    bool private_libs = false;
    for (const auto& audit : platform::audit_library_candidates())
        if (!private_libs && fsx::is_file(audit)) {
            copies.emplace_back(audit, bundle / "lib" / audit.filename());
            private_libs = true;
        }
    const auto text = dockerfile_text(lock, base, bins, private_libs);
    const auto lock_text = fsx::read_file(lock_file);
    if (!lock_text) throw Error("cannot read '" + fsx::to_utf8(lock_file) + "'");

    fs::create_directories(dir, ec);
    if (ec) throw Error("cannot create the folder '" + fsx::to_utf8(dir) + "': " + ec.message(), "name a folder you can write with -o");
    fs::remove_all(bundle, ec);
    for (const auto& [from, to] : copies) copy_into(from, to);
    fsx::write_user_file(dir / kLockFileName, *lock_text);
    fsx::write_user_file(file, text);
    say_wrote("a Dockerfile for " + lock.pair + " (" + std::to_string(copies.size()) + " files of cudaenv beside it)", dir);
    return {};
}

}  // namespace cudaenv::exporting
