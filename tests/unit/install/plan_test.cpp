// Unit tests for planning (install/plan.hpp) against NVIDIA's real manifests
// (data/), the transaction that moves a plan's folders into place, the merge
// of archives unpacked apart, and what a lock says a pair needs.
#include <doctest/doctest.h>

#include "test_support.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "gpu/table.hpp"
#include "install/locking.hpp"
#include "install/plan.hpp"
#include "install/staging.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

using namespace cudaenv;
using namespace cudaenv::install;
namespace fs = std::filesystem;

namespace {

using testsupport::TempDir;

// A mirror folder holding only NVIDIA's real manifests (no archive: planning reads none).
fs::path manifest_mirror(const fs::path& dir) {
    for (const char* cuda : {"12.6.3", "13.0.2"}) {
        fs::create_directories(dir / "cuda" / "redist");
        fs::copy_file(fs::path(CUDAENV_INSTALL_TEST_DATA) / ("redistrib_" + std::string(cuda) + ".json"),
                      dir / "cuda" / "redist" / ("redistrib_" + std::string(cuda) + ".json"));
    }
    for (const char* cudnn : {"8.9.7", "9.8.0", "9.13.0"}) {
        fs::create_directories(dir / "cudnn" / "redist");
        fs::copy_file(fs::path(CUDAENV_INSTALL_TEST_DATA) / ("redistrib_" + std::string(cudnn) + ".json"),
                      dir / "cudnn" / "redist" / ("redistrib_" + std::string(cudnn) + ".json"));
    }
    return dir;
}

using testsupport::write;

std::string get(const fs::path& p) { return fsx::read_file(p).value_or("<none>"); }

}  // namespace

