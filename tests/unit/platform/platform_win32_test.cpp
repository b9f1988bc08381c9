// Windows behaviour, run by the windows-cross build under Wine (and by an MSVC
// build on Windows): UTF-16 environment and paths, PATH with ';', quoted and
// case-insensitive entries, discovery in the places NVIDIA's installers use,
// and activation with Windows PATH rules. Synthetic toolkit and cuDNN trees are
// built in a temporary folder whose name holds non-ASCII and cmd-hostile
// characters; ProgramFiles, CUDA_PATH and friends point into it.
#ifdef _WIN32

#include <doctest/doctest.h>
#include <windows.h>
#include <sddl.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "commands/context.hpp"
#include "core/activation.hpp"
#include "store/discover.hpp"
#include "core/pathlist.hpp"
#include "store/store_trust.hpp"
#include "platform/platform.hpp"
#include "platform/trust.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace fs = std::filesystem;
using namespace cudaenv;

namespace {

// Wine (where CI runs these tests) leaves parts of Windows' security model
// out: a NO_ACCESS_CONTROL descriptor string and the owner of a folder
// created with an explicit owner. Those checks need real Windows.
bool under_wine() {
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    return ntdll && GetProcAddress(ntdll, "wine_get_version");
}

std::wstring wide(const std::string& s) {
    int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
    std::wstring w(static_cast<size_t>(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), w.data(), n);
    return w;
}

// Sets (or, with nullopt, removes) a variable for one test and puts the old value back.
class EnvGuard {
public:
    EnvGuard(std::string name, std::optional<std::string> value) : name_(std::move(name)), old_(platform::get_env(name_)) {
        value ? platform::set_env(name_, *value) : platform::unset_env(name_);
    }
    ~EnvGuard() { old_ ? platform::set_env(name_, *old_) : platform::unset_env(name_); }
    EnvGuard(const EnvGuard&) = delete;
    EnvGuard& operator=(const EnvGuard&) = delete;

private:
    std::string name_;
    std::optional<std::string> old_;
};

// A fresh folder under %TEMP% named like a hostile Windows user folder.
struct TempTree {
    fs::path root;
    TempTree() {
        std::random_device rd;
        root = fs::temp_directory_path() /
               fsx::from_utf8("cudaenv-win-" + std::to_string(rd() % 1000000) + u8_hostile());
        fs::create_directories(root);
    }
    ~TempTree() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    static std::string u8_hostile() { return " \xE5\xBC\xA0\xE4\xB8\x89 & (x) ^ %p% !b!"; }  // 张三
    fs::path file(const std::string& rel, const std::string& content = {}) const {
        auto p = root / fsx::from_utf8(rel);
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << content;
        return p;
    }
};

std::string version_json(const std::string& v) { return R"({"cuda": {"name": "CUDA SDK", "version": ")" + v + R"("}})"; }

std::string cudnn_header(int major, int minor, int patch) {
    return "#define CUDNN_MAJOR " + std::to_string(major) + "\n#define CUDNN_MINOR " + std::to_string(minor) +
           "\n#define CUDNN_PATCHLEVEL " + std::to_string(patch) + "\n";
}

bool has(const std::vector<Found>& found, Found::Kind kind, const fs::path& path, const std::string& version,
         const std::string& variant = {}) {
    return std::any_of(found.begin(), found.end(), [&](const Found& f) {
        return f.kind == kind && fsx::absolute_normal(f.path) == fsx::absolute_normal(path) &&
               f.version.str() == version && f.variant == variant;
    });
}

}  // namespace

