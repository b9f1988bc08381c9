// core/msvc: Visual Studio's toolsets as values, and what entering one does
// to a session through plan_use (core/activation).
#include <doctest/doctest.h>

#include <map>

#include "core/activation.hpp"
#include "core/msvc.hpp"
#include "shell_env.hpp"

using namespace cudaenv;

namespace {

constexpr auto W = PathStyle::windows;

using Block = std::vector<std::pair<std::string, std::string>>;

using Env = testsupport::ShellEnv;

const std::string vs22 = "C:\\Program Files\\Microsoft Visual Studio\\2022\\Community";
const std::string bt19 = "C:\\Program Files (x86)\\Microsoft Visual Studio\\2019\\BuildTools";

// What vcvarsall.bat gave for a toolset of `inst` (as toolset_env_from_capture makes it).
ToolsetEnv toolset(const std::string& inst, const std::string& version) {
    ToolsetEnv t;
    t.version = version;
    const auto vc = inst + "\\VC\\Tools\\MSVC\\" + version;
    t.set = {{"VCToolsVersion", version}, {"VCToolsInstallDir", vc + "\\"}, {"VSINSTALLDIR", inst + "\\"}};
    t.lists = {{"PATH", {vc + "\\bin\\HostX64\\x64", inst + "\\Common7\\IDE\\"}, {inst + "\\Common7\\IDE\\CMake\\bin"}},
               {"INCLUDE", {vc + "\\include", "C:\\Program Files (x86)\\Windows Kits\\10\\include\\10.0.22621.0\\ucrt"}, {}},
               {"LIB", {vc + "\\lib\\x64"}, {}}};
    return t;
}

PairEnv pair(const std::string& root, const std::string& ver, std::optional<ToolsetEnv> t = std::nullopt) {
    PairEnv p;
    p.spec = ver;
    p.cuda_root = root;
    p.cuda_version = *Version::parse(ver);
    p.path_dirs = {root + "\\bin"};
    p.dll_dirs = p.path_dirs;
    p.toolset = std::move(t);
    return p;
}

OwnedEntry owned() {
    return [](const std::string& e) { return is_cuda_entry(e, {"C:\\store\\toolkits"}, W); };
}

Env session() {
    Env e;
    e.vars = {{"PATH", "C:\\Windows\\system32;C:\\Users\\me\\bin"},
              {"INCLUDE", "C:\\mine\\include"},
              {"VSINSTALLDIR", "D:\\my own\\"},
              {"HOME", "C:\\Users\\me"}};
    return e;
}

}  // namespace

TEST_CASE("parse_vswhere") {
    auto json = R"([
      {"instanceId": "a1", "installationPath": "C:\\Program Files\\Microsoft Visual Studio\\2022\\Community",
       "installationVersion": "17.14.36310.24", "displayName": "Visual Studio Community 2022", "isComplete": true},
      {"installationPath": "C:\\BT", "installationVersion": "16.11.35431.28", "displayName": "Visual Studio Build Tools 2019",
       "isComplete": false},
      {"displayName": "no path"}, 7
    ])";
    auto vs = parse_vswhere(json);
    REQUIRE(vs);
    REQUIRE(vs->size() == 2);
    CHECK((*vs)[0].path == vs22);
    CHECK((*vs)[0].complete);
    CHECK(vs_generator((*vs)[0]) == "Visual Studio 17 2022");
    CHECK((*vs)[1].name == "Visual Studio Build Tools 2019");
    CHECK_FALSE((*vs)[1].complete);
    CHECK(vs_generator((*vs)[1]) == "Visual Studio 16 2019");
    CHECK(vs_generator(VsInstance{"x", "", "14.0.1", true}) == "");
    CHECK_FALSE(parse_vswhere("{}"));
    CHECK_FALSE(parse_vswhere("not json"));
    CHECK(parse_vswhere("[]")->empty());
    // Bounded like every JSON cudaenv reads (util/json_text.hpp): nested past the limit, it is not vswhere's.
    CHECK_FALSE(parse_vswhere(R"([{"installationPath": "C:\\BT"}, )" + std::string(65, '[') + std::string(65, ']') + "]"));
}

