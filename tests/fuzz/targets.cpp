#include "targets.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <fstream>
#include <set>
#include <nlohmann/json.hpp>
#include <unistd.h>
#include <stdexcept>
#include <string>
#include <toml++/toml.h>

#include "store/checks.hpp"
#include "store/config.hpp"
#include "core/cmake_cache.hpp"
#include "core/lockfile.hpp"
#include "core/msvc.hpp"
#include "core/resolve.hpp"
#include "core/spec.hpp"
#include "util/toml_file.hpp"
#include "export/formats.hpp"
#include "gpu/fatbin.hpp"
#include "install/layout.hpp"
#include "install/manifest.hpp"
#include "nvidia/driver.hpp"
#include "platform/nvidia_driver.hpp"
#include "setup/setup_record.hpp"
#include "trace/trace.hpp"
#include "util/binary_file.hpp"
#include "util/elf.hpp"
#include "util/error.hpp"
#include "util/json_text.hpp"
#include "util/pe.hpp"
#include "util/records.hpp"
#include "util/toml_limits.hpp"

namespace cudaenv::fuzz {

namespace {

std::string text_of(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

// A property that must hold: a finding when it does not.
void require(bool ok, const std::string& what) {
    if (!ok) throw std::logic_error(what);
}

// A store or project file cudaenv writes (config.toml, checks.toml, cudaenv.lock,
// setup.toml) as T::parse reads it, or nullopt for text it refuses with an Error.
template <class T>
std::optional<T> read_as(const uint8_t* data, size_t size, const char* name) {
    try {
        return T::parse(text_of(data, size), name);
    } catch (const Error&) {
        return std::nullopt;
    }
}

// What cudaenv writes of a file it read (`write`), it reads back as the same file.
template <class T, class Write>
void require_round_trip(const T& value, const char* name, Write write) {
    auto written = write(value);
    T again;
    try {
        again = T::parse(written, name);
    } catch (const Error& e) {
        throw std::logic_error(std::string(name) + " written by cudaenv does not read back: " + e.what());
    }
    require(write(again) == written, std::string(name) + " does not round-trip");
}

// Any TOML read from the store (setup.toml too): the bounds, then toml++.
void toml_any(const uint8_t* data, size_t size) {
    auto text = text_of(data, size);
    if (check_toml_limits(text)) return;
    try {
        auto t = toml::parse(text, std::string_view("fuzz.toml"));
        (void)t.size();
    } catch (const toml::parse_error&) {
    }
}

void config(const uint8_t* data, size_t size) {
    if (auto c = read_as<Config>(data, size, "config.toml"))
        require_round_trip(*c, "config.toml", [](const Config& x) { return x.to_toml(); });
}

void checks(const uint8_t* data, size_t size) {
    if (auto c = read_as<Checks>(data, size, "checks.toml"))
        require_round_trip(*c, "checks.toml", [](const Checks& x) { return x.to_toml(); });
}

// A lock comes from a cloned repository: besides reading back, what parse()
// promises holds for every lock it accepts (sync installs and pins from it).
void lock(const uint8_t* data, size_t size) {
    auto read = read_as<LockFile>(data, size, "cudaenv.lock");
    if (!read) return;
    const auto& l = *read;
    require(l.adopted || l.pair == l.pair_of_tables(), "a lock whose pair is not its [cuda] and [cudnn] was read");
    require(l.archives.size() <= kMaxLockArchives, "a lock with more archives than the limit was read");
    std::set<std::string> entries;
    for (const auto& a : l.archives) {
        require(a.size >= 1, "a lock archive of size 0 was read");
        require(entries.insert(a.platform + "/" + a.product + "/" + a.component).second,
                "a lock archive listed twice was read");
    }
    (void)l.mirror_location("/project/cudaenv.lock");
    require_round_trip(l, "cudaenv.lock", [](const LockFile& x) { return x.to_toml(); });
}

void spec(const uint8_t* data, size_t size) {
    auto s = Spec::parse(text_of(data, size));
    if (s) (void)s->str();
}

void version_file(const uint8_t* data, size_t size) {
    auto text = text_of(data, size);
    try {
        (void)parse_dot_cudaenv(text, ".cudaenv");
    } catch (const Error&) {
    }
    try {
        (void)parse_tool_versions(text, ".tool-versions");
    } catch (const Error&) {
    }
}

// Any JSON cudaenv reads (presets, kernelspecs, manifests, check reports,
// version.json): the limits, then nlohmann, and what the callers do next
// (serialize, compare); then a CMakeUserPresets.json merged.
void json_any(const uint8_t* data, size_t size) {
    auto text = text_of(data, size);
    auto j = parse_ordered_json(text);
    if (!j.is_discarded()) {
        auto again = parse_ordered_json(j.dump(2));
        require(again == j, "JSON written by nlohmann does not read back the same");
    }
    (void)json_duplicate_key(text);
}

// A pair to export: toolkit and cuDNN folders, PATH and LD_LIBRARY_PATH.
exporting::PairVars sample_pair() {
    exporting::PairVars p;
    p.pair.toolkit.path = "/opt/cuda-12.4";
    p.pair.toolkit.version = *Version::parse("12.4.131");
    p.spec = "12.4.131+none";
    p.cuda_root = "/opt/cuda-12.4";
    p.cuda_version = "12.4.131";
    p.diff.edits = {{"PATH", EnvOp::prepend, "/opt/cuda-12.4/bin:/usr/bin", {"/opt/cuda-12.4/bin"}, {}},
                    {"CUDA_PATH", EnvOp::set, "/opt/cuda-12.4"},
                    {"CUDNN_PATH", EnvOp::unset, std::nullopt}};
    return p;
}

// `export cmake-presets` into a file holding these bytes: refused with an
// Error, or merged into JSON that keeps what was there and merges the same
// way again.
void presets(const uint8_t* data, size_t size) {
    const auto text = text_of(data, size);
    const std::vector<exporting::PairVars> pairs = {sample_pair()};
    std::string merged;
    try {
        merged = exporting::merge_presets(text, pairs, 3, exporting::Options{}, "CMakeUserPresets.json");
    } catch (const Error&) {
        return;
    }
    auto doc = parse_ordered_json(merged);
    require(!doc.is_discarded(), "merged presets are not JSON");
    auto old = parse_ordered_json(text);
    if (old.is_object())
        for (const auto& [key, value] : old.items())
            if (key != "version" && key != "configurePresets" && key != "buildPresets" && key != "testPresets")
                require(doc.contains(key) && doc[key] == value, "a member of the user's file was changed");
    std::string twice;
    try {
        twice = exporting::merge_presets(merged, pairs, 3, exporting::Options{}, "CMakeUserPresets.json");
    } catch (const Error& e) {
        throw std::logic_error(std::string("merged presets are refused when merged again: ") + e.what());
    }
    require(twice == merged, "merging the same presets again changes the file");
}

// A mirror's listing page (from the network) and the names in it, read by
// the single-pass scanners of install/layout: the releases come out newest
// first, each once, no more than the limit; a name is an archive name or not.
void listing(const uint8_t* data, size_t size) {
    const auto text = text_of(data, size);
    try {
        auto rs = install::releases_from_listing(text);
        require(rs.size() <= install::kMaxListedReleases, "more releases than the limit");
        for (size_t i = 1; i < rs.size(); ++i) require(rs[i - 1] > rs[i], "releases not newest first, each once");
    } catch (const Error&) {
    }
    (void)install::manifest_release(text);
    if (auto a = install::parse_archive_name(text))
        require(a->is_cudnn() == (a->cuda_major > 0), "a cuDNN name without _cuda<N>");
}

// `export msbuild` into a Directory.Build.props holding these bytes: refused
// with an Error, or merged so that every byte outside cudaenv's block stays,
// and merged again the same way.
void props(const uint8_t* data, size_t size) {
    const auto text = text_of(data, size);
    const auto pair = sample_pair();
    std::string merged;
    try {
        merged = exporting::merge_props(text, pair, PathStyle::windows, "Directory.Build.props");
    } catch (const Error&) {
        return;
    }
    require(merged.find("<CudaToolkitCustomDir>") != std::string::npos, "the merged file has no CudaToolkitCustomDir");
    std::string twice;
    try {
        twice = exporting::merge_props(merged, pair, PathStyle::windows, "Directory.Build.props");
    } catch (const Error& e) {
        throw std::logic_error(std::string("a merged Directory.Build.props is refused when merged again: ") + e.what());
    }
    require(twice == merged, "merging the same pair again changes the file");
    // What was there before the block and after it is still there, byte for byte.
    auto begin = merged.find("<!-- >>> cudaenv export");
    auto end = merged.find("<!-- <<< cudaenv export <<< -->");
    require(begin != std::string::npos && end != std::string::npos, "the block's markers are missing");
    auto nl = merged.rfind('\n', begin);
    auto head = merged.substr(0, nl == std::string::npos ? 0 : nl);
    if (head.ends_with('\r')) head.pop_back();
    require(text.starts_with(head), "a byte before cudaenv's block was changed");
}

// The input as a file, for the readers of binaries (ELF, PE, fatbin), which
// read files with bounded reads: one file per target and process, removed
// when the process ends.
class ScratchFile {
public:
    explicit ScratchFile(const char* target)
        : path_(std::filesystem::temp_directory_path() /
                ("cudaenv-fuzz-" + std::string(target) + "-" + std::to_string(::getpid()))) {}
    ~ScratchFile() {
        std::error_code ec;
        std::filesystem::remove(path_, ec);
    }
    const std::filesystem::path& write(const uint8_t* data, size_t size) {
        std::ofstream(path_, std::ios::binary | std::ios::trunc)
            .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        return path_;
    }

private:
    std::filesystem::path path_;
};

// A file cudaenv inspects (gpu/fatbin): as an ELF or PE file, and as the
// bytes of one fatbin section. Reads are bounded by the file; every problem is
// one line, and no file claims more entries than the limit.
void fatbin(const uint8_t* data, size_t size) {
    static ScratchFile scratch("fatbin");
    const auto& file = scratch.write(data, size);
    auto check = [](const gpu::Code& c, const std::string& problem) {
        require(problem.find('\n') == std::string::npos, "a fatbin finding of more than one line");
        long long n = 0;
        for (const auto& [a, k] : c.sass) n += k;
        for (const auto& [a, k] : c.ptx) n += k;
        require(n <= gpu::max_entries, "more fatbin entries than the limit");
    };
    auto fc = gpu::read_file(file);
    check(fc.code, fc.problem);
    BinaryFile f(file);
    gpu::Code code;
    check(code, gpu::read_fatbins(f, 0, f.size(), code));
}

// What another program or the kernel says of the driver (nvidia-smi's banner,
// /proc/driver/nvidia/version, /sys/module/nvidia/version): bounded scanners,
// never a backtracking matcher; what they take is a version as --driver takes it.
void driver_text(const uint8_t* data, size_t size) {
    const auto text = text_of(data, size);
    auto [driver, cuda] = nvidia::parse_nvidia_smi(text);
    require(driver.empty() || platform::is_driver_version(driver), "nvidia-smi gave a driver that is no version");
    require(cuda.empty() || platform::is_driver_version(cuda), "nvidia-smi gave a CUDA that is no version");
    if (auto v = platform::parse_proc_driver_version(text))
        require(platform::is_driver_version(*v), "/proc's text gave a driver that is no version");
    if (auto v = platform::parse_sys_module_version(text))
        require(platform::is_driver_version(*v), "/sys's text gave a driver that is no version");
}

// The store's cache files (util/records): any bytes read as records or as
// damage; the fields of a record read intact, written again, read back the same.
void records_any(const uint8_t* data, size_t size) {
    const auto text = text_of(data, size);
    records::Reader reader(text);
    std::vector<std::string_view> fields;
    while (reader.next(fields)) {
        if (!reader.intact()) continue;
        std::string again;
        records::put_record(again, fields);
        auto back = records::fields_of(again);
        require(back && *back == fields, "a record written again reads back other fields");
    }
}

// NVIDIA's redistrib manifests (install/manifest), from a mirror: a manifest
// or a one-line Error, for CUDA's and cuDNN's.
void manifest(const uint8_t* data, size_t size) {
    const auto text = text_of(data, size);
    for (const char* product : {"cuda", "cudnn"}) {
        try {
            install::Manifest::parse(text, "fuzz.json", "", product);
        } catch (const Error& e) {
            require(std::string_view(e.what()).find('\n') == std::string_view::npos, "a manifest error of more than one line");
        }
    }
}

// A project's CMakeCache.txt (core/cmake_cache): every path it gives is one
// the text holds, under a variable the text names.
void cmake_cache(const uint8_t* data, size_t size) {
    const auto text = text_of(data, size);
    for (auto style : {PathStyle::posix, PathStyle::windows})
        for (const auto& [variable, value] : cmake_cache_cuda_paths(text, style)) {
            require(!value.empty() && text.find(value) != std::string::npos, "a CMake cache path the text does not hold");
            require(text.find(variable) != std::string::npos, "a CMake cache variable the text does not name");
        }
}

// A library's dependencies (util/elf, util/pe): what detection, `check`'s load
// errors, `trace` and `export dockerfile` read of every library of a toolkit
// or a cuDNN. Names are whole, bounded and never empty; needed_libraries is
// the dynamic section's list.
void imports(const uint8_t* data, size_t size) {
    static ScratchFile scratch("imports");
    const auto& file = scratch.write(data, size);
    auto name_ok = [](const std::string& n, size_t most) {
        return !n.empty() && n.size() <= most && n.find('\0') == std::string::npos;
    };
    auto dynamic = elf::dynamic_section(file);
    auto needed = elf::needed_libraries(file);
    require(needed == (dynamic ? dynamic->needed : std::vector<std::string>{}), "needed_libraries is not the dynamic section's list");
    for (const auto& n : needed) require(name_ok(n, 256), "a DT_NEEDED name that is empty, too long or holds a NUL");
    if (dynamic)
        for (const auto* s : {&dynamic->soname, &dynamic->rpath, &dynamic->runpath, &dynamic->interpreter})
            require(s->empty() || name_ok(*s, 4096), "a dynamic-section string that is too long or holds a NUL");
    auto dlls = pe::imported_dlls(file);
    require(dlls.size() <= 4096, "more imported DLLs than the limit");
    for (const auto& n : dlls) require(name_ok(n, 256), "an imported DLL name that is empty, too long or holds a NUL");
}

// What `cudaenv trace`'s tracer wrote (trace::parse_records): one process per
// pid, and no more loads than the text has lines.
void trace_records(const uint8_t* data, size_t size) {
    const auto text = text_of(data, size);
    auto r = trace::parse_records(text);
    std::set<long> pids;
    for (const auto& p : r.processes) require(pids.insert(p.pid).second, "a process listed twice");
    require(r.loads.size() <= static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1, "more loads than lines");
}

// vswhere's JSON (core/msvc, Windows): the installations, each with a path;
// the generator named for each, and a toolset folder's _MSC_VER, are in range.
void vswhere(const uint8_t* data, size_t size) {
    const auto text = text_of(data, size);
    if (auto all = parse_vswhere(text))
        for (const auto& vs : *all) {
            require(!vs.path.empty(), "an installation without a path");
            auto g = vs_generator(vs);
            require(g.empty() || g.starts_with("Visual Studio "), "a generator that is not Visual Studio's");
        }
    if (auto v = toolset_msc_ver(text)) require(*v >= 1910 && *v <= 1999, "an _MSC_VER out of range");
}

// <store>/setup.toml (setup/setup_record): what `setup --undo` puts back. A
// record or an Error; what cudaenv writes reads back the same.
void setup_record(const uint8_t* data, size_t size) {
    if (auto r = read_as<SetupRecord>(data, size, "setup.toml"))
        require_round_trip(*r, "setup.toml", [](const SetupRecord& x) { return x.serialize(); });
}

}  // namespace

const Target kTargets[] = {
    {"toml", toml_any},
    {"config", config},
    {"checks", checks},
    {"lock", lock},
    {"spec", spec},
    {"version_file", version_file},
    {"json", json_any},
    {"presets", presets},
    {"props", props},
    {"fatbin", fatbin},
    {"listing", listing},
    {"driver_text", driver_text},
    {"records", records_any},
    {"manifest", manifest},
    {"cmake_cache", cmake_cache},
    {"imports", imports},
    {"trace_records", trace_records},
    {"vswhere", vswhere},
    {"setup_record", setup_record},
    {nullptr, nullptr},
};

const Target* find_target(std::string_view name) {
    for (const Target* t = kTargets; t->name; ++t)
        if (name == t->name) return t;
    return nullptr;
}

}  // namespace cudaenv::fuzz