TEST_CASE("platform env: UTF-16 round trip, empty vs unset, case-insensitive names") {
    const std::string value = "C:\\Users\\\xE5\xBC\xA0\xE4\xB8\x89\\a & b;\"c d\"";
    EnvGuard g("CUDAENV_TEST_\xC3\x9C", value);  // a non-ASCII name too (Ü)
    // Stored as UTF-16: the Win32 API sees the same characters.
    wchar_t buf[256];
    DWORD n = GetEnvironmentVariableW(wide("CUDAENV_TEST_\xC3\x9C").c_str(), buf, 256);
    CHECK(std::wstring(buf, n) == wide(value));
    CHECK(platform::get_env("CUDAENV_TEST_\xC3\x9C") == value);
    CHECK(platform::get_env("cudaenv_test_\xC3\x9C") == value);  // names fold case

    SUBCASE("a value longer than the first buffer") {
        std::string long_value(5000, 'x');
        long_value += "\xE5\xBC\xA0";
        EnvGuard l("CUDAENV_TEST_LONG", long_value);
        CHECK(platform::get_env("CUDAENV_TEST_LONG") == long_value);
    }
    SUBCASE("empty is not unset") {
        EnvGuard e("CUDAENV_TEST_EMPTY", std::string());
        CHECK(platform::get_env("CUDAENV_TEST_EMPTY") == std::string());
        platform::unset_env("CUDAENV_TEST_EMPTY");
        CHECK_FALSE(platform::get_env("CUDAENV_TEST_EMPTY"));
    }
    SUBCASE("environment() lists it once and no =C: drive entries") {
        int seen = 0;
        for (const auto& [k, v] : platform::environment()) {
            CHECK_FALSE(k.empty());
            CHECK(k[0] != '=');
            if (k == "CUDAENV_TEST_\xC3\x9C") {
                ++seen;
                CHECK(v == value);
            }
        }
        CHECK(seen == 1);
    }
}

TEST_CASE("platform paths: store under %LOCALAPPDATA%, non-ASCII home, System32, .exe") {
    TempTree t;
    auto local = fsx::to_utf8(t.root / "AppData" / "Local");
    EnvGuard root("CUDAENV_ROOT", std::nullopt);
    EnvGuard lad("LOCALAPPDATA", local);
    CHECK(fsx::to_utf8(platform::default_store_root()) == local + "\\cudaenv");
    {
        EnvGuard r("CUDAENV_ROOT", fsx::to_utf8(t.root / "store"));
        CHECK(platform::default_store_root() == fsx::absolute_normal(t.root / "store"));
    }
    EnvGuard up("USERPROFILE", fsx::to_utf8(t.root));
    CHECK(platform::home_dir() == t.root);
    CHECK(str::iequals_ascii(fsx::to_utf8(platform::system_library_dirs().at(0).filename()), "system32"));
    auto exe = platform::executable_path();
    CHECK(exe.is_absolute());
    CHECK(str::iequals_ascii(fsx::to_utf8(exe.extension()), platform::exe_suffix()));
    // A file in a non-ASCII, hostile folder reads back through std::filesystem and fstream.
    auto f = t.file("sub\\\xE6\x95\xB0\xE6\x8D\xAE.txt", "ok");
    CHECK(fsx::is_file(f));
    CHECK(fsx::read_file(f) == std::string("ok"));
    CHECK(platform::is_executable(f));
}

TEST_CASE("platform exec: exit status, PATH search on the child's PATH, missing program") {
    auto env = platform::environment();
    CHECK(platform::exec_command({"cmd.exe", "/d", "/c", "exit 7"}, env) == 7);
    // Found through the PATH given to the child, without an extension.
    CHECK(platform::exec_command({"cmd", "/d", "/c", "exit 0"}, env) == 0);
    try {
        platform::exec_command({"cudaenv-no-such-program-here"}, env);
        FAIL("a missing program must be an error");
    } catch (const Error& e) {
        CHECK(e.exit_code() == 127);
        CHECK(std::string(e.what()) == "command not found: cudaenv-no-such-program-here");
    }
}

TEST_CASE("PATH lists: native style is Windows") {
    CHECK(native_path_style() == PathStyle::windows);
    CHECK(list_separator(native_path_style()) == ';');
    auto parts = split_path_list("\"C:\\a;b\";c:\\CUDA\\bin\\;;D:\\x", PathStyle::windows);
    REQUIRE(parts.size() == 4);
    CHECK(parts[0] == "\"C:\\a;b\"");
    CHECK(same_path_entry(parts[1], "C:/cuda/BIN", PathStyle::windows));
}

