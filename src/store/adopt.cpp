#include "store/adopt.hpp"

#include "core/pathlist.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

bool same_folder(const std::filesystem::path& a, const std::filesystem::path& b) {
    return same_path_entry(fsx::to_utf8(fsx::absolute_normal(a)), fsx::to_utf8(fsx::absolute_normal(b)),
                           native_path_style());
}

}  // namespace

std::vector<Found> inspect_folder(const std::filesystem::path& dir, Store& store) {
    std::vector<Found> out;
    auto tk = detect_toolkit(dir);
    if (tk) {
        Found f{Found::Kind::toolkit, tk->root, "", tk->version, tk->version.major(),
                std::string(layout::name(tk->layout))};
        for (const auto& t : store.toolkits()) f.known = f.known || same_folder(t.path, f.path);
        out.push_back(f);
    }
    for (const auto& c : detect_cudnns(dir)) {
        // cuDNN copied into a toolkit's folder (NVIDIA's manual procedure) was
        // chosen for that toolkit: without a better hint, take its CUDA major.
        int cuda_major = c.cuda_major == 0 && tk ? tk->version.major() : c.cuda_major;
        Found f{Found::Kind::cudnn, c.root, c.variant, c.version, cuda_major, std::string(layout::name(c.layout))};
        for (const auto& k : store.cudnns()) f.known = f.known || (same_folder(k.path, f.path) && k.variant == f.variant);
        out.push_back(f);
    }
    return out;
}

void adopt(const std::vector<Found>& items, Store& store) {
    // config.toml is TOML, which holds UTF-8 only: a name of other bytes would
    // be written as other characters and name a folder that does not exist.
    for (const auto& f : items)
        if (!f.known && !str::utf8_code_points(fsx::to_utf8(f.path)))
            throw Error("the folder name '" + fsx::to_utf8(f.path) + "' is not UTF-8, which config.toml cannot hold",
                        "rename the folder (or a folder above it) to a UTF-8 name and add it again");
    auto& cfg = store.config();
    for (const auto& f : items) {
        if (f.known) continue;
        if (f.kind == Found::Kind::toolkit)
            cfg.toolkits.push_back({fsx::to_utf8(f.path), f.version});
        else
            cfg.cudnns.push_back({fsx::to_utf8(f.path), f.variant, f.version, f.cuda_major});
    }
}

std::string describe(const Found& f) {
    if (f.kind == Found::Kind::toolkit) return "CUDA " + f.version.str() + " toolkit";
    std::string s = "cuDNN " + f.version.str();
    s += f.cuda_major ? " for CUDA " + std::to_string(f.cuda_major) : std::string(" (CUDA major unknown)");
    return s;
}

}  // namespace cudaenv
