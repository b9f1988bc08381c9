// `export msbuild` (Directory.Build.props merged into the user's text) and
// the Visual Studio presets of `export cmake-presets` (the toolset field).
// MSBuild itself reads the file back in tests/clients/test_msbuild.py.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "export/formats.hpp"
#include "export_support.hpp"
#include "util/error.hpp"

using namespace cudaenv;
using namespace cudaenv::exporting;

namespace {

PairVars win_pair(const std::string& root = "C:\\store\\toolkits\\11.8.89", const std::string& version = "11.8.89") {
    PairVars p = testsupport::pair_vars(root, version, "C:\\store\\cudnn\\8.9.7_cuda11", "8.9.7");
    p.diff.edits = {{"PATH", EnvOp::prepend, root + "\\bin;C:\\Windows", {root + "\\bin"}, {}},
                    {"CUDA_PATH", EnvOp::set, root}};
    return p;
}

const std::string begin_line =
    "<!-- >>> cudaenv export: written by `cudaenv export msbuild`; re-running it rewrites this block >>> -->";

}  // namespace

TEST_CASE("export msbuild: a new file, then merged into the user's") {
    Options o;
    o.style = PathStyle::windows;
    auto fresh = find_format("msbuild")->render(win_pair(), o);
    CHECK(fresh.starts_with("<Project>\n  " + begin_line + "\n"));
    CHECK(fresh.find("<CudaToolkitCustomDir>C:\\store\\toolkits\\11.8.89\\</CudaToolkitCustomDir>") != std::string::npos);
    CHECK(fresh.find("<CudaenvBuildCustomizations>C:\\store\\toolkits\\11.8.89\\extras\\visual_studio_integration\\"
                     "MSBuildExtensions\\</CudaenvBuildCustomizations>") != std::string::npos);
    CHECK(fresh.ends_with("</Project>\n"));

    const std::string user = "<Project>\r\n  <PropertyGroup>\r\n    <LangVersion>latest</LangVersion>\r\n  </PropertyGroup>\r\n</Project>\r\n";
    auto merged = merge_props(user, win_pair(), PathStyle::windows, "Directory.Build.props");
    CHECK(merged.starts_with("<Project>\r\n  <PropertyGroup>\r\n    <LangVersion>latest</LangVersion>\r\n  </PropertyGroup>\r\n  " +
                             begin_line + "\r\n"));
    CHECK(merged.ends_with("  <!-- <<< cudaenv export <<< -->\r\n</Project>\r\n"));
    CHECK(merged.find("\r\n\n") == std::string::npos);  // the file's own line endings
    // Another pair: only the block changes; the same pair again: the same bytes.
    auto other = merge_props(merged, win_pair("D:\\cuda\\12.6", "12.6.3"), PathStyle::windows, "Directory.Build.props");
    CHECK(other.find("11.8.89") == std::string::npos);
    CHECK(other.find("<CudaToolkitCustomDir>D:\\cuda\\12.6\\</CudaToolkitCustomDir>") != std::string::npos);
    CHECK(merge_props(merged, win_pair(), PathStyle::windows, "x") == merged);
    auto back = merge_props(other, win_pair(), PathStyle::windows, "x");
    CHECK(back == merged);
    // An LF file whose last line ends in a lone CR before </Project> (found by the props fuzz
    // target): the block goes after the CR, which makes one CRLF; exporting again keeps the
    // block's own LF endings, byte for byte.
    const std::string lone_cr = "<Project>\n  <PropertyGroup></PropertyGroup>\r</Project>\n";
    auto once = merge_props(lone_cr, win_pair(), PathStyle::windows, "x");
    CHECK(once.find(begin_line + "\n") != std::string::npos);
    CHECK(merge_props(once, win_pair(), PathStyle::windows, "x") == once);
}