TEST_CASE("discovery: CUDA_PATH, CUDA_PATH_V*_*, Program Files CUDA v* and the cuDNN installer layout") {
    TempTree t;
    auto pf = t.root / "Program Files";
    auto cuda = pf / "NVIDIA GPU Computing Toolkit" / "CUDA";
    // CUDA 11.8 and 12.6: DLLs in bin\; CUDA 13.0: bin\x64.
    t.file("Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin\\cudart64_110.dll");
    t.file("Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin\\nvcc.exe");
    t.file("Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\version.json", version_json("11.8.0"));
    t.file("Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0\\bin\\x64\\cudart64_13.dll");
    t.file("Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0\\bin\\nvcc.exe");
    t.file("Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0\\version.json", version_json("13.0.1"));
    // The cuDNN installer: v9.4 with bin\12.6\, v9.19 with bin\12.9\x64\ and bin\13.0\x64\.
    t.file("Program Files\\NVIDIA\\CUDNN\\v9.4\\bin\\12.6\\cudnn64_9.dll");
    t.file("Program Files\\NVIDIA\\CUDNN\\v9.4\\include\\12.6\\cudnn_version.h", cudnn_header(9, 4, 0));
    t.file("Program Files\\NVIDIA\\CUDNN\\v9.19\\bin\\12.9\\x64\\cudnn64_9.dll");
    t.file("Program Files\\NVIDIA\\CUDNN\\v9.19\\include\\12.9\\cudnn_version.h", cudnn_header(9, 19, 0));
    t.file("Program Files\\NVIDIA\\CUDNN\\v9.19\\bin\\13.0\\x64\\cudnn64_9.dll");
    t.file("Program Files\\NVIDIA\\CUDNN\\v9.19\\include\\13.0\\cudnn_version.h", cudnn_header(9, 19, 0));
    // Toolkits elsewhere, known only through CUDA_PATH and CUDA_PATH_V12_4.
    auto tk126 = t.file("D\\CUDA 12.6 (copy)\\bin\\cudart64_12.dll").parent_path().parent_path();
    t.file("D\\CUDA 12.6 (copy)\\version.json", version_json("12.6.3"));
    auto tk124 = t.file("E\\\xE5\xBC\xA0\xE4\xB8\x89\\v12.4\\bin\\cudart64_12.dll").parent_path().parent_path();
    t.file("E\\\xE5\xBC\xA0\xE4\xB8\x89\\v12.4\\version.json", version_json("12.4.1"));

    EnvGuard pf1("ProgramFiles", fsx::to_utf8(pf));
    EnvGuard pf2("ProgramW6432", fsx::to_utf8(pf));  // the same folder twice: found once
    EnvGuard cp("CUDA_PATH", fsx::to_utf8(tk126));
    EnvGuard cp124("CUDA_PATH_V12_4", fsx::to_utf8(tk124));
    EnvGuard cp118("CUDA_PATH_V11_8", fsx::to_utf8(cuda / "v11.8") + "\\");  // installers add a trailing '\'
    EnvGuard la("LOCALAPPDATA", fsx::to_utf8(t.root / "AppData"));
    EnvGuard ve("VIRTUAL_ENV", std::nullopt);
    EnvGuard co("CONDA_PREFIX", std::nullopt);
    Store store(t.root / "store");

    auto found = discover({}, store);
    CHECK(has(found, Found::Kind::toolkit, cuda / "v11.8", "11.8.0"));
    CHECK(has(found, Found::Kind::toolkit, cuda / "v13.0", "13.0.1"));
    CHECK(has(found, Found::Kind::toolkit, tk126, "12.6.3"));
    CHECK(has(found, Found::Kind::toolkit, tk124, "12.4.1"));
    CHECK(has(found, Found::Kind::cudnn, pf / "NVIDIA" / "CUDNN" / "v9.4", "9.4.0", "12.6"));
    CHECK(has(found, Found::Kind::cudnn, pf / "NVIDIA" / "CUDNN" / "v9.19", "9.19.0", "12.9"));
    CHECK(has(found, Found::Kind::cudnn, pf / "NVIDIA" / "CUDNN" / "v9.19", "9.19.0", "13.0"));
    // Each folder once although two variables and two Program Files names lead to it.
    CHECK(std::count_if(found.begin(), found.end(), [&](const Found& f) {
              return f.kind == Found::Kind::toolkit && f.version.str() == "11.8.0";
          }) == 1);
    CHECK(found.size() == 7);

    SUBCASE("CUDA 13 puts bin\\x64 first on PATH; the installer cuDNN its bin\\<cuda>\\x64") {
        auto tk = detect_toolkit(cuda / "v13.0");
        REQUIRE(tk);
        REQUIRE(tk->bin_dirs.size() == 2);
        CHECK(tk->bin_dirs[0] == cuda / "v13.0" / "bin" / "x64");
        auto c = detect_cudnn(pf / "NVIDIA" / "CUDNN" / "v9.19", "13.0");
        REQUIRE(c);
        CHECK(c->cuda_major == 13);
        REQUIRE(c->bin_dirs.size() == 1);
        CHECK(c->bin_dirs[0] == pf / "NVIDIA" / "CUDNN" / "v9.19" / "bin" / "13.0" / "x64");
    }
}

