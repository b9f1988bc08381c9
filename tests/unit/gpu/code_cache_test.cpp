// Unit tests of the code cache (gpu/code_cache).
#include <doctest/doctest.h>

#include "gpu/code_cache.hpp"

#include "gpu/pair_code.hpp"
#include "gpu_support.hpp"
#include "test_support.hpp"
#include "util/fs.hpp"

using namespace cudaenv;
using namespace cudaenv::gpu;
using testsupport::TempDir;
using testsupport::planned;
using testsupport::sm;

TEST_CASE("code cache: kept under the file's stamp") {
    TempDir t("codecache");
    auto lib = t / "lib.bin";
    std::ofstream(lib, std::ios::binary) << "not a binary";
    {
        CodeCache cache(t.path());
        CHECK(cache.file(lib).problem == "not an ELF or PE file");
        CHECK(cache.reads() == 1);
        cache.file(lib);
        CHECK(cache.reads() == 1);
    }
    fs::create_directories(t / "cache");
    CodeCache again(t.path());
    CHECK(again.kept(lib).has_value());
    std::ofstream(lib, std::ios::binary | std::ios::app) << "more";
    CHECK_FALSE(again.kept(lib).has_value());  // changed: read again
    FileCode fc;
    fc.format = Format::elf;
    fc.code.sass = {{sm(90, true), 3}};
    fc.code.ptx = {{sm(90), 1}};
    fc.code.ptx_isa = 80;
    auto fields = encode(fc);
    std::vector<std::string_view> views(fields.begin(), fields.end());
    fc.embedded.sass = {{sm(90, true), 2}};
    fc.code.sass[sm(75)] = 1;
    fc.code.kernel_less = {{sm(75), 1}};
    fields = encode(fc);
    views.assign(fields.begin(), fields.end());
    auto back = decode_file_code(views, 0);
    CHECK(back.code == fc.code);
    CHECK(back.embedded == fc.embedded);
}

TEST_CASE("code cache: a saved cache leaves out files that changed or went; inspect's files are not kept") {
    TempDir t("codecache-prune");
    fs::create_directories(t / "cache");
    auto a = t / "a.bin", b = t / "b.bin", c = t / "c.bin";
    for (const auto& p : {a, b, c}) std::ofstream(p, std::ios::binary) << "not a binary";
    {
        CodeCache cache(t.path());
        cache.file(a);
        cache.file(b);
    }
    fs::remove(a);
    {
        CodeCache cache(t.path());
        cache.keep_new_files(false);
        cache.file(c);  // read, not kept: nothing changed, nothing written
    }
    auto text = *fsx::read_file(t / "cache" / "gpucode.txt");
    CHECK(text.find("a.bin") != std::string::npos);
    {
        CodeCache cache(t.path());
        cache.file(c);  // kept: the save leaves out a.bin, which has gone
    }
    text = *fsx::read_file(t / "cache" / "gpucode.txt");
    CHECK(text.find("a.bin") == std::string::npos);
    CHECK(text.find("b.bin") != std::string::npos);
    CHECK(text.find("c.bin") != std::string::npos);
}

TEST_CASE("code cache: the table's verdicts are kept under the tables' hash, and a listing with its folders") {
    TempDir t("codecache-table");
    fs::create_directories(t / "cache");
    const auto v13 = *Version::parse("13.0"), v12 = *Version::parse("12.6");
    auto by_table = [](const Version& cuda, int gpu, CodeCache& cache) {
        return judge_pair(cuda, std::nullopt, {}, planned({gpu}), TableUse::fallback, &cache).gpus.at(0);
    };
    {
        CodeCache cache(t.path());
        CHECK(by_table(v13, 61, cache).runs == Runs::no);  // asked, and kept
        // A verdict kept under this build's hash is taken as kept, not asked again.
        TableVerdict planted{Runs::jit, "planted", "a test", true};
        cache.keep_table("cuda " + v12.str() + " sm_90 @" + tables_hash(), planted);
        cache.keep_table("cuda " + v12.str() + " sm_90 @0000000000000000", planted);  // another build's tables
        auto lib = t / "lib64";
        fs::create_directories(lib);
        cache.keep_listing("toolkit\nx\n12", {lib}, {lib / "libcublas.so.12"});
    }
    auto text = *fsx::read_file(t / "cache" / "gpucode.txt");
    CHECK(text.find("cuda 13.0 sm_61 @" + tables_hash()) != std::string::npos);
    CHECK(text.find("@0000000000000000") == std::string::npos);  // dropped when saved
    CodeCache cache(t.path());
    auto kept = by_table(v12, 90, cache);
    CHECK(kept.runs == Runs::jit);
    CHECK(kept.why == "planted [unconfirmed: a test]");
    CHECK(by_table(v13, 61, cache).runs == Runs::no);
    auto files = cache.kept_listing("toolkit\nx\n12");
    REQUIRE(files);
    CHECK(*files == std::vector<fs::path>{t / "lib64" / "libcublas.so.12"});
    fs::remove_all(t / "lib64");
    CHECK_FALSE(cache.kept_listing("toolkit\nx\n12"));  // its folder went: detect again
}