TEST_CASE("judge and resolve: a pair that cannot exist fails before anything is fetched") {
    TempDir t;
    Catalog catalog(fsx::to_utf8(manifest_mirror(t.path() / "m")));
    SUBCASE("cuDNN 9.8.0 has no CUDA 13 build (the 2 GB toolkit used to be installed first)") {
        CHECK_THROWS_WITH_AS(resolve(catalog, *Spec::parse("13.0+9.8.0"), {"linux-x86_64"}),
                             doctest::Contains("cuDNN 9.8.0 has no build for CUDA 13 on linux-x86_64 (it has builds for CUDA 11, 12)"),
                             Error);
    }
    SUBCASE("the newest pair that fits every platform") {
        auto r = resolve(catalog, *Spec::parse("12+9"), {"linux-x86_64", "windows-x86_64"});
        CHECK(r.cuda->release_label == "12.6.3");
        CHECK(r.cudnn->release_label == "9.13.0");  // newest 9.x with a cuda12 build on both
        CHECK(r.components.size() == 18);  // visual_studio_integration for Windows among them
        auto with13 = resolve(catalog, *Spec::parse("13+9"), {"linux-x86_64"});
        CHECK(with13.cudnn->release_label == "9.13.0");
        CHECK(with13.components.size() == 21);
    }
    SUBCASE("a component present only on some platforms") {
        // cuda_culibos exists for Linux only in 13.0.2: locked for Linux, left out on Windows;
        // visual_studio_integration the other way round.
        auto r = resolve(catalog, *Spec::parse("13.0+none"), {"linux-x86_64", "windows-x86_64"});
        CHECK(std::find(r.components.begin(), r.components.end(), "cuda_culibos") != r.components.end());
        CHECK_FALSE(r.cudnn);
        auto lock = lock_from_mirror(catalog, *Spec::parse("13.0+none"), {"linux-x86_64", "windows-x86_64"});
        CHECK(lock.archives_for("linux-x86_64").size() == 21);
        CHECK(lock.archives_for("windows-x86_64").size() == 21);
        CHECK(lock.pair == "13.0.2+none");
    }
    SUBCASE("a platform a release does not exist for") {
        CHECK_THROWS_WITH_AS(resolve(catalog, *Spec::parse("13.0"), {"linux-aarch64"}),
                             doctest::Contains("CUDA 13.0.2 has no CUDA runtime (cuda_cudart) for linux-aarch64"), Error);
    }
    SUBCASE("nothing matching") {
        CHECK_THROWS_WITH_AS(resolve(catalog, *Spec::parse("14"), {"linux-x86_64"}),
                             doctest::Contains("no CUDA release matching 14 (it has 13.0.2, 12.6.3)"), Error);
    }
    SUBCASE("judge() names the missing component") {
        const auto& m = catalog.manifest("cuda", *Version::parse("12.6.3"));
        CHECK(judge({*Version::parse("12.6.3"), std::nullopt, &m, nullptr, {"linux-x86_64"}, {"cuda_nope"}, {}})
                  .starts_with("CUDA 12.6.3 has no component 'cuda_nope' for linux-x86_64"));
        CHECK(judge({*Version::parse("12.6.3"), std::nullopt, &m, nullptr, {"linux-x86_64"}, {}, {}}).empty());
    }
    SUBCASE("judge() asks whether the pair runs on the machine, and the search takes the next that does") {
        // The machine's judgement (commands: gpu/pair_code's judge_pair) refuses 13.0.2 here.
        RunsHere here;
        here.pair = [](const Version& cuda, const std::optional<Version>& cudnn) {
            if (cuda.major() == 13) return std::string("driver 535.104.05 runs CUDA up to 12.2; 13.0 needs >= 580.65.06");
            if (cudnn && cudnn->matches(*Version::parse("9.13"))) return std::string("sm_61: cuDNN 9.13 needs 7.5");
            return std::string();
        };
        const auto& m = catalog.manifest("cuda", *Version::parse("13.0.2"));
        CHECK(judge({*Version::parse("13.0.2"), std::nullopt, &m, nullptr, {"linux-x86_64"}, {}, here.pair}) ==
              "cannot run here: driver 535.104.05 runs CUDA up to 12.2; 13.0 needs >= 580.65.06");
        // The newest cuDNN 9 for CUDA 12 is refused: the next one is taken.
        auto r = resolve(catalog, *Spec::parse("12.6+9"), {"linux-x86_64"}, here);
        REQUIRE(r.cudnn);
        CHECK(r.cudnn->release_label == "9.8.0");
        CHECK_THROWS_WITH_AS(resolve(catalog, *Spec::parse("13.0"), {"linux-x86_64"}, here),
                             doctest::Contains("13.0.2+9.13.0: cannot run here: driver 535.104.05"), Error);
    }
}

TEST_CASE("plan_spec names every archive, its size and hash, and the pin") {
    TempDir t;
    Catalog catalog(fsx::to_utf8(manifest_mirror(t.path() / "m")));
    Store store(t.path() / "store");
    auto plan = plan_spec(store, catalog, *Spec::parse("12.6+9.8.0"), {}, "linux-x86_64");
    REQUIRE(plan.toolkits.size() == 1);
    CHECK(plan.toolkits[0].release == "12.6.3");
    CHECK(plan.toolkits[0].archives.size() == 17);
    CHECK(plan.toolkits[0].archives[0].component == "cuda_cudart");
    CHECK(plan.toolkits[0].archives[0].artifact.size == 1126072);
    REQUIRE(plan.cudnns.size() == 1);
    CHECK(plan.cudnns[0].version.str() == "9.8.0.87");
    CHECK(plan.cudnns[0].archive.artifact.sha256 == "321b9b33bb1287404d93d5672d352f16feabc4b220ac6ae0b86e4b27f257dcf4");
    CHECK(plan.pin == std::pair<std::string, std::string>{"12.6.3", "9.8.0"});
    CHECK_FALSE(fs::exists(t.path() / "store"));  // planning writes nothing
}

