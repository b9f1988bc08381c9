// The rules of `cudaenv setup` / `setup --undo` against an in-memory host:
// every case where undo could delete a byte the user wrote.
#include <doctest/doctest.h>
#include <sstream>

#include "setup/exec_policy.hpp"
#include "setup/setup_actions.hpp"
#include "memory_setup_host.hpp"
#include "platform/profiles.hpp"
#include "shell/shells.hpp"
#include "test_support.hpp"
#include "util/error.hpp"

using namespace cudaenv;
using testsupport::MemorySetupHost;

namespace {

const std::vector<std::string> lines = {"if [ -x '/opt/c/cudaenv' ]; then eval \"$('/opt/c/cudaenv' init bash)\"; fi"};
const std::filesystem::path rc = "/home/u/.bashrc";

struct Fixture {
    MemorySetupHost host;
    SetupRecord rec;
    std::ostringstream out;
    SetupSession s{host, rec, out};

    void add(const std::filesystem::path& p = rc, const std::string& shell = "bash",
             const std::vector<std::string>& l = lines, bool bom = false) {
        add_profile_block(s, {p, shell, shell_info(shell).reads, l, bom});
    }
    void undo(const std::filesystem::path& p = rc) {
        auto* pr = rec.find(p.string());
        REQUIRE(pr != nullptr);
        auto copy = *pr;
        remove_profile_block(s, copy, lines);
    }
};

}  // namespace

TEST_CASE("setup: added once, removed byte for byte") {
    Fixture f;
    for (std::string before : {"", "alias ll='ls -l'", "a\nb\n", "x\n\n\n"}) {
        f.host.put(rc, before);
        f.add();
        CHECK(f.host.text(rc).find(lines[0]) != std::string::npos);
        int writes = f.host.writes;
        f.add();
        CHECK(f.host.writes == writes);  // already set up: nothing written
        f.undo();
        CHECK(f.host.text(rc) == before);
        CHECK(f.rec.empty());
    }
}