TEST_CASE("toolset_msc_ver") {
    CHECK(toolset_msc_ver("14.29.30133") == 1929);
    CHECK(toolset_msc_ver("14.44.35207") == 1944);
    CHECK(toolset_msc_ver("14.16.27023") == 1916);
    CHECK_FALSE(toolset_msc_ver("14.0.24215"));
    CHECK_FALSE(toolset_msc_ver("14.29"));
    CHECK_FALSE(toolset_msc_ver("15.29.1"));
    CHECK_FALSE(toolset_msc_ver("v143"));
    CHECK(platform_toolset(1916) == "v141");
    CHECK(platform_toolset(1929) == "v142");
    CHECK(platform_toolset(1944) == "v143");
    CHECK(vcvarsall_path(bt19) == bt19 + "\\VC\\Auxiliary\\Build\\vcvarsall.bat");
    CHECK(toolset_cl(bt19, "14.29.30133") == bt19 + "\\VC\\Tools\\MSVC\\14.29.30133\\bin\\Hostx64\\x64\\cl.exe");
}

TEST_CASE("pick_toolset") {
    const std::vector<MsvcToolset> found = {{vs22, "Visual Studio Community 2022", "14.44.35207", 1944},
                                            {vs22, "Visual Studio Community 2022", "14.38.33130", 1938},
                                            {bt19, "Visual Studio Build Tools 2019", "14.29.30133", 1929}};
    // CUDA 11.8 accepts 1910-1939: 14.44 is too new.
    CHECK(pick_toolset(found, *Version::parse("11.8.0"))->version == "14.38.33130");
    // CUDA 11.2 accepts 1910-1929.
    CHECK(pick_toolset(found, *Version::parse("11.2"))->version == "14.29.30133");
    CHECK(pick_toolset(found, *Version::parse("12.6.3"))->version == "14.44.35207");
    CHECK_FALSE(pick_toolset({found[0]}, *Version::parse("11.8")));
    CHECK_FALSE(pick_toolset(found, *Version::parse("9.0")));  // no row

    auto line = no_toolset_line({found[0]}, *Version::parse("11.8"));
    CHECK(line.find("_MSC_VER 1910-1939") != std::string::npos);
    CHECK(line.find("14.44.35207 (1944)") != std::string::npos);
    CHECK(line.find("-allow-unsupported-compiler") != std::string::npos);
    CHECK(line.find('\n') == std::string::npos);
    CHECK(no_toolset_line({}, *Version::parse("12.0")).find("no Visual Studio toolset is installed") != std::string::npos);
    CHECK(toolset_words(found[2]) == "MSVC 14.29.30133 (_MSC_VER 1929, Visual Studio Build Tools 2019)");
}