TEST_CASE("use/env on Windows: PATH with ';', case-insensitive removal, quoted entries kept, CUDA_PATH_Vx_y") {
    TempTree t;
    auto tk = t.file("tk\\v11.8\\bin\\cudart64_110.dll").parent_path().parent_path();
    t.file("tk\\v11.8\\version.json", version_json("11.8.0"));
    auto cudnn = t.file("cudnn-windows-x86_64-8.9.7.29_cuda11-archive\\bin\\cudnn64_8.dll").parent_path().parent_path();
    t.file("cudnn-windows-x86_64-8.9.7.29_cuda11-archive\\include\\cudnn_version.h", cudnn_header(8, 9, 7));
    EnvGuard root("CUDAENV_ROOT", fsx::to_utf8(t.root / "store"));
    {
        Store store(t.root / "store");
        auto lock = store.lock();
        auto items = inspect_folder(tk, store);
        auto more = inspect_folder(cudnn, store);
        items.insert(items.end(), more.begin(), more.end());
        REQUIRE(items.size() == 2);
        adopt(items, store);
        store.save_config();
    }
    const std::string other = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.6\\BIN\\";
    const std::string quoted = "\"C:\\Tools;Odd\"";
    const std::string before = "C:\\Windows\\system32;" + other + ";" + quoted + ";" +
                               "c:\\program files\\nvidia\\cudnn\\v9.4\\bin\\12.6;C:\\Users\\\xE5\xBC\xA0\xE4\xB8\x89\\bin";
    EnvGuard path("PATH", before);
    EnvGuard cp("CUDA_PATH", "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.6");
    EnvGuard state(state_var, std::nullopt);

    Context ctx;
    auto plan = ctx.plan_for("11.8").diff.changes();
    auto value = [&](const std::string& name) -> std::optional<std::string> {
        for (const auto& c : plan)
            if (c.name == name) return c.value;
        return std::nullopt;
    };
    auto new_path = value("PATH");
    REQUIRE(new_path);
    auto entries = split_path_list(*new_path, PathStyle::windows);
    REQUIRE(entries.size() == 5);
    CHECK(entries[0] == fsx::to_utf8(tk / "bin"));
    CHECK(entries[1] == fsx::to_utf8(cudnn / "bin"));
    CHECK(entries[2] == "C:\\Windows\\system32");
    CHECK(entries[3] == quoted);  // the ';' inside quotes did not split it
    CHECK(entries[4] == "C:\\Users\\\xE5\xBC\xA0\xE4\xB8\x89\\bin");
    CHECK(value("CUDA_PATH") == fsx::to_utf8(tk));
    CHECK(value("CUDA_PATH_V11_8") == fsx::to_utf8(tk));
    CHECK(value("CUDNN_PATH") == fsx::to_utf8(cudnn));

    SUBCASE("deactivate restores PATH and CUDA_PATH byte for byte") {
        for (const auto& c : plan) c.value ? platform::set_env(c.name, *c.value) : platform::unset_env(c.name);
        auto undo = plan_deactivate(ctx.env(), PathStyle::windows);
        for (const auto& c : undo.changes()) c.value ? platform::set_env(c.name, *c.value) : platform::unset_env(c.name);
        CHECK(platform::get_env("PATH") == before);
        CHECK(platform::get_env("CUDA_PATH") == "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.6");
        CHECK_FALSE(platform::get_env("CUDA_PATH_V11_8"));
        CHECK_FALSE(platform::get_env(state_var));
    }
}