TEST_CASE("setup --undo never deletes a byte the user wrote") {
    Fixture f;
    SUBCASE("a stray begin marker of the user's stays, with the lines after it") {
        std::string before = "# >>> cudaenv >>>\nexport KEEP=1\n";
        f.host.put(rc, before);
        f.add();
        f.undo();
        CHECK(f.host.text(rc) == before);
    }
    SUBCASE("lines the user added inside the block: undo refuses and changes nothing") {
        f.host.put(rc, "a\n");
        f.add();
        auto text = f.host.text(rc);
        auto at = text.find(lines[0]);
        text.insert(at, "export MINE=1\n");
        *f.host.files[rc].data = text;
        CHECK_THROWS_AS(f.undo(), Error);
        CHECK(f.host.text(rc) == text);
        CHECK(f.rec.find(rc.string()) != nullptr);
        // Once the user takes the block out by hand, undo forgets it.
        *f.host.files[rc].data = "a\nexport MINE=1\n";
        f.undo();
        CHECK(f.host.text(rc) == "a\nexport MINE=1\n");
        CHECK(f.rec.empty());
    }
    SUBCASE("a copy of the block the user made stays; setup's own goes") {
        f.host.put(rc, "a\n");
        f.add();
        auto with_block = f.host.text(rc);
        auto block = with_block.substr(2);
        *f.host.files[rc].data = with_block + "echo between\n" + block;
        f.undo();
        CHECK(f.host.text(rc) == "a\necho between\n" + block);
        CHECK(f.out.str().find("not written by setup") != std::string::npos);
    }
    SUBCASE("copies above and below, none where setup put it: refused") {
        f.host.put(rc, "a\n");
        f.add();
        auto block = f.host.text(rc).substr(2);
        auto text = "top\n" + block + "a\n" + block;
        *f.host.files[rc].data = text;
        f.rec.profiles[0].inserted->offset = 1;  // nowhere now
        CHECK_THROWS_AS(f.undo(), Error);
        CHECK(f.host.text(rc) == text);
    }
    SUBCASE("lines written above and below since") {
        f.host.put(rc, "a");
        f.add();
        *f.host.files[rc].data = "new top\n" + f.host.text(rc) + "b\n";
        f.undo();
        CHECK(f.host.text(rc) == "new top\na\nb\n");
    }
    SUBCASE("a dangling link is refused, nothing created") {
        f.host.dirs.insert("/home/u");
        f.host.symlink(rc, "/home/u/dotfiles/bashrc");
        CHECK_THROWS_WITH_AS(f.add(), doctest::Contains("which does not exist"), Error);
        CHECK(f.host.files.size() == 1);
        CHECK(f.rec.empty());
    }
    SUBCASE("a link is written through and stays a link") {
        f.host.put("/home/u/dotfiles/bashrc", "a\n");
        f.host.symlink(rc, "/home/u/dotfiles/bashrc");
        f.add();
        CHECK(f.host.files[rc].link.has_value());
        CHECK(f.host.text("/home/u/dotfiles/bashrc").size() > 2);
        f.undo();
        CHECK(f.host.files[rc].link.has_value());
        CHECK(f.host.text("/home/u/dotfiles/bashrc") == "a\n");
    }
    SUBCASE("hard links keep sharing the file") {
        f.host.put("/home/u/dotfiles/bashrc", "a\n");
        f.host.hardlink(rc, "/home/u/dotfiles/bashrc");
        f.add();
        CHECK(f.host.text("/home/u/dotfiles/bashrc") == f.host.text(rc));
        f.undo();
        CHECK(f.host.text("/home/u/dotfiles/bashrc") == "a\n");
    }
    SUBCASE("a read-only profile is left alone by setup and by undo") {
        f.host.put(rc, "a\n");
        f.host.files[rc].read_only = true;
        CHECK_THROWS_WITH_AS(f.add(), doctest::Contains("read-only"), Error);
        CHECK(f.host.text(rc) == "a\n");
        f.host.files[rc].read_only = false;
        f.add();
        auto text = f.host.text(rc);
        f.host.files[rc].read_only = true;
        CHECK_THROWS_WITH_AS(f.undo(), doctest::Contains("read-only"), Error);
        CHECK(f.host.text(rc) == text);
    }
    SUBCASE("CR-only and CRLF profiles: refused where the shell cannot read them, exact where it can") {
        f.host.put(rc, "a\r\nb\r\n");
        CHECK_THROWS_WITH_AS(f.add(), doctest::Contains("CRLF"), Error);
        CHECK(f.host.text(rc) == "a\r\nb\r\n");
        f.host.put(rc, "a\rb");
        CHECK_THROWS_AS(f.add(), Error);
        std::filesystem::path ps = "/home/u/.config/powershell/Microsoft.PowerShell_profile.ps1";
        f.host.put(ps, "a\rb");  // no final CR
        f.add(ps, "pwsh");
        CHECK(f.host.text(ps).find("\r# <<< cudaenv <<<\r") != std::string::npos);
        auto* pr = f.rec.find(ps.string());
        remove_profile_block(f.s, ProfileRecord(*pr), lines);
        CHECK(f.host.text(ps) == "a\rb");  // every byte, the last one too
        std::filesystem::path fish = "/home/u/.config/fish/config.fish";
        f.host.put(fish, "set x 1\r\n");
        f.add(fish, "fish");
        CHECK(f.host.text(fish).ends_with("\r\n# <<< cudaenv <<<\r\n"));
    }
    SUBCASE("not a regular file") {
        f.host.dirs.insert(rc);
        CHECK_THROWS_WITH_AS(f.add(), doctest::Contains("not a regular file"), Error);
    }
}

TEST_CASE("setup: a profile it created goes again, with its folders; a BOM for Windows PowerShell") {
    Fixture f;
    f.host.dirs = {"/home", "/home/u"};
    std::filesystem::path p = "/home/u/Documents/WindowsPowerShell/Microsoft.PowerShell_profile.ps1";
    f.add(p, "pwsh", lines, true);
    CHECK(f.host.text(p).starts_with(std::string(utf8_bom) + std::string(block_begin)));
    CHECK(f.host.dirs.count("/home/u/Documents/WindowsPowerShell"));
    f.undo(p);
    CHECK(f.host.files.empty());
    CHECK(f.host.dirs == std::set<std::filesystem::path>{"/home", "/home/u"});
}

TEST_CASE("setup: a new cudaenv path updates setup's block in place") {
    Fixture f;
    f.host.put(rc, "a\n");
    f.add();
    *f.host.files[rc].data += "after\n";
    std::vector<std::string> moved = {"eval \"$('/new/cudaenv' init bash)\""};
    f.add(rc, "bash", moved);
    auto text = f.host.text(rc);
    CHECK(text.find("/new/cudaenv") != std::string::npos);
    CHECK(text.find("/opt/c/cudaenv") == std::string::npos);
    CHECK(text.ends_with("after\n"));
    f.undo();
    CHECK(f.host.text(rc) == "a\nafter\n");
}

