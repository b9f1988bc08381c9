#include "gpu/wheel.hpp"

#include <algorithm>
#include <chrono>

#include "core/cudalibs.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::gpu {

namespace fs = std::filesystem;

namespace {

// Prints torch's version, its lib folder and site-packages, one per line. The
// version with its build ("2.11.0+cu130") is in torch/version.py, read as text
// (never imported); PyPI's wheels leave the build out of their metadata.
const char* torch_probe = R"PY(
import importlib.util, os, re
from importlib import metadata
s = importlib.util.find_spec("torch")
if s and s.origin:
    d = os.path.dirname(s.origin)
    v = metadata.version("torch")
    try:
        m = re.search(r"__version__\s*=\s*['\"]([^'\"]+)['\"]", open(os.path.join(d, "version.py")).read())
        if m and m.group(1).startswith(v + "+"):
            v = m.group(1)
    except OSError:
        pass
    print("@@cudaenv-torch")
    print(v)
    print(os.path.join(d, "lib"))
    print(os.path.dirname(d))
)PY";


void add_libraries(const fs::path& dir, CodeCache& cache, std::vector<LibraryCode>& out) {
    std::error_code ec;
    std::vector<fs::path> found;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code e2;
        if (!it->is_symlink(e2) && it->is_regular_file(e2) &&
            cudalibs::is_library_file(fsx::to_utf8(it->path().filename())))
            found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    for (const auto& f : found) out.push_back({f, false, cache.file(f)});
}

}  // namespace

std::optional<WheelScan> scan_torch(const std::string& python, CodeCache& cache) {
    auto r = platform::run_process({python, "-c", torch_probe}, platform::environment(), std::chrono::seconds(60));
    auto at = r.out.find("@@cudaenv-torch\n");
    if (!r.started || at == std::string::npos) return std::nullopt;
    auto lines = str::split(r.out.substr(at), '\n');
    if (lines.size() < 4) return std::nullopt;
    WheelScan w;
    w.dist = "torch";
    w.version = std::string(str::trim(lines[1]));
    add_libraries(fsx::from_utf8(str::trim(lines[2])), cache, w.libs);
    // The nvidia-* wheels torch loads its CUDA and cuDNN from.
    std::error_code ec;
    auto nvidia = fsx::from_utf8(str::trim(lines[3])) / "nvidia";
    for (fs::directory_iterator it(nvidia, ec), end; !ec && it != end; it.increment(ec)) {
        add_libraries(it->path() / "lib", cache, w.libs);
        add_libraries(it->path() / "bin", cache, w.libs);
    }
    return w;
}

std::string wheel_problem(const WheelScan& w, const Machine& m, Runs* worst) {
    Runs all = Runs::native;
    std::string line;
    for (const auto& g : m.gpus) {
        Runs gpu_worst = Runs::native;
        std::string why;
        for (const auto& l : w.libs) {
            if (!l.file.code.has_kernels()) continue;
            auto v = judge(l.file.code, g.arch);
            if (worse(v.runs, gpu_worst) != gpu_worst) {
                gpu_worst = v.runs;
                why = fsx::to_utf8(l.path.filename()) + ": " + v.why;
            }
        }
        if (gpu_worst != Runs::native && worse(gpu_worst, all) == gpu_worst) {
            all = gpu_worst;
            line = w.dist + " " + w.version + " on " + m.label(g) + ": " + runs_name(gpu_worst) + " (" + why + ")";
        }
    }
    if (worst) *worst = all;
    return line;
}

}  // namespace cudaenv::gpu

namespace cudaenv::gpu {

std::string torch_wheel_warning(const std::string& version, const std::filesystem::path& store_root) {
    auto m = this_machine(store_root, {}, Probe::allowed);
    if (!m.known()) return {};
    auto path = platform::get_env("PATH").value_or("");
    auto py = platform::find_python(path);
    if (!py) return {};
    CodeCache cache(store_root);
    auto w = scan_torch(*py, cache);
    if (!w || !(w->version == version || w->version.starts_with(version + "+") || w->version.starts_with(version + ".")))
        return {};
    return wheel_problem(*w, m);
}

}  // namespace cudaenv::gpu