TEST_CASE("merge_tree: archives unpacked apart merge without writing through a link") {
    TempDir t;
    write(t.path() / "to" / "include" / "a.h", "a");
    write(t.path() / "to" / "LICENSE", "old");
    write(t.path() / "from" / "include" / "b.h", "b");
    write(t.path() / "from" / "LICENSE", "new");
    write(t.path() / "from" / "lib" / "x.so", "x");
    merge_tree(t.path() / "from", t.path() / "to", "b.tar.xz");
    CHECK(get(t.path() / "to" / "include" / "a.h") == "a");
    CHECK(get(t.path() / "to" / "include" / "b.h") == "b");
    CHECK(get(t.path() / "to" / "LICENSE") == "new");  // a later archive's file replaces an earlier one's
    CHECK(get(t.path() / "to" / "lib" / "x.so") == "x");
    CHECK_FALSE(fs::exists(t.path() / "from"));
#ifndef _WIN32
    fs::create_directories(t.path() / "outside");
    fs::create_directory_symlink(t.path() / "outside", t.path() / "to" / "lnk");
    write(t.path() / "evil" / "lnk" / "x", "x");
    CHECK_THROWS_WITH_AS(merge_tree(t.path() / "evil", t.path() / "to", "evil.tar.xz"),
                         doctest::Contains("would be written through a symlink"), Error);
    CHECK(fs::is_empty(t.path() / "outside"));
#endif
}

TEST_CASE("Transaction: every folder moves in, or none") {
    TempDir t;
    Store store(t.path() / "store");
    auto a = store.root() / "toolkits" / "12.6.3", b = store.root() / "cudnn" / "9.8.0_cuda12";
    fs::create_directories(store.tmp_dir());
    SUBCASE("commit") {
        write(store.tmp_dir() / "sa" / "f", "new toolkit");
        write(store.tmp_dir() / "sb" / "f", "new cudnn");
        write(a / "f", "old toolkit");
        Transaction txn(store);
        txn.add(store.tmp_dir() / "sa", a);
        txn.add(store.tmp_dir() / "sb", b);
        txn.commit();
        CHECK(get(a / "f") == "new toolkit");
        CHECK(get(b / "f") == "new cudnn");
        CHECK(fs::is_empty(store.tmp_dir()));
    }
    SUBCASE("a run killed half-way is rolled back by the next") {
        // What a kill after the first of two moves leaves: the journal, the
        // new toolkit in place (the old one set aside), no cuDNN yet.
        write(a / "f", "new toolkit");
        write(store.tmp_dir() / "old~toolkits~12.6.3~1" / "f", "old toolkit");
        write(store.tmp_dir() / "stage~cudnn~9.8.0_cuda12~2" / "f", "new cudnn");
        write(store.tmp_dir() / "txn~x~store~3", "toolkits/12.6.3\told~toolkits~12.6.3~1\ncudnn/9.8.0_cuda12\t-\n");
        clean_store_tmp(store);
        CHECK(get(a / "f") == "old toolkit");
        CHECK_FALSE(fs::exists(b));
        CHECK(fs::is_empty(store.tmp_dir()));
    }
    SUBCASE("a committed journal is only removed") {
        write(a / "f", "new toolkit");
        write(store.tmp_dir() / "txn~x~store~3", "committed\n");
        clean_store_tmp(store);
        CHECK(get(a / "f") == "new toolkit");
        CHECK(fs::is_empty(store.tmp_dir()));
    }
}

TEST_CASE("pair_needs: what a lock records, from compat.toml through one function") {
    auto r = gpu::pair_needs(*Version::parse("12.6.3"), Version::parse("9.5.1"));
    CHECK(r.min_driver_linux == "525.60.13");  // the CUDA 12 floor (minor-version compatibility)
    CHECK(r.min_driver_windows == "527.41");
    CHECK(r.cc_lo.str() == "5.0");
    CHECK(r.cc_hi.str() == "9.0");
    auto r13 = gpu::pair_needs(*Version::parse("13.0.2"), std::nullopt);
    CHECK(r13.min_driver_linux == "580.65.06");  // 13.0's own row
    CHECK(r13.cc_lo.str() == "7.5");
}