TEST_CASE("setup --undo without a record removes only setup's exact block") {
    Fixture f;
    f.host.put(rc, "a\n");
    f.add();
    auto with = f.host.text(rc);
    f.rec.profiles.clear();  // setup.toml lost
    remove_profile_block(f.s, ProfileRecord{rc.string(), "bash", false, {}, std::nullopt}, lines);
    CHECK(f.host.text(rc) == "a\n");
    // A block that is not byte for byte setup's: refused.
    *f.host.files[rc].data = "a\n# >>> cudaenv >>>\nmine\n# <<< cudaenv <<<\n";
    CHECK_THROWS_AS(remove_profile_block(f.s, ProfileRecord{rc.string(), "bash", false, {}, std::nullopt}, lines),
                    Error);
}

TEST_CASE("setup.toml: what is written is read back") {
    SetupRecord r;
    r.profiles.push_back({"/h/.bashrc", "bash", true, {"/h/a", "/h/a/b"}, Insertion{7, "\r\n\x01\xEF\xBB\xBFx\r"}});
    r.win.path_entry = "C:\\s";
    r.win.install_entry = "C:\\p";
    r.win.autorun_set = "a & b";
    r.install = InstallRecord{"C:\\p", true, {"C:\\p"}, {"cudaenv.exe"}};
    r.profiles.push_back({"/h/.zshrc", "zsh", false, {}, Insertion{3, "\n# >>> x\n'''\n\"\"\"\n"}});
    auto back = SetupRecord::parse(r.serialize(), "setup.toml");
    REQUIRE(back.profiles.size() == 2);
    CHECK(back.profiles[1].inserted->bytes == r.profiles[1].inserted->bytes);
    CHECK(back.profiles[0].inserted->bytes == r.profiles[0].inserted->bytes);
    CHECK(back.profiles[0].inserted->offset == 7);
    CHECK(back.profiles[0].created_dirs == r.profiles[0].created_dirs);
    CHECK(back.win.install_entry == r.win.install_entry);
    CHECK(back.install->files == r.install->files);
    CHECK(back.serialize() == r.serialize());
    CHECK_THROWS_AS(SetupRecord::parse("[[profile]\n", "setup.toml"), Error);
}

TEST_CASE("setup.toml is bounded before toml++ reads it, as every TOML file of the store") {
    // A header toml++ 3.3 asserts on, and a key nested past the limit of levels.
    CHECK_THROWS_WITH_AS(SetupRecord::parse("[[[x\n", "/s/setup.toml"),
                         doctest::Contains("/s/setup.toml:1:"), Error);
    CHECK_THROWS_WITH_AS(SetupRecord::parse("a = " + std::string(100, '[') + std::string(100, ']') + "\n", "setup.toml"),
                         doctest::Contains("setup.toml:1:"), Error);
    testsupport::TempDir t;
    CHECK(SetupRecord::load(t.path() / "setup.toml").empty());
    std::filesystem::create_directory(t.path() / "setup.toml");
    CHECK_THROWS_AS(SetupRecord::load(t.path() / "setup.toml"), Error);  // a folder: read_store_file's words
}

TEST_CASE("setup: the user PATH in HKCU, exact and untruncated") {
    Fixture f;
    std::string long_path(2040, 'x');
    long_path = "C:\\" + long_path + ";%USERPROFILE%\\bin;";
    f.host.env["Path"] = {long_path, true};
    add_user_path(f.s, "C:\\store\\shims", std::string("C:\\progs"));
    CHECK(f.host.env["Path"].value == "C:\\progs;C:\\store\\shims;" + long_path);
    CHECK(f.host.env["Path"].expandable);
    auto once = f.host.env["Path"].value;
    add_user_path(f.s, "C:\\store\\shims", std::string("c:\\PROGS\\"));  // the same folder, as Windows compares
    CHECK(f.host.env["Path"].value == once);
    remove_user_path(f.s);
    CHECK(f.host.env["Path"].value == long_path);
    CHECK(f.host.broadcasts == 2);

    f.host.env.clear();
    add_user_path(f.s, "C:\\s", std::nullopt);
    CHECK(f.host.env["Path"].value == "C:\\s");
    remove_user_path(f.s);
    CHECK(f.host.env.empty());
}

