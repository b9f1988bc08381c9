// The whole activation kept in the store (store/activation_cache.hpp): read
// back while every input reads the same, planned again when any one changes.
#include <doctest/doctest.h>

#include <chrono>
#include <map>

#include "core/activation.hpp"
#include "store/activation_cache.hpp"
#include "store/store.hpp"
#include "platform/platform.hpp"
#include "test_support.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

using namespace cudaenv;
using testsupport::TempDir;
using testsupport::write;

namespace {

using testsupport::V;

// Sets a folder's mtime 5 s back, so that a change a test makes next shows
// on file systems with a coarse clock (Wine cannot set a folder's time; its
// clock is fine-grained anyway).
void age(const fs::path& p) {
    std::error_code ec;
    fs::last_write_time(p, fs::last_write_time(p, ec) - std::chrono::seconds(5), ec);
}

void make_toolkit(const fs::path& dir, const std::string& version) {
    write(dir / "version.json", "{\"cuda\": {\"name\": \"CUDA SDK\", \"version\": \"" + version + "\"}}\n");
    write(dir / "bin" / "nvcc", "");
    write(dir / "lib64" / ("libcudart.so." + version), "");
    fs::create_directories(dir / "include");
}

void make_cudnn(const fs::path& dir, int minor) {
    write(dir / "include" / "cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR " + std::to_string(minor) +
                                                   "\n#define CUDNN_PATCHLEVEL 0\n");
    write(dir / "lib" / ("libcudnn.so.9." + std::to_string(minor) + ".0"), "");
}

// Two adopted folders, a folder on PATH, and an environment in memory.
struct Fixture {
    TempDir tmp{"actcache"};
    fs::path root = tmp / "store";
    fs::path tk = tmp / "cuda-12.6";
    fs::path cudnn = tmp / "cudnn-9.8";
    fs::path bin = tmp / "bin";
    PathStyle style = native_path_style();
    std::map<std::string, std::string> vars;

    Fixture() {
        make_toolkit(tk, "12.6.3");
        make_cudnn(cudnn, 8);
        fs::create_directories(bin);
        adopt_toolkit(tk, "12.6.3");
        {
            Store s(root);
            auto lock = s.lock();
            s.config().cudnns.push_back({fsx::to_utf8(cudnn), "", V("9.8.0"), 12});
            s.save_config();
        }
        vars["PATH"] = fsx::to_utf8(bin) + list_separator(style) + fsx::to_utf8(tmp / "other");
        vars["HOME"] = fsx::to_utf8(tmp.path());
        for (const auto& d : {tk, tk / "bin", tk / "lib64", tk / "include", cudnn, cudnn / "lib", cudnn / "include",
                              bin, root, tmp.path()})
            age(d);
    }
    void adopt_toolkit(const fs::path& dir, const char* version) {
        Store s(root);
        auto lock = s.lock();
        s.config().toolkits.push_back({fsx::to_utf8(dir), V(version)});
        s.save_config();
    }
    EnvReader reader() const {
        return [this](const std::string& n) -> std::optional<std::string> {
            auto it = vars.find(n);
            if (it == vars.end()) return std::nullopt;
            return it->second;
        };
    }
    // What a new cudaenv process would answer.
    Activation plan(const std::string& spec, std::optional<PathStyle> as = std::nullopt) {
        Store s(root);
        return plan_activation(s, *Spec::parse(spec), reader(), as.value_or(style));
    }
    void apply(const EnvDiff& diff) { apply(diff.changes()); }
    void apply(const std::vector<EnvChange>& changes) {
        for (const auto& c : changes) {
            if (c.value) vars[c.name] = *c.value;
            else vars.erase(c.name);
        }
    }
    fs::path file() const { return root / "cache" / "activations.txt"; }
};

// Everything a caller reads from an Activation.
void check_same(const Activation& kept, const Activation& planned) {
    CHECK(kept.spec == planned.spec);
    CHECK(kept.full_spec == planned.full_spec);
    CHECK(kept.diff == planned.diff);
    CHECK(kept.notes == planned.notes);
    CHECK(kept.choice == planned.choice);
    REQUIRE(kept.pair.has_value() == planned.pair.has_value());
    if (planned.pair) {
        CHECK(kept.pair->id() == planned.pair->id());
        CHECK(kept.pair->spec() == planned.pair->spec());
        CHECK(kept.pair->toolkit.managed == planned.pair->toolkit.managed);
        CHECK(kept.pair->toolkit.shared == planned.pair->toolkit.shared);
        REQUIRE(kept.folders.has_value());
        const auto& a = kept.folders->toolkit;
        const auto& b = planned.folders->toolkit;
        CHECK(a.root == b.root);
        CHECK(a.version == b.version);
        CHECK(a.layout == b.layout);
        CHECK(a.bin_dirs == b.bin_dirs);
        CHECK(a.lib_dirs == b.lib_dirs);
        CHECK(a.nvcc == b.nvcc);
        REQUIRE(kept.folders->cudnn.has_value() == planned.folders->cudnn.has_value());
        if (planned.folders->cudnn) {
            CHECK(kept.folders->cudnn->root == planned.folders->cudnn->root);
            CHECK(kept.folders->cudnn->version == planned.folders->cudnn->version);
            CHECK(kept.folders->cudnn->lib_dirs == planned.folders->cudnn->lib_dirs);
        }
    }
}

}  // namespace