TEST_CASE("trust_of_descriptor: who besides the owner may change a folder (Windows access lists)") {
    auto judge = [](const wchar_t* sddl) {
        PSECURITY_DESCRIPTOR sd = nullptr;
        REQUIRE(ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl, SDDL_REVISION_1, &sd, nullptr));
        auto t = platform::trust_of_descriptor(sd);
        LocalFree(sd);
        return t;
    };
    SUBCASE("what create_admin_dir gives the system store") {
        auto t = judge(L"O:BAD:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;0x1200a9;;;BU)");
        CHECK(t.owner_admin);
        CHECK(t.owner == "BUILTIN\\Administrators");
        CHECK(t.writers.empty());
    }
    SUBCASE("a folder made in %ProgramData% by a user: theirs, and every user may add files") {
        auto t = judge(L"O:S-1-5-21-1-2-3-1001D:(A;OICI;FA;;;S-1-5-21-1-2-3-1001)(A;OICIID;FA;;;SY)"
                       L"(A;OICIID;FA;;;BA)(A;CIID;0x100116;;;BU)(A;OICIIOID;GA;;;CO)");
        CHECK_FALSE(t.owner_admin);
        CHECK(t.owner_id == "S-1-5-21-1-2-3-1001");
        CHECK(t.writers == std::vector<std::string>{"BUILTIN\\Users"});  // CREATOR OWNER only passes down
        auto root = t;
        CHECK(judge_path("C:\\ProgramData\\cudaenv", t, root) ==
              std::vector<std::string>{"'C:\\ProgramData\\cudaenv' can be changed by BUILTIN\\Users"});
    }
    SUBCASE("no access list at all: everyone") {
        if (under_wine()) {
            MESSAGE("skipped under Wine: it does not build a NO_ACCESS_CONTROL descriptor");
            return;
        }
        auto t = judge(L"O:BAD:NO_ACCESS_CONTROL");
        CHECK(t.writers == std::vector<std::string>{"Everyone (it has no access list)"});
    }
    SUBCASE("reading and running is no change") {
        auto t = judge(L"O:SYD:(A;OICI;FA;;;SY)(A;;0x1200a9;;;WD)(A;;GR;;;AU)");
        CHECK(t.owner_admin);
        CHECK(t.writers.empty());
        auto w = judge(L"O:SYD:(A;;0x1200a9;;;WD)(A;;GW;;;AU)(A;;WD;;;IU)");
        CHECK(w.writers ==
              std::vector<std::string>{"NT AUTHORITY\\Authenticated Users", "NT AUTHORITY\\INTERACTIVE"});
    }
}

TEST_CASE("create_admin_dir: the system store's own access list, nothing inherited") {
    TempTree tmp;
    auto dir = tmp.root / "cudaenv";
    platform::create_admin_dir(dir);
    CHECK(fs::is_directory(dir));
    auto t = platform::path_trust(dir);
    REQUIRE(t.exists);
    CHECK(t.writers.empty());
    if (under_wine()) MESSAGE("owner not checked under Wine: it keeps the creating user as the owner");
    else CHECK(t.owner_admin);
    CHECK_NOTHROW(platform::create_admin_dir(dir));  // there already: left as it is
}

#endif  // _WIN32