TEST_CASE("setup: cmd AutoRun") {
    Fixture f;
    f.host.cmd_key = false;
    add_autorun(f.s, "line");
    CHECK(f.host.autorun->value == "line");
    remove_autorun(f.s, "line");
    CHECK_FALSE(f.host.autorun);
    CHECK_FALSE(f.host.cmd_key);
    f.host.autorun = platform::UserEnvValue{"title dev", true};
    f.host.cmd_key = true;
    add_autorun(f.s, "line");
    CHECK(f.host.autorun->value == "title dev & line");
    CHECK(f.host.autorun->expandable);
    remove_autorun(f.s, "line");
    CHECK(f.host.autorun->value == "title dev");
    CHECK(f.rec.empty());
}

TEST_CASE("setup --install: copies, refuses bad folders, runs twice") {
    Fixture f;
    f.host.put("/zip/cudaenv.exe", "E");
    f.host.put("/zip/cudaenv-shim.exe", "S");
    f.host.dirs.insert("/home/u/AppData/Local");
    InstallChange c{"/zip", "/home/u/AppData/Local/Programs/cudaenv", {"cudaenv.exe", "cudaenv-shim.exe"}};
    SUBCASE("into a file") {
        f.host.put("/home/u/file", "F");
        CHECK_THROWS_WITH_AS(install_programs(f.s, {"/zip", "/home/u/file", c.files}), doctest::Contains("is a file"),
                             Error);
        CHECK(f.host.text("/home/u/file") == "F");
        CHECK(f.rec.empty());
    }
    SUBCASE("into a folder that cannot be written: nothing changed") {
        f.host.unwritable_dirs.insert("/home/u/AppData/Local");
        auto files = f.host.files;
        auto dirs = f.host.dirs;
        CHECK_THROWS_AS(install_programs(f.s, c), Error);
        CHECK(f.host.files.size() == files.size());
        CHECK(f.host.dirs == dirs);
        CHECK(f.rec.empty());
    }
    SUBCASE("twice, then removed") {
        install_programs(f.s, c);
        install_programs(f.s, c);
        CHECK(f.host.text(c.dir / "cudaenv.exe") == "E");
        CHECK(f.rec.install->files.size() == 2);
        remove_programs(f.s);
        CHECK_FALSE(f.host.dirs.count(c.dir));
        CHECK_FALSE(f.host.dirs.count(c.dir.parent_path()));
        CHECK(f.host.dirs.count("/home/u/AppData/Local"));
        CHECK(f.rec.empty());
    }
    SUBCASE("a file of the user's in the way") {
        f.host.put(c.dir / "cudaenv.exe", "mine");
        CHECK_THROWS_WITH_AS(install_programs(f.s, c), doctest::Contains("did not put it there"), Error);
        CHECK(f.host.text(c.dir / "cudaenv.exe") == "mine");
    }
}

TEST_CASE("profile_paths: each shell's start-up file, Windows rules on Linux too") {
    auto paths = [](std::string_view sh, const platform::ProfileEnv& e) { return profile_paths(shell_info(sh), e); };
    platform::ProfileEnv e;
    e.home = "/home/u";
    CHECK(paths("bash", e) == std::vector<std::filesystem::path>{"/home/u/.bashrc"});
    e.zdotdir = "/z";
    CHECK(paths("zsh", e).front() == "/z/.zshrc");
    e.xdg_config_home = "relative";  // ignored, as XDG says
    CHECK(paths("fish", e).front() == "/home/u/.config/fish/config.fish");
    e.xdg_config_home = "/x";
    CHECK(paths("pwsh", e).front() == "/x/powershell/Microsoft.PowerShell_profile.ps1");
    CHECK(paths("powershell", e) == paths("pwsh", e));
    SUBCASE("no home (HOME unset): an error, never /.bashrc") {
        platform::ProfileEnv none;
        for (auto sh : {"bash", "zsh", "fish", "pwsh"})
            CHECK_THROWS_WITH_AS(paths(sh, none), doctest::Contains("HOME is not set"), Error);
        none.zdotdir = "/z";
        none.xdg_config_home = "/x";
        CHECK(paths("zsh", none).front() == "/z/.zshrc");  // what it reads needs no home
        CHECK(paths("fish", none).front() == "/x/fish/config.fish");
    }
    e.windows = true;
    e.documents = "/docs";
    auto ps = paths("pwsh", e);
    REQUIRE(ps.size() == 2);
    CHECK(ps[0] == "/docs/PowerShell/Microsoft.PowerShell_profile.ps1");
    CHECK(ps[1] == "/docs/WindowsPowerShell/Microsoft.PowerShell_profile.ps1");
    CHECK(paths("cmd", e).empty());
}

