#include "store/host_compiler_cache.hpp"

#include <chrono>

#include "store/store.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/cache_file.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/records.hpp"
#include "util/strings.hpp"

namespace cudaenv {

std::optional<HostCompilerChoice> pick_host_compiler(const fs::path& store_root, const Version& cuda,
                                                     const std::string& path, Stamps* key_out) {
    // Only on a changed key is host_compilers.toml parsed and a compiler started.
    // The key: the CUDA release and each PATH folder's mtime (a compiler added
    // to or removed from a PATH folder changes it). Each kept decision also
    // names the compiler PATH gave and its stamp, which follows links: an
    // update-alternatives switch or an upgrade in place changes it. So a
    // lookup stats PATH's folders and that one file, and searches nothing.
    const auto mm = Version({cuda.major(), cuda.minor()}).str();
    std::string key = mm;
    Stamps stamps;
    for (const auto& dir : str::split(path, ':'))
        if (!dir.empty()) {
            stamps.emplace_back(dir, path_stamp(dir));
            key += "\n" + dir + "=" + stamps.back().second;
        }
    auto answer = [&](std::string_view cxx, std::string_view cxx_stamp) {
        if (!key_out) return;
        key_out->insert(key_out->end(), stamps.begin(), stamps.end());
        if (!cxx.empty()) key_out->emplace_back(cxx, cxx_stamp);
    };

    // One record each (util/records.hpp): key, compiler, its stamp, then
    // "none", or "use", path, reason. Read on every switch: no JSON parser.
    const auto file = Store::host_compiler_cache_file(store_root);
    std::vector<std::string> kept;  // the records of other keys, to keep
    if (auto text = fsx::read_file(file, 1 << 20)) {
        records::Reader r(*text);
        std::vector<std::string_view> f;
        std::string_view raw;
        while (r.next(f, &raw)) {
            if (f.empty() || !r.intact()) continue;  // damaged: decided again, not kept
            if (f[0] != key) {
                kept.emplace_back(raw);
                continue;
            }
            if (f.size() < 4 || path_stamp(std::string(f[1])) != f[2]) continue;  // stale: decide again
            if (f.size() == 4 && f[3] == "none") {
                answer(f[1], f[2]);
                return std::nullopt;
            }
            if (f.size() == 6 && f[3] == "use") {
                answer(f[1], f[2]);
                return HostCompilerChoice{std::string(f[4]), std::string(f[5])};
            }
        }
        if (r.damaged()) kept.clear();
    }

    auto cxx = default_host_compiler(path, false);
    if (!cxx) {
        answer({}, {});  // none on PATH: a folder's mtime shows one added
        return std::nullopt;
    }
    const auto cxx_stamp = path_stamp(*cxx);
    answer(*cxx, cxx_stamp);
    const auto what = fsx::to_utf8(fsx::from_utf8(*cxx).filename());
    std::error_code ec;
    auto real = fs::canonical(fsx::from_utf8(*cxx), ec);
    if (ec) return std::nullopt;
    std::optional<CompilerId> id;
    if (!host_compiler_rule(cuda)) return std::nullopt;
    auto pr = platform::run_process({fsx::to_utf8(real), "--version"}, platform::environment(),
                                    std::chrono::seconds(10));
    if (pr.started && pr.exit_code == 0) id = parse_compiler_version(pr.out);
    auto choice = choose_host_compiler(
        cuda, id, [&](const std::string& name) { return platform::find_on_path(name, path); }, what);

    if (kept.size() >= 32) kept.clear();  // keys of old PATHs pile up: start again
    std::string out;
    for (const auto& k : kept) out += k;
    if (choice) records::put_record(out, {key, *cxx, cxx_stamp, "use", choice->path, choice->reason});
    else records::put_record(out, {key, *cxx, cxx_stamp, "none"});
    save_cache_file(file, out);  // a store that cannot be written asks again next time
    return choice;
}

}  // namespace cudaenv