TEST_CASE("activation cache: asked again, the same answer without planning") {
    Fixture f;
    auto first = f.plan("12.6+9.8");
    CHECK_FALSE(first.kept);
    REQUIRE(fs::exists(f.file()));
    auto again = f.plan("12.6+9.8");
    CHECK(again.kept);
    check_same(again, first);
    CHECK(again.full_spec == "12.6.3+9.8.0");

    SUBCASE("system is kept too") {
        auto sys = f.plan("system");
        CHECK_FALSE(sys.kept);
        auto sys2 = f.plan("system");
        CHECK(sys2.kept);
        check_same(sys2, sys);
        CHECK(f.plan("12.6+9.8").kept);  // each spec its own record
    }
    SUBCASE("after `use`: the next plan reads the state `use` left, and is kept for that environment") {
        f.apply(first.diff);
        auto second = f.plan("12.6+9.8");
        CHECK_FALSE(second.kept);
        CHECK(f.plan("12.6+9.8").kept);
        // A variable read only because __CUDAENV_STATE names it is part of the key.
        REQUIRE(f.vars.count("__CUDAENV_PATH_WAS"));
        f.vars["__CUDAENV_PATH_WAS"] += list_separator(f.style) + std::string("/opt/x");
        CHECK_FALSE(f.plan("12.6+9.8").kept);
        CHECK(f.plan("12.6+9.8").kept);
    }
    SUBCASE("another environment: planned, and both records kept") {
        auto before = f.vars;
        f.vars["PATH"] = fsx::to_utf8(f.bin);
        CHECK_FALSE(f.plan("12.6+9.8").kept);
        CHECK(f.plan("12.6+9.8").kept);
        f.vars = before;
        CHECK(f.plan("12.6+9.8").kept);
        f.vars["CUDA_HOME"] = "/opt/cuda";  // a variable that was read as unset
        CHECK_FALSE(f.plan("12.6+9.8").kept);
        f.vars["UNRELATED"] = "x";  // one that planning never reads
        CHECK(f.plan("12.6+9.8").kept);
    }
    SUBCASE("the other path style is its own record") {
        auto other = f.style == PathStyle::posix ? PathStyle::windows : PathStyle::posix;
        CHECK_FALSE(f.plan("12.6+9.8", other).kept);
        CHECK(f.plan("12.6+9.8").kept);
    }
}