TEST_CASE("toolset_env_from_capture") {
    const Block before = {{"SystemRoot", "C:\\Windows"},
                          {"Path", "C:\\Windows\\system32;C:\\Windows"},
                          {"CUDAENV_VCVARSALL", "x"},
                          {"TEMP", "C:\\t"}};
    Block after = before;
    after[1] = {"Path", "C:\\VS\\bin;C:\\VS\\IDE\\;C:\\Windows\\system32;C:\\Windows;C:\\VS\\CMake"};
    after.push_back({"INCLUDE", "C:\\VS\\include;C:\\Kits\\ucrt;"});
    after.push_back({"LIBPATH", "C:\\VS\\lib"});
    after.push_back({"VCToolsVersion", "14.29.30133"});
    after.push_back({"__VSCMD_PREINIT_PATH", "C:\\Windows\\system32;C:\\Windows"});
    after.push_back({"PROMPT", "$P$G"});
    after.push_back({"ProgramFiles(x86)", "C:\\Program Files (x86)"});  // not a plain name
    after.push_back({"TEMP", "C:\\t"});
    auto t = toolset_env_from_capture(before, after);
    REQUIRE(t.lists.size() == 3);
    CHECK(t.lists[0] == ToolsetEnv::List{"PATH", {"C:\\VS\\bin", "C:\\VS\\IDE\\"}, {"C:\\VS\\CMake"}});
    CHECK(t.lists[1] == ToolsetEnv::List{"INCLUDE", {"C:\\VS\\include", "C:\\Kits\\ucrt"}, {}});
    CHECK(t.lists[2] == ToolsetEnv::List{"LIBPATH", {"C:\\VS\\lib"}, {}});
    REQUIRE(t.set.size() == 1);
    CHECK(t.set[0] == std::pair<std::string, std::string>{"VCToolsVersion", "14.29.30133"});

    // A value replaced whole is set, not merged.
    Block after2 = before;
    after2[3] = {"TEMP", "D:\\other"};
    auto t2 = toolset_env_from_capture(before, after2);
    REQUIRE(t2.set.size() == 1);
    CHECK(t2.set[0].first == "TEMP");
    CHECK(t2.lists.empty());
}