TEST_CASE("shell_from_program") {
    CHECK(shell_from_program("/bin/bash") == "bash");
    CHECK(shell_from_program("-zsh") == "zsh");
    CHECK(shell_from_program("C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe") == "pwsh");
    CHECK(shell_from_program("PWSH.EXE") == "pwsh");
    CHECK(shell_from_program("cmd.exe") == "cmd");
    CHECK(shell_from_program("python3").empty());
}

TEST_CASE("judge_execution_policy") {
    auto judge = [](PolicyScopes s) { return judge_execution_policy(s, "Windows PowerShell 5.1"); };
    PolicyScopes undefined = {{"MachinePolicy", "Undefined"}, {"UserPolicy", "Undefined"}, {"Process", "Undefined"},
                              {"CurrentUser", "Undefined"}, {"LocalMachine", "Undefined"}, {"Effective", "Restricted"}};
    SUBCASE("the client default stops profiles: say exactly what to run") {
        auto v = judge(undefined);
        CHECK(v.state == PolicyVerdict::State::blocked);
        CHECK(v.effective == "Restricted");
        CHECK(v.advice.find("Set-ExecutionPolicy -Scope CurrentUser RemoteSigned") != std::string::npos);
    }
    SUBCASE("RemoteSigned for the user runs them") {
        auto s = undefined;
        s["CurrentUser"] = "RemoteSigned";
        CHECK(judge(s).state == PolicyVerdict::State::runs);
    }
    SUBCASE("a server's default (RemoteSigned) runs them") {
        auto s = undefined;
        s["Effective"] = "RemoteSigned";
        CHECK(judge(s).state == PolicyVerdict::State::runs);
    }
    SUBCASE("Bypass for this process only does not count") {
        auto s = undefined;
        s["Process"] = "Bypass";
        s["Effective"] = "Bypass";
        CHECK(judge(s).state == PolicyVerdict::State::blocked);
    }
    SUBCASE("AllSigned runs no unsigned profile") {
        auto s = undefined;
        s["LocalMachine"] = "AllSigned";
        CHECK(judge(s).state == PolicyVerdict::State::blocked);
    }
    SUBCASE("Group Policy wins over CurrentUser, and Set-ExecutionPolicy cannot help") {
        auto s = undefined;
        s["CurrentUser"] = "RemoteSigned";
        s["MachinePolicy"] = "Restricted";
        auto v = judge(s);
        CHECK(v.state == PolicyVerdict::State::blocked);
        CHECK(v.group_policy);
        CHECK(v.advice.find("administrator") != std::string::npos);
    }
    SUBCASE("unknown") {
        auto v = judge_execution_policy(std::nullopt, "PowerShell 7");
        CHECK(v.state == PolicyVerdict::State::unknown);
        CHECK(v.advice.find("RemoteSigned") != std::string::npos);
    }
    CHECK(parse_policy_scopes("MachinePolicy=Undefined\r\nEffective=RemoteSigned\r\n").at("Effective") == "RemoteSigned");
}

#include "platform/install_dirs.hpp"
#include "platform/platform.hpp"
#include "test_support.hpp"

TEST_CASE("private_lib_dir_for: the private folder from the executable") {
    testsupport::TempDir t("libdir");
    auto exe = t / "prefix" / "bin" / "cudaenv";
    // Installed: <prefix>/lib/<multiarch>/cudaenv on Debian (never right below
    // lib/: CPack would add ldconfig scripts); the Windows zip is flat.
    const auto rel = platform::private_lib_from_bin();
    CHECK(rel.ends_with("cudaenv"));
    if (platform::is_windows) CHECK(rel == "lib/cudaenv");
    const auto installed = exe.parent_path() / rel;
    CHECK(platform::private_lib_dir_for(exe) == installed.lexically_normal());
    // A build tree (and the flat Windows zip): lib/cudaenv beside the program.
    std::filesystem::create_directories(t / "build" / "lib" / "cudaenv");
    CHECK(platform::private_lib_dir_for(t / "build" / "cudaenv") == (t / "build" / "lib" / "cudaenv").lexically_normal());
}