TEST_CASE("activation cache: what the store holds changes the answer") {
    Fixture f;
    CHECK(f.plan("12").full_spec == "12.6.3+9.8.0");
    CHECK(f.plan("12").kept);

    SUBCASE("a newer toolkit adopted (config.toml)") {
        make_toolkit(f.tmp / "cuda-12.8", "12.8.1");
        f.adopt_toolkit(f.tmp / "cuda-12.8", "12.8.1");
        auto a = f.plan("12");
        CHECK_FALSE(a.kept);
        CHECK(a.full_spec == "12.8.1+9.8.0");
        CHECK(f.plan("12").kept);
    }
    SUBCASE("a newer toolkit installed into the store (its toolkits folder)") {
        Store s(f.root);
        make_toolkit(s.toolkits_dir() / "12.9.0", "12.9.0");
        auto a = f.plan("12");
        CHECK_FALSE(a.kept);
        CHECK(a.full_spec == "12.9.0+9.8.0");
        CHECK(a.pair->toolkit.managed);
        auto b = f.plan("12");
        CHECK(b.kept);
        check_same(b, a);
    }
    SUBCASE("config.toml rewritten with the same content: still kept") {
        Store s(f.root);
        auto lock = s.lock();
        s.config();
        s.save_config();
        CHECK(f.plan("12").kept);
    }
    SUBCASE("the pair's folder changed: detected again") {
        write(f.tk / "lib64" / "libcudart.so.12", "");
        auto a = f.plan("12");
        CHECK_FALSE(a.kept);
        CHECK(a.full_spec == "12.6.3+9.8.0");
        CHECK(f.plan("12").kept);
    }
    SUBCASE("the pair's folder is gone: the same error as without the cache") {
        fs::remove_all(f.tk);
        CHECK_THROWS_WITH_AS(f.plan("12"), doctest::Contains("is missing or no longer holds a toolkit"), Error);
    }
    SUBCASE("a spec that matches two installs: the choice is kept with the answer") {
        make_toolkit(f.tmp / "cuda-12.6-b", "12.6.3");
        f.adopt_toolkit(f.tmp / "cuda-12.6-b", "12.6.3");
        auto a = f.plan("12.6");
        CHECK_FALSE(a.kept);
        REQUIRE(a.choice.size() == 2);
        CHECK(a.choice[0].find("matches 2 CUDA installs") != std::string::npos);
        CHECK(a.choice[1].find("the other: ") == 0);
        auto b = f.plan("12.6");
        CHECK(b.kept);
        CHECK(b.choice == a.choice);
    }
}

TEST_CASE("activation cache: a damaged, foreign or unwritable cache is no cache") {
    Fixture f;
    auto first = f.plan("12.6+9.8");
    const auto good = testsupport::read(f.file());
    SUBCASE("damaged in many ways") {
        for (const std::string& bad :
             {std::string(), std::string("garbage\n"), good.substr(0, good.size() / 2), good.substr(0, good.size() - 1),
              std::string("26:cudaenv activation cache 91:0\n"), good + "5:abc\n"}) {
            write(f.file(), bad);
            auto a = f.plan("12.6+9.8");
            check_same(a, first);
            CHECK(f.plan("12.6+9.8").kept);  // written anew
        }
    }
    SUBCASE("a record whose result does not decode: planned again") {
        auto text = good;
        auto at = text.find("4:pair");
        REQUIRE(at != std::string::npos);
        text[at + 5] = 'R';  // the same length, another word
        write(f.file(), text);
        auto a = f.plan("12.6+9.8");
        CHECK_FALSE(a.kept);
        check_same(a, first);
    }
    // The kept file with one byte at `what` + `offset` changed to `to`: planned again.
    auto planned_again_with = [&](const std::string& what, size_t offset, char to) {
        auto text = good;
        auto at = text.rfind(what);
        REQUIRE(at != std::string::npos);
        text[at + offset] = to;
        write(f.file(), text);
        auto a = f.plan("12.6+9.8");
        CHECK_FALSE(a.kept);
        check_same(a, first);
    };
    SUBCASE("a file of the formats before the EnvDiff (cache 1 and 2): nothing kept, planned again") {
        planned_again_with("cudaenv activation cache 3", 25, '2');
        CHECK(f.plan("12.6+9.8").kept);  // written anew in the new format
    }
    SUBCASE("an edit's operation out of range: planned again") { planned_again_with("15:CUDAENV_VERSION1:0", 20, '9'); }
    SUBCASE("a variable name that is shell code is never handed to a shell") {
        auto text = good;
        auto at = text.rfind("15:CUDAENV_VERSION");
        REQUIRE(at != std::string::npos);
        text.replace(at, 18, "15:CUDAENV_VERS;ON");  // the same length: only the name is wrong
        write(f.file(), text);
        auto a = f.plan("12.6+9.8");
        CHECK_FALSE(a.kept);
        check_same(a, first);
    }
    SUBCASE("a kept value changed in place, lengths intact: never served") {
        // The pair's toolkit path inside a kept value, one digit for another:
        // the record still decodes, only its checksum tells.
        auto text = good;
        auto tk = fsx::to_utf8(f.tk);  // .../cuda-12.6
        auto at = text.rfind(tk);
        REQUIRE(at != std::string::npos);
        text[at + tk.size() - 4] = '6';  // .../cuda-62.6
        write(f.file(), text);
        auto a = f.plan("12.6+9.8");
        CHECK_FALSE(a.kept);
        check_same(a, first);
        CHECK(f.plan("12.6+9.8").kept);  // rebuilt in its place
    }
    SUBCASE("a byte that is not UTF-8 in a kept value: planned again, never applied") {
        auto text = good;
        auto tk = fsx::to_utf8(f.tk);
        auto at = text.rfind(tk);
        REQUIRE(at != std::string::npos);
        text[at + tk.size() - 1] = '\xff';
        write(f.file(), text);
        auto a = f.plan("12.6+9.8");
        CHECK_FALSE(a.kept);
        check_same(a, first);
    }
    SUBCASE("a store whose cache folder cannot be written still plans") {
        fs::remove_all(f.root / "cache");
        write(f.root / "cache", "a file where the folder should be");
        CHECK_FALSE(f.plan("12.6+9.8").kept);
        check_same(f.plan("12.6+9.8"), first);
    }
    SUBCASE("records of many environments: the newest are kept") {
        for (size_t i = 0; i < ActivationCache::max_records + 2; ++i) {
            f.vars["CUDA_HOME"] = "/opt/" + std::to_string(i);
            CHECK_FALSE(f.plan("12.6+9.8").kept);
        }
        CHECK(f.plan("12.6+9.8").kept);             // the newest
        f.vars["CUDA_HOME"] = "/opt/0";
        CHECK_FALSE(f.plan("12.6+9.8").kept);       // the oldest went
    }
}