TEST_CASE("clean_windows_env") {
    const Block env = {{"SystemRoot", "C:\\WINDOWS"}, {"PATH", "C:\\cuda\\bin;C:\\WINDOWS\\system32"},
                       {"ProgramFiles(x86)", "C:\\PF86"}, {"CUDA_PATH", "C:\\cuda"}, {"USERPROFILE", "C:\\Users\\me"}};
    auto clean = clean_windows_env(env);
    std::map<std::string, std::string> m(clean.begin(), clean.end());
    CHECK(m.size() == 4);
    CHECK(m["ProgramFiles(x86)"] == "C:\\PF86");
    CHECK(m["PATH"] ==
          "C:\\WINDOWS\\system32;C:\\WINDOWS;C:\\WINDOWS\\System32\\Wbem;C:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\");
    CHECK_FALSE(m.count("CUDA_PATH"));
}

TEST_CASE("plan_use with a Visual Studio toolset") {
    SUBCASE("use --msvc, use --msvc (another toolset), use, deactivate: every byte back") {
        Env env = session();
        const auto before = env.vars;
        env.apply(plan_use(pair("C:\\store\\toolkits\\11.8.0", "11.8.0", toolset(bt19, "14.29.30133")), "11.8", env.reader(),
                           owned(), W));
        CHECK(env.get("PATH") == "C:\\store\\toolkits\\11.8.0\\bin;" + bt19 + "\\VC\\Tools\\MSVC\\14.29.30133\\bin\\HostX64\\x64;" +
                                     bt19 + "\\Common7\\IDE\\;C:\\Windows\\system32;C:\\Users\\me\\bin;" + bt19 +
                                     "\\Common7\\IDE\\CMake\\bin");
        CHECK(env.get("INCLUDE")->starts_with(bt19 + "\\VC\\Tools\\MSVC\\14.29.30133\\include;"));
        CHECK(env.get("INCLUDE")->ends_with(";C:\\mine\\include"));
        CHECK(env.get("LIB") == bt19 + "\\VC\\Tools\\MSVC\\14.29.30133\\lib\\x64");
        CHECK(env.get("VSINSTALLDIR") == bt19 + "\\");
        CHECK(env.get(msvc_var) == "14.29.30133");
        CHECK(env.get(dll_dirs_var) == "C:\\store\\toolkits\\11.8.0\\bin");

        // Another pair with another toolset: none of the first toolset's entries stay.
        env.apply(plan_use(pair("C:\\store\\toolkits\\12.6.3", "12.6.3", toolset(vs22, "14.44.35207")), "12.6", env.reader(),
                           owned(), W));
        for (const auto& name : {"PATH", "INCLUDE", "LIB"}) {
            CAPTURE(name);
            CHECK(env.get(name)->find("14.29.30133") == std::string::npos);
            CHECK(env.get(name)->find(bt19) == std::string::npos);
        }
        CHECK(env.get("PATH")->starts_with("C:\\store\\toolkits\\12.6.3\\bin;" + vs22));
        CHECK(env.get("INCLUDE")->ends_with(";C:\\mine\\include"));
        CHECK(env.get(msvc_var) == "14.44.35207");

        // A plain `use` leaves the toolset: its variables back to the user's.
        env.apply(plan_use(pair("C:\\store\\toolkits\\12.6.3", "12.6.3"), "12.6", env.reader(), owned(), W));
        CHECK(env.get("PATH") == "C:\\store\\toolkits\\12.6.3\\bin;C:\\Windows\\system32;C:\\Users\\me\\bin");
        CHECK(env.get("INCLUDE") == "C:\\mine\\include");
        CHECK(env.get("VSINSTALLDIR") == "D:\\my own\\");
        CHECK_FALSE(env.get("LIB"));
        CHECK_FALSE(env.get(msvc_var));

        env.apply(plan_use(pair("C:\\store\\toolkits\\11.8.0", "11.8.0", toolset(bt19, "14.29.30133")), "11.8", env.reader(),
                           owned(), W));
        env.apply(plan_deactivate(env.reader(), W));
        CHECK(env.vars == before);
    }
    SUBCASE("the user's INCLUDE change while the toolset is entered survives deactivate") {
        Env env = session();
        env.apply(plan_use(pair("C:\\store\\toolkits\\11.8.0", "11.8.0", toolset(bt19, "14.29.30133")), "11.8", env.reader(),
                           owned(), W));
        env.vars["INCLUDE"] = "C:\\added;" + env.vars["INCLUDE"];
        env.apply(plan_use(pair("C:\\store\\toolkits\\12.6.3", "12.6.3", toolset(vs22, "14.44.35207")), "12.6", env.reader(),
                           owned(), W));
        CHECK(env.get("INCLUDE")->find("C:\\added") != std::string::npos);
        env.apply(plan_deactivate(env.reader(), W));
        CHECK(env.get("INCLUDE") == "C:\\added;C:\\mine\\include");
        CHECK(env.get("VSINSTALLDIR") == "D:\\my own\\");
        CHECK_FALSE(env.get(state_var));
    }
    SUBCASE("CUDAENV_DLL_DIRS: a folder with ';' in quotes, unset by deactivate") {
        Env env = session();
        auto p = pair("C:\\store\\toolkits\\13.0.2", "13.0.2");
        p.path_dirs = {"C:\\store\\toolkits\\13.0.2\\bin\\x64", "C:\\store\\toolkits\\13.0.2\\bin", "D:\\cudnn;9\\bin"};
        p.dll_dirs = p.path_dirs;
        env.apply(plan_use(p, "13", env.reader(), owned(), W));
        CHECK(env.get(dll_dirs_var) ==
              "C:\\store\\toolkits\\13.0.2\\bin\\x64;C:\\store\\toolkits\\13.0.2\\bin;\"D:\\cudnn;9\\bin\"");
        env.apply(plan_deactivate(env.reader(), W));
        CHECK_FALSE(env.get(dll_dirs_var));
    }
    SUBCASE("posix sets no CUDAENV_DLL_DIRS") {
        Env env;
        env.vars = {{"PATH", "/usr/bin"}};
        auto p = pair("/store/toolkits/12.6.3", "12.6.3");
        p.path_dirs = {"/store/toolkits/12.6.3/bin"};
        p.dll_dirs = p.path_dirs;
        auto diff = plan_use(p, "12.6", env.reader(), [](const std::string&) { return false; }, PathStyle::posix);
        CHECK_FALSE(diff.find(dll_dirs_var));
    }
}
