#include "export/kernelspec.hpp"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/user_file.hpp"
#include "util/json_text.hpp"

namespace cudaenv::exporting {

namespace fs = std::filesystem;

namespace {

nlohmann::ordered_json read_spec(const fs::path& file) {
    auto text = fsx::read_file(file);
    if (!text) return nullptr;
    return parse_ordered_json(*text);
}

bool ours(const nlohmann::ordered_json& j) {
    return j.is_object() && j.contains("metadata") && j["metadata"].is_object() && j["metadata"].contains("cudaenv");
}

}  // namespace

fs::path jupyter_data_dir(const EnvReader& env, JupyterOs os, const fs::path& home) {
    if (auto d = env("JUPYTER_DATA_DIR"); d && !d->empty()) return fsx::from_utf8(*d);
    // Without a home the folder would be relative: under the current folder.
    auto under_home = [&](const fs::path& rel) {
        if (home.empty())
            throw Error("cannot tell where Jupyter's kernels folder is: " +
                            std::string(os == JupyterOs::windows ? "USERPROFILE" : "HOME") + " is not set",
                        "set it, or JUPYTER_DATA_DIR, or name the folder with --prefix");
        return home / rel;
    };
    switch (os) {
    case JupyterOs::windows:
        if (auto a = env("APPDATA"); a && !a->empty()) return fsx::from_utf8(*a) / "jupyter";
        return under_home(fs::path(".jupyter") / "data");
    case JupyterOs::macos:
        return under_home(fs::path("Library") / "Jupyter");
    case JupyterOs::linux:
        break;
    }
    if (auto x = env("XDG_DATA_HOME"); x && !x->empty() && (*x)[0] == '/') return fsx::from_utf8(*x) / "jupyter";
    return under_home(fs::path(".local") / "share" / "jupyter");
}

fs::path kernels_dir(const EnvReader& env, const std::optional<fs::path>& prefix) {
    if (prefix) return *prefix / "share" / "jupyter" / "kernels";
    auto home = fsx::from_utf8(env(this_jupyter_os() == JupyterOs::windows ? "USERPROFILE" : "HOME").value_or(""));
    if (!home.is_absolute()) home.clear();  // unset, empty or relative: no home
    return jupyter_data_dir(env, this_jupyter_os(), home) / "kernels";
}

void check_kernel_name(const std::string& name) {
    if (name.find('/') != std::string::npos || name.find('\\') != std::string::npos)
        throw UsageError("kernel name '" + name + "' has a path separator; it names a folder under Jupyter's kernels folder",
                         "use letters, digits, '.', '_' and '-', e.g. --name cuda-12.4");
    bool ok = !name.empty() && name != "." && name != "..";
    for (unsigned char c : name)
        if (!(std::isalnum(c) || c == '.' || c == '_' || c == '-')) ok = false;
    if (!ok)
        throw UsageError("kernel name '" + name + "' is not one Jupyter accepts",
                         "use letters, digits, '.', '_' and '-', e.g. --name cuda-12.4");
}

void write_kernel(const KernelSpec& k) {
    check_kernel_name(k.name);
    auto folder = k.dir / fsx::from_utf8(k.name);
    auto file = folder / "kernel.json";
    std::error_code ec;
    if (fs::exists(file, ec) && !ours(read_spec(file)))
        throw Error("'" + fsx::to_utf8(file) + "' is a kernelspec cudaenv did not write; it was left as it was",
                    "pick another name with --name");
    nlohmann::ordered_json j;
    j["argv"] = {k.cudaenv, "exec", k.spec, "--", k.python, "-m", "ipykernel_launcher", "-f", "{connection_file}"};
    j["display_name"] = k.display_name;
    j["language"] = "python";
    if (!k.env.empty()) {
        j["env"] = nlohmann::ordered_json::object();
        for (const auto& [name, value] : k.env) j["env"][name] = value;
    }
    j["metadata"] = {{"cudaenv", {{"spec", k.spec}, {"python", k.python}}}, {"debugger", true}};
    fs::create_directories(folder, ec);
    if (ec) throw Error("cannot create '" + fsx::to_utf8(folder) + "': " + ec.message());
    fsx::write_user_file(file, j.dump(1) + "\n");
}

std::vector<KernelSpec> list_kernels(const fs::path& dir) {
    std::vector<KernelSpec> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        auto j = read_spec(entry.path() / "kernel.json");
        if (!ours(j)) continue;
        KernelSpec k;
        k.name = fsx::to_utf8(entry.path().filename());
        k.dir = dir;
        // A kernel.json is the user's file: a field of another type reads as empty.
        auto text = [](const nlohmann::ordered_json& obj, const char* key) {
            return obj.is_object() && obj.contains(key) && obj[key].is_string() ? obj[key].get<std::string>() : "";
        };
        const auto& meta = j["metadata"]["cudaenv"];
        k.display_name = text(j, "display_name");
        k.spec = text(meta, "spec");
        k.python = text(meta, "python");
        if (j.contains("argv") && j["argv"].is_array() && !j["argv"].empty() && j["argv"][0].is_string())
            k.cudaenv = j["argv"][0];
        out.push_back(k);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return out;
}

void remove_kernel(const fs::path& dir, const std::string& name) {
    check_kernel_name(name);
    auto folder = dir / fsx::from_utf8(name);
    auto file = folder / "kernel.json";
    std::error_code ec;
    for (const auto& p : {folder, file})
        if (fs::is_symlink(p, ec))
            throw Error("'" + fsx::to_utf8(p) + "' is a link to '" + fsx::to_utf8(fs::read_symlink(p, ec)) +
                            "'; removing the kernelspec through it would delete what it points to, so it was left as it was",
                        "remove the link itself: rm '" + fsx::to_utf8(p) + "'");
    if (!fs::exists(file, ec))
        throw Error("no kernelspec '" + name + "' in " + fsx::to_utf8(dir), "see `cudaenv kernel list`");
    if (!ours(read_spec(file)))
        throw Error("the kernelspec '" + name + "' was not written by cudaenv; it was left as it was",
                    "remove it with `jupyter kernelspec remove " + name + "`");
    fs::remove(file, ec);
    if (ec) throw Error("cannot remove '" + fsx::to_utf8(file) + "': " + ec.message());
    fs::remove(folder, ec);  // only when empty: files someone added stay
}

}  // namespace cudaenv::exporting