TEST_CASE("export msbuild: MSBuild's special characters escaped, odd files refused") {
    auto p = win_pair("C:\\a & b\\$(x)\\%p%\\@(i);'q'", "12.4.1");
    auto text = merge_props("<Project>\n</Project>\n", p, PathStyle::windows, "f");
    CHECK(text.find("<CudaToolkitCustomDir>C:\\a &amp; b\\%24%28x%29\\%25p%25\\%40%28i%29%3B%27q%27\\</CudaToolkitCustomDir>") !=
          std::string::npos);
    CHECK_THROWS_AS(merge_props("<Project/>", p, PathStyle::windows, "f"), Error);
    CHECK_THROWS_AS(merge_props("not xml at all", p, PathStyle::windows, "f"), Error);
    CHECK_THROWS_AS(merge_props("<Project>\n  " + begin_line + "\n</Project>\n", p, PathStyle::windows, "f"), Error);
    // A comment never holds "--" (a spec that does is written with a blank between).
    auto odd = win_pair();
    odd.spec = "11.8--x";
    auto t = merge_props("<Project>\n</Project>\n", odd, PathStyle::windows, "f");
    CHECK(t.find("11.8- -x") != std::string::npos);
    CHECK(msbuild_misread("C:\\ok", PathStyle::windows) == std::nullopt);
    CHECK(msbuild_misread("C:\\\xff", PathStyle::windows).has_value());
}

TEST_CASE("export cmake-presets: a Visual Studio preset with the toolset's cuda=") {
    Options o;
    o.style = PathStyle::windows;
    o.vs_instances = {{"C:\\VS\\2022", "Visual Studio Community 2022", "17.14.36310.24", true},
                      {"C:\\BT\\2019", "Visual Studio Build Tools 2019", "16.11.35431.28", true}};
    o.toolsets = {{"C:\\VS\\2022", "Visual Studio Community 2022", "14.44.35207", 1944},
                  {"C:\\BT\\2019", "Visual Studio Build Tools 2019", "14.29.30133", 1929}};
    auto text = merge_presets("", {win_pair()}, 3, o, "CMakeUserPresets.json");
    auto j = nlohmann::json::parse(text);
    REQUIRE(j["configurePresets"].size() == 2);
    const auto& vs = j["configurePresets"][1];
    CHECK(vs["name"] == "cudaenv-11.8.89-cudnn8.9.7-vs");
    // CUDA 11.8 accepts _MSC_VER up to 1939: Build Tools 2019's 14.29, in that installation.
    CHECK(vs["generator"] == "Visual Studio 16 2019");
    CHECK(vs["toolset"]["value"] == "v142,version=14.29.30133,cuda=C:\\store\\toolkits\\11.8.89");
    CHECK(vs["toolset"]["strategy"] == "set");
    CHECK(vs["architecture"]["value"] == "x64");
    CHECK(vs["cacheVariables"]["CMAKE_GENERATOR_INSTANCE"] == "C:\\BT\\2019");
    CHECK(j["buildPresets"].size() == 2);
    CHECK(j["buildPresets"][1]["configurePreset"] == "cudaenv-11.8.89-cudnn8.9.7-vs");

    // No fitting toolset: the newest installation, and cuda= alone.
    o.toolsets.pop_back();
    auto j2 = nlohmann::json::parse(merge_presets("", {win_pair()}, 3, o, "CMakeUserPresets.json"));
    CHECK(j2["configurePresets"][1]["generator"] == "Visual Studio 17 2022");
    CHECK(j2["configurePresets"][1]["toolset"]["value"] == "cuda=C:\\store\\toolkits\\11.8.89");

    // Linux, or no Visual Studio: no such preset.
    o.vs_instances.clear();
    CHECK(nlohmann::json::parse(merge_presets("", {win_pair()}, 3, o, "f"))["configurePresets"].size() == 1);
    // A ',' would split CMake's toolset field.
    o.vs_instances = {{"C:\\VS\\2022", "Visual Studio Community 2022", "17.14.36310.24", true}};
    CHECK_THROWS_AS(merge_presets("", {win_pair("C:\\a,b")}, 3, o, "f"), Error);
}
