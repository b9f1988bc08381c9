#include "install/manifest.hpp"

#include <nlohmann/json.hpp>

#include "install/sha256.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace cudaenv::install {

using json = nlohmann::json;

const Artifact* Component::find(const std::string& platform, int cuda_major) const {
    for (const auto& a : artifacts)
        if (a.platform == platform && a.cuda_major == cuda_major) return &a;
    return nullptr;
}

namespace {

Artifact read_artifact(const json& j, const std::string& where, const std::string& source) {
    auto fail = [&](const std::string& why) -> Error {
        return Error(source + ": " + where + ": " + why, "the manifest is damaged or not NVIDIA's redistrib format");
    };
    if (!j.contains("relative_path") || !j["relative_path"].is_string()) throw fail("no relative_path");
    if (!j.contains("sha256") || !j["sha256"].is_string()) throw fail("no sha256");
    Artifact a;
    a.relative_path = j["relative_path"].get<std::string>();
    if (!fsx::is_safe_relative(a.relative_path)) throw fail("unsafe relative_path '" + a.relative_path + "'");
    a.sha256 = str::to_lower_ascii(j["sha256"].get<std::string>());
    if (!str::is_sha256_hex(a.sha256)) throw fail("sha256 is not 64 hex digits");
    if (!j.contains("size")) throw fail("no size");
    const auto& s = j["size"];
    if (s.is_string()) {
        auto text = s.get<std::string>();
        if (!str::is_digits(text) || text.size() > 15) throw fail("size '" + text + "' is not a number");
        a.size = std::stoull(text);
    } else if (s.is_number_unsigned()) {
        a.size = s.get<uint64_t>();
    } else {
        throw fail("size is not a number");
    }
    return a;
}

}  // namespace

Manifest Manifest::parse(const std::string& text, const std::string& source, const std::string& label_hint,
                         const std::string& product_hint) {
    json root;
    if (auto why = check_json_limits(text))
        throw Error(source + ": not a manifest cudaenv reads: " + *why, "the mirror serves something else");
    try {
        root = json::parse(text);
    } catch (const json::exception& e) {  // parse_error, and out_of_range for a number too large
        throw Error(source + ": not valid JSON (" + std::string(e.what()) + ")",
                    "the download may be incomplete, or the mirror serves something else");
    }
    if (!root.is_object()) throw Error(source + ": not a redistrib manifest (not a JSON object)");
    Manifest m;
    auto str_field = [&](const char* key) {
        auto it = root.find(key);
        return it != root.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    m.release_label = str_field("release_label");
    if (m.release_label.empty()) m.release_label = label_hint;
    m.product = str_field("release_product");
    if (m.product.empty()) m.product = product_hint;
    m.release_date = str_field("release_date");
    for (const auto& [key, value] : root.items()) {
        if (!value.is_object()) continue;
        Component c;
        c.key = key;
        if (auto it = value.find("name"); it != value.end() && it->is_string()) c.name = it->get<std::string>();
        if (auto it = value.find("version"); it != value.end() && it->is_string()) c.version = it->get<std::string>();
        for (const auto& [platform, entry] : value.items()) {
            if (!entry.is_object()) continue;  // name, license, cuda_variant, ...
            if (entry.contains("relative_path")) {
                auto a = read_artifact(entry, key + "." + platform, source);
                a.platform = platform;
                c.artifacts.push_back(std::move(a));
                continue;
            }
            for (const auto& [variant, v] : entry.items()) {
                int major = 0;
                if (!v.is_object() || !variant.starts_with("cuda") || !str::parse_int(variant.substr(4), major))
                    continue;
                auto a = read_artifact(v, key + "." + platform + "." + variant, source);
                a.platform = platform;
                a.cuda_major = major;
                c.artifacts.push_back(std::move(a));
            }
        }
        if (!c.artifacts.empty()) m.components.emplace(key, std::move(c));
    }
    if (m.components.empty()) throw Error(source + ": the manifest lists no downloadable component");
    return m;
}

std::string host_platform() {
    // NVIDIA names a server's ARM (aarch64) "sbsa"; the OS by platform's name.
    const auto cpu = platform::cpu_name == "aarch64" ? std::string("sbsa") : std::string(platform::cpu_name);
    return std::string(platform::os_name(platform::host_os)) + "-" + cpu;
}

std::vector<std::string> default_cuda_components(const Manifest& m, const std::string& platform) {
    // Runtime, compiler (CUDA 13 splits crt, nvvm and the PTX compiler out of
    // nvcc), headers (CCCL), the math libraries, NVRTC, CUPTI, NVTX and the
    // small binary tools; on Windows the Visual Studio integration (MSBuild's
    // CUDA build customization, which Visual Studio projects and CMake's
    // Visual Studio generators need; docs/msvc.md). Profilers, Nsight,
    // drivers and docs are left out.
    static const char* wanted[] = {"cuda_cudart",  "cuda_nvcc",        "cuda_crt",      "libnvvm",
                                   "libnvptxcompiler", "cuda_cccl",    "cuda_culibos",  "cuda_nvrtc",
                                   "cuda_cupti",   "cuda_nvtx",        "cuda_profiler_api", "cuda_cuobjdump",
                                   "cuda_nvdisasm", "cuda_nvprune",    "cuda_cuxxfilt", "libcublas",
                                   "libcufft",     "libcurand",        "libcusolver",   "libcusparse",
                                   "libnvjitlink", "visual_studio_integration"};
    std::vector<std::string> out;
    for (const char* w : wanted) {
        auto it = m.components.find(w);
        if (it != m.components.end() && it->second.find(platform)) out.push_back(w);
    }
    return out;
}

}  // namespace cudaenv::install