TEST_CASE("setup --python: the hook's files in site-packages, taken back byte for byte") {
    Fixture f;
    const std::filesystem::path site = "/venv/lib/python3.11/site-packages";
    f.host.dirs.insert(site);
    f.host.put(site / "pip.pth", "import pip\n");
    const std::vector<std::pair<std::string, std::string>> files = {{"cudaenv_dll_hook.pth", "import cudaenv_dll_hook\n"},
                                                                    {"cudaenv_dll_hook.py", "X = 1\n"}};
    auto before_files = f.host.files.size();
    add_python_hook(f.s, {"/venv/bin/python", site, "cpython-311", files});
    REQUIRE(f.rec.pythons.size() == 1);
    CHECK(f.host.text(site / "cudaenv_dll_hook.pth") == "import cudaenv_dll_hook\n");
    CHECK_FALSE(f.rec.pythons[0].pycache_existed);
    // Setup again (a newer cudaenv's module): setup's own files are updated.
    auto newer = files;
    newer[1].second = "X = 2\n";
    add_python_hook(f.s, {"/venv/bin/python", site, "cpython-311", newer});
    CHECK(f.host.text(site / "cudaenv_dll_hook.py") == "X = 2\n");
    REQUIRE(f.rec.pythons.size() == 1);
    // What Python compiled from the module goes with it, and the __pycache__ it made.
    f.host.put(site / "__pycache__" / "cudaenv_dll_hook.cpython-311.pyc", "bytecode");
    f.host.put(site / "__pycache__" / "cudaenv_dll_hook.cpython-311.opt-1.pyc", "bytecode");
    auto rec = f.rec.pythons[0];
    remove_python_hook(f.s, rec);
    CHECK(f.rec.pythons.empty());
    CHECK(f.host.files.size() == before_files);
    CHECK(f.host.dirs.count(site / "__pycache__") == 0);
    CHECK(f.host.text(site / "pip.pth") == "import pip\n");
}

TEST_CASE("setup --python: refuses what it did not write, keeps a __pycache__ that was there") {
    Fixture f;
    const std::filesystem::path site = "C:/venv/Lib/site-packages";
    const std::vector<std::pair<std::string, std::string>> files = {{"cudaenv_dll_hook.pth", "import cudaenv_dll_hook\n"},
                                                                    {"cudaenv_dll_hook.py", "X = 1\n"}};
    CHECK_THROWS_AS(add_python_hook(f.s, {"C:/venv/Scripts/python.exe", site, "cpython-312", files}), Error);  // no folder
    f.host.dirs.insert(site);
    f.host.put(site / "__pycache__" / "other.cpython-312.pyc", "theirs");
    f.host.put(site / "cudaenv_dll_hook.py", "a file of the user's");
    CHECK_THROWS_AS(add_python_hook(f.s, {"C:/venv/Scripts/python.exe", site, "cpython-312", files}), Error);
    CHECK_FALSE(f.host.files.count(site / "cudaenv_dll_hook.pth"));
    CHECK(f.rec.pythons.empty());
    f.host.files.erase(site / "cudaenv_dll_hook.py");
    add_python_hook(f.s, {"C:/venv/Scripts/python.exe", site, "cpython-312", files});
    CHECK(f.rec.pythons[0].pycache_existed);
    // Edited since: undo refuses and removes nothing.
    f.host.put(site / "cudaenv_dll_hook.pth", "import cudaenv_dll_hook\nimport mine\n");
    auto rec = f.rec.pythons[0];
    CHECK_THROWS_AS(remove_python_hook(f.s, rec), Error);
    CHECK(f.host.files.count(site / "cudaenv_dll_hook.py"));
    f.host.put(site / "cudaenv_dll_hook.pth", "import cudaenv_dll_hook\n");
    remove_python_hook(f.s, rec);
    CHECK(f.host.dirs.count(site / "__pycache__"));
    CHECK(f.host.text(site / "__pycache__" / "other.cpython-312.pyc") == "theirs");

    // setup.toml keeps it all.
    SetupRecord r;
    r.pythons.push_back({"C:\\p\\python.exe", "C:\\p\\Lib\\site-packages", "cpython-312", true, {"a.pth", "a.py"},
                         {"import a\n", "\"\"\"x\"\"\"\n'''\n"}});
    auto back = SetupRecord::parse(r.serialize(), "setup.toml");
    REQUIRE(back.pythons.size() == 1);
    CHECK(back.pythons[0].contents == r.pythons[0].contents);
    CHECK(back.pythons[0].pycache_existed);
    CHECK(back.serialize() == r.serialize());
}