TEST_CASE("activation cache: PATH's compilers and relative folders (Linux)") {
    if (platform::is_windows) return;  // the host-compiler choice is Linux's
    Fixture f;
    CHECK_FALSE(f.plan("12.6+9.8").kept);
    CHECK(f.plan("12.6+9.8").kept);
    SUBCASE("a compiler added to a PATH folder: planned again") {
        write(f.bin / "g++", "#!/bin/sh\necho 'g++ (Debian 14.2.0-8) 14.2.0'\n");
        fs::permissions(f.bin / "g++", fs::perms::owner_all);
        CHECK_FALSE(f.plan("12.6+9.8").kept);
        CHECK(f.plan("12.6+9.8").kept);
    }
    SUBCASE("a compiler put back with its old mtime and size (cp -p, rsync -a, tar x): planned again") {
        auto gxx = f.bin / "g++";
        write(gxx, "#!/bin/sh\necho 'g++ (Debian 14.2.0-8) 14.2.0'\n");
        fs::permissions(gxx, fs::perms::owner_all);
        age(f.bin);
        CHECK_FALSE(f.plan("12.6+9.8").kept);
        CHECK(f.plan("12.6+9.8").kept);
        auto mtime = fs::last_write_time(gxx);
        auto dir_mtime = fs::last_write_time(f.bin);
        // Another compiler of the same size, in place, then the old mtimes back.
        write(gxx, "#!/bin/sh\necho 'g++ (Debian 12.2.0-4) 12.2.0'\n");
        fs::last_write_time(gxx, mtime);
        fs::last_write_time(f.bin, dir_mtime);
        REQUIRE(fs::file_size(gxx) == std::string("#!/bin/sh\necho 'g++ (Debian 14.2.0-8) 14.2.0'\n").size());
        CHECK_FALSE(f.plan("12.6+9.8").kept);
    }
    SUBCASE("an empty or relative PATH entry: planned every time") {
        f.vars["PATH"] += ":";
        CHECK_FALSE(f.plan("12.6+9.8").kept);
        CHECK_FALSE(f.plan("12.6+9.8").kept);
        f.vars["PATH"] = "bin:" + fsx::to_utf8(f.bin);
        CHECK_FALSE(f.plan("12.6+9.8").kept);
        CHECK_FALSE(f.plan("12.6+9.8").kept);
    }
}
